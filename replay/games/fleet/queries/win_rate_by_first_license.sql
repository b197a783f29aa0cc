-- question: How often does a seat win, by the first license it bought? ('none' for a seat that never bought one)
-- param: min_seats int 1  hide rows with fewer seats than this
-- columns: players, first_license, seats, wins, win_rate, avg_total
SELECT players,
       coalesce(first_license, 'none') AS first_license,
       count(*) AS seats,
       count(*) FILTER (WHERE won) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(avg(total), 2) AS avg_total
FROM fleet.players
GROUP BY ALL
HAVING count(*) >= $min_seats
ORDER BY players, win_rate DESC, first_license;
