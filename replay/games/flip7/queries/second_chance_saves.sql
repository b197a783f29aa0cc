-- question: How often does a Second Chance save a round, and does the saved round go on to score?
-- columns: players, seat_rounds, saved_rounds, saved_rate, saves, saved_then_scored, scored_share, avg_score_saved, avg_score_not_saved
SELECT players,
       count(*) AS seat_rounds,
       count(*) FILTER (WHERE second_chances_used > 0) AS saved_rounds,
       round(avg(CASE WHEN second_chances_used > 0 THEN 1.0 ELSE 0.0 END), 4) AS saved_rate,
       CAST(sum(second_chances_used) AS BIGINT) AS saves,
       count(*) FILTER (WHERE second_chances_used > 0 AND status <> 'busted') AS saved_then_scored,
       round(count(*) FILTER (WHERE second_chances_used > 0 AND status <> 'busted')
             / nullif(count(*) FILTER (WHERE second_chances_used > 0), 0), 4) AS scored_share,
       round(avg(score) FILTER (WHERE second_chances_used > 0), 2) AS avg_score_saved,
       round(avg(score) FILTER (WHERE second_chances_used = 0), 2) AS avg_score_not_saved
FROM flip7.rounds
GROUP BY players
ORDER BY players;
