-- question: How likely is one more hit to bust me, by the sum of the numbers in front of me?
-- param: min_hits int 1  hide rows with fewer hits than this
-- columns: number_sum, hits, busts, saved, bust_rate, avg_bust_odds
SELECT number_sum,
       count(*) AS hits,
       count(*) FILTER (WHERE outcome = 'bust') AS busts,
       count(*) FILTER (WHERE outcome = 'saved') AS saved,
       round(avg(CASE WHEN outcome = 'bust' THEN 1.0 ELSE 0.0 END), 4) AS bust_rate,
       round(avg(bust_odds), 4) AS avg_bust_odds
FROM flip7.decisions
WHERE decision = 'hit'
GROUP BY number_sum
HAVING count(*) >= $min_hits
ORDER BY number_sum;
