"""AppTest tests of every page (no browser, no network, no key)."""

from __future__ import annotations

import os
import tempfile
import time
import types
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
from _dashboard_factory import make_report, unescape

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

# the results store of these tests lives in a temporary directory, never in the repo
os.environ["SPIA_DATA_DIR"] = tempfile.mkdtemp(prefix="spia_apptest_")
ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
PAGES = [
    "pages/audit.py",
    "pages/benchmarks.py",
    "pages/run.py",
    "pages/dataset.py",
    "pages/settings.py",
]


def _errors(at: AppTest) -> list[str]:
    """Error texts as shown (the page escapes document-derived Markdown)."""
    return [unescape(e.value) for e in at.error]


def _app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    return at.run()


def _no_script(at: AppTest) -> None:
    """No element of the page carries live markup from the document."""
    for h in at.get("html"):
        body = h.proto.body.lower()
        assert "<script" not in body and "<img" not in body and "<b>" not in body
    for m in at.markdown:
        assert "<script" not in m.value.lower()


class _Calls(list):
    """The recorded (document, config) calls; ``hooks`` change each report before it is shown."""

    hooks: list[object]


def _tab(at: AppTest, name: str) -> AppTest:
    """Open one of the lazy result tabs (what a click on the tab does)."""
    at.session_state["result_tab"] = name
    return at.run()


class _Cancelled(RuntimeError):
    """The stand-in pipeline's AuditCancelled."""


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """A stand-in pipeline returning a hand-built report (for UI behaviour only): it replaces
    the service layer's one door to the engine, ``spia_core.service.engines.pipeline``."""
    from spia_core import pipeline as real
    from spia_core.service import engines

    calls = _Calls()
    calls.hooks = hooks = []

    @dataclass
    class AuditConfig:
        anonymizer: str = "none"
        adversary: str = "local"
        provided_text: str | None = None
        min_certainty: int = 3

    @dataclass
    class Components:
        anonymizer: object = None

    def audit(document, config, *, on_stage=None, cancel=None, components=None):  # type: ignore[no-untyped-def]
        calls.append((document, config))
        for stage in ("anonymize", "infer", "score"):
            if on_stage:
                on_stage(stage)
        rep = make_report()
        rep.config = asdict(config)
        for hook in hooks:
            hook(rep)
        if config.provided_text:
            rep.anonymized_text = config.provided_text
            rep.inferred_subjects = rep.inferred_subjects[:1]
        return rep

    fake = types.SimpleNamespace(
        AuditConfig=AuditConfig,
        AuditCancelled=_Cancelled,
        audit=audit,
        build_components=lambda config, **_: Components(),
        build_anonymizer=lambda config: None,
        is_local_config=lambda config: True,
        lower_bound_warning=real.lower_bound_warning,
        empty_metrics=real.empty_metrics,
    )
    monkeypatch.setattr(engines, "pipeline", fake)
    return calls


def _versions(at: AppTest) -> list:
    return at.session_state["audit_session"].versions


@pytest.mark.parametrize("page", PAGES)
def test_every_page_loads(page: str) -> None:
    at = _app()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, page


def test_sidebar_says_offline() -> None:
    at = _app()
    text = " ".join(m.value for m in at.sidebar.markdown)
    assert "Offline" in text and "Nowhere: text stays on this machine" in text


def test_paste_text_enables_run(fake_engine: list[object]) -> None:
    at = _app()
    assert at.button(key="run_audit").disabled
    at.text_area(key="paste_text").input("Mr John Smith lives in Oslo.").run()
    assert not at.button(key="run_audit").disabled


def test_upload_file_and_bad_upload(fake_engine: list[object]) -> None:
    at = _app()
    at.radio(key="input_source").set_value("Upload a file").run()
    at.file_uploader(key="upload_original").set_value(
        ("note.txt", b"Dr Jane Roe, 44, works in Leeds.", "text/plain")
    ).run()
    assert not at.exception
    assert not at.button(key="run_audit").disabled
    at.file_uploader(key="upload_original").set_value(
        ("broken.pdf", b"%PDF-1.4 this is not a pdf", "application/pdf")
    ).run()
    errors = _errors(at)
    assert any("broken.pdf" in e for e in errors), errors
    assert at.button(key="run_audit").disabled


def test_fake_audit_results_override_and_inert_html(fake_engine: list[object]) -> None:
    at = _app()
    at.text_area(key="paste_text").input("Mr Raja Ekwall <script>alert(1)</script>").run()
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert fake_engine
    cpr = next(m for m in at.metric if m.label == "CPR")
    before = cpr.value
    assert any("not safe to release" in e.value for e in at.error)
    assert any("identifier spans masked" in m.value for m in at.markdown)
    _no_script(at)
    # override subject 0 NATIONALITY (inferred, score 1.0) -> 0.0: CPR must rise
    _tab(at, "Adjudicate")
    subj_tag = next(s for s in at.selectbox if s.label == "Subject · tag")
    subj_tag.set_value((0, "NATIONALITY", "Sweden"))
    next(s for s in at.selectbox if s.label == "New score").set_value(0.0)
    next(t for t in at.text_input if t.label == "Reason").input("generic")
    next(b for b in at.button if b.label == "Apply override").click().run()
    assert not at.exception, [e.value for e in at.exception]
    after = next(m for m in at.metric if m.label == "CPR").value
    assert after != before, (before, after)
    assert any("1 override(s) in force" in c.value for c in at.caption)
    # the override is in every view: the subject card names the overridden rule
    _tab(at, "Subjects")
    assert not at.exception, [e.value for e in at.exception]
    rules = [r for df in at.dataframe for r in df.value.get("Deciding rule", [])]
    assert any("(overridden)" in r for r in rules), rules
    # and it can be removed again
    _tab(at, "Adjudicate")
    next(b for b in at.button if b.label == "Remove every override").click().run()
    assert next(m for m in at.metric if m.label == "CPR").value == before
    # a `score --overrides` file applies too (the engine's record and file format)
    decision = b'[{"gt_subject_id": 0, "tag": "NATIONALITY", "score": 0, "reason": "generic"}]'
    at.file_uploader(key="ov_up").set_value(("ov.json", decision, "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert next(m for m in at.metric if m.label == "CPR").value == after
    assert any("1 override(s) in force" in c.value for c in at.caption)


def test_fix_and_reaudit_adds_version(fake_engine: list[object]) -> None:
    at = _app()
    at.text_area(key="paste_text").input("text").run()
    at.button(key="run_audit").click().run()
    _tab(at, "Fix and re-audit")
    at.multiselect(key="fix_subjects").set_value(["gt:0"]).run()
    at.button(key="reaudit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    _, cfg = fake_engine[-1]
    assert cfg.anonymizer == "provided"
    assert "[REDACTED]" in cfg.provided_text
    assert "Swedish national" not in cfg.provided_text
    assert at.selectbox(key="version_pick").options[-1].startswith("v2")
    # the version history: one row per version, span and inference metrics, and its chart
    assert any(h.value == "Versions" for h in at.subheader)
    table = next(df.value for df in at.dataframe if "version" in df.value.columns)
    assert list(table["version"]) == ["v1 (ner-mask)", "v2 (fixed)"] or len(table) == 2
    assert {"token_recall", "cpr", "ipr", "one_minus_aac"} <= set(table.columns)
    assert at.get("plotly_chart"), "no version chart"


def test_dataset_page_opens_document_in_audit() -> None:
    at = _app()
    at.switch_page("pages/dataset.py").run()
    assert not at.exception
    specs = [
        c.proto.spec for c in at.get("plotly_chart")
    ]  # axes say what is counted, and the scale
    assert len(specs) == 2 and all('"GT PII"' in spec for spec in specs)
    assert "1 very easy - 5 very hard" in specs[0] and "1 very uncertain" in specs[1]
    doc_id = at.selectbox(key="d_doc").value
    at.button(key="d_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key="input_source").value == "SPIA dataset document"
    assert at.selectbox(key="doc_pick_TAB-144").value == doc_id


def test_real_offline_audit_of_sample() -> None:
    pytest.importorskip("spia_core.pipeline", reason="engine pipeline not landed yet")
    at = _app()
    at.radio(key="input_source").set_value("Bundled sample").run()
    at.button(key="run_audit").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    labels = {m.label for m in at.metric}
    assert {"Token recall", "CPR", "IPR", "1-AAC"} <= labels
    _no_script(at)


def test_run_page_background_run_survives_reload() -> None:
    pytest.importorskip("spia_core.batch", reason="engine batch runner not landed yet")
    at = _app()
    at.switch_page("pages/run.py").run()
    at.number_input(key="r_n").set_value(1)
    assert at.selectbox(key="r_anon").value == "ner-mask"  # offline defaults
    assert at.selectbox(key="r_adv").value == "local"
    next(b for b in at.button if b.label == "Start run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("started on 1 documents" in s.value for s in at.success)
    # a fresh session (page reload) still shows the run, then its result
    deadline = time.time() + 60
    while time.time() < deadline:
        again = AppTest.from_file(APP, default_timeout=60).run()
        again.switch_page("pages/run.py").run()
        texts = " ".join(m.value for m in again.markdown)
        assert "Run r" in texts
        if "finished" in texts:
            break
        time.sleep(1)
    assert "finished" in texts, texts
    assert any(len(df.value) == 1 for df in again.dataframe)


def test_merge_edits_of_the_adjudication_editor() -> None:
    """The data editor's edited_rows become the engine's ScoreOverride records; back to the
    automatic score, none; they round-trip through the `score --overrides` file format."""
    from spia_core.model import ScoreOverride
    from spia_core.service.overrides import (
        from_file,
        merge_edits,
        overrides_json,
        score_rows,
        with_overrides,
    )

    rep = make_report()
    rows = score_rows(rep)
    key = (0, "NATIONALITY", "Sweden")
    i = next(k for k, r in enumerate(rows) if (r["subject id"], r["tag"], r["GT PII"]) == key)
    assert rows[i]["subject"] == "Mr Raja Ekwall - the applicant"  # by name and role
    ov = merge_edits(rep, rows, {i: {"score": 0.0}}, {})
    assert ov == {
        key: ScoreOverride(
            0, "NATIONALITY", 0.0, "edited in the dashboard", "dashboard", "TEST-1", "Sweden"
        )
    }
    ov = merge_edits(rep, rows, {str(i): {"reason": "generic nationality"}}, ov)
    assert (ov[key].score, ov[key].reason) == (1.0, "generic nationality")  # auto score kept
    assert merge_edits(rep, rows, {i: {"score": 1.0, "reason": ""}}, ov) == {}
    ov = merge_edits(rep, rows, {i: {"score": 0.0, "reason": "generic"}}, {})
    new = with_overrides(rep, ov)
    assert new.metrics.cpr > rep.metrics.cpr
    score = next(
        s
        for r in new.subject_results
        for s in r.scores
        if (r.gt_subject_id, s.tag) == (0, "NATIONALITY")
    )
    assert score.override.reason == "generic" and score.score == 1.0  # automatic score kept
    assert all(s.override is None for r in rep.subject_results for s in r.scores)  # a copy
    assert from_file(overrides_json(ov.values()), rep, "file.json") == ov
    with pytest.raises(ValueError, match="no scored"):
        from_file('[{"gt_subject_id": 0, "tag": "AGE", "score": 0, "reason": "x"}]', rep, "f")


def test_cancelled_audit_keeps_previous_results(fake_engine: list[object]) -> None:
    at = _app()
    at.text_area(key="paste_text").input("Mr Raja Ekwall lives in Stockholm.").run()
    at.button(key="run_audit").click().run()
    n_versions = len(_versions(at))

    def cancel(_rep: object) -> None:
        raise _Cancelled("cancelled between two stages")

    fake_engine.hooks.append(cancel)
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(e.label.startswith("Cancelled: cancelled between") for e in at.status), [
        e.label for e in at.status
    ]
    assert len(_versions(at)) == n_versions
    assert any(m.label == "CPR" for m in at.metric)  # the previous results are still shown


LINK = "[x](https://evil.example)"


def _markdown_texts(at: AppTest) -> list[str]:
    """Every text the page renders as Markdown (bodies and labels)."""
    texts = [
        x.value
        for kind in ("markdown", "caption", "error", "warning", "info", "success")
        for x in getattr(at, kind)
    ]
    return texts + [s.label for s in at.status] + [e.label for e in at.expander]


def test_markdown_in_document_text_is_escaped(fake_engine: list[object]) -> None:
    """A link, emphasis or HTML in a subject's description or a file name stays text."""

    def hook(rep: object) -> None:
        rep.subject_results[0].description = f"Mr A {LINK} **bold** - the applicant"
        rep.inferred_subjects[2].description = f"a judge {LINK}"
        rep.warnings.append(f"odd input {LINK}")

    fake_engine.hooks.append(hook)
    at = _app()
    at.text_area(key="paste_text").input(f"Mr A {LINK} lives in York.").run()
    at.button(key="run_audit").click().run()
    _tab(at, "Subjects")
    assert not at.exception, [e.value for e in at.exception]
    texts = _markdown_texts(at)
    shown = [unescape(t) for t in texts]
    assert any(f"Mr A {LINK} **bold**" in t for t in shown), shown  # the caption, as written
    assert any(f"a judge {LINK}" in t for t in shown)
    assert any(f"odd input {LINK}" in t for t in shown)
    for t in texts:
        assert LINK not in t and "https://evil" not in t and "**bold**" not in t, t
    # an uploaded file's name is document-derived too
    at.radio(key="input_source").set_value("Upload a file").run()
    at.file_uploader(key="upload_original").set_value(
        (f"{LINK}.pdf", b"%PDF-1.4 not a pdf", "application/pdf")
    ).run()
    errors = [e.value for e in at.error]
    assert any(f"{LINK}.pdf" in unescape(e) for e in errors), errors
    assert not any(LINK in e for e in errors), errors


def _texts(at: AppTest) -> str:
    return " ".join(unescape(m.value) for m in [*at.markdown, *at.caption, *at.error])


def test_run_page_mends_a_damaged_store_with_one_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A damaged results store: the stored-runs view says so instead of crashing, a run fails
    with the store's own message, and "start fresh" moves the file aside and runs."""
    import streamlit as st

    from spia_core.store import DB_NAME

    FRESH_LABEL = "Move the damaged store aside and start fresh"
    (tmp_path / DB_NAME).write_bytes(b"not a database " * 400)
    monkeypatch.setenv("SPIA_DATA_DIR", str(tmp_path))
    st.cache_resource.clear()  # the store and the run registry are per data folder
    try:
        at = _app()
        at.switch_page("pages/run.py").run()
        assert any("Stored runs cannot be shown" in e for e in _errors(at))
        at.number_input(key="r_n").set_value(1)
        next(b for b in at.button if b.label == "Start run").click().run()
        deadline = time.time() + 60
        while "failed" not in _texts(at) and time.time() < deadline:
            time.sleep(0.5)
            at.run()
        assert "store repair" in _texts(at)  # the store's own way out, shown
        fresh = next(b for b in at.button if b.label == FRESH_LABEL)
        fresh.click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert list(tmp_path.glob(f"{DB_NAME}.damaged-*"))  # renamed, not deleted
        deadline = time.time() + 90
        while "Saved in the results store" not in _texts(at) and time.time() < deadline:
            time.sleep(1)
            at.run()
        assert "Saved in the results store" in _texts(at)
    finally:
        st.cache_resource.clear()
