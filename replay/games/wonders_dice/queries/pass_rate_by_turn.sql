-- question: How often do players pass, turn by turn?
-- param: max_turn int 60  ignore turns after this one
-- columns: turn, actions, passes, pass_rate
SELECT turn,
       count(*) AS actions,
       sum(CASE WHEN kind = 'pass' THEN 1 ELSE 0 END) AS passes,
       round(avg(CASE WHEN kind = 'pass' THEN 1.0 ELSE 0.0 END), 4) AS pass_rate
FROM wonders_dice.actions
WHERE turn <= $max_turn
GROUP BY turn
ORDER BY turn;
