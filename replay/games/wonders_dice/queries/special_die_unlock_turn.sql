-- question: When do the special dice come out? The turn each first enters the Forum, over all games.
-- columns: die, games, share_of_games, avg_turn, first_turn, last_turn
SELECT special_die_swapped.die AS die,
       count(*) AS games,
       round(count(*) / (SELECT count(*) FROM games WHERE kind = '7wonders-dice' AND status = 'finished')::DOUBLE, 4) AS share_of_games,  -- finished games
       round(avg(special_die_swapped.turn), 2) AS avg_turn,
       min(special_die_swapped.turn) AS first_turn,
       max(special_die_swapped.turn) AS last_turn
FROM wonders_dice.events
WHERE type = 'special_die_swapped'
GROUP BY special_die_swapped.die
ORDER BY avg_turn, die;
