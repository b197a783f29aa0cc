"""A problem in words, as the games whose rule ids say the rule themselves explain it (7 Wonders, 7 Wonders Duel)."""

from __future__ import annotations

from collections.abc import Mapping

from replay.problems import Problem


def explain_rule(problem: Problem, rules: Mapping[str, str]) -> str:
    """"turn N, Ana: <the rule> Expected ...; found ..." (the rule's text from ``rules``, by rule id)."""
    who = problem.player or "the table"
    head = f"turn {problem.turn}, {who}: " if problem.turn else f"{who}: "
    return head + f"{rules.get(problem.rule_id, problem.message)} Expected {problem.expected}; found {problem.found}."
