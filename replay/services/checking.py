"""``replay verify``: the archive's own checks, then the derived tables'.

The archive layer knows nothing of derived tables (they are the analytics layer's); this
is where the two meet, so that one command says everything that is damaged and which
command repairs it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..analytics.project import check_derived
from ..archive import Archive
from ..archive.verify import Report, verify


def verify_all(archive: Archive, deep: bool = False, progress: Callable[[int], None] | None = None) -> Report:
    """Every check :func:`replay.archive.verify.verify` makes, plus every derived part's size and
    sha256 against the derived manifest (problems ``archive.derived``)."""
    report = verify(archive, deep=deep, progress=progress)
    report.problems.extend(check_derived(archive))
    return report
