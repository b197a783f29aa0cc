-- question: How often do players end with cards in hand, what does it cost them, and do they still win? By strategy ('unknown' where the log records no strategy).
-- columns: strategy, seats, seats_penalised, penalised_share, avg_hand_cards, avg_hand_points, penalised_win_rate
SELECT coalesce(strategy, 'unknown') AS strategy,
       count(*) AS seats,
       count(*) FILTER (WHERE hand_cards > 0) AS seats_penalised,
       round(count(*) FILTER (WHERE hand_cards > 0) / count(*), 4) AS penalised_share,
       round(avg(hand_cards), 2) AS avg_hand_cards,
       round(avg(hand_points), 2) AS avg_hand_points,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END) FILTER (WHERE hand_cards > 0), 4) AS penalised_win_rate
FROM stpete.players
GROUP BY ALL
ORDER BY strategy;
