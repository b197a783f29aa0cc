-- question: How often are chains used, Age by Age? Buildings constructed, those built free by a chain symbol, their share, and chain builds per seat for the game's winners and for the others
-- columns: age, constructed, chain_builds, chain_share, chains_per_winner, chains_per_other
SELECT a.age,
       sum(a.constructed)::BIGINT AS constructed,
       sum(a.chains)::BIGINT AS chain_builds,
       round(sum(a.chains) / nullif(sum(a.constructed), 0), 4) AS chain_share,
       round(avg(a.chains) FILTER (WHERE p.won), 2) AS chains_per_winner,
       round(avg(a.chains) FILTER (WHERE NOT p.won), 2) AS chains_per_other
FROM seven_wonders_duel.ages a JOIN seven_wonders_duel.players p USING (game_id, seat)
GROUP BY a.age
ORDER BY a.age;
