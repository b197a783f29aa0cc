-- question: How many roubles does a seat earn in each round (worker, building and aristocrat scorings together), by player count?
-- columns: players, round, seats, avg_income, max_income, avg_points
WITH per_seat AS (
    SELECT game_id, players, round, seat, sum(rubles_income) AS income, sum(points_income) AS points
    FROM stpete.phases
    GROUP BY ALL
)
SELECT players, round,
       count(*) AS seats,
       round(avg(income), 2) AS avg_income,
       max(income) AS max_income,
       round(avg(points), 2) AS avg_points
FROM per_seat
GROUP BY players, round
ORDER BY players, round;
