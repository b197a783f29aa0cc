-- question: At what number sum and with how many numbers does each strategy stay, and what does it bank?
-- param: min_stays int 1  hide rows with fewer stays than this
-- columns: strategy, stays, avg_number_sum, avg_numbers, avg_banked
SELECT coalesce(strategy, 'unknown') AS strategy,
       count(*) AS stays,
       round(avg(number_sum), 2) AS avg_number_sum,
       round(avg(numbers), 2) AS avg_numbers,
       round(avg(score_before), 2) AS avg_banked
FROM flip7.decisions
WHERE decision = 'stay'
GROUP BY ALL
HAVING count(*) >= $min_stays
ORDER BY strategy;
