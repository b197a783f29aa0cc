-- question: Where do the points come from? Average final VP per scoring category, by player count.
-- columns: players, category, avg_vp, share_of_total
WITH long AS (
    SELECT * FROM (SELECT players, vp_warehouse, vp_military, vp_agora, vp_market, vp_university, vp_guild,
                          vp_gallery, vp_wonder, vp_bonus FROM wonders_dice.players)
    UNPIVOT (vp FOR category IN (vp_warehouse, vp_military, vp_agora, vp_market, vp_university, vp_guild,
                                 vp_gallery, vp_wonder, vp_bonus))
)
SELECT players,
       replace(category, 'vp_', '') AS category,
       round(avg(vp), 3) AS avg_vp,
       round(sum(vp) / sum(sum(vp)) OVER (PARTITION BY players), 4) AS share_of_total
FROM long
GROUP BY players, category
ORDER BY players, avg_vp DESC, category;
