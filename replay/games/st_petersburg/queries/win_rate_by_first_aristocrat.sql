-- question: Does the first aristocrat a player buys tell who wins? Win rate by that card, by player count ('none': never bought one).
-- param: min_seats int 1  hide rows with fewer seats than this
-- columns: players, first_aristocrat, seats, wins, win_rate, avg_total, avg_round_bought
SELECT players,
       coalesce(first_aristocrat, 'none') AS first_aristocrat,
       count(*) AS seats,
       count(*) FILTER (WHERE won) AS wins,
       round(avg(CASE WHEN won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(avg(total), 2) AS avg_total,
       round(avg(first_aristocrat_round), 2) AS avg_round_bought
FROM stpete.players
GROUP BY ALL
HAVING count(*) >= $min_seats
ORDER BY players, win_rate DESC, first_aristocrat;
