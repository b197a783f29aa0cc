-- question: What does one more hit gain on average at each number sum (the round score after minus before; a bust loses what I had)?
-- param: min_hits int 1  hide rows with fewer hits than this
-- columns: number_sum, hits, avg_score_before, avg_gain, hits_without_second_chance, avg_gain_without_second_chance
SELECT number_sum,
       count(*) AS hits,
       round(avg(score_before), 2) AS avg_score_before,
       round(avg(gain), 2) AS avg_gain,
       count(*) FILTER (WHERE NOT has_second_chance) AS hits_without_second_chance,
       round(avg(gain) FILTER (WHERE NOT has_second_chance), 2) AS avg_gain_without_second_chance
FROM flip7.decisions
WHERE decision = 'hit'
GROUP BY number_sum
HAVING count(*) >= $min_hits
ORDER BY number_sum;
