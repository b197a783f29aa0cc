-- question: What is the lower row worth? Cards bought or taken from each row: how many, their printed cost, the price paid and the saving; and what the lower row still held when discarded.
-- columns: source, buys, takes, avg_printed_cost, avg_price, avg_saving, discarded_per_round, discarded_value_per_round
WITH rows_ AS (
    SELECT source,
           count(*) FILTER (WHERE action = 'buy') AS buys,
           count(*) FILTER (WHERE action = 'take') AS takes,
           round(avg(printed_cost) FILTER (WHERE action = 'buy'), 2) AS avg_printed_cost,
           round(avg(price) FILTER (WHERE action = 'buy'), 2) AS avg_price,
           round(avg(printed_cost - price) FILTER (WHERE action = 'buy'), 2) AS avg_saving
    FROM stpete.actions
    WHERE source IN ('top', 'bottom')
    GROUP BY source
), discarded AS (
    SELECT round(avg(lower_row_discarded), 2) AS per_round, round(avg(lower_row_value), 2) AS value_per_round
    FROM stpete.rounds
)
SELECT source, buys, takes, avg_printed_cost, avg_price, avg_saving,
       CASE WHEN source = 'bottom' THEN discarded.per_round END AS discarded_per_round,
       CASE WHEN source = 'bottom' THEN discarded.value_per_round END AS discarded_value_per_round
FROM rows_, discarded
ORDER BY source;
