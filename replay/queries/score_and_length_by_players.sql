-- question: How high do scores run and how long do games last, by game kind and player count? (finished games)
-- columns: kind, players, games, avg_score, avg_winning_score, avg_turns, avg_events
SELECT g.kind, g.players,
       count(*) AS games,
       round(avg(p.avg_total), 2) AS avg_score,
       round(avg(g.top_score), 2) AS avg_winning_score,
       round(avg(g.turns), 2) AS avg_turns,
       round(avg(g.events), 1) AS avg_events
FROM games g
JOIN (SELECT game_id, avg(total) AS avg_total FROM players GROUP BY game_id) p USING (game_id)
WHERE g.status = 'finished'
GROUP BY g.kind, g.players
ORDER BY g.kind, g.players;
