-- question: Does the first building a player completes predict a win? (ties on the same turn: the first name alphabetically)
-- param: min_players int 1  hide buildings that fewer players completed first
-- columns: first_completed, players, wins, win_rate
WITH first_building AS (
    -- at the earliest turn a player has a complete building: the first of them by name
    SELECT game_id, seat, list_sort(arg_min(completed, turn))[1] AS building
    FROM wonders_dice.turn_states
    WHERE array_length(completed) > 0
    GROUP BY game_id, seat
)
SELECT fb.building AS first_completed,
       count(*) AS players,
       sum(CASE WHEN p.won THEN 1 ELSE 0 END) AS wins,
       round(avg(CASE WHEN p.won THEN 1.0 ELSE 0.0 END), 4) AS win_rate
FROM first_building fb
JOIN wonders_dice.players p ON p.game_id = fb.game_id AND p.seat = fb.seat
GROUP BY fb.building
HAVING count(*) >= $min_players
ORDER BY win_rate DESC, first_completed;
