-- question: What does each strategy score in a round, and how does it leave the round (stay, bust, Flip 7, frozen)? ('unknown' where the log records no strategy)
-- param: min_rounds int 1  hide rows with fewer seat-rounds than this
-- columns: strategy, seat_rounds, avg_score, avg_score_when_scoring, bust_rate, stay_rate, frozen_rate, flip7_rate
SELECT coalesce(strategy, 'unknown') AS strategy,
       count(*) AS seat_rounds,
       round(avg(score), 2) AS avg_score,
       round(avg(score) FILTER (WHERE status <> 'busted'), 2) AS avg_score_when_scoring,
       round(avg(CASE WHEN status = 'busted' THEN 1.0 ELSE 0.0 END), 4) AS bust_rate,
       round(avg(CASE WHEN status = 'stayed' THEN 1.0 ELSE 0.0 END), 4) AS stay_rate,
       round(avg(CASE WHEN status = 'frozen' THEN 1.0 ELSE 0.0 END), 4) AS frozen_rate,
       round(avg(CASE WHEN status = 'flip7' THEN 1.0 ELSE 0.0 END), 4) AS flip7_rate
FROM flip7.rounds
GROUP BY ALL
HAVING count(*) >= $min_rounds
ORDER BY avg_score DESC, strategy;
