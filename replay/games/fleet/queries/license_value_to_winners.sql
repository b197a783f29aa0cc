-- question: Which license types do winners hold more often than the others? (share of winning and of other seats holding at least one copy)
-- columns: license, winners_holding, winner_share, others_holding, other_share, lift
WITH seats AS (
    SELECT count(*) FILTER (WHERE won) AS winners, count(*) FILTER (WHERE NOT won) AS others FROM fleet.players
), held AS (
    SELECT license,
           count(*) FILTER (WHERE won) AS winners_holding,
           count(*) FILTER (WHERE NOT won) AS others_holding
    FROM fleet.holdings
    GROUP BY license
)
SELECT license,
       winners_holding,
       round(winners_holding * 1.0 / nullif(winners, 0), 4) AS winner_share,
       others_holding,
       round(others_holding * 1.0 / nullif(others, 0), 4) AS other_share,
       round((winners_holding * 1.0 / nullif(winners, 0)) / nullif(others_holding * 1.0 / nullif(others, 0), 0), 2) AS lift
FROM held, seats
ORDER BY lift DESC NULLS LAST, license;
