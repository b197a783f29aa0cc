-- question: Science or military? Seats whose science points beat their military points by more than the margin, the other way round, or neither: how often each wins and what it scores
-- param: margin int 0  how many more points one of the two must have to count as the seat's focus
-- columns: focus, seats, seat_share, wins, win_rate, avg_total, avg_vp_science, avg_vp_military
WITH seats AS (
    SELECT *,
           CASE WHEN vp_science - vp_military > $margin THEN 'science'
                WHEN vp_military - vp_science > $margin THEN 'military'
                ELSE 'neither' END AS focus
    FROM seven_wonders.players
)
SELECT focus,
       count(*) AS seats,
       round(count(*) / sum(count(*)) OVER (), 4) AS seat_share,
       count(*) FILTER (WHERE won) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(avg(total), 2) AS avg_total,
       round(avg(vp_science), 2) AS avg_vp_science,
       round(avg(vp_military), 2) AS avg_vp_military
FROM seats
GROUP BY focus
ORDER BY win_rate DESC, focus;
