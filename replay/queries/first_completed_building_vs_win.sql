-- question: Does the first building a player completes predict a win? (ties on the same turn: the first name alphabetically)
-- param: min_players int 1  hide buildings that fewer players completed first
-- columns: first_completed, players, wins, win_rate
WITH first_turn AS (
    SELECT game_id, seat, min(turn) AS turn
    FROM turn_states WHERE len(completed) > 0
    GROUP BY game_id, seat
), first_building AS (
    SELECT t.game_id, t.seat, min(u.building) AS building
    FROM turn_states t
    JOIN first_turn f ON t.game_id = f.game_id AND t.seat = f.seat AND t.turn = f.turn,
         unnest(t.completed) AS u(building)
    GROUP BY t.game_id, t.seat
)
SELECT fb.building AS first_completed,
       count(*) AS players,
       sum(CASE WHEN p.won THEN 1 ELSE 0 END) AS wins,
       round(avg(CASE WHEN p.won THEN 1.0 ELSE 0.0 END), 4) AS win_rate
FROM first_building fb
JOIN players p ON p.game_id = fb.game_id AND p.seat = fb.seat
GROUP BY fb.building
HAVING count(*) >= $min_players
ORDER BY win_rate DESC, first_completed;
