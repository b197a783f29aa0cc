-- question: What does the archive hold? Games by kind: finished and in progress, length, players, and games whose audit found problems.
-- columns: kind, games, finished, in_progress, with_problems, avg_players, avg_turns, avg_events
SELECT kind,
       count(*) AS games,
       count(*) FILTER (WHERE status = 'finished') AS finished,
       count(*) FILTER (WHERE status <> 'finished') AS in_progress,
       count(*) FILTER (WHERE problems > 0) AS with_problems,
       round(avg(players), 2) AS avg_players,
       round(avg(turns), 2) AS avg_turns,
       round(avg(events), 1) AS avg_events
FROM games
GROUP BY kind
ORDER BY kind;
