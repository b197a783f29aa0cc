-- question: How often does each city win, by player count? (a shared victory counts for each winner)
-- param: min_games int 1  hide rows with fewer games than this
-- columns: players, city, games, wins, win_rate
SELECT players, city,
       count(*) AS games,
       sum(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate
FROM wonders_dice.players
GROUP BY players, city
HAVING count(*) >= $min_games
ORDER BY players, win_rate DESC, city;
