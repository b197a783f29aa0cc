-- question: How are Duel games won? For each kind of victory (civilian count, military or scientific supremacy, and any kind an expansion adds), how many games, their share, how many turns they last and in which Age they end
-- columns: victory, games, share, avg_turns, min_turns, max_turns, ended_age_1, ended_age_2, ended_age_3
SELECT victory,
       count(*) AS games,
       round(count(*) / sum(count(*)) OVER (), 4) AS share,
       round(avg(turns), 2) AS avg_turns,
       min(turns) AS min_turns,
       max(turns) AS max_turns,
       count(*) FILTER (WHERE last_age = 1) AS ended_age_1,
       count(*) FILTER (WHERE last_age = 2) AS ended_age_2,
       count(*) FILTER (WHERE last_age = 3) AS ended_age_3
FROM seven_wonders_duel.games
GROUP BY victory
ORDER BY games DESC, victory;
