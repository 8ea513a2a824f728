"""Background dataset runs for the dashboard: start, progress, cancel, list (no Streamlit).

Each run is a thread calling :func:`spia_core.batch.run_batch`; every document is saved to
the results store as it finishes (resumable). A run's progress is read through
:meth:`RunState.snapshot`, a consistent copy taken under the run's lock: the worker thread
appends while a page draws.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import spia_core.service.engines as engines
from spia_core import batch, sqlite_files
from spia_core.service.engines import OFFLINE, Endpoint
from spia_core.service.results import metric_values
from spia_core.sqlite_files import DamagedFileError
from spia_core.store import RunVersionMismatch

#: Why a failed run can be started again from scratch (``RunState.fresh_start``).
VERSION_MISMATCH = "version_mismatch"
DAMAGED_STORE = "damaged_store"


@dataclass
class RunSnapshot:
    """A consistent copy of a run's progress at one moment."""

    done: int
    total: int
    status: str
    rows: list[dict[str, Any]]
    errors: list[str]
    summary: dict[str, Any]
    n_outcomes: int
    elapsed: float
    eta: float | None
    store_run_id: int | None


def describe_config(cfg: dict[str, Any]) -> str:
    """``anonymizer (backbone) → adversary (backbone)`` and the LLM scoring stages."""

    def part(name: Any, bb: str | None) -> str:
        return f"{name} ({bb})" if bb and bb != OFFLINE else str(name)

    text = (
        f"{part(cfg.get('anonymizer'), cfg.get('anonymizer_backbone'))} → adversary "
        f"{part(cfg.get('adversary'), cfg.get('adversary_backbone'))}"
    )
    extra = [
        part(f"{stage} llm", cfg.get(f"{stage}_backbone"))
        for stage in ("matcher", "judge")
        if cfg.get(stage) == "llm"
    ]
    if cfg.get("utility_llm"):
        extra.append(part("utility llm", cfg.get("utility_backbone")))
    return text + (f"; {', '.join(extra)}" if extra else "")


@dataclass
class RunState:
    """Progress of one background dataset run (shared by every session of this server)."""

    run_id: str
    dataset: str
    config: dict[str, Any]
    total: int
    started: float
    concurrency: int = 1
    done: int = 0  # documents finished, resumed ones included
    processed: int = 0  # documents finished by this run (the ETA's rate)
    status: str = "running"  # running | finished | cancelled | failed
    rows: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[Any] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    store_run_id: int | None = None
    finished: float | None = None
    limit: int | None = None
    source: str = ""  # what was passed to BatchJobs.start (bundled name or JSONL path)
    #: Set when the run failed in a way "start fresh" mends: VERSION_MISMATCH (the stored run
    #: of this configuration was made by other code) or DAMAGED_STORE (``damaged_path``).
    fresh_start: str | None = None
    damaged_path: Path | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def elapsed(self) -> float:
        return (self.finished or time.time()) - self.started

    def eta(self) -> float | None:
        """Seconds left at this run's own rate (resumed documents cost nothing)."""
        if not self.processed or self.status != "running":
            return None
        return self.elapsed() / self.processed * max(self.total - self.done, 0)

    def describe(self) -> str:
        return describe_config(self.config)

    def record(self, outcome: Any, n_done: int, n_total: int) -> None:
        """One finished document (called from the worker thread)."""
        row: dict[str, Any] = {"data_id": outcome.data_id, "status": outcome.status}
        if outcome.report is not None:
            row.update(metric_values(outcome.report))
        row["seconds"] = round(outcome.elapsed_s, 2)
        row["error"] = outcome.error
        with self.lock:
            self.processed += 1
            self.done, self.total = n_done, n_total
            self.outcomes.append(outcome)
            self.rows.append(row)
            if outcome.status != "ok":
                self.errors.append(f"{outcome.data_id}: {outcome.error}")

    def live_summary(self) -> dict[str, Any]:
        """The run's headline figures over the documents finished so far."""
        with self.lock:
            if self.summary:
                return dict(self.summary)
            outcomes = list(self.outcomes)
        return batch.summarise(outcomes, self.elapsed()) if outcomes else {}

    def snapshot(self) -> RunSnapshot:
        """Progress, rows, errors and summary, copied together under the lock."""
        with self.lock:
            return RunSnapshot(
                self.done,
                self.total,
                self.status,
                [dict(r) for r in self.rows],
                list(self.errors),
                dict(self.summary),
                len(self.outcomes),
                self.elapsed(),
                self.eta(),
                self.store_run_id,
            )


class BatchJobs:
    """The dataset runs of this server process (a process-wide singleton in the app)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._runs: dict[str, RunState] = {}
        self._lock = threading.Lock()

    def list(self) -> list[RunState]:
        """Every run of this process, newest first."""
        with self._lock:
            runs = list(self._runs.values())
        return sorted(runs, key=lambda r: r.started, reverse=True)

    def get(self, run_id: str) -> RunState:
        return self._runs[run_id]

    def any_running(self) -> bool:
        return any(r.status == "running" for r in self.list())

    def cancel(self, run_id: str) -> None:
        """Cancel after the documents in progress (the store keeps every finished one)."""
        self._runs[run_id].cancel.set()

    def start(
        self,
        dataset: str,
        choices: dict[str, Any],
        limit: int | None,
        concurrency: int = 4,
        *,
        endpoint: Endpoint | None = None,
        api_keys: dict[str, str] | None = None,
        resume: bool = True,
    ) -> RunState:
        """Run ``choices`` on ``dataset`` (bundled name or SPIA JSONL path) in a thread.

        Configurations with an LLM stage audit ``concurrency`` documents at a time. Raises
        the dataset loader's error (it names file, line and field) before any thread starts.
        ``resume=False`` starts a new stored run even when one of this configuration exists.
        """
        ref = batch.load_dataset_ref(dataset)
        total = min(limit, len(ref.documents)) if limit else len(ref.documents)
        config = engines.audit_config({**choices, "dataset": ref.name}, endpoint=endpoint)
        local = engines.is_local_config(config)
        with self._lock:
            run = RunState(
                f"r{len(self._runs) + 1}",
                ref.name,
                choices,
                total,
                time.time(),
                1 if local else concurrency,
                limit=limit,
                source=dataset,
            )
            self._runs[run.run_id] = run
        batch_cfg = batch.BatchConfig(
            dataset=dataset,
            audit=config,
            limit=limit,
            data_dir=self.data_dir,
            concurrency=run.concurrency,
            api_keys=dict(api_keys or {}),
            resume=resume,
        )
        # not a daemon (a process exiting under spaCy's native code crashes): at interpreter
        # exit the run is cancelled and the documents in progress finish; the store resumes
        register = getattr(threading, "_register_atexit", None)
        if register is not None:
            register(run.cancel.set)
        threading.Thread(
            target=_work, args=(run, batch_cfg, ref), name=f"spia-run-{run.run_id}", daemon=False
        ).start()
        return run

    def start_fresh(
        self,
        run_id: str,
        *,
        endpoint: Endpoint | None = None,
        api_keys: dict[str, str] | None = None,
    ) -> RunState:
        """Start a failed run again from scratch, mending what made it fail.

        A version mismatch gets a new stored run (the old one stays in the store); a damaged
        store is first moved aside (``*.damaged-<time>``, as ``store repair`` does).
        """
        old = self.get(run_id)
        if old.fresh_start is None:
            raise ValueError(f"run {run_id} did not fail in a way a fresh start mends")
        damaged = old.damaged_path if old.fresh_start == DAMAGED_STORE else None
        if damaged is not None and sqlite_files.check_file(damaged).startswith("damaged"):
            sqlite_files.set_aside(damaged)
        return self.start(
            old.source or old.dataset,
            old.config,
            old.limit,
            old.concurrency,
            endpoint=endpoint,
            api_keys=api_keys,
            resume=old.fresh_start != VERSION_MISMATCH,
        )


def _work(run: RunState, batch_cfg: Any, ref: Any) -> None:
    """The thread body of one run."""
    try:
        result = batch.run_batch(
            batch_cfg, progress=False, on_document=run.record, cancel=run.cancel, dataset=ref
        )
        with run.lock:
            run.summary = result.summary
            run.store_run_id = result.run_id
            run.done = int(result.summary.get("n_docs", run.done))
            run.status = "cancelled" if run.cancel.is_set() else "finished"
    except Exception as exc:  # shown on the page, never swallowed
        with run.lock:
            run.errors.append(f"run failed: {type(exc).__name__}: {exc}")
            run.status = "failed"
            if isinstance(exc, RunVersionMismatch):
                run.fresh_start = VERSION_MISMATCH
            elif isinstance(exc, DamagedFileError):
                run.fresh_start, run.damaged_path = DAMAGED_STORE, exc.path
    finally:
        run.finished = time.time()
