-- question: How are final scores spread, by player count? Seats per band of totals (width points wide), their share of the player count's seats, and the winners among them
-- param: width int 10  how many points one band spans
-- columns: players, from_total, to_total, seats, share, wins
SELECT players,
       floor(total / $width)::INTEGER * $width AS from_total,
       floor(total / $width)::INTEGER * $width + $width - 1 AS to_total,
       count(*) AS seats,
       round(count(*) / sum(count(*)) OVER (PARTITION BY players), 4) AS share,
       count(*) FILTER (WHERE won) AS wins
FROM seven_wonders.players
GROUP BY players, from_total, to_total
ORDER BY players, from_total;
