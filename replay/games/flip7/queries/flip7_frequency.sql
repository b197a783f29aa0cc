-- question: How often does a round end with a Flip 7, and what does the Flip 7 score, by player count?
-- columns: players, rounds, flip7_rounds, flip7_rate, avg_flip7_score, avg_other_score
WITH per_round AS (
    SELECT game_id, round, any_value(players) AS players, bool_or(status = 'flip7') AS flip7
    FROM flip7.rounds
    GROUP BY game_id, round
)
SELECT p.players,
       p.rounds,
       p.flip7_rounds,
       round(p.flip7_rounds / p.rounds, 4) AS flip7_rate,
       s.avg_flip7_score,
       s.avg_other_score
FROM (SELECT players, count(*) AS rounds, count(*) FILTER (WHERE flip7) AS flip7_rounds
      FROM per_round GROUP BY players) p
JOIN (SELECT players,
             round(avg(score) FILTER (WHERE status = 'flip7'), 2) AS avg_flip7_score,
             round(avg(score) FILTER (WHERE status <> 'flip7'), 2) AS avg_other_score
      FROM flip7.rounds GROUP BY players) s USING (players)
ORDER BY p.players;
