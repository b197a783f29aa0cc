-- question: Which strategy wins most often, by player count? (a shared victory counts for each winner; 'unknown' where the log records no strategy)
-- param: min_games int 1  hide rows with fewer seats than this
-- columns: players, strategy, seats, wins, win_rate, avg_total
SELECT players,
       coalesce(strategy, 'unknown') AS strategy,
       count(*) AS seats,
       count(*) FILTER (WHERE won) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(avg(total), 2) AS avg_total
FROM flip7.players
GROUP BY ALL
HAVING count(*) >= $min_games
ORDER BY players, win_rate DESC, strategy;
