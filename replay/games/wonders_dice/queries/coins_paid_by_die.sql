-- question: What does a die cost on average? Coins paid for the die and for construction, per die colour and Forum section.
-- columns: colour, section, builds, avg_forum_cost, avg_die_cost, avg_construction_coins, avg_paid
SELECT colour, section,
       count(*) AS builds,
       round(avg(forum_cost), 3) AS avg_forum_cost,
       round(avg(die_cost), 3) AS avg_die_cost,
       round(avg(construction_coins), 3) AS avg_construction_coins,
       round(avg(paid), 3) AS avg_paid
FROM wonders_dice.actions
WHERE kind = 'build'
GROUP BY colour, section
ORDER BY colour, section;
