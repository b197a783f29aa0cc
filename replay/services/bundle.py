"""``replay view`` and ``replay bundle``: a game's page, and everything needed to settle a dispute.

A bundle holds, for each version of the game: its events (JSON Lines, and the game's notation
where it has one), the audit report (text and JSON), and the pinned rules pack; and the page
that shows them. It is a zip file, or one HTML file whose page offers the same files for
download. Nothing in it needs the tool: the page opens from disk in any browser.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import NotOffered, ReplayError
from ..jsonl import dump_line
from ..packs import RulesPack, pack_json
from ..page import assemble
from .audit import audit
from .logs import Log
from .page import page_data

ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Every member's timestamp: the same games make the same bundle, byte for byte."""


def page_html(logs: Sequence[Log], packs: Iterable[RulesPack] = (), attachments: Sequence[dict[str, str]] = ()) -> str:
    """The self-contained page of one game, or of two versions of one game side by side."""
    data = page_data(logs, packs)
    if attachments:
        data["attachments"] = list(attachments)
    return assemble(data, _boards(logs))


def _boards(logs: Sequence[Log]) -> dict[str, str]:
    boards = {}
    for log in logs:
        script = log.game.views.page_script()
        if script is not None:
            boards[log.game.kind] = script
    return boards


@dataclass(frozen=True)
class BundleFile:
    name: str
    text: str


def bundle_files(logs: Sequence[Log], packs: Iterable[RulesPack] = ()) -> list[BundleFile]:
    """The files of a dispute bundle, page last (it is made from the same logs)."""
    packs = list(packs)
    files: list[BundleFile] = []
    prefixes = [""] if len(logs) == 1 else ["version-1/", "version-2/"]
    seen_packs: set[str] = set()
    for prefix, log in zip(prefixes, logs):
        files.append(BundleFile(f"{prefix}events.jsonl", "".join(dump_line(e) for e in log.events)))
        notation = _notation(log)
        if notation is not None:
            files.append(BundleFile(f"{prefix}game.txt", notation))
        report = audit(log, packs)
        files.append(BundleFile(f"{prefix}audit.txt", report.to_text()))
        files.append(BundleFile(f"{prefix}audit.json", json.dumps(report.to_json(), indent=2) + "\n"))
        pack = log.library(packs).find(log.events[0].payload["ruleset"])
        name = f"packs/{log.game.kind}-{pack.content_hash.removeprefix('sha256:')[:16]}.json"
        if name not in seen_packs:
            seen_packs.add(name)
            files.append(BundleFile(name, pack_json(pack)))
    files.append(BundleFile("README.txt", _readme(logs, [f.name for f in files])))
    return files


def _notation(log: Log) -> str | None:
    if log.game.notation is None:
        return None
    try:
        return log.game.notation.write(log.events)
    except (NotOffered, ReplayError):
        return None


def _readme(logs: Sequence[Log], names: Sequence[str]) -> str:
    games = " and ".join(f"{log.source} ({log.game.title}, {len(log.events)} events)" for log in logs)
    return (f"A dispute bundle made by replay: {games}.\n\n"
            "Open page.html in any browser (no network needed) to step through the game, see each problem\n"
            "the audit found at its event, and the log in the game's notation. The other files:\n\n"
            + "".join(f"  {n}\n" for n in names)
            + "  page.html\n\n"
            "events.jsonl is the game as recorded (one event a line); game.txt the same in the game's notation;\n"
            "audit.txt and audit.json what every rule check found; packs/ the rules pack the game pinned.\n"
            "With replay installed: `replay audit events.jsonl` repeats the audit.\n")


def make_bundle(logs: Sequence[Log], kind: str, packs: Iterable[RulesPack] = ()) -> tuple[bytes, list[str]]:
    """The bundle's bytes (``kind`` ``zip``, or ``html``: the page with the files attached) and the
    names of the files it holds."""
    packs = list(packs)
    files = bundle_files(logs, packs)
    if kind == "html":
        page = page_html(logs, packs, [{"name": f.name, "text": f.text} for f in files])
        return page.encode("utf-8"), [f.name for f in files]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for f in [*files, BundleFile("page.html", page_html(logs, packs))]:
            archive.writestr(zipfile.ZipInfo(f.name, ZIP_TIME), f.text.encode("utf-8"), zipfile.ZIP_DEFLATED)
    return buffer.getvalue(), [f.name for f in files] + ["page.html"]


def bundle_kind(path: Path) -> str:
    """What ``-o`` asks for: ``zip`` or ``html``; any other extension is an error that says which exist."""
    suffix = path.suffix.lower()
    if suffix not in (".zip", ".html", ".htm"):
        raise ReplayError(f"{path}: a bundle is a .zip file or one .html page; give -o NAME.zip or -o NAME.html")
    return "html" if suffix in (".html", ".htm") else "zip"
