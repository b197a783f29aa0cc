-- question: How many cards do seats discard for coins in each Age? Per seat on average and at most, the share of seats that discard at all, and their coins at the Age's end
-- columns: age, seat_ages, discards, avg_discards, max_discards, discarding_share, avg_coins_at_end
SELECT age,
       count(*) AS seat_ages,
       sum(discards)::BIGINT AS discards,
       round(avg(discards), 2) AS avg_discards,
       max(discards) AS max_discards,
       round(avg(CASE WHEN discards > 0 THEN 1.0 ELSE 0.0 END), 4) AS discarding_share,
       round(avg(coins), 2) AS avg_coins_at_end
FROM seven_wonders.ages
GROUP BY age
ORDER BY age;
