"""A fork process pool whose workers inherit the loaded spaCy pipeline, lexicons and stages.

The parent warms everything once (``preload``) and then forks: workers start with the model in
memory (copy-on-write) instead of each loading it again. Workers ask the kernel to kill them
when the parent dies (``PR_SET_PDEATHSIG``), so a killed ``evaluate``/``check`` leaves no
orphans, and they also stop when their parent's pid changes (the signal's fallback).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: ``--workers auto``: every core this process may run on.
AUTO = "auto"
_PR_SET_PDEATHSIG = 1

#: What the forked workers run with (set in the parent before the fork).
_state: dict[str, Any] = {}


def available_cores() -> int:
    """Cores this process may use (the CPU affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def resolve_workers(value: int | str | None) -> int:
    """``auto``/None -> the available cores; an integer >= 1 as is; anything else ValueError."""
    if value is None or (isinstance(value, str) and value.strip().lower() == AUTO):
        return available_cores()
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"--workers must be 'auto' or a whole number, got {value!r}") from None
    if n < 1:
        raise ValueError(f"--workers must be at least 1, got {n}")
    return n


def workers_arg(value: str) -> int:
    """argparse ``type=`` for ``--workers`` (``auto`` or N)."""
    import argparse

    try:
        return resolve_workers(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _die_with_parent(parent: int) -> None:
    """Worker initializer: SIGKILL this process when the parent dies (Linux), and a watchdog."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and shuts us down

    def watch() -> None:
        while True:
            threading.Event().wait(2.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="spia-parent-watch", daemon=True).start()


def _call(item: Any) -> Any:
    return _state["work"](item)


def run_forked(
    items: Iterable[Any],
    work: Callable[[Any], Any],
    *,
    workers: int,
    cancel: threading.Event | None = None,
    size: Callable[[Any], float] | None = None,
) -> Iterator[Any]:
    """Yield ``work(item)`` for every item as it finishes, in ``workers`` forked processes.

    ``work`` and everything it closes over are inherited by the fork, never pickled: load the
    model and build the stages before calling this. Results must be picklable. With ``size``
    (e.g. text length) the biggest items are started first, so no long document is left to
    run alone at the end while the other workers idle (results come as they finish anyway).
    """
    todo = list(items)
    if size is not None:
        todo.sort(key=size, reverse=True)  # stable: equal sizes keep their order
    if workers <= 1 or len(todo) <= 1:
        for item in todo:
            if cancel is not None and cancel.is_set():
                return
            yield work(item)
        return
    _state["work"] = work
    gc.collect()
    gc.freeze()  # keep the inherited objects' pages shared (no refcount-driven copies by gc)
    ctx = multiprocessing.get_context("fork")
    pool = cf.ProcessPoolExecutor(
        max_workers=min(workers, len(todo)),
        mp_context=ctx,
        initializer=_die_with_parent,
        initargs=(os.getpid(),),
    )
    futures = [pool.submit(_call, item) for item in todo]
    try:
        for fut in cf.as_completed(futures):
            if cancel is not None and cancel.is_set():
                break
            yield fut.result()
    finally:
        for fut in futures:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()
        _state.pop("work", None)


def run_threaded(
    items: Iterable[Any],
    work: Callable[[Any], Any],
    *,
    threads: int,
    cancel: threading.Event | None = None,
) -> Iterator[Any]:
    """Yield ``work(item)`` as each finishes, ``threads`` at a time (LLM stages: I/O bound)."""
    todo = list(items)
    with cf.ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        futures = [pool.submit(work, item) for item in todo]
        try:
            for fut in cf.as_completed(futures):
                if cancel is not None and cancel.is_set():
                    break
                yield fut.result()
        finally:
            for fut in futures:
                fut.cancel()


#: A short written text whose audit touches every lazily loaded model, lexicon and gazetteer.
WARMUP_TEXT = (
    "Dr. Hanna Vogt, a 47-year-old nurse from Leeds, married to an engineer, wrote to her "
    "brother in Porto on Monday 3 May 2021 (phone +44 20 7946 0958, ref. AB-1234567). She "
    "studied at a university in Scotland and now works for a small charity."
)


def warm_up(run: Callable[[str], Any]) -> None:
    """Run one throw-away audit in the parent so the fork inherits every loaded cache."""
    with contextlib.suppress(Exception):  # a failure shows up again on the real documents
        run(WARMUP_TEXT)
