-- question: Which Wonders win? For each Wonder drafted: how often it was drafted and built, the win rate of the seats that built it against that of the seats that drafted it and never built it, and the Age it is built in on average
-- param: min_drafted int 1  hide Wonders drafted fewer times than this
-- columns: wonder, drafted, built, build_rate, wins_when_built, win_rate_when_built, win_rate_when_not_built, avg_age_built
SELECT wonder,
       count(*) AS drafted,
       count(*) FILTER (WHERE built) AS built,
       round(count(*) FILTER (WHERE built) / count(*), 4) AS build_rate,
       count(*) FILTER (WHERE built AND won) AS wins_when_built,
       round(count(*) FILTER (WHERE built AND won) / nullif(count(*) FILTER (WHERE built), 0), 4) AS win_rate_when_built,
       round(count(*) FILTER (WHERE NOT built AND won) / nullif(count(*) FILTER (WHERE NOT built), 0), 4)
           AS win_rate_when_not_built,
       round(avg(age_built), 2) AS avg_age_built
FROM seven_wonders_duel.wonders
GROUP BY wonder
HAVING count(*) >= $min_drafted
ORDER BY win_rate_when_built DESC NULLS LAST, wonder;
