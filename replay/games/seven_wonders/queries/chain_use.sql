-- question: How often are chains used, Age by Age? Of the structures built, how many have a chain (the default pack's cards), how many were built free by one, and how many chain builds a seat makes
-- columns: age, builds, chainable_builds, chain_builds, chain_share, chains_per_seat, seats_chaining_share
WITH builds AS (
    SELECT b.age,
           count(*) AS builds,
           count(*) FILTER (WHERE array_length(c.chain_from) > 0) AS chainable_builds,
           count(*) FILTER (WHERE b.free = 'chain') AS chain_builds
    FROM seven_wonders.plays b LEFT JOIN seven_wonders.cards c ON c.age = b.card_age AND c.id = b.card
    WHERE b.action = 'build'
    GROUP BY b.age
), seats AS (
    SELECT age, count(*) AS seat_ages, count(*) FILTER (WHERE chains > 0) AS chaining
    FROM seven_wonders.ages
    GROUP BY age
)
SELECT age,
       coalesce(builds, 0) AS builds,
       coalesce(chainable_builds, 0) AS chainable_builds,
       coalesce(chain_builds, 0) AS chain_builds,
       round(chain_builds / nullif(chainable_builds, 0), 4) AS chain_share,
       round(coalesce(chain_builds, 0) / seat_ages, 2) AS chains_per_seat,
       round(chaining / seat_ages, 4) AS seats_chaining_share
FROM seats LEFT JOIN builds USING (age)
ORDER BY age;
