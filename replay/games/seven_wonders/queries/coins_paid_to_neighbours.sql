-- question: How many coins does a seat pay its neighbours for resources in a game, by player count? With the winners' and the others' average, how often a paid build or Wonder stage buys something, and what a purchase costs
-- columns: players, seats, avg_paid, max_paid, avg_paid_winners, avg_paid_others, paid_plays, buying_plays, buying_share, avg_coins_per_buying_play
WITH trade AS (
    SELECT players,
           count(*) FILTER (WHERE action <> 'discard' AND free IS NULL) AS paid_plays,
           count(*) FILTER (WHERE trade_coins > 0) AS buying_plays,
           sum(trade_coins) AS coins
    FROM seven_wonders.plays
    GROUP BY players
), seats AS (
    SELECT players,
           count(*) AS seats,
           round(avg(coins_paid_to_neighbours), 2) AS avg_paid,
           max(coins_paid_to_neighbours) AS max_paid,
           round(avg(coins_paid_to_neighbours) FILTER (WHERE won), 2) AS avg_paid_winners,
           round(avg(coins_paid_to_neighbours) FILTER (WHERE NOT won), 2) AS avg_paid_others
    FROM seven_wonders.players
    GROUP BY players
)
SELECT players, seats, avg_paid, max_paid, avg_paid_winners, avg_paid_others,
       coalesce(paid_plays, 0) AS paid_plays,
       coalesce(buying_plays, 0) AS buying_plays,
       round(buying_plays / nullif(paid_plays, 0), 4) AS buying_share,
       round(coins / nullif(buying_plays, 0), 2) AS avg_coins_per_buying_play
FROM seats LEFT JOIN trade USING (players)
ORDER BY players;
