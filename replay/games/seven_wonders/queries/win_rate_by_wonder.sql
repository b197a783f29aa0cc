-- question: How often does each Wonder win, on side A and on side B? (a shared victory counts for each winner; fair_share is what an even game gives: 1 / players)
-- param: min_seats int 1  hide rows with fewer seats than this
-- columns: wonder, side, seats, wins, win_rate, fair_share, avg_total, avg_rank, avg_vp_wonder
SELECT wonder,
       side,
       count(*) AS seats,
       count(*) FILTER (WHERE won) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(avg(1.0 / players), 4) AS fair_share,
       round(avg(total), 2) AS avg_total,
       round(avg(rank), 2) AS avg_rank,
       round(avg(vp_wonder), 2) AS avg_vp_wonder
FROM seven_wonders.players
GROUP BY wonder, side
HAVING count(*) >= $min_seats
ORDER BY win_rate DESC, wonder, side;
