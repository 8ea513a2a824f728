"""AppTest checks of the Audit page against the issue's list (no browser, no network)."""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path

import pytest
from _dashboard_factory import unescape

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

os.environ.setdefault("SPIA_DATA_DIR", tempfile.mkdtemp(prefix="spia_apptest_"))
ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=120).run()


def _tab(at: AppTest, name: str) -> AppTest:
    at.session_state["result_tab"] = name
    return at.run()


def _errors(at: AppTest) -> list[str]:
    """Error texts as shown (the page escapes document-derived Markdown)."""
    return [unescape(e.value) for e in at.error]


def _html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.get("html"))


def _audit_dataset_doc(at: AppTest, dataset: str = "TAB-144") -> AppTest:
    at.radio(key="input_source").set_value("SPIA dataset document").run()
    at.selectbox(key="ds_pick").set_value(dataset).run()
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _blank_pdf() -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def _docx(text: str) -> bytes:
    import docx

    d = docx.Document()
    d.add_paragraph(text)
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def test_uploads_docx_md_and_scanned_pdf() -> None:
    at = _app()
    at.radio(key="input_source").set_value("Upload a file").run()
    up = at.file_uploader(key="upload_original")
    up.set_value(("letter.docx", _docx("Dr Jane Roe, 44, works in Leeds."), "application/x")).run()
    assert not at.exception and not _errors(at)
    assert not at.button(key="run_audit").disabled
    at.file_uploader(key="upload_original").set_value(
        ("note.md", b"# Note\n\nMr Tom Hale lives in York.", "text/markdown")
    ).run()
    assert not _errors(at) and not at.button(key="run_audit").disabled
    at.file_uploader(key="upload_original").set_value(
        ("scan.pdf", _blank_pdf(), "application/pdf")
    ).run()
    errors = _errors(at)
    assert any("scan.pdf" in e and "no text layer (scanned?)" in e for e in errors), errors
    assert at.button(key="run_audit").disabled


def test_redacted_version_replaces_the_anonymizer() -> None:
    at = _app()
    at.text_area(key="paste_text").input("Mr Tom Hale, a baker, lives in York.").run()
    at.checkbox(key="has_redacted").check().run()
    at.text_area(key="red_text").input("Mr [NAME], a baker, lives in [CITY].").run()
    assert any(t.value.startswith("provided") for t in at.text_input)
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    report = at.session_state["audit_session"].versions[-1].report
    assert report.anonymizer == "provided"
    assert report.anonymized_text == "Mr [NAME], a baker, lives in [CITY]."
    assert "[CITY]" in _html(at)


def test_dataset_document_full_results_page() -> None:
    """A TAB document: GT and spans used; every block of the results page is there."""
    at = _app()
    at.radio(key="input_source").set_value("SPIA dataset document").run()
    assert any("GT subjects; span annotations: yes" in c.value for c in at.caption)
    # the local adversary's capabilities, read from docs/local_adversary.md at run time
    from spia_core.render import capability_summary

    summary = capability_summary((ROOT / "docs" / "local_adversary.md").read_text())
    exp = next(e for e in at.expander if "can and cannot infer" in e.label)
    assert summary and any(m.value == summary for m in exp.markdown)
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # progress per stage, then the verdict with its reasons and the gap in words
    done = [s.label for s in at.status]
    assert any(x.startswith("Audit of TAB-") and " done in " in x for x in done), done
    stages = " ".join(c.value for c in at.code)
    for stage in ("anonymize", "infer", "match", "score", "span_metrics"):
        assert stage in stages, stages
    verdict = [
        x.value for x in (*at.error, *at.success, *at.info, *at.warning) if "Verdict:" in x.value
    ]
    assert verdict, "no verdict"
    assert any("identifier spans masked" in m.value for m in at.markdown)
    tiles = {m.label: m.value for m in at.metric}
    for label in ("Token recall", "ER_di", "ER_qi", "CPR", "IPR", "1-AAC", "Utility"):
        assert label in tiles, tiles
    assert tiles["Token recall"] != "n/a" and tiles["CPR"] != "n/a"
    # the local-adversary caveat: the paper's closest figure and the local-server suggestion
    caveat = next(unescape(x.value) for x in at.warning if "overestimated" in x.value)
    assert "Paper (TAB" in caveat and "CPR" in caveat and "local LLM server" in caveat
    # the measured gap: a sentence and a bar chart in an expander, not a wall in the warning
    assert "Measured with" not in caveat
    (gap,) = [e for e in at.expander if e.label.startswith("How much the offline adversary")]
    assert "TAB-144" in gap.caption[0].value and "in-sample" in gap.caption[0].value
    assert len(gap.get("plotly_chart")) == 1
    assert any(x.value.startswith("Worst protected:") for x in at.info)
    # Evidence: both texts highlighted, one colour per subject; a subject can be hidden
    html = _html(at)
    assert html.count('class="spia-doc"') == 2 and "spia-hl" in html
    report = at.session_state["audit_session"].versions[-1].report
    shown = at.multiselect(key=f"shown_{at.session_state['audit_session'].versions[-1].id}")
    first = shown.value[0]
    assert f'data-subject="{first}"' in html
    shown.unselect(first).run()
    assert f'data-subject="{first}"' not in _html(at)
    # Subjects: one card per GT subject, GT PII against inferred PII with score and rule
    _tab(at, "Subjects")
    cards = [df.value for df in at.dataframe if "Deciding rule" in df.value.columns]
    assert len(cards) == len(report.subject_results)
    assert {"GT PII", "Inferred PII", "Score", "Deciding rule"} <= set(cards[0].columns)
    # Charts: per tag and per subject
    _tab(at, "Charts")
    assert len(at.get("plotly_chart")) == 3  # per tag and per subject, + the measured gap
    # Export: four downloads
    _tab(at, "Export")
    assert len(at.get("download_button")) == 4


def test_extra_subjects_with_placeholder_names_are_grouped() -> None:
    """Seven bare "[PERSON]" subjects the GT lacks make one line with a count."""
    from _dashboard_factory import make_report

    from spia_core.model import Subject
    from spia_core.render import extra_subject_groups, subject_keys

    rep = make_report()
    rep.inferred_subjects += [Subject(10 + i, "[PERSON]") for i in range(7)]
    rep.assignment.extra_pred_subject_ids += [10 + i for i in range(7)]
    groups = extra_subject_groups(rep)
    assert [len(g.subjects) for g in groups] == [1, 7]
    labels = subject_keys(rep)
    assert labels["x:10"] == "[PERSON] ×7 [not in GT]"
    assert not any(k in labels for k in ("x:11", "x:16"))


def test_benchmarks_overlay_marks_the_adversary() -> None:
    at = _app()
    at.radio(key="input_source").set_value("Bundled sample").run()
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page("pages/benchmarks.py").run()
    assert not at.exception, [e.value for e in at.exception]
    note = " ".join(x.value for x in at.info)
    assert "adversary" in note and "local" in note
    assert any("not directly comparable" in c.value for c in at.caption)
    names = {
        trace.get("name")
        for chart in at.get("plotly_chart")
        for trace in json.loads(chart.proto.spec)["data"]
    }
    assert "yours · adversary local (not directly comparable)" in names, names
