"""Time the Audit page's results for a large document: 1,000 subjects, both modes.

Builds synthetic reports (invented names, no dataset text), puts them in an AppTest session
and prints the seconds each results view takes to run (the script side of a draw: what the
server computes and sends; the browser's own paint is not included).

    python scripts/bench_dashboard.py [--subjects 1000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SPIA_DATA_DIR", tempfile.mkdtemp(prefix="spia_bench_dash_"))

from streamlit.testing.v1 import AppTest  # noqa: E402

from spia_core.evaluation.metrics import DocumentScores, compute_metrics  # noqa: E402
from spia_core.exposure import document_exposure  # noqa: E402
from spia_core.model import (  # noqa: E402
    PII,
    Assignment,
    AuditReport,
    Evidence,
    MatchPair,
    PIIScore,
    Subject,
    SubjectResult,
)
from spia_core.service import AuditSession, ComponentCache  # noqa: E402
from spia_core.service.session import Version  # noqa: E402
from spia_core.verdict import assess  # noqa: E402

FIRST = ("Alma", "Bruno", "Carla", "Dmitri", "Edda", "Farid", "Greta", "Hugo", "Ines", "Jonas")
LAST = ("Quill", "Roster", "Sable", "Tamsin", "Umber", "Vell", "Wren", "Yarrow", "Zell", "Orr")
JOBS = ("welder", "pharmacist", "courier", "librarian", "baker", "surveyor")


def _person(i: int) -> tuple[str, str, str]:
    name = f"{FIRST[i % 10]} {LAST[(i // 10) % 10]}{i}"
    return name, JOBS[i % len(JOBS)], str(20 + i % 60)


def synthetic_report(n: int, *, redacted_only: bool) -> AuditReport:
    """``n`` people, one sentence each; the adversary infers job and age of everyone."""
    originals, masked = [], []
    for i in range(n):
        name, job, age = _person(i)
        originals.append(f"{name} works as a {job} and is {age} years old.")
        masked.append(f"[PERSON] works as a {job} and is {age} years old.")
    text = " ".join(masked)
    inferred, gt, results, pos = [], [], [], 0
    for i, sentence in enumerate(masked):
        name, job, age = _person(i)
        j, a = text.index(job, pos), text.index(f"{age} years", pos)
        pos += len(sentence) + 1
        piis = [
            PII("OCCUPATION", job.title(), 5, 1, [Evidence(j, j + len(job), job)]),
            PII("AGE", age, 5, 1, [Evidence(a, a + len(age) + 6, f"{age} years")]),
        ]
        inferred.append(Subject(i, f"a {job} aged {age}", piis))
        gt.append(Subject(i, f"{name} - a {job}", [PII("NAME", name, 5, 1), *piis]))
        scores = [
            PIIScore(
                i,
                p.tag,
                p.keyword,
                5,
                1,
                i,
                p.keyword if p.tag != "NAME" else "",
                5,
                0.0 if p.tag == "NAME" else 1.0,
                "exact",
            )
            for p in gt[-1].piis
        ]
        results.append(SubjectResult(i, gt[-1].description, i, 0.9, "test", scores))
    metrics = compute_metrics([DocumentScores("BENCH", results)])
    report = AuditReport(
        data_id="BENCH",
        config={"anonymizer": "provided", "adversary": "local"},
        original_text="" if redacted_only else " ".join(originals),
        anonymized_text=text,
        masked_spans=None,
        anonymizer="provided",
        adversary="local",
        adversary_is_local=True,
        gt_subjects=[] if redacted_only else gt,
        gt_source="none" if redacted_only else "dataset",
        inferred_subjects=inferred,
        assignment=Assignment([] if redacted_only else [MatchPair(i, i, 0.9) for i in range(n)]),
        subject_results=[] if redacted_only else results,
        metrics=metrics,
    )
    if redacted_only:
        report.mode = "redacted_only"
        report.metrics = compute_metrics([])
        report.exposure = document_exposure(text, inferred)
    return report


def _time_tabs(report: AuditReport, tab_key: str, tabs: tuple[str, ...]) -> list[str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    session = AuditSession(ComponentCache(Path(os.environ["SPIA_DATA_DIR"])))
    session.versions.append(Version("v1", report))
    at.session_state["audit_session"] = session
    at.session_state[tab_key] = tabs[-1]
    at.run()  # the server's first run of the page (imports, widgets), not timed
    lines = []
    for tab in tabs:
        at.session_state[tab_key] = tab
        t0 = time.perf_counter()
        at.run()
        lines.append(f"  {tab:<18} {time.perf_counter() - t0:6.2f} s")
        if at.exception:
            lines.append(f"    exception: {at.exception[0].value}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subjects", type=int, default=1000)
    n = parser.parse_args().subjects
    assess(synthetic_report(5, redacted_only=False))  # the server's warm-up loads this model
    with_original = ("Evidence", "Subjects", "Charts", "Fix and re-audit", "Adjudicate", "Export")
    redacted = ("People", "Evidence", "Placeholders", "Fix and re-audit", "Export")
    for mode, key, tabs in (
        ("with original", "result_tab", with_original),
        ("redacted only", "redacted_tab", redacted),
    ):
        report = synthetic_report(n, redacted_only=mode == "redacted only")
        chars = len(report.anonymized_text)
        print(f"{mode}: {n} subjects, {chars:,} characters; seconds per results run (page + tab)")
        print("\n".join(_time_tabs(report, key, tabs)))


if __name__ == "__main__":
    main()
