"""Make the screenshots of the replay page in docs/page.md, and time its steps.

    python docs/img/page_screenshots.py            # needs Chromium (or REPLAY_CHROMIUM) and playwright

Three simulated games (seeded, so the pictures are the same each time): a 4-player 7 Wonders
Dice game with one claim changed, shown at its problem; a 4-player Flip 7 game in the middle
of a round, as one seat sees it; the two 7 Wonders Dice versions side by side. Then the time
a step takes on a 7-player 7 Wonders Dice page (the issue's "no visible delay").
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from helpers import disputed_log, simulated_log

from replay.services.bundle import page_html

HERE = Path(__file__).parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    chromium = os.environ.get("REPLAY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    wd = simulated_log("7wonders-dice", 4, 4)
    wd_disputed = disputed_log(wd)
    flip = simulated_log("flip7", 4, 4)
    big = simulated_log("7wonders-dice", 7, 7)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)

        def open_page(name: str, html: str):
            path = Path(tmp) / name
            path.write_text(html, encoding="utf-8")
            tab = browser.new_page(viewport={"width": 1400, "height": 1050})
            tab.goto(path.as_uri())
            return tab, len(html.encode("utf-8"))

        tab, _ = open_page("wd.html", page_html([wd_disputed]))
        tab.click(".timeline .marker")
        tab.screenshot(path=str(HERE / "page-problem.png"))
        tab, _ = open_page("flip.html", page_html([flip]))
        tab.evaluate("ReplayPage.go(120)")
        tab.select_option("#view", "Ben")
        tab.screenshot(path=str(HERE / "page-seat-view.png"))
        tab, _ = open_page("both.html", page_html([wd, wd_disputed]))
        tab.click("#to-difference")
        tab.screenshot(path=str(HERE / "page-two-versions.png"))

        tab, size = open_page("big.html", page_html([big]))
        last = len(big.events) - 1
        per_step = tab.evaluate(f"""() => {{
            const times = [];
            for (let i = 1; i <= {last}; i++) {{
                const t = performance.now(); ReplayPage.go(i); times.push(performance.now() - t);
            }}
            return times; }}""")
        jumps = tab.evaluate(f"""() => {{
            const times = [];
            for (let k = 0; k < 200; k++) {{
                const i = (k * 7919) % {last + 1};
                const t = performance.now(); ReplayPage.go(i); times.push(performance.now() - t);
            }}
            return times; }}""")
        browser.close()
    q = statistics.quantiles
    print(f"7-player 7 Wonders Dice page: {len(big.events)} events, {size:,} bytes")
    print(f"next event: median {statistics.median(per_step):.1f} ms, p95 {q(per_step, n=20)[-1]:.1f} ms")
    print(f"jump to any event: median {statistics.median(jumps):.1f} ms, p95 {q(jumps, n=20)[-1]:.1f} ms")


if __name__ == "__main__":
    main()
