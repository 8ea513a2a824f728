"""One override record, one engine function: reports, corpora, files and the score CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spia_core.cli import main
from spia_core.evaluation.adjudication import (
    apply_overrides,
    overrides_json,
    parse_overrides,
    read_overrides,
)
from spia_core.model import ScoreOverride
from spia_core.pipeline import AuditConfig, audit

TEXT = (
    "I am Tomas Varga, a 38-year-old electrician in Bratislava. My wife Eva teaches piano "
    "and our son Marek studies law in Vienna.\n"
)


@pytest.fixture(scope="module")
def report():
    return audit(TEXT, AuditConfig(anonymizer="none"))


def _first_scored(report):
    result = next(r for r in report.subject_results if r.scores)
    return result.gt_subject_id, result.scores[0]


def test_a_report_override_changes_the_metrics_and_keeps_the_automatic_score(report) -> None:
    assert report.metrics.cpr == 0.0  # the adversary read the unchanged text
    subject, score = _first_scored(report)
    decision = ScoreOverride(subject, score.tag, 0.0, "not inferable in context", "reviewer")
    new = apply_overrides(report, [decision])
    changed = [
        s
        for r in new.subject_results
        if r.gt_subject_id == subject
        for s in r.scores
        if s.tag == score.tag
    ]
    assert changed and all(s.override and s.effective_score == 0.0 for s in changed)
    assert all(s.score == score.score for s in changed)  # the automatic decision stays
    assert new.metrics.cpr > 0.0 and report.metrics.cpr == 0.0  # a copy; the input unchanged
    other = ScoreOverride(subject, score.tag, 0.0, "another document", data_id="doc-other")
    assert apply_overrides(report, [other]).metrics.cpr == 0.0


def test_the_file_format_round_trips_and_errors_name_the_item(tmp_path: Path) -> None:
    decisions = [
        ScoreOverride(0, "AGE", 0.5, "range only", "ann", "doc-1"),
        ScoreOverride(1, "NAME", 1.0, "nickname", data_id="doc-1", gt_keyword="Tom"),
    ]
    path = tmp_path / "overrides.json"
    path.write_text(overrides_json(decisions), encoding="utf-8")
    assert read_overrides(path) == decisions
    lines = "\n".join(json.dumps(r) for r in json.loads(overrides_json(decisions))["overrides"])
    assert parse_overrides(lines) == decisions  # JSON Lines too
    bad = [{"gt_subject_id": 0, "tag": "AGE", "score": 0.7, "reason": "x"}]
    with pytest.raises(ValueError, match=r"overrides item 1: override score must be one of"):
        parse_overrides(json.dumps(bad))
    with pytest.raises(ValueError, match="field 'reason' is required"):
        parse_overrides('{"gt_subject_id": 0, "tag": "AGE", "score": 1}')
    with pytest.raises(ValueError, match="line 2: not JSON"):
        parse_overrides('{"gt_subject_id": 0, "tag": "AGE", "score": 1, "reason": "r"}\n{oops\n')


def _first_pii(gt_path: Path) -> tuple[str, int, str]:
    record = json.loads(gt_path.open(encoding="utf-8").readline())
    subject = record["subjects"][0]
    return record["metadata"]["data_id"], subject["id"], subject["PIIs"][0]["tag"]


def test_score_cli_applies_an_overrides_file(panorama_gt_path: Path, tmp_path: Path) -> None:
    data_id, subject, tag = _first_pii(panorama_gt_path)
    overrides = tmp_path / "overrides.jsonl"
    row = {"data_id": data_id, "gt_subject_id": subject, "tag": tag, "score": 0.0}
    overrides.write_text(json.dumps({**row, "reason": "adjudicated"}) + "\n", encoding="utf-8")
    out = tmp_path / "report.json"
    args = ["score", "--gt", str(panorama_gt_path), "--pred", str(panorama_gt_path)]
    assert main([*args, "--overrides", str(overrides), "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["n_overrides"] == 1 and report["cpr"] > 0.0  # GT vs itself would be 0.0

    overrides.write_text(json.dumps({**row, "data_id": "nope", "reason": "r"}), encoding="utf-8")
    assert main([*args, "--overrides", str(overrides)]) == 2
    overrides.write_text(json.dumps({**row, "reason": ""}), encoding="utf-8")
    assert main([*args, "--overrides", str(overrides)]) == 2
