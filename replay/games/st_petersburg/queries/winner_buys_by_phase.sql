-- question: What do winners buy in each phase, against the other seats? Cards bought per seat and game, by phase and the bought card's deck.
-- columns: phase, card_deck, winner_buys, other_buys, winner_per_seat, other_per_seat
WITH seats AS (
    SELECT count(*) FILTER (WHERE won) AS winners, count(*) FILTER (WHERE NOT won) AS others FROM stpete.players
), buys AS (
    SELECT a.phase, a.card_deck, p.won
    FROM stpete.actions a JOIN stpete.players p USING (game_id, seat)
    WHERE a.action = 'buy'
)
SELECT phase, card_deck,
       count(*) FILTER (WHERE won) AS winner_buys,
       count(*) FILTER (WHERE NOT won) AS other_buys,
       round(count(*) FILTER (WHERE won) / any_value(seats.winners), 2) AS winner_per_seat,
       round(count(*) FILTER (WHERE NOT won) / greatest(any_value(seats.others), 1), 2) AS other_per_seat
FROM buys, seats
GROUP BY phase, card_deck
ORDER BY phase, card_deck;
