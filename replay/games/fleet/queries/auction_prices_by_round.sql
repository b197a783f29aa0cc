-- question: What do licenses sell for, round by round? (price: the winning bid; over_cost: above the printed cost)
-- param: license str %  a license type, or % for all
-- columns: round, sold, avg_price, avg_over_cost, contested_share, premium_sold
SELECT round,
       count(*) AS sold,
       round(avg(price), 2) AS avg_price,
       round(avg(price - cost), 2) AS avg_over_cost,
       round(avg(CASE WHEN raises > 0 THEN 1.0 ELSE 0.0 END), 4) AS contested_share,
       count(*) FILTER (WHERE premium) AS premium_sold
FROM fleet.licenses
WHERE license LIKE $license
GROUP BY round
ORDER BY round;
