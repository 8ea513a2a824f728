"""Saving a run's results as they finish: the loop ``evaluate`` and ``check`` share."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any


def progress_bar(total: int, initial: int, desc: str, enabled: bool) -> Any:
    """A tqdm bar on stderr counting documents (None when ``enabled`` is False)."""
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc=desc, unit="doc", file=sys.stderr)


def save_each(
    store: Any,
    run_id: int,
    items: Iterable[Any],
    save: Callable[[Any], None],
    *,
    bar: Any = None,
    cancel: threading.Event | None = None,
) -> str:
    """``save(item)`` for each item as it arrives (advancing ``bar``); returns the run status.

    "cancelled" when ``cancel`` was set, else "done". Any exception (an error, Ctrl-C, a kill
    signal turned into one) marks the run "interrupted" in the store and is re-raised, so
    what was saved stays and a rerun resumes. The bar is closed either way.
    """
    try:
        for item in items:
            save(item)
            if bar is not None:
                bar.update(1)
        return "cancelled" if cancel is not None and cancel.is_set() else "done"
    except BaseException:
        store.finish_run(run_id, status="interrupted")
        raise
    finally:
        if bar is not None:
            bar.close()
