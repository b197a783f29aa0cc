"""The append-only Parquet archive: a directory of immutable files plus a manifest."""

from .store import NEW_STREAM, Archive, CommitResult, GameInfo, PreparedAppend, StreamAppend

__all__ = ["Archive", "CommitResult", "GameInfo", "NEW_STREAM", "PreparedAppend", "StreamAppend"]
