-- question: Which bot strategy wins most often, by player count, and where do its points come from? (a shared victory counts for each winner; 'unknown' where the log records no strategy)
-- param: min_seats int 1  hide rows with fewer seats than this
-- columns: players, strategy, seats, wins, win_rate, avg_total, avg_vp_science, avg_vp_military, avg_vp_civilian
SELECT players,
       coalesce(strategy, 'unknown') AS strategy,
       count(*) AS seats,
       count(*) FILTER (WHERE won) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(avg(total), 2) AS avg_total,
       round(avg(vp_science), 2) AS avg_vp_science,
       round(avg(vp_military), 2) AS avg_vp_military,
       round(avg(vp_civilian), 2) AS avg_vp_civilian
FROM seven_wonders.players
GROUP BY ALL
HAVING count(*) >= $min_seats
ORDER BY players, win_rate DESC, strategy;
