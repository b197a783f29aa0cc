-- question: Which progress tokens do winners take? For each token: how often it was taken (from the board, or from the box by the Great Library), by winners, the win rate of the seats that took it, and the Age it is taken in on average
-- columns: token, taken, from_box, by_winners, win_rate, avg_age
SELECT token,
       count(*) AS taken,
       count(*) FILTER (WHERE source = 'box') AS from_box,
       count(*) FILTER (WHERE won) AS by_winners,
       round(count(*) FILTER (WHERE won) / count(*), 4) AS win_rate,
       round(avg(age), 2) AS avg_age
FROM seven_wonders_duel.progress
GROUP BY token
ORDER BY win_rate DESC, taken DESC, token;
