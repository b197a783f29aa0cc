-- question: Is there an advantage to a seat? Win rate by seat and player count.
-- columns: players, seat, games, wins, win_rate
SELECT players, seat,
       count(*) AS games,
       sum(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate
FROM players
GROUP BY players, seat
ORDER BY players, seat;
