-- question: What final totals does each strategy reach? One row per seat of a finished game ('unknown' where the log records no strategy; for `replay plot final-scores`).
-- columns: strategy, players, game_id, seat, total, won
SELECT coalesce(strategy, 'unknown') AS strategy, players, game_id, seat, total, won
FROM stpete.players
ORDER BY strategy, players, game_id, seat;
