"""Worker processes forked from this one, for the commands that spread work over the cores
(``replay project --workers``, ``replay simulate --workers``).

Workers are forked so that they inherit what the parent has set up (the archive, the game, its pack)
instead of being sent it; what they send back is plain data (Arrow tables, Parquet bytes).
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.pool
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")


def fork_pool(workers: int) -> multiprocessing.pool.Pool:
    """``workers`` processes forked from this one.

    Whatever this process holds is collected first, then frozen while the workers fork: a child's
    collector never walks what it inherited, so it never finalizes an object of the parent's (a
    DuckDB connection left in a cycle once made a worker's collector crash the worker), and the
    inherited pages stay shared."""
    gc.collect()
    gc.freeze()
    try:
        return multiprocessing.get_context("fork").Pool(workers)
    finally:
        gc.unfreeze()


def in_order(pool: multiprocessing.pool.Pool | None, func: Callable[[_T], _R], items: Iterable[_T],
             ahead: int) -> Iterator[_R]:
    """``func`` of each item, in the items' order: by the pool's workers (None: here, one at a time), with
    at most ``ahead`` items given out and not yet taken, so that results wait in memory only while
    the caller is busy with the one before (``Pool.imap`` would hand out every item at once)."""
    if pool is None:
        yield from map(func, items)
        return
    source = iter(items)
    pending: deque[multiprocessing.pool.AsyncResult[_R]] = deque()
    for item in source:
        pending.append(pool.apply_async(func, (item,)))
        if len(pending) >= ahead:
            break
    while pending:
        result = pending.popleft().get()
        following = next(source, _NONE)
        if following is not _NONE:
            pending.append(pool.apply_async(func, (following,)))
        yield result


_NONE = object()
