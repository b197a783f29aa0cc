-- question: What do attacks score against the defender's shields? (attack actions: a Barracks axe or sword space)
-- columns: defender_shields, attacks, avg_printed_vp, avg_attack_vp
SELECT defender_shields,
       count(*) AS attacks,
       round(avg(attack_printed), 3) AS avg_printed_vp,
       round(avg(greatest(0, attack_printed - least(2, defender_shields))), 3) AS avg_attack_vp
FROM wonders_dice.actions
WHERE attack_printed IS NOT NULL
GROUP BY defender_shields
ORDER BY defender_shields;
