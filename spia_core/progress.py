"""Progress inside a long stage, with counts ("people 120 of 450"), without changing signatures.

A stage callback is ``on_stage(stage, fraction)``; one that accepts a third argument also gets
``counts`` (``{"done": i, "total": n, "unit": "people"}``). Code deep inside a stage (the local
adversary's per-person loop) calls :func:`report`; the audit that runs the stage installs a
receiver with :func:`reporting`. The receiver is held in a context variable, so parallel audits
in threads do not see each other's progress.
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
from collections.abc import Callable, Iterator
from typing import Any

Receiver = Callable[[int, int, str], None]
_CURRENT: contextvars.ContextVar[Receiver | None] = contextvars.ContextVar(
    "spia_progress", default=None
)


@contextlib.contextmanager
def reporting(receiver: Receiver | None) -> Iterator[None]:
    """Within the block, :func:`report` calls go to ``receiver(done, total, unit)``."""
    token = _CURRENT.set(receiver)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def report(done: int, total: int, unit: str) -> None:
    """Tell the current receiver (if any) that ``done`` of ``total`` ``unit`` are finished."""
    receiver = _CURRENT.get()
    if receiver is not None:
        receiver(done, total, unit)


def takes_counts(callback: Callable[..., Any]) -> bool:
    """True when ``callback`` accepts a third positional argument (the counts)."""
    try:
        params = inspect.signature(callback).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)


def notify(
    callback: Callable[..., Any] | None,
    stage: str,
    fraction: float,
    counts: dict[str, Any] | None = None,
) -> None:
    """Call ``callback(stage, fraction[, counts])``, passing counts only if it takes them."""
    if callback is None:
        return
    if counts is not None and takes_counts(callback):
        callback(stage, fraction, counts)
    else:
        callback(stage, fraction)
