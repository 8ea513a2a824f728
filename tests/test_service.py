"""The dashboard's service layer (spia_core.service) and the pages' text helpers, without
Streamlit running."""

from __future__ import annotations

import threading
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
    assert "Raja Arlewin" not in safe.json and "Raja Arlewin" in full.json
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
