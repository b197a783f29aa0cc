-- question: How likely is one more hit to bust me, by how many numbers I already hold? (a Second Chance that saves the hit is counted apart)
-- param: min_hits int 1  hide rows with fewer hits than this
-- columns: numbers, hits, busts, saved, bust_rate, duplicate_rate
SELECT numbers,
       count(*) AS hits,
       count(*) FILTER (WHERE outcome = 'bust') AS busts,
       count(*) FILTER (WHERE outcome = 'saved') AS saved,
       round(avg(CASE WHEN outcome = 'bust' THEN 1.0 ELSE 0.0 END), 4) AS bust_rate,
       round(avg(CASE WHEN outcome IN ('bust', 'saved') THEN 1.0 ELSE 0.0 END), 4) AS duplicate_rate
FROM flip7.decisions
WHERE decision = 'hit'
GROUP BY numbers
HAVING count(*) >= $min_hits
ORDER BY numbers;
