-- question: Which Divinities win (Pantheon)? For each Divinity activated: how often, by how many seats, the win rate of the seats that activated it, the Age and the coins paid on average, and how often it came through the Gate or the Divine Theater
-- param: min_activated int 1  hide Divinities activated fewer times than this
-- columns: divinity, mythology, activated, wins, win_rate, avg_age, avg_paid, through_gate, through_theater
SELECT divinity,
       any_value(mythology) AS mythology,
       count(*) AS activated,
       count(*) FILTER (WHERE won) AS wins,
       round(count(*) FILTER (WHERE won) / count(*), 4) AS win_rate,
       round(avg(age), 2) AS avg_age,
       round(avg(paid), 2) AS avg_paid,
       count(*) FILTER (WHERE via = 'gate') AS through_gate,
       count(*) FILTER (WHERE via = 'theater') AS through_theater
FROM seven_wonders_duel.divinities
GROUP BY divinity
HAVING count(*) >= $min_activated
ORDER BY win_rate DESC, activated DESC, divinity;
