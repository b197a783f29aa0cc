-- question: Where do the points come from when the civilian count decides? In games won on points, the average points per scoring category for winners and for the others, the category's share of all points, and the most
-- columns: category, seats, avg_points, share, avg_points_winners, avg_points_others, max_points
WITH civilian AS (
    SELECT * FROM seven_wonders_duel.players WHERE victory = 'civilian'
), long AS (
    SELECT * FROM (SELECT won, vp_civilian, vp_science, vp_commercial, vp_guilds, vp_wonders, vp_progress, vp_military,
                          vp_treasury FROM civilian)
    UNPIVOT (points FOR category IN (vp_civilian, vp_science, vp_commercial, vp_guilds, vp_wonders, vp_progress,
                                     vp_military, vp_treasury))
), everything AS (
    SELECT sum(total) AS all_points FROM civilian
)
SELECT substr(category, 4) AS category,
       count(*) AS seats,
       round(avg(points), 2) AS avg_points,
       round(sum(points) / nullif(any_value(all_points), 0), 4) AS share,
       round(avg(points) FILTER (WHERE won), 2) AS avg_points_winners,
       round(avg(points) FILTER (WHERE NOT won), 2) AS avg_points_others,
       max(points) AS max_points
FROM long, everything
GROUP BY category
ORDER BY avg_points DESC, category;
