"""The replay page in a real browser: headless Chromium (Debian's package), driven by Playwright.

The page is opened from ``file://`` as a user would open it; keys are pressed and problems
clicked, and what the page shows is checked against the state the projector gives at that
step. `.ci/run` installs Chromium; elsewhere set ``REPLAY_CHROMIUM`` to a Chromium binary, or the
tests are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import disputed_log, simulated_log

from replay.driver import Replay
from replay.page import assemble
from replay.services.bundle import page_html
from replay.services.logs import Log
from replay.services.page import page_data

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")

CHROMIUM = os.environ.get("REPLAY_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("no Chromium to drive: install Debian's chromium package (`.ci/run` does) or set REPLAY_CHROMIUM",
                allow_module_level=True)

# As the machine's own check starts it: headless, no sandbox (root in CI), and no background
# networking, which this machine's closed network would refuse many times a second.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Page:
    """One page file opened in the browser, with the script errors it raised."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.tab = browser.new_page(viewport={"width": 1400, "height": 1000})
        self.errors: list[str] = []
        self.tab.on("pageerror", lambda e: self.errors.append(str(e)))
        self.tab.goto(path.as_uri())

    def keys(self, *names: str) -> None:
        for name in names:
            self.tab.keyboard.press(name)

    def at(self) -> int:
        return int(self.tab.inner_text("#counter").split()[1])

    def value(self, selector: str) -> int:
        return int(self.tab.get_attribute(selector, "data-value"))


def states(log: Log) -> list[Any]:
    """The whole table after every event, from a straight replay."""
    r = Replay(log.game)
    out = []
    for e in log.events:
        r.push(e)
        out.append(log.game.views.data(r.state))
    return out


def write(tmp_path: Path, name: str, html: str) -> Path:
    path = tmp_path / name
    path.write_text(html, encoding="utf-8")
    return path


def test_keys_move_through_the_game_and_the_board_shows_the_state(browser, tmp_path):
    log = simulated_log("7wonders-dice", 11, 3)
    page = Page(browser, write(tmp_path, "wd.html", page_html([log])))
    truth = states(log)
    events = page_data([log])["versions"][0]["events"]
    last = len(log.events) - 1
    assert page.at() == 0
    page.keys("ArrowRight", "ArrowRight", "ArrowRight")
    assert page.at() == 3
    page.keys("Shift+ArrowRight")
    turn_start = next(i for i in range(4, last + 1) if events[i]["turn"] != events[3]["turn"])
    assert page.at() == turn_start
    page.keys("End")
    assert page.at() == last
    page.keys("Home", *["ArrowRight"] * 40)
    for i in (40, 41, 77, last):
        page.tab.evaluate(f"ReplayPage.go({i})")
        assert page.at() == i
        for seat, player in enumerate(truth[i]["players"]):
            assert page.value(f'#board-0 [data-path="players[{seat}].coins"]') == player["coins"], (i, seat)
        acting = events[i]["seat"]
        if acting is not None:
            assert page.tab.get_attribute("#board-0 .seat.acting", "data-seat") == str(acting)
    coins_change = next(i for i in range(1, last) if truth[i]["players"] != truth[i - 1]["players"]
                        and any(a["coins"] != b["coins"] for a, b in zip(truth[i]["players"], truth[i - 1]["players"])))
    page.tab.evaluate(f"ReplayPage.go({coins_change})")
    assert page.tab.query_selector_all("#board-0 .changed"), "what the event changed is not highlighted"
    shot = tmp_path / "wd.png"
    page.tab.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    assert page.errors == []


def test_clicking_a_problem_jumps_to_it_and_says_what_was_expected(browser, tmp_path):
    log = disputed_log(simulated_log("7wonders-dice", 12, 3))
    problem = page_data([log])["versions"][0]["problems"][0]
    page = Page(browser, write(tmp_path, "disputed.html", page_html([log])))
    page.tab.click(".timeline .marker")
    assert page.at() == problem["event"]
    assert page.tab.inner_text(".problem .rule") == f"[{problem['rule_id']}]"
    assert page.tab.inner_text(".problem .expected") == str(problem["expected"])
    assert page.tab.inner_text(".problem .found") == str(problem["found"])
    line = page.tab.query_selector(".log .line.current")
    assert line is not None and "problem-line" in (line.get_attribute("class") or "")
    assert page.errors == []


def test_one_seat_s_view_of_a_hidden_game(browser, tmp_path):
    log = simulated_log("flip7", 13, 4)
    truth = states(log)
    page = Page(browser, write(tmp_path, "flip7.html", page_html([log])))
    page.tab.evaluate("ReplayPage.go(60)")
    assert int(page.tab.inner_text('#board-0 [data-path="draw"]')) == len(truth[60]["draw"])
    page.tab.select_option("#view", "Ben")
    assert int(page.tab.inner_text('#board-0 [data-path="draw"]')) == len(truth[60]["draw"])
    seen = page.tab.evaluate("ReplayPage.stateAt(0, 'Ben', 60)")
    assert seen["draw"]["count"] == len(truth[60]["draw"]) and seen["draw"]["cards"] == sorted(truth[60]["draw"])
    for seat in range(4):
        assert page.value(f'#board-0 [data-path="total[{seat}]"]') == truth[60]["total"][seat]
    assert page.errors == []


def test_any_game_falls_back_to_the_state_as_a_tree(browser, tmp_path):
    log = simulated_log("pig", 14, 3)
    truth = states(log)
    page = Page(browser, write(tmp_path, "tree.html", assemble(page_data([log]), {})))  # no board script
    page.tab.evaluate("ReplayPage.go(30)")
    assert page.tab.query_selector("#board-0 .tree") is not None
    assert page.tab.inner_text('#board-0 [data-path="scores"]') == "[" + ", ".join(map(str, truth[30]["scores"])) + "]"
    assert page.errors == []


def test_two_versions_side_by_side_from_the_first_difference(browser, tmp_path):
    log = simulated_log("7wonders-dice", 15, 3)
    other = disputed_log(log)
    first = page_data([log, other])["first_difference"]
    page = Page(browser, write(tmp_path, "both.html", page_html([log, other])))
    assert len(page.tab.query_selector_all("section.version")) == 1
    page.tab.click("#to-difference")
    assert page.at() == first
    assert len(page.tab.query_selector_all("section.version")) == 2
    assert page.tab.query_selector('section.version[data-version="1"] .problem') is not None
    assert page.tab.query_selector('section.version[data-version="0"] .problem') is None
    assert page.errors == []
