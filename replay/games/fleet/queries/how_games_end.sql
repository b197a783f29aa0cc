-- question: How do games end: the auction row not refilled, or the fish supply out? With which tie-break?
-- columns: players, gone_fishin, reason, games, game_share, avg_rounds
SELECT players,
       gone_fishin,
       reason,
       count(*) AS games,
       round(count(*) * 1.0 / sum(count(*)) OVER (PARTITION BY players, gone_fishin), 4) AS game_share,
       round(avg(rounds), 2) AS avg_rounds
FROM fleet.endings
GROUP BY players, gone_fishin, reason
ORDER BY players, gone_fishin, reason;
