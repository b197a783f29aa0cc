"""St. Petersburg's board on the replay page, in a real browser (skipped without Chromium, as
tests/test_page_browser.py is): the roubles and points shown are the state's at that step, and in
one seat's view another seat's hand is only a count."""

from __future__ import annotations

import pytest
from helpers import simulated_log

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")
from test_page_browser import CHROMIUM, Page, browser, states, write  # noqa: F401

from replay.services.bundle import page_html


def test_the_board_shows_rows_purses_and_hides_hands(browser, tmp_path):  # noqa: F811
    assert CHROMIUM
    log = simulated_log("st-petersburg", 4, 3)
    truth = states(log)
    at = next(i for i, s in enumerate(truth) if s["hand"][0] and i > 20)
    page = Page(browser, write(tmp_path, "stpete.html", page_html([log])))
    page.tab.evaluate(f"ReplayPage.go({at})")
    for seat in range(3):
        assert int(page.tab.inner_text(f'#board-0 [data-path="rubles[{seat}]"]')) == truth[at]["rubles"][seat]
        assert page.value(f'#board-0 [data-path="points[{seat}]"]') == truth[at]["points"][seat]
    assert len(page.tab.query_selector_all('#board-0 [data-path^="top["]')) == len(truth[at]["top"])
    page.tab.select_option("#view", "Ben")
    assert f'{len(truth[at]["hand"][0])} hidden' in page.tab.inner_text('#board-0 [data-path="hand[0]"]')
    assert page.errors == []
