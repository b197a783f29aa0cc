-- question: Who builds the Guild Court, and does it pay? Players who built it at least once against those who never did.
-- columns: players, used_guild_court, player_count, avg_total, win_rate
WITH users AS (
    SELECT DISTINCT game_id, seat FROM wonders_dice.actions WHERE building = 'guild_court'
)
SELECT p.players,
       u.seat IS NOT NULL AS used_guild_court,
       count(*) AS player_count,
       round(avg(p.total), 2) AS avg_total,
       round(avg(CASE WHEN p.won THEN 1.0 ELSE 0.0 END), 4) AS win_rate
FROM wonders_dice.players p
LEFT JOIN users u ON u.game_id = p.game_id AND u.seat = p.seat
GROUP BY p.players, used_guild_court
ORDER BY p.players, used_guild_court;
