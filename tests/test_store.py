"""SQLite results store: runs, per-document commits, resume, exports, secrets, threads."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading

import pytest

from spia_core.pipeline import AuditConfig, audit
from spia_core.store import (
    SCHEMA_VERSION,
    ResultStore,
    default_data_dir,
    is_secret_key,
    run_key,
    strip_secrets,
)

CONFIG = {"anonymizer": "ner-mask", "adversary": "local", "options": {"numbered": True}}


@pytest.fixture
def store(tmp_path):
    with ResultStore(tmp_path) as s:
        yield s


def test_wal_mode_and_default_dir(store, tmp_path, monkeypatch) -> None:
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    monkeypatch.setenv("SPIA_DATA_DIR", str(tmp_path / "elsewhere"))
    assert default_data_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv("SPIA_DATA_DIR")
    assert str(default_data_dir()) == "spia_data"


def test_documents_commit_and_resume(store, tmp_path) -> None:
    run = store.start_run("evaluate", CONFIG, dataset_name="TAB-144", dataset_hash="abc")
    store.save_document(run.id, "d1", status="ok", result={"x": 1}, summary={"cpr": 0.5})
    store.save_document(run.id, "d2", status="failed", error="ValueError: bad")
    # a second connection sees the committed rows at once
    with ResultStore(tmp_path) as other:
        assert other.finished_ids(run.id) == {"d1"}
        assert other.finished_ids(run.id, include_failed=True) == {"d1", "d2"}
    again = store.start_run("evaluate", dict(CONFIG), dataset_name="TAB-144", dataset_hash="abc")
    assert again.id == run.id and again.n_ok == 1 and again.n_failed == 1
    other_data = store.start_run("evaluate", CONFIG, dataset_hash="def")
    assert other_data.id != run.id
    fresh = store.start_run("evaluate", CONFIG, dataset_hash="abc", resume=False)
    assert fresh.id not in (run.id, other_data.id)
    store.finish_run(run.id, summary={"cpr": 0.5}, coverage={"n_docs": 2})
    loaded = store.load_run(run.id)
    assert loaded.status == "done" and loaded.summary == {"cpr": 0.5} and loaded.ended_at
    assert [r.id for r in store.list_runs("evaluate")][-1] == run.id
    with pytest.raises(ValueError, match="status"):
        store.save_document(run.id, "d3", status="maybe")
    with pytest.raises(KeyError, match="no run"):
        store.load_run(9999)


def test_exports(store) -> None:
    run = store.start_run("evaluate", CONFIG)
    store.save_document(run.id, "d1", status="ok", summary={"cpr": 0.25, "ipr": 0.5})
    store.save_document(run.id, "d2", status="failed", error="boom", summary={"cpr": None})
    rows = list(csv.DictReader(io.StringIO(store.export_csv(run.id))))
    assert [r["data_id"] for r in rows] == ["d1", "d2"]
    assert rows[0]["cpr"] == "0.25" and rows[1]["error"] == "boom"
    data = json.loads(store.export_json(run.id))
    assert data["run"]["id"] == run.id and len(data["documents"]) == 2


def test_secrets_never_stored(store) -> None:
    config = {
        "anonymizer": "deid-gpt",
        "api_key": "sk-ant-SECRET1",
        "options": {"OPENAI_API_KEY": "sk-SECRET2", "client_secret": "SECRET3", "max_tokens": 9},
        "providers": [{"access_token": "SECRET4", "base_url": "http://localhost:8000"}],
    }
    run = store.start_run("evaluate", config)
    store.save_document(run.id, "d1", status="ok", result={"config": config, "gt_keyword": "x"})
    store.close()
    raw = b"".join(p.read_bytes() for p in store.path.parent.glob(store.path.name + "*"))
    for secret in (b"SECRET1", b"SECRET2", b"SECRET3", b"SECRET4"):
        assert secret not in raw
    assert b"localhost:8000" in raw and b"gt_keyword" in raw


def test_secret_key_rule() -> None:
    for key in ("api_key", "apiKey", "x-api-key", "ANTHROPIC_API_KEY", "token", "password"):
        assert is_secret_key(key), key
    for key in ("keyword", "gt_keyword", "max_tokens", "token_recall", "run_key", "tokenizer"):
        assert not is_secret_key(key), key
    assert strip_secrets({"a": [{"secret": 1, "b": 2}]}) == {"a": [{"b": 2}]}
    assert run_key("evaluate", {"a": 1, "api_key": "x"}) == run_key("evaluate", {"a": 1})


def test_save_and_load_single_audit(store) -> None:
    report = audit(
        "Dr Lena Fischer, 52, runs a bakery in Graz with her husband.",
        AuditConfig(anonymizer="ner-mask"),
    )
    run_id = store.save_audit(report)
    assert store.load_audit(run_id) == report
    run = store.load_run(run_id)
    assert run.kind == "audit" and run.status == "done"


def test_thread_safe_writes(store) -> None:
    run = store.start_run("evaluate", CONFIG)

    def write(worker: int) -> None:
        for i in range(20):
            store.save_document(run.id, f"w{worker}-{i}", status="ok", summary={"i": i})

    threads = [threading.Thread(target=write, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store.finished_ids(run.id)) == 80


#: The runs/documents schema of version 2 (before the kind "check"), as such stores hold it.
_V2_SCHEMA = """
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, run_key TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('audit', 'evaluate')), config TEXT NOT NULL,
    package_version TEXT NOT NULL, prompt_versions TEXT NOT NULL DEFAULT '{}',
    dataset_name TEXT NOT NULL DEFAULT '', dataset_hash TEXT NOT NULL DEFAULT '',
    started_at TEXT NOT NULL, ended_at TEXT, status TEXT NOT NULL DEFAULT 'running',
    coverage TEXT NOT NULL DEFAULT '{}', summary TEXT NOT NULL DEFAULT '{}',
    code_hash TEXT NOT NULL DEFAULT '');
CREATE INDEX runs_key ON runs (run_key);
CREATE TABLE documents (run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    data_id TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error TEXT NOT NULL DEFAULT '', result TEXT NOT NULL DEFAULT '{}',
    summary TEXT NOT NULL DEFAULT '{}', finished_at TEXT NOT NULL,
    input_sha256 TEXT NOT NULL DEFAULT '', PRIMARY KEY (run_id, data_id));
PRAGMA user_version=2;
"""


def test_check_runs_have_their_own_kind_and_old_stores_are_migrated(tmp_path) -> None:
    check_cfg = {"command": "check", "adversary": "local", "inputs_sha256": "abc"}
    old = sqlite3.connect(tmp_path / "results.sqlite3")
    old.executescript(_V2_SCHEMA)
    for kind, cfg in (("evaluate", CONFIG), ("evaluate", check_cfg), ("audit", CONFIG)):
        old.execute(
            "INSERT INTO runs (run_key, kind, config, package_version, started_at, code_hash)"
            " VALUES (?, ?, ?, '0', 'now', 'h')",
            (run_key(kind, cfg), kind, json.dumps(cfg)),
        )
    old.execute(
        "INSERT INTO documents (run_id, data_id, status, finished_at)"
        " VALUES (2, 'a.txt', 'ok', 'x')"
    )
    old.commit()
    old.close()
    with ResultStore(tmp_path) as store:
        assert [(r.id, r.kind) for r in store.list_runs()] == [
            (3, "audit"),
            (2, "check"),
            (1, "evaluate"),
        ]
        assert [r.id for r in store.list_runs("evaluate")] == [1]
        # the migrated check run is found again (resume) and kept its documents
        again = store.start_run("check", check_cfg, code_hash="h")
        assert again.id == 2 and again.n_ok == 1
        assert store.finished_ids(2) == {"a.txt"}
        new = store.start_run("check", {**check_cfg, "inputs_sha256": "def"})
        assert store.load_run(new.id).kind == "check"
    conn = sqlite3.connect(tmp_path / "results.sqlite3")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("DELETE FROM runs WHERE id=2")  # the documents' reference follows the new table
    assert conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0] == 0
