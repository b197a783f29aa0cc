-- question: Does the first player (who drafts first and starts Age I) win more often? For each kind of victory and for all games: the first player's wins, the second player's, shared victories, and the first player's win rate (a shared victory is no win)
-- columns: victory, games, first_wins, second_wins, shared, first_win_rate
SELECT coalesce(victory, 'all') AS victory,
       count(*) AS games,
       count(*) FILTER (WHERE winner = first) AS first_wins,
       count(*) FILTER (WHERE winner <> first) AS second_wins,
       count(*) FILTER (WHERE shared) AS shared,
       round(count(*) FILTER (WHERE winner = first) / count(*), 4) AS first_win_rate
FROM seven_wonders_duel.games
GROUP BY ROLLUP (victory)
ORDER BY victory IS NOT NULL, games DESC, victory;
