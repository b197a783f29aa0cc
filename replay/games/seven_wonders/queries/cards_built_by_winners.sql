-- question: Which structures do winners build most often? For each card, how many winning seats built it and what share of all winning seats that is, against the share of the other seats
-- param: top int 20  how many cards to list
-- param: min_builds int 1  hide cards fewer winning seats than this built
-- columns: card, colour, by_winners, winner_rate, by_others, other_rate, lift
WITH seats AS (
    SELECT count(*) FILTER (WHERE won) AS winners, count(*) FILTER (WHERE NOT won) AS others
    FROM seven_wonders.players
), built AS (
    SELECT b.card,
           any_value(b.colour) AS colour,
           count(*) FILTER (WHERE p.won) AS by_winners,
           count(*) FILTER (WHERE NOT p.won) AS by_others
    FROM seven_wonders.plays b JOIN seven_wonders.players p USING (game_id, seat)
    WHERE b.action = 'build'
    GROUP BY b.card
)
SELECT card,
       colour,
       by_winners,
       round(by_winners / nullif(winners, 0), 4) AS winner_rate,
       by_others,
       round(by_others / nullif(others, 0), 4) AS other_rate,
       round((by_winners / nullif(winners, 0)) / nullif(by_others / nullif(others, 0), 0), 2) AS lift
FROM built, seats
WHERE by_winners >= $min_builds
ORDER BY by_winners DESC, card
LIMIT $top;
