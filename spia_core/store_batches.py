"""Provider batches of a run in the results store (``--llm-mode batch``).

Two tables (added by schema version 3; older stores gain them on open and stay readable):
``llm_batches`` holds one row per submitted provider batch (provider, batch id, stage,
round, status, counts, submitted_at) and ``llm_batch_requests`` the custom_id -> request key
-> document map of its requests, with each request's answer once the batch ended. A run that
is killed and restarted reads them back and polls its batches instead of submitting again.
Rows hold model answers and ids only, never a key.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BATCH_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_batches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    stage TEXT NOT NULL,
    round INTEGER NOT NULL,
    status TEXT NOT NULL,
    counts TEXT NOT NULL DEFAULT '{}',
    error TEXT NOT NULL DEFAULT '',
    submitted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (provider, batch_id)
);
CREATE INDEX IF NOT EXISTS llm_batches_run ON llm_batches (run_id);
CREATE TABLE IF NOT EXISTS llm_batch_requests (
    batch INTEGER NOT NULL REFERENCES llm_batches (id) ON DELETE CASCADE,
    custom_id TEXT NOT NULL,
    request_key TEXT NOT NULL,
    data_id TEXT NOT NULL,
    stage TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'succeeded', 'errored')),
    result TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (batch, custom_id)
);
CREATE INDEX IF NOT EXISTS llm_batch_requests_key ON llm_batch_requests (request_key);
"""


@dataclass
class LLMBatchRow:
    """One submitted provider batch."""

    id: int
    run_id: int
    provider: str
    model: str
    batch_id: str
    stage: str
    round: int
    status: str
    counts: dict[str, int] = field(default_factory=dict)
    error: str = ""
    submitted_at: str = ""
    updated_at: str = ""


@dataclass
class LLMBatchRequestRow:
    """One request of a stored batch and, once the batch ended, its answer."""

    batch: int
    custom_id: str
    request_key: str
    data_id: str
    stage: str
    state: str
    result: dict[str, Any] = field(default_factory=dict)


class LLMBatchRecords:
    """ResultStore methods for provider batches (mixed into :class:`spia_core.store.ResultStore`,
    which provides ``_tx``, ``_lock``, ``_conn`` and its ``_now`` / ``_dumps`` helpers)."""

    _tx: Any
    _lock: Any
    _conn: Any
    _now: Callable[[], str]
    _dumps: Callable[[Any], str]

    def add_llm_batch(
        self,
        run_id: int,
        *,
        provider: str,
        model: str,
        batch_id: str,
        stage: str,
        round: int,
        requests: list[tuple[str, str, str]],
    ) -> int:
        """Record a submitted batch and its ``(custom_id, request_key, data_id)`` requests."""
        now = self._now()
        with self._tx() as conn:
            cur = conn.execute(
                "INSERT INTO llm_batches (run_id, provider, model, batch_id, stage, round,"
                " status, submitted_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)",
                (run_id, provider, model, batch_id, stage, round, "in_progress", now, now),
            )
            row_id = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO llm_batch_requests (batch, custom_id, request_key, data_id, stage)"
                " VALUES (?,?,?,?,?)",
                [(row_id, cid, key, data_id, stage) for cid, key, data_id in requests],
            )
        return row_id

    def update_llm_batch(
        self, row_id: int, *, status: str, counts: dict[str, int], error: str = ""
    ) -> None:
        with self._tx() as conn:
            conn.execute(
                "UPDATE llm_batches SET status=?, counts=?, error=?, updated_at=? WHERE id=?",
                (status, self._dumps(counts), error, self._now(), row_id),
            )

    def save_llm_batch_answers(
        self, row_id: int, answers: list[tuple[str, str, dict[str, Any]]]
    ) -> None:
        """Store ``(custom_id, state, result)`` of a batch's requests in one transaction."""
        with self._tx() as conn:
            conn.executemany(
                "UPDATE llm_batch_requests SET state=?, result=? WHERE batch=? AND custom_id=?",
                [(state, self._dumps(result), row_id, cid) for cid, state, result in answers],
            )

    def llm_batches(self, run_id: int) -> list[LLMBatchRow]:
        """The run's batches, oldest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT * FROM llm_batches WHERE run_id=? ORDER BY id", (run_id,)
            ).fetchall()
        return [
            LLMBatchRow(
                id=int(r["id"]),
                run_id=int(r["run_id"]),
                provider=r["provider"],
                model=r["model"],
                batch_id=r["batch_id"],
                stage=r["stage"],
                round=int(r["round"]),
                status=r["status"],
                counts=json.loads(r["counts"]),
                error=r["error"],
                submitted_at=r["submitted_at"],
                updated_at=r["updated_at"],
            )
            for r in rows
        ]

    def llm_batch_requests(self, run_id: int) -> list[LLMBatchRequestRow]:
        """Every request of the run's batches (oldest batch first)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT q.* FROM llm_batch_requests q JOIN llm_batches b ON q.batch = b.id"
                " WHERE b.run_id=? ORDER BY b.id, q.rowid",
                (run_id,),
            ).fetchall()
        return [
            LLMBatchRequestRow(
                batch=int(r["batch"]),
                custom_id=r["custom_id"],
                request_key=r["request_key"],
                data_id=r["data_id"],
                stage=r["stage"],
                state=r["state"],
                result=json.loads(r["result"]),
            )
            for r in rows
        ]

    def forget_llm_batch_errors(self, run_id: int) -> int:
        """Drop the run's errored requests (a resumed run submits them again); returns how many."""
        with self._tx() as conn:
            cur = conn.execute(
                "DELETE FROM llm_batch_requests WHERE state='errored' AND batch IN"
                " (SELECT id FROM llm_batches WHERE run_id=?)",
                (run_id,),
            )
        return int(cur.rowcount or 0)
