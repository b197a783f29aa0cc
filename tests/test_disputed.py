"""Disputed games are what people bring: every command reaches every event of one, and shows
each problem where it occurs."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from replay.cli.main import cli
from replay.driver import replay
from replay.errors import RuleViolation
from replay.games.wonders_dice import GAME, simulate_game
from replay.games.wonders_dice.notation import write
from replay.services.logs import read_notation_file
from replay.services.review import Review
from replay.services.stepper import StepSession

NAMES = ["Ana", "Ben", "Chloe"]


@pytest.fixture
def disputed(tmp_path):
    """A 3-player game whose sheet says 'paid 9' where the action cost 3 (or whatever it cost)."""
    events = simulate_game("disputed", NAMES, 31, ("greedy", "random"))
    i = next(i for i, e in enumerate(events) if e.type == "action_taken" and e.payload["claims"]["paid"] > 0)
    p = events[i].payload
    events[i] = events[i]._replace(payload={**p, "claims": {**p["claims"], "paid": p["claims"]["paid"] + 6}})
    path = tmp_path / "disputed.txt"
    path.write_text(write(events))
    return path, events, i


def test_lenient_replay_reaches_the_end_and_strict_stops_at_the_problem(disputed):
    _, events, i = disputed
    r = replay(GAME, events)
    assert [p.rule_id for p in r.problems] == ["claim.paid"] and r.problems[0].seq == i
    assert r.index == len(events) - 1 and r.state.phase == "ended"
    with pytest.raises(RuleViolation) as caught:
        replay(GAME, events, level="raise")
    assert caught.value.problem.seq == i


def test_every_turn_of_a_disputed_game_can_be_shown_with_the_problem_marked(disputed):
    path, events, i = disputed
    review = Review(read_notation_file(path))
    assert review.problem_indexes() == [i]
    for turn in review.turns():
        at = review.turn_start(turn)
        assert f"turn {turn}," in review.show(at)
    shown = review.show(i)
    assert "problem at this event:" in shown and "[claim.paid]" in shown
    runner = CliRunner()
    out = runner.invoke(cli, ["show", str(path), "--at", f"seq:{i}"])
    assert out.exit_code == 0 and "[claim.paid]" in out.output
    last_turn = review.turns()[-1]
    assert runner.invoke(cli, ["show", str(path), "--at", f"turn:{last_turn}"]).exit_code == 0


def test_a_disputed_game_steps_through_every_event_and_back(disputed):
    path, events, i = disputed
    review = Review(read_notation_file(path))
    session = StepSession(review)
    opening = "\n".join(session.opening())
    assert f"1 problem(s) at events {i}" in opening
    seen = []
    for _ in range(len(events) - 1):
        session.handle("n")
        seen.append(session.at)
    assert seen == list(range(1, len(events)))
    for _ in range(len(events) - 1):
        session.handle("p")
    assert session.at == 0
    jumped = session.handle("!")
    assert session.at == i and any("[claim.paid]" in line for line in jumped)
    assert session.handle("!") == ["no problem after this event"]
    # stepping back one event restores from a snapshot: the state equals a straight replay's
    session.handle("p")
    straight = replay(GAME, events[: i])
    assert review.data(i - 1) == GAME.views.data(straight.state)
    out = CliRunner().invoke(cli, ["step", str(path)], input="!\nn\np\nt 3\nb\nq\n")
    assert out.exit_code == 0 and "[claim.paid]" in out.output and out.output.rstrip().endswith("bye")


def test_a_game_whose_start_cannot_be_played_is_one_clear_error(tmp_path):
    events = simulate_game("broken", NAMES[:2], 3, ("random",))
    seats = events[0].payload["seats"]
    events[0] = events[0]._replace(payload={**events[0].payload, "seats": [
        {**seats[0]}, {**seats[1], "city": seats[0]["city"]}]})
    path = tmp_path / "broken.txt"
    path.write_text(write(events))
    out = CliRunner().invoke(cli, ["show", str(path)])
    assert out.exit_code == 1 and "cannot be replayed" in out.output and "[start.seats]" in out.output
    audited = CliRunner().invoke(cli, ["audit", str(path)])
    assert audited.exit_code == 1 and "[start.seats]" in audited.output and "Traceback" not in audited.output
