"""`python -m spia_core score`: the issue's must-show figures and failure reporting."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from spia_core.cli import main


@pytest.mark.parametrize(
    ("fixture", "n_subjects", "n_pii"),
    [("tab_gt_path", 580, 3064), ("panorama_gt_path", 319, 942)],
)
def test_gt_against_itself_reference_mode(
    fixture: str, n_subjects: int, n_pii: int, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    gt = request.getfixturevalue(fixture)
    out = tmp_path / "report.json"
    code = main(
        ["score", "--gt", str(gt), "--pred", str(gt), "--mode", "reference", "--out", str(out)]
    )
    assert code == 0
    report = json.loads(out.read_text())
    assert report["cpr"] == 0.0
    assert report["ipr"] == 0.0
    assert report["one_minus_aac"] == 0.0
    assert report["n_subjects"] == n_subjects
    assert report["n_pii"] == n_pii
    assert report["coverage"]["n_docs_failed"] == 0
    assert all(v["protection"] == 0.0 for v in report["per_tag"].values())


def test_default_mode_counts_each_pii(panorama_gt_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    assert (
        main(
            [
                "score",
                "--gt",
                str(panorama_gt_path),
                "--pred",
                str(panorama_gt_path),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    report = json.loads(out.read_text())
    # per-PII scoring counts both e-mails of the subject with a duplicated tag
    assert report["n_pii"] == 943
    assert report["cpr"] == 0.0


def test_missing_documents_are_failures_not_protection(
    panorama_gt_path: Path, tmp_path: Path
) -> None:
    lines = panorama_gt_path.read_text(encoding="utf-8").splitlines()
    pred = tmp_path / "pred.jsonl"
    pred.write_text("\n".join(lines[:-3]) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert (
        main(["score", "--gt", str(panorama_gt_path), "--pred", str(pred), "--out", str(out)]) == 0
    )
    report = json.loads(out.read_text())
    assert report["coverage"]["n_docs_failed"] == 3
    assert report["n_docs_missing_predictions"] == 3
    missing = {f["data_id"] for f in report["coverage"]["failures"]}
    assert len(missing) == 3
    # the three missing documents are not counted as protected: CPR stays 0
    assert report["cpr"] == 0.0


def test_unmatched_subjects_count_as_protected(panorama_gt_path: Path, tmp_path: Path) -> None:
    records = [json.loads(x) for x in panorama_gt_path.read_text(encoding="utf-8").splitlines()]
    for r in records:  # the adversary found nobody
        r["subjects"] = []
    pred = tmp_path / "pred.jsonl"
    pred.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert (
        main(["score", "--gt", str(panorama_gt_path), "--pred", str(pred), "--out", str(out)]) == 0
    )
    report = json.loads(out.read_text())
    assert report["cpr"] == 1.0
    assert report["ipr"] == 1.0


def test_bad_input_is_a_clear_error(tmp_path: Path, tab_gt_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"metadata": {"data_id": "x"}, "text": "t", "subjects": [\n', encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "spia_core", "score", "--gt", str(tab_gt_path), "--pred", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "bad.jsonl" in proc.stderr
    assert "line 1" in proc.stderr
