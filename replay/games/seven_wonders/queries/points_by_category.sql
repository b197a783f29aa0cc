-- question: Where do the points come from? Average final points per scoring category, its share of all points, for winners and for the others
-- columns: category, seats, avg_points, share, avg_points_winners, avg_points_others, max_points
WITH long AS (
    SELECT * FROM (SELECT won, total, vp_military, vp_treasury, vp_wonder, vp_civilian, vp_commercial, vp_guilds, vp_science
                   FROM seven_wonders.players)
    UNPIVOT (points FOR category IN (vp_military, vp_treasury, vp_wonder, vp_civilian, vp_commercial, vp_guilds, vp_science))
), everything AS (
    SELECT sum(total) AS all_points FROM seven_wonders.players
)
SELECT substr(category, 4) AS category,
       count(*) AS seats,
       round(avg(points), 2) AS avg_points,
       round(sum(points) / any_value(all_points), 4) AS share,
       round(avg(points) FILTER (WHERE won), 2) AS avg_points_winners,
       round(avg(points) FILTER (WHERE NOT won), 2) AS avg_points_others,
       max(points) AS max_points
FROM long, everything
GROUP BY category
ORDER BY avg_points DESC, category;
