-- question: Who do players give a Freeze, a Flip Three or a spare Second Chance to: themselves, the leader (the highest total, ties included), someone else, or nobody (discarded)?
-- columns: card, strategy, given, to_self, to_leader, to_other, discarded, leader_share
SELECT card,
       coalesce(strategy, 'unknown') AS strategy,
       count(*) AS given,
       count(*) FILTER (WHERE to_self) AS to_self,
       count(*) FILTER (WHERE NOT to_self AND target_rank = 1) AS to_leader,
       count(*) FILTER (WHERE NOT to_self AND target_rank > 1) AS to_other,
       count(*) FILTER (WHERE discarded) AS discarded,
       round(count(*) FILTER (WHERE NOT to_self AND target_rank = 1) / count(*), 4) AS leader_share
FROM flip7.targets
GROUP BY ALL
ORDER BY card, strategy;
