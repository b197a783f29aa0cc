-- question: How long does a game of Flip 7 last, by player count: rounds, Hit-or-Stay decisions, the winning total?
-- columns: players, games, avg_rounds, min_rounds, max_rounds, avg_decisions, avg_winning_total
WITH per_game AS (
    SELECT game_id, any_value(players) AS players, any_value(rounds) AS rounds,
           max(total) FILTER (WHERE won) AS winning_total
    FROM flip7.players
    GROUP BY game_id
), decisions AS (
    SELECT game_id, count(*) AS decisions FROM flip7.decisions GROUP BY game_id
)
SELECT players,
       count(*) AS games,
       round(avg(rounds), 2) AS avg_rounds,
       min(rounds) AS min_rounds,
       max(rounds) AS max_rounds,
       round(avg(coalesce(decisions, 0)), 2) AS avg_decisions,
       round(avg(winning_total), 2) AS avg_winning_total
FROM per_game LEFT JOIN decisions USING (game_id)
GROUP BY players
ORDER BY players;
