"""``--engine ray``: the same batch on a Ray cluster, one actor per worker holding the stages.

Each actor builds its worker once (spaCy model, lexicons, stages) and audits the documents sent
to it; the driver keeps two documents in flight per actor and yields each result as it comes
back, so the caller stores it at once exactly as with the local pool. A lost worker is
restarted by Ray (``max_restarts``) and its document is retried (``max_task_retries``); the
store is keyed by document, so a retried document is saved once. Without ``address`` a local
Ray instance with ``workers`` CPUs is started for the run and shut down after it; with one,
the run joins that cluster, whose nodes must have the same ``spia-audit[ray]`` installed
(docs/scale.md).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

#: How often Ray restarts a lost actor, and retries the document it was auditing.
MAX_RESTARTS = 4
MAX_TASK_RETRIES = 3
#: Documents queued per actor (one running, one waiting).
IN_FLIGHT_PER_ACTOR = 2
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


class RayUnavailableError(ImportError):
    """Ray is not installed (it is the optional extra ``spia-audit[ray]``)."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(
            "--engine ray needs Ray: pip install 'spia-audit[ray]' (or ray==2.60.0)"
        ) from None
    return ray


class _Holder:
    """The actor: one worker built from ``spec``, reused for every document."""

    def __init__(self, worker_cls: Any, spec: dict[str, Any]) -> None:
        self.worker = worker_cls(spec)

    def run(self, item: Any) -> Any:
        return self.worker(item)

    def pid(self) -> int:
        return os.getpid()


def start(ray: Any, workers: int, address: str | None) -> bool:
    """Connect to ``address`` or start a local instance; True when this call started it."""
    if ray.is_initialized():
        return False
    env = {
        "PYTHONPATH": os.pathsep.join(p for p in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if p)
    }
    for name in ("SPIA_BUNDLED_DATA", "SPIA_DATA_DIR"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    common = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
    if address:
        ray.init(address=address, **common)
    else:
        ray.init(
            num_cpus=workers,
            object_store_memory=256 * 1024 * 1024,
            runtime_env={"env_vars": env},
            **common,
        )
    return True


def run_on_ray(
    items: Iterable[Any],
    worker_cls: Any,
    spec: dict[str, Any],
    *,
    workers: int,
    address: str | None = None,
    cancel: threading.Event | None = None,
    size: Callable[[Any], float] | None = None,
) -> Iterator[Any]:
    """Yield ``worker_cls(spec)(item)`` for every item, computed by ``workers`` Ray actors
    (the biggest first when ``size`` is given, as :func:`spia_core.scale.pool.run_forked`)."""
    ray = _ray()
    todo = list(items)
    if size is not None:
        todo.sort(key=size, reverse=True)
    if not todo:
        return
    started = start(ray, workers, address)
    actor_cls = ray.remote(
        num_cpus=1, max_restarts=MAX_RESTARTS, max_task_retries=MAX_TASK_RETRIES
    )(_Holder)
    actors = [actor_cls.remote(worker_cls, spec) for _ in range(max(1, min(workers, len(todo))))]
    try:
        yield from _drive(ray, actors, todo, cancel)
    finally:
        for actor in actors:
            ray.kill(actor)
        if started:
            ray.shutdown()


def _drive(
    ray: Any, actors: list[Any], todo: list[Any], cancel: threading.Event | None
) -> Iterator:
    queue = list(reversed(todo))
    busy: dict[Any, Any] = {}  # ref -> actor
    load = {id(a): 0 for a in actors}

    def submit() -> None:
        while queue:
            actor = min(actors, key=lambda a: load[id(a)])
            if load[id(actor)] >= IN_FLIGHT_PER_ACTOR:
                return
            busy[actor.run.remote(queue.pop())] = actor
            load[id(actor)] += 1

    submit()
    while busy:
        if cancel is not None and cancel.is_set():
            return
        ready, _ = ray.wait(list(busy), num_returns=1)
        for ref in ready:
            actor = busy.pop(ref)
            load[id(actor)] -= 1
            result = ray.get(ref)
            submit()
            yield result
