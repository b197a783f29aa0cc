-- question: What does the player count change: game length, winning score, margin, licenses per seat?
-- columns: players, games, avg_rounds, avg_winning_total, avg_margin, licenses_per_seat, fish_end_share
WITH seats AS (
    SELECT game_id, avg(licenses) AS licenses FROM fleet.players GROUP BY game_id
)
SELECT e.players,
       count(*) AS games,
       round(avg(e.rounds), 2) AS avg_rounds,
       round(avg(e.winning_total), 2) AS avg_winning_total,
       round(avg(e.margin), 2) AS avg_margin,
       round(avg(s.licenses), 2) AS licenses_per_seat,
       round(avg(CASE WHEN e.reason = 'fish' THEN 1.0 ELSE 0.0 END), 4) AS fish_end_share
FROM fleet.endings e JOIN seats s USING (game_id)
GROUP BY e.players
ORDER BY e.players;
