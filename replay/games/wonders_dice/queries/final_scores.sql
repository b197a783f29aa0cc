-- question: What final scores does each city reach? One row per seat of a finished game (for `replay plot final-scores`).
-- columns: city, players, game_id, seat, total, won
SELECT city, players, game_id, seat, total, won
FROM wonders_dice.players
ORDER BY city, players, game_id, seat;
