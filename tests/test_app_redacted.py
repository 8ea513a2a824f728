"""AppTest checks of the compliance officer's paths (issue 14): a redacted text audited alone,
verdicts that cannot be falsely green (a German text, a failed LLM stage), exports that are
personal data. Every document here is written for the test (none comes from a dataset)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from _dashboard_factory import unescape

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

os.environ.setdefault("SPIA_DATA_DIR", tempfile.mkdtemp(prefix="spia_apptest_"))
APP = str(Path(__file__).resolve().parents[1] / "app.py")

#: A reference letter, redacted elsewhere: the officer holds only this version.
LETTER_REDACTED = """Reference for [REDACTED]

To whom it may concern,

I am writing to recommend [REDACTED], who worked in our accounts team in [CITY] from 2015
until last spring. She is 52 years old and a widowed mother of two. As our senior bookkeeper
she handled payroll for forty staff. Her husband [PERSON] died in 2019, and she moved here
from Portugal soon after.

Kind regards,
Martin Okafor, Finance Director"""

LETTER_ORIGINAL = (
    LETTER_REDACTED.replace("[REDACTED]", "Ana Ribeiro")
    .replace("[CITY]", "Leicester")
    .replace("[PERSON]", "Tomas")
)

#: A German note the offline engine cannot read.
GERMAN = (
    "Sehr geehrte Frau Becker, mein Name ist Johannes Vogt, ich bin 61 Jahre alt und arbeite "
    "seit zwanzig Jahren als Tischler in einer kleinen Werkstatt am Stadtrand. Meine Frau und "
    "ich wohnen mit unseren beiden Töchtern in einem alten Haus in der Nähe des Flusses."
)


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=180).run()


def _shown(at: AppTest, kind: str) -> list[str]:
    return [unescape(x.value) for x in getattr(at, kind)]


def _verdicts(at: AppTest) -> dict[str, list[str]]:
    """Verdict boxes by kind of box (error, warning, info, success)."""
    kinds = ("error", "warning", "info", "success")
    return {k: [v for v in _shown(at, k) if v.startswith("**Verdict:")] for k in kinds}


def _session(at: AppTest):  # type: ignore[no-untyped-def]
    return at.session_state["audit_session"]


def _redacted_only(text: str) -> AppTest:
    at = _app()
    run = at.button(key="run_audit")
    assert run.disabled
    # greyed out, but it says why and how to proceed
    assert any("only your redacted version" in c.value for c in at.caption)
    at.checkbox(key="has_redacted").check().run()
    at.text_area(key="red_text").input(text).run()
    assert not at.button(key="run_audit").disabled
    assert any("Redacted-only audit" in c.value for c in at.caption)
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_redacted_letter_audited_alone() -> None:
    at = _redacted_only(LETTER_REDACTED)
    report = _session(at).latest.report
    assert report.mode == "redacted_only" and report.original_text == ""
    assert report.metrics.cpr is None
    # no CPR, said plainly, with the way to get it
    assert any("No CPR without the original" in x for x in _shown(at, "info"))
    tiles = {m.label: m.value for m in at.metric}
    assert "CPR" not in tiles
    assert tiles["People singled out"] == str(len(report.inferred_subjects))
    assert tiles["Exposure (document)"] == str(report.exposure.score)
    assert tiles["Placeholders seen through"].endswith(f"of {len(report.exposure.placeholders)}")
    # the verdict comes from spia_core.verdict.assess, reason first
    verdicts = _verdicts(at)
    assert verdicts["error"] or verdicts["info"] or verdicts["warning"], verdicts
    assert not verdicts["success"]
    # People: one card per person, what is inferred with certainty and evidence
    people = [df.value for df in at.dataframe if "Inferred value" in df.value.columns]
    assert people and {"Tag", "Inferred value", "Certainty", "Evidence"} <= set(people[0].columns)
    assert sum(len(p) for p in people) == sum(
        1 for s in report.inferred_subjects for p in s.piis if not p.is_empty
    )
    # Placeholders: each one, seen through or not
    at.session_state["redacted_tab"] = "Placeholders"
    at.run()
    table = next(df.value for df in at.dataframe if "Seen through" in df.value.columns)
    assert set(table["Placeholder"]) == {"[REDACTED]", "[CITY]", "[PERSON]"}
    readings = [r for r in table["What was inferred through it"] if r]
    assert readings and all(" (#" in r and ":" in r for r in readings)  # people, not "0:SEX"
    # an audit without CPR does not break the Benchmarks overlay
    at.switch_page("pages/benchmarks.py").run()
    assert not at.exception, [e.value for e in at.exception]


def test_redacted_only_exports_are_personal_data_and_masked() -> None:
    at = _redacted_only(LETTER_REDACTED)
    at.session_state["redacted_tab"] = "Export"
    at.run()
    assert any("Personal data" in w for w in _shown(at, "warning"))
    assert any("Redacted form" in c.value for c in at.caption)
    assert len(at.get("download_button")) == 4
    # the files behind the buttons: values masked by default, shown only when asked
    session = _session(at)
    from spia_core.verdict import Target

    report = session.latest.report
    name = next(
        p.keyword
        for s in report.inferred_subjects
        for p in s.piis
        if p.tag == "NAME" and not p.is_empty
    )
    safe = session.export(session.latest, Target())
    assert name not in safe.json and name not in safe.html and name not in safe.csv
    assert "personal data" in json.loads(safe.json)["personal_data"].lower()
    full = session.export(session.latest, Target(), redact_values=False)
    assert name in full.json
    # no original, nothing scored: the CSV lists what was inferred (it was a bare header)
    assert [b.label for b in at.get("download_button")][1] == "PII inferences (CSV)"
    n_values = sum(1 for s in report.inferred_subjects for p in s.piis if not p.is_empty)
    for csv_text in (safe.csv, full.csv):
        lines = csv_text.splitlines()
        assert lines[0].startswith("# ") and lines[1].startswith("data_id,subject_id,subject,tag")
        assert len(lines) == 2 + n_values
    assert name in full.csv and f",NAME,{name}," in full.csv


def test_original_given_too_gives_cpr() -> None:
    at = _app()
    at.text_area(key="paste_text").input(LETTER_ORIGINAL).run()
    at.checkbox(key="has_redacted").check().run()
    at.text_area(key="red_text").input(LETTER_REDACTED).run()
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    report = _session(at).latest.report
    assert report.mode == "with_original" and report.anonymizer == "provided"
    assert {m.label for m in at.metric} >= {"CPR", "IPR", "1-AAC"}
    assert not any("No CPR without the original" in x for x in _shown(at, "info"))


@pytest.mark.parametrize("redacted_only", [False, True])
def test_german_text_cannot_judge(redacted_only: bool) -> None:
    """The offline engine reads English only: never "done" with a green verdict."""
    if redacted_only:
        at = _redacted_only(GERMAN)
    else:
        at = _app()
        at.text_area(key="paste_text").input(GERMAN).run()
        at.button(key="run_audit").click().run()
        assert not at.exception, [e.value for e in at.exception]
    verdicts = _verdicts(at)
    assert not verdicts["success"] and not verdicts["info"], verdicts
    assert verdicts["warning"] and verdicts["warning"][0].startswith("**Verdict: cannot judge")
    assert "English" in verdicts["warning"][0] or "language" in verdicts["warning"][0].lower()
    labels = [s.label for s in at.status]
    assert labels and "cannot judge" in labels[-1] and " done in " not in labels[-1], labels
    assert not any("meets the target" in x for k in verdicts.values() for x in k)


def test_failed_llm_stage_gives_no_green_verdict() -> None:
    """dp-prompt on a local server that is not running: the failure comes first, no "done"."""
    from pages.components.keys import K_ENDPOINT
    from spia_core.service.engines import LOCAL_ENDPOINT

    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state[K_ENDPOINT] = {"base_url": "http://127.0.0.1:9/v1", "model": "offline"}
    at.run()
    at.text_area(key="paste_text").input(LETTER_ORIGINAL).run()
    at.selectbox(key="anon").set_value("dp-prompt").run()
    at.selectbox(key="abb").set_value(LOCAL_ENDPOINT).run()
    assert not at.button(key="run_audit").disabled  # a local server: no consent needed
    at.button(key="run_audit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    verdicts = _verdicts(at)
    assert not verdicts["success"], verdicts
    assert verdicts["warning"] and verdicts["warning"][0].startswith("**Verdict: cannot judge")
    assert "connection" in verdicts["warning"][0]  # the cause, first
    labels = [s.label for s in at.status]
    assert "cannot judge" in labels[-1] and " done in " not in labels[-1], labels


def test_a_redacted_text_given_as_the_original_is_pointed_to_the_redacted_box() -> None:
    """An officer who pastes a redacted note into the original box is told to audit it alone
    (audited as an original, its ground truth lacks what was removed); a plain note is not."""
    at = _app()
    at.text_area(key="paste_text").input(LETTER_REDACTED.replace("Martin Okafor", "[NAME]")).run()
    assert any("already looks redacted" in w for w in _shown(at, "warning"))
    at.text_area(key="paste_text").input(LETTER_ORIGINAL).run()
    assert not any("already looks redacted" in w for w in _shown(at, "warning"))


def test_the_bar_moves_while_a_long_stage_reports_nothing() -> None:
    """A helper thread refreshes the bar while the audit works in the script thread (a long
    parse reports nothing); a refresh that fails (the page reruns) only stops the ticking."""
    import threading
    import time

    from pages.views import audit_run

    refreshes: list[str] = []
    with audit_run._ticking(lambda: refreshes.append(threading.current_thread().name)):
        time.sleep(1.3)
    assert len(refreshes) >= 2 and set(refreshes) == {"spia-progress"}
    n = len(refreshes)
    time.sleep(0.7)
    assert len(refreshes) == n  # stopped with the block

    def rerun() -> None:  # Streamlit stops a script at an element call
        refreshes.append("rerun")
        raise KeyboardInterrupt

    with audit_run._ticking(rerun):
        time.sleep(1.3)
    assert refreshes.count("rerun") == 1


def test_a_letter_in_capitals_is_audited_like_the_same_letter_in_sentence_case() -> None:
    """The page says the text was read in sentence case, and finds at least what it finds in
    the sentence-case letter (before, spaCy on capitals found almost nothing)."""
    plain = _session(_redacted_only(LETTER_REDACTED)).latest.report
    at = _redacted_only(LETTER_REDACTED.upper())
    shouted = _session(at).latest.report
    # (a signature's 'finance director' in lower case also gives the writer that occupation)
    assert shouted.exposure.score >= plain.exposure.score > 0
    assert any("written in capitals" in x for x in _shown(at, "warning"))
