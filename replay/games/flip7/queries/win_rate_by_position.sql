-- question: Does it pay to sit close to the first dealer's left? Win rate by position (1 = the first dealer's left, first to be dealt; the player count = the first dealer)
-- param: min_games int 1  hide rows with fewer games than this
-- columns: players, position, games, wins, win_rate, avg_total
SELECT players,
       position,
       count(*) AS games,
       count(*) FILTER (WHERE won) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(avg(total), 2) AS avg_total
FROM flip7.players
GROUP BY players, position
HAVING count(*) >= $min_games
ORDER BY players, position;
