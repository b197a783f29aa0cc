-- question: How long does a game of St. Petersburg last, by player count: rounds, turns, cards bought, the winning total?
-- columns: players, games, avg_rounds, min_rounds, max_rounds, avg_turns, avg_buys, avg_winning_total
WITH per_game AS (
    SELECT game_id, any_value(players) AS players, any_value(rounds) AS rounds,
           max(total) FILTER (WHERE won) AS winning_total
    FROM stpete.players
    GROUP BY game_id
), acts AS (
    SELECT game_id, count(*) FILTER (WHERE action <> 'discard') AS turns, count(*) FILTER (WHERE action = 'buy') AS buys
    FROM stpete.actions GROUP BY game_id
)
SELECT players,
       count(*) AS games,
       round(avg(rounds), 2) AS avg_rounds,
       min(rounds) AS min_rounds,
       max(rounds) AS max_rounds,
       round(avg(coalesce(turns, 0)), 2) AS avg_turns,
       round(avg(coalesce(buys, 0)), 2) AS avg_buys,
       round(avg(winning_total), 2) AS avg_winning_total
FROM per_game LEFT JOIN acts USING (game_id)
GROUP BY players
ORDER BY players;
