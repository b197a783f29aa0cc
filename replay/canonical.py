"""Canonical JSON: one byte string per value, so equal data hashes equally on any machine.

Used for content hashes of rules packs, the hash chain of stored events, manifest
checksums and state hashes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(data: Any) -> bytes:
    """One byte string per value: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_hash(data: Any) -> str:
    """``sha256:<hex>`` of the canonical JSON of ``data`` (whitespace and key order do not count)."""
    return "sha256:" + hashlib.sha256(canonical_json(data)).hexdigest()
