"""The dashboard's service layer (spia_core.service) and the pages' text helpers, without
Streamlit running."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest
from _dashboard_factory import make_report, unescape

from spia_core.service import AuditSession, ComponentCache, RunState
from spia_core.service.session import Version
from spia_core.verdict import Target


@dataclass
class _Outcome:
    data_id: str
    status: str = "ok"
    error: str = ""
    report: object = None
    elapsed_s: float = 0.1


def test_run_snapshot_is_consistent_while_the_worker_appends() -> None:
    """The Run page drew run.rows while the worker appended to them (a rows/index length
    mismatch); a snapshot is one consistent copy taken under the run's lock."""
    run = RunState("r1", "TEST", {}, 4000, 0.0)
    stop = threading.Event()

    def worker() -> None:
        for i in range(4000):
            run.record(_Outcome(f"d{i}", "failed" if i % 7 == 0 else "ok", "boom"), i + 1, 4000)
        stop.set()

    thread = threading.Thread(target=worker)
    thread.start()
    while not stop.is_set():
        snap = run.snapshot()
        frame = pd.DataFrame(snap.rows)
        assert len(frame) == snap.n_outcomes == snap.done
        assert len(snap.errors) == sum(1 for r in snap.rows if r["status"] != "ok")
    thread.join()
    assert run.snapshot().done == 4000


def test_component_cache_keeps_the_latest_configurations(tmp_path: Path) -> None:
    from spia_core.service import engines

    cache = ComponentCache(tmp_path, max_entries=2)
    configs = [
        engines.audit_config({"anonymizer": name, "adversary": "local"})
        for name in ("none", "ner-mask", "none")
    ]
    first = cache.get(configs[0], {})
    assert cache.get(configs[0], {}) is first  # built once
    cache.get(configs[1], {})
    assert cache.get(configs[2], {}) is first  # same configuration, still cached
    assert len(cache._built) == 2
    provided = engines.audit_config({"adversary": "local"}, provided_text="Mr [NAME] wrote.")
    assert cache.get(provided, {}).anonymizer.name == "provided"


def test_exports_are_masked_by_default() -> None:
    version = Version("v1", make_report())
    safe = AuditSession.export(version, Target())
    full = AuditSession.export(version, Target(), redact_values=False, include_original=True)
    assert "Raja Ekwall" not in safe.json and "Raja Ekwall" in full.json
    assert "personal data" in safe.html.lower() and "personal data" in safe.csv.lower()
    with pytest.raises(ValueError, match="unknown export"):
        AuditSession.export_file(version, "xml", Target())


def test_versions_carry_their_overrides() -> None:
    session = AuditSession(ComponentCache(Path(".")))
    version = session.add_version("v1", make_report())
    before = version.effective.metrics.cpr
    from spia_core.service.overrides import make_override

    key = (0, "NATIONALITY", "Sweden")
    change = make_override(version.report, key, 0.0, "a generic nationality")
    session.adjudicate(version.id, {key: change})
    assert version.effective.metrics.cpr > before
    assert version.report.metrics.cpr == before  # the automatic report is kept
    assert version.view_key != f"{version.id}|"


def test_markdown_escaping_keeps_text_literal() -> None:
    from pages.components.text import file_stem, md

    for text in (
        "[x](https://evil.example)",
        "**bold** _it_ `code` <b>x</b> :red[alert] www.evil.example jane@mail.example",
        "# heading",
        "- a list item",
        "1. a numbered item",
    ):
        out = md(text)
        assert unescape(out) == text
        assert "](" not in out and "https:" not in out and "<b>" not in out
        assert not out.startswith(("#", "-", "1."))
    assert file_stem("[x](https://evil.example).txt") == "x_https_evil.example_.txt"


def _wait(run: RunState, seconds: float = 120.0) -> None:
    deadline = time.time() + seconds
    while run.finished is None and time.time() < deadline:
        time.sleep(0.05)
    assert run.finished is not None, "the run did not finish"


OFFLINE_RUN = {"anonymizer": "none", "adversary": "local"}


def test_a_run_of_other_code_fails_then_starts_fresh_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spia_core import batch
    from spia_core.service.jobs import VERSION_MISMATCH, BatchJobs
    from spia_core.store import ResultStore

    jobs = BatchJobs(tmp_path)
    first = jobs.start("TAB-144", OFFLINE_RUN, 1)
    _wait(first)
    assert first.status == "finished" and first.fresh_start is None
    monkeypatch.setattr(batch, "code_fingerprint", lambda: "f" * 64)  # the code changed
    again = jobs.start("TAB-144", OFFLINE_RUN, 1)
    _wait(again)
    assert again.status == "failed" and again.fresh_start == VERSION_MISMATCH
    assert "other code" in again.errors[0]
    fresh = jobs.start_fresh(again.run_id)
    _wait(fresh)
    assert fresh.status == "finished", fresh.errors
    with ResultStore(tmp_path) as store:
        runs = store.list_runs(kind="evaluate")
    assert len(runs) == 2  # the old run stays, the fresh one is beside it
    hashes = {r.code_hash for r in runs}
    assert len(hashes) == 2 and "f" * 64 in hashes
    with pytest.raises(ValueError, match="fresh start"):
        jobs.start_fresh(fresh.run_id)


def test_a_damaged_store_is_moved_aside_by_a_fresh_start(tmp_path: Path) -> None:
    from spia_core.service.jobs import DAMAGED_STORE, BatchJobs
    from spia_core.store import ResultStore

    with ResultStore(tmp_path) as store:
        path = store.path
    path.write_bytes(b"not a database " * 400)
    jobs = BatchJobs(tmp_path)
    run = jobs.start("TAB-144", OFFLINE_RUN, 1)
    _wait(run)
    assert run.status == "failed" and run.fresh_start == DAMAGED_STORE
    assert run.damaged_path == path and "store repair" in run.errors[0]
    fresh = jobs.start_fresh(run.run_id)
    _wait(fresh)
    assert fresh.status == "finished", fresh.errors
    assert list(tmp_path.glob(f"{path.name}.damaged-*"))  # kept for inspection, not deleted
    with ResultStore(tmp_path) as store:
        assert len(store.list_runs(kind="evaluate")) == 1
