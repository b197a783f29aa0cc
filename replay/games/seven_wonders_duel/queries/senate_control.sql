-- question: How is the Senate won (Agora)? By the number of chambers a seat controls at the end: how many seats, their win rate, how many won by political supremacy (all six chambers), the Senate's points and the Senators and conspiracies behind them, on average
-- columns: chambers, seats, wins, win_rate, political_wins, avg_senate_vp, avg_senators, avg_conspiracies_triggered
SELECT chambers,
       count(*) AS seats,
       count(*) FILTER (WHERE won) AS wins,
       round(count(*) FILTER (WHERE won) / count(*), 4) AS win_rate,
       count(*) FILTER (WHERE won AND victory = 'political') AS political_wins,
       round(avg(senate_vp), 2) AS avg_senate_vp,
       round(avg(senators), 2) AS avg_senators,
       round(avg(conspiracies_triggered), 2) AS avg_conspiracies_triggered
FROM seven_wonders_duel.senate
GROUP BY chambers
ORDER BY chambers;
