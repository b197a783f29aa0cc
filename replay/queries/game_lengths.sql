-- question: How long is each finished game, in events and in turns? One row per game, by kind and player count (for `replay plot lengths`).
-- param: kind str all  only this game kind (all: every kind)
-- columns: kind, players, game_id, events, turns
SELECT kind, players, game_id, events, turns
FROM games
WHERE status = 'finished' AND ($kind = 'all' OR kind = $kind)
ORDER BY kind, players, game_id;
