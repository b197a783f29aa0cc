-- question: Where do the VP come from, for winners and for the others, by player count?
-- columns: players, won, seats, avg_total, avg_licenses, avg_boats, avg_fish, avg_crab, avg_gone_fishin
SELECT players,
       won,
       count(*) AS seats,
       round(avg(total), 2) AS avg_total,
       round(avg(vp_licenses), 2) AS avg_licenses,
       round(avg(vp_boats), 2) AS avg_boats,
       round(avg(vp_fish), 2) AS avg_fish,
       round(avg(vp_crab), 2) AS avg_crab,
       round(avg(vp_gone_fishin), 2) AS avg_gone_fishin
FROM fleet.players
GROUP BY ALL
ORDER BY players, won DESC;
