-- question: How does the chance of losing a turn grow with the number of rolls in it?
-- param: min_turns int 1  hide rows with fewer turns than this
-- columns: rolls, turns, busts, bust_rate, avg_banked
SELECT rolls,
       count(*) AS turns,
       count(*) FILTER (WHERE bust) AS busts,
       round(avg(CASE WHEN bust THEN 1.0 ELSE 0.0 END), 4) AS bust_rate,
       round(avg(banked) FILTER (WHERE NOT bust), 2) AS avg_banked
FROM pig.turns
GROUP BY rolls
HAVING count(*) >= $min_turns
ORDER BY rolls;
