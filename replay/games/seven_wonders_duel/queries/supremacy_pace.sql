-- question: How fast do the two supremacies come? At the end of each Age (or when a supremacy ends the game during it), by how the game was finally won: how far the Conflict pawn is from the centre and how many distinct scientific symbols the seat with the most has, and the share of games where a supremacy threatens: the pawn military_threat spaces or more from the centre (military supremacy is at 9), a seat with science_threat distinct symbols or more (scientific supremacy is at 6)
-- param: military_threat int 6  pawn distance from the centre that counts as a threat (6: the last zone before the capital)
-- param: science_threat int 5  distinct symbols that count as a threat (5: one short of supremacy)
-- columns: age, victory, games, avg_pawn, military_threat_share, avg_symbols, science_threat_share
WITH per_game AS (
    SELECT a.game_id, a.age, any_value(g.victory) AS victory,
           max(a.pawn) AS pawn,
           max(a.symbols) AS symbols
    FROM seven_wonders_duel.ages a JOIN seven_wonders_duel.games g USING (game_id)
    GROUP BY a.game_id, a.age
)
SELECT age,
       victory,
       count(*) AS games,
       round(avg(pawn), 2) AS avg_pawn,
       round(avg(CASE WHEN pawn >= $military_threat THEN 1.0 ELSE 0.0 END), 4) AS military_threat_share,
       round(avg(symbols), 2) AS avg_symbols,
       round(avg(CASE WHEN symbols >= $science_threat THEN 1.0 ELSE 0.0 END), 4) AS science_threat_share
FROM per_game
GROUP BY age, victory
ORDER BY age, victory;
