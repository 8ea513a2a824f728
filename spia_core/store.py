"""SQLite results store: runs (audits and evaluations) and their per-document results.

One database file (WAL mode) in the data directory (``SPIA_DATA_DIR`` or ``./spia_data``).
Each document is committed as soon as it finishes, so an interrupted run resumes from its
``run_key`` (configuration + dataset hash). Thread-safe: one connection guarded by a lock
(``check_same_thread=False``), usable from Streamlit's script threads. Configurations are
stripped of anything that looks like a secret before they are saved.
"""

from __future__ import annotations

import csv
import datetime as _dt
import hashlib
import io
import json
import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spia_core.sqlite_files import open_checked
from spia_core.store_batches import BATCH_SCHEMA, LLMBatchRecords

DB_NAME = "results.sqlite3"
#: Schema version (PRAGMA user_version): 2 added documents.input_sha256 and runs.code_hash;
#: 3 added the run kind "check" (`check` runs were stored as "evaluate" before);
#: 4 the provider batch tables of ``--llm-mode batch`` (store_batches.BATCH_SCHEMA).
SCHEMA_VERSION = 4
#: Kinds of run: one audit, a dataset evaluation, a `check` of redacted documents.
RUN_KINDS: tuple[str, ...] = ("audit", "evaluate", "check")
#: Name parts that mark a configuration key as a credential (api_key, x-api-key, apiKey,
#: access_token, client_secret, password ...). Parts are split on "_", "-", "." and spaces.
_SECRET_PARTS = frozenset(
    {
        "key",
        "apikey",
        "secret",
        "secrets",
        "token",
        "password",
        "passwd",
        "credential",
        "credentials",
        "auth",
        "authorization",
        "bearer",
    }
)
#: Parts that mark a secret wherever they appear (password_hash, apikey_env, ...).
_ALWAYS_SECRET = frozenset({"apikey", "secret", "password", "passwd", "credential", "credentials"})
#: Keys that end in a secret part yet carry no secret.
_NOT_SECRET = frozenset({"run_key", "sort_key", "cache_key"})
_KEY_PARTS = re.compile(r"[_\-.\s]+")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_key TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('audit', 'evaluate', 'check')),
    config TEXT NOT NULL,
    package_version TEXT NOT NULL,
    prompt_versions TEXT NOT NULL DEFAULT '{}',
    dataset_name TEXT NOT NULL DEFAULT '',
    dataset_hash TEXT NOT NULL DEFAULT '',
    started_at TEXT NOT NULL,
    ended_at TEXT,
    status TEXT NOT NULL DEFAULT 'running',
    coverage TEXT NOT NULL DEFAULT '{}',
    summary TEXT NOT NULL DEFAULT '{}',
    code_hash TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS runs_key ON runs (run_key);
CREATE TABLE IF NOT EXISTS documents (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    data_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '{}',
    summary TEXT NOT NULL DEFAULT '{}',
    finished_at TEXT NOT NULL,
    input_sha256 TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, data_id)
);
"""


class RunVersionMismatch(ValueError):
    """A run to resume was made by other code (results would mix versions)."""


def _migrate(conn: sqlite3.Connection, found: int) -> None:
    """Create the schema, or bring a store of an older schema version up to date."""
    conn.executescript(_SCHEMA + BATCH_SCHEMA)
    for table, column in (("documents", "input_sha256"), ("runs", "code_hash")):
        names = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in names:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT NOT NULL DEFAULT ''")
    _allow_check_kind(conn)


def _allow_check_kind(conn: sqlite3.Connection) -> None:
    """Stores before version 3 allow the kinds audit/evaluate only, and hold `check` runs as
    "evaluate" runs whose config says ``"command": "check"``: rebuild the runs table with the
    new constraint (documents keep their run ids) and re-key those runs as kind "check"."""
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name='runs'").fetchone()
    if "'check'" not in sql:  # SQLite cannot alter a CHECK: new table, copy, swap
        columns = ", ".join(row[1] for row in conn.execute("PRAGMA table_info(runs)"))
        create = _SCHEMA.split(";")[0].replace("IF NOT EXISTS runs", "runs_v3")
        conn.execute("PRAGMA foreign_keys=OFF")  # dropping the old table must not cascade
        conn.executescript(
            f"BEGIN; {create}; INSERT INTO runs_v3 ({columns}) SELECT {columns} FROM runs;"
            " DROP TABLE runs; ALTER TABLE runs_v3 RENAME TO runs;"
            " CREATE INDEX IF NOT EXISTS runs_key ON runs (run_key); COMMIT;"
        )
    rows = conn.execute(
        "SELECT id, config, dataset_hash FROM runs WHERE kind='evaluate'"
        " AND json_extract(config, '$.command') = 'check'"
    ).fetchall()
    for run_id, config, dataset_hash in rows:
        key = run_key("check", json.loads(config), dataset_hash)
        conn.execute("UPDATE runs SET kind='check', run_key=? WHERE id=?", (key, run_id))


def default_data_dir() -> Path:
    """``$SPIA_DATA_DIR`` when set, else ``./spia_data``."""
    return Path(os.environ.get("SPIA_DATA_DIR") or "spia_data")


def is_secret_key(key: str) -> bool:
    """True for a configuration key that may hold a credential (api_key, token, secret...)."""
    lowered = key.casefold()
    if lowered in _NOT_SECRET:
        return False
    parts = [p for p in _KEY_PARTS.split(lowered) if p]
    if not parts:
        return False
    # "api_key", "access_token", "client_secret": the last part names the secret;
    # "token_recall", "gt_keyword", "max_tokens" are not secrets.
    return parts[-1] in _SECRET_PARTS or any(p in _ALWAYS_SECRET for p in parts)


def strip_secrets(value: Any) -> Any:
    """A copy of ``value`` with every dict entry whose key looks like a secret removed."""
    if isinstance(value, dict):
        return {k: strip_secrets(v) for k, v in value.items() if not is_secret_key(str(k))}
    if isinstance(value, (list, tuple)):
        return [strip_secrets(v) for v in value]
    return value


def _strip_config(result: dict[str, Any]) -> dict[str, Any]:
    """A stored result with its ``config`` (if any) stripped of secrets."""
    if isinstance(result.get("config"), dict):
        return {**result, "config": strip_secrets(result["config"])}
    return result


def run_key(kind: str, config: dict[str, Any], dataset_hash: str = "") -> str:
    """Stable id of a run: kind + secret-free configuration + dataset hash."""
    payload = json.dumps(
        {"kind": kind, "config": strip_secrets(config), "dataset": dataset_hash},
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    """JSON text SQLite can store: a lone surrogate (not UTF-8) is written as an escape."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, default=str)
    return text


def _storable(text: str) -> str:
    """``text`` with any character UTF-8 cannot encode (a lone surrogate) escaped."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass
class RunInfo:
    """A run's manifest row."""

    id: int
    run_key: str
    kind: str
    config: dict[str, Any]
    package_version: str
    prompt_versions: dict[str, str]
    dataset_name: str
    dataset_hash: str
    started_at: str
    ended_at: str | None
    status: str
    coverage: dict[str, Any]
    summary: dict[str, Any]
    n_ok: int = 0
    n_failed: int = 0
    #: Content hash of the code and data that decide results (see spia_core.identity).
    code_hash: str = ""


@dataclass
class DocumentRow:
    """One document's stored result."""

    run_id: int
    data_id: str
    status: str
    error: str
    result: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)
    finished_at: str = ""
    #: sha256 of the input the result was computed from (verified before a resume).
    input_sha256: str = ""


class ResultStore(LLMBatchRecords):
    """The SQLite store. ``ResultStore()`` opens (and creates) the default data directory's DB."""

    _now = staticmethod(_now)
    _dumps = staticmethod(_dumps)

    def __init__(self, data_dir: str | Path | None = None) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / DB_NAME
        self._lock = threading.RLock()
        self._conn = open_checked(
            self.path,
            what="the results store",
            version=SCHEMA_VERSION,
            migrate=_migrate,
            row_factory=True,
        )
        with self._lock:
            self._conn.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._conn
                self._conn.commit()
            except BaseException:
                self._conn.rollback()
                raise

    # ----------------------------------------------------------------- runs

    def start_run(
        self,
        kind: str,
        config: dict[str, Any],
        *,
        dataset_name: str = "",
        dataset_hash: str = "",
        prompt_versions: dict[str, str] | None = None,
        resume: bool = True,
        code_hash: str = "",
    ) -> RunInfo:
        """Open a run; with ``resume`` an unfinished or finished run of the same key is reused.

        Raises :class:`RunVersionMismatch` when that run was made by other code
        (``code_hash`` differs): resuming would mix results of two versions.
        """
        from spia_core import __version__

        clean = strip_secrets(config)
        key = run_key(kind, clean, dataset_hash)
        if resume:
            existing = self.find_run(key)
            if existing is not None and existing.code_hash != code_hash:
                made_by = existing.code_hash[:12] or f"an unversioned {existing.package_version}"
                raise RunVersionMismatch(
                    f"run {existing.id} of this configuration and dataset in {self.path} was made "
                    f"by other code ({made_by}; this code is {code_hash[:12] or 'unversioned'}) "
                    f"with {existing.n_ok + existing.n_failed} document(s) done; resuming would "
                    "mix results of two versions. Start fresh with --no-resume (the old run "
                    "stays in the store) or delete it with `python -m spia_core store purge`."
                )
            if existing is not None:
                with self._tx() as conn:
                    conn.execute(
                        "UPDATE runs SET status='running', ended_at=NULL WHERE id=?",
                        (existing.id,),
                    )
                return self.load_run(existing.id)
        with self._tx() as conn:
            cur = conn.execute(
                "INSERT INTO runs (run_key, kind, config, package_version, prompt_versions,"
                " dataset_name, dataset_hash, started_at, code_hash) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    key,
                    kind,
                    _dumps(clean),
                    __version__,
                    _dumps(prompt_versions or {}),
                    dataset_name,
                    dataset_hash,
                    _now(),
                    code_hash,
                ),
            )
            run_id = int(cur.lastrowid or 0)
        return self.load_run(run_id)

    def find_run(self, key: str) -> RunInfo | None:
        """The latest run with this key, or None."""
        with self._lock:
            row = self._conn.execute(
                "SELECT id FROM runs WHERE run_key=? ORDER BY id DESC LIMIT 1", (key,)
            ).fetchone()
        return None if row is None else self.load_run(int(row["id"]))

    def finish_run(
        self,
        run_id: int,
        *,
        status: str = "done",
        summary: dict[str, Any] | None = None,
        coverage: dict[str, Any] | None = None,
    ) -> None:
        with self._tx() as conn:
            conn.execute(
                "UPDATE runs SET status=?, ended_at=?, summary=?, coverage=? WHERE id=?",
                (status, _now(), _dumps(summary or {}), _dumps(coverage or {}), run_id),
            )

    def set_prompt_versions(self, run_id: int, versions: dict[str, str]) -> None:
        with self._tx() as conn:
            conn.execute("UPDATE runs SET prompt_versions=? WHERE id=?", (_dumps(versions), run_id))

    def _run_info(self, row: sqlite3.Row) -> RunInfo:
        counts = self._conn.execute(
            "SELECT status, COUNT(*) AS n FROM documents WHERE run_id=? GROUP BY status",
            (row["id"],),
        ).fetchall()
        by_status = {r["status"]: int(r["n"]) for r in counts}
        return RunInfo(
            id=int(row["id"]),
            run_key=row["run_key"],
            kind=row["kind"],
            config=json.loads(row["config"]),
            package_version=row["package_version"],
            prompt_versions=json.loads(row["prompt_versions"]),
            dataset_name=row["dataset_name"],
            dataset_hash=row["dataset_hash"],
            started_at=row["started_at"],
            ended_at=row["ended_at"],
            status=row["status"],
            coverage=json.loads(row["coverage"]),
            summary=json.loads(row["summary"]),
            n_ok=by_status.get("ok", 0),
            n_failed=by_status.get("failed", 0),
            code_hash=row["code_hash"],
        )

    def load_run(self, run_id: int) -> RunInfo:
        """A run's manifest; KeyError when there is no such run."""
        with self._lock:
            row = self._conn.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone()
            if row is None:
                raise KeyError(f"no run with id {run_id} in {self.path}")
            return self._run_info(row)

    def list_runs(self, kind: str | None = None) -> list[RunInfo]:
        """Every run, newest first (optionally only one kind)."""
        with self._lock:
            if kind is None:
                rows = self._conn.execute("SELECT * FROM runs ORDER BY id DESC").fetchall()
            else:
                rows = self._conn.execute(
                    "SELECT * FROM runs WHERE kind=? ORDER BY id DESC", (kind,)
                ).fetchall()
            return [self._run_info(r) for r in rows]

    def delete_run(self, run_id: int) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM documents WHERE run_id=?", (run_id,))
            conn.execute("DELETE FROM runs WHERE id=?", (run_id,))

    # ----------------------------------------------------------------- documents

    def save_document(
        self,
        run_id: int,
        data_id: str,
        *,
        status: str,
        result: dict[str, Any] | None = None,
        summary: dict[str, Any] | None = None,
        error: str = "",
        input_sha256: str = "",
    ) -> None:
        """Record (or replace) one document's result; committed immediately.

        ``input_sha256`` (of the input the result was computed from) lets a resume verify
        that the row belongs to the document it is keyed by.
        """
        if status not in ("ok", "failed"):
            raise ValueError(f"document status must be 'ok' or 'failed', got {status!r}")
        with self._tx() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO documents (run_id, data_id, status, error, result,"
                " summary, finished_at, input_sha256) VALUES (?,?,?,?,?,?,?,?)",
                (
                    run_id,
                    _storable(data_id),
                    status,
                    _storable(error),
                    _dumps(_strip_config(result or {})),
                    _dumps(summary or {}),
                    _now(),
                    input_sha256,
                ),
            )

    def finished_ids(self, run_id: int, *, include_failed: bool = False) -> set[str]:
        """data_ids already done in this run (failed ones are retried unless asked)."""
        sql = "SELECT data_id FROM documents WHERE run_id=?"
        if not include_failed:
            sql += " AND status='ok'"
        with self._lock:
            return {r["data_id"] for r in self._conn.execute(sql, (run_id,)).fetchall()}

    def load_documents(self, run_id: int, *, with_results: bool = True) -> list[DocumentRow]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT * FROM documents WHERE run_id=? ORDER BY rowid", (run_id,)
            ).fetchall()
        return [
            DocumentRow(
                run_id=int(r["run_id"]),
                data_id=r["data_id"],
                status=r["status"],
                error=r["error"],
                result=json.loads(r["result"]) if with_results else {},
                summary=json.loads(r["summary"]),
                finished_at=r["finished_at"],
                input_sha256=r["input_sha256"],
            )
            for r in rows
        ]

    # ----------------------------------------------------------------- single audits

    def save_audit(self, report: Any) -> int:
        """Save one AuditReport (the dashboard's Audit page) as a one-document audit run."""
        from spia_core.evaluation.metrics import metrics_summary
        from spia_core.identity import code_fingerprint
        from spia_core.model import to_dict

        data = to_dict(report)
        config = dict(report.config)
        config["data_id"] = report.data_id
        config["created_at"] = report.created_at
        run = self.start_run(
            "audit",
            config,
            dataset_name=report.data_id,
            prompt_versions={k: v for k, v in report.versions.items() if k.startswith("prompt:")},
            resume=False,
            code_hash=code_fingerprint(),
        )
        failed = report.metrics.coverage.n_docs_scored == 0
        summary = metrics_summary(report.metrics)
        self.save_document(
            run.id,
            report.data_id,
            status="failed" if failed else "ok",
            result=data,
            summary=summary,
            error="; ".join(f"{f.stage}: {f.reason}" for f in report.failures) if failed else "",
        )
        self.finish_run(run.id, status="done", summary=summary)
        return run.id

    def load_audit(self, run_id: int) -> Any:
        """The AuditReport saved by :meth:`save_audit`."""
        from spia_core.model import report_from_dict

        docs = self.load_documents(run_id)
        if not docs:
            raise KeyError(f"run {run_id} has no stored audit")
        return report_from_dict(docs[0].result)

    # ----------------------------------------------------------------- exports

    def export_json(self, run_id: int) -> str:
        """The run manifest and every document result, as one JSON document."""
        run = self.load_run(run_id)
        docs = self.load_documents(run_id)
        return _dumps(
            {
                "run": run.__dict__,
                "documents": [d.__dict__ for d in docs],
            }
        )

    def export_csv(self, run_id: int) -> str:
        """One row per document: data_id, status, error and the flat summary metrics."""
        docs = self.load_documents(run_id, with_results=False)
        columns: list[str] = []
        for d in docs:
            columns.extend(k for k in d.summary if k not in columns)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["run_id", "data_id", "status", "error", *columns])
        for d in docs:
            writer.writerow(
                [run_id, d.data_id, d.status, d.error, *(d.summary.get(c, "") for c in columns)]
            )
        return out.getvalue()
