-- question: Is there an advantage to a seat? Win rate by game kind, player count and seat (finished games).
-- columns: kind, players, seat, games, wins, win_rate
SELECT kind, players, seat,
       count(*) AS games,
       sum(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate
FROM players
WHERE finished
GROUP BY kind, players, seat
ORDER BY kind, players, seat;
