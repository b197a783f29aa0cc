-- question: How often does each city finish its Wonder, and how much does the Wonder score?
-- columns: city, players, completed, completion_rate, avg_wonder_vp
WITH last_turn AS (
    SELECT game_id, max(turn) AS turn FROM wonders_dice.turn_states GROUP BY game_id
)
SELECT p.city,
       count(*) AS players,
       sum(CASE WHEN t.crossed_wonder = 3 THEN 1 ELSE 0 END) AS completed,
       round(avg(CASE WHEN t.crossed_wonder = 3 THEN 1.0 ELSE 0.0 END), 4) AS completion_rate,
       round(avg(p.vp_wonder), 2) AS avg_wonder_vp
FROM wonders_dice.players p
JOIN last_turn l ON l.game_id = p.game_id
JOIN wonders_dice.turn_states t ON t.game_id = p.game_id AND t.turn = l.turn AND t.seat = p.seat
GROUP BY p.city
ORDER BY completion_rate DESC, p.city;
