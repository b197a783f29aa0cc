-- question: How often does a tie on points go to coins, or end in a shared victory?
-- columns: players, games, decided_by_coins, shared, tie_rate
SELECT players,
       count(*) AS games,
       sum(CASE WHEN tie_break = 'coins' THEN 1 ELSE 0 END) AS decided_by_coins,
       sum(CASE WHEN tie_break = 'shared' THEN 1 ELSE 0 END) AS shared,
       round(avg(CASE WHEN tie_break <> 'none' THEN 1.0 ELSE 0.0 END), 4) AS tie_rate
FROM games
WHERE kind = '7wonders-dice' AND status = 'finished'
GROUP BY players
ORDER BY players;
