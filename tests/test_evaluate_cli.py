"""``python -m spia_core evaluate`` (and ``bench``): outputs, resume, failures, bad options."""

from __future__ import annotations

import json

import pytest

from spia_core.cli import main
from spia_core.datasets import read_spia_jsonl
from spia_core.textio import MAX_CHARS

SUMMARY_KEYS = {
    "cpr",
    "ipr",
    "one_minus_aac",
    "token_recall",
    "er_di",
    "er_qi",
    "rouge_l",
    "subject_match_rate",
    "inference_accuracy",
    "n_docs",
    "n_failed",
    "elapsed_s",
}


def _evaluate(out, data_dir, *extra: str) -> int:
    return main(
        [
            "evaluate",
            "--dataset",
            "TAB-144",
            "--anonymizer",
            "ner-mask",
            "--out",
            str(out),
            "--data-dir",
            str(data_dir),
            "--quiet",
            *extra,
        ]
    )


def test_evaluate_writes_outputs_and_resumes(tmp_path, capsys) -> None:
    out, data_dir = tmp_path / "out", tmp_path / "store"
    assert _evaluate(out, data_dir, "--limit", "2") == 0
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary) >= SUMMARY_KEYS
    assert summary["n_docs"] == 2 and summary["n_failed"] == 0 and summary["n_resumed"] == 0
    assert 0.0 <= summary["cpr"] <= 1.0 and summary["token_recall"] > 0.8
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["status"] for r in results] == ["ok", "ok"]
    preds = read_spia_jsonl(out / "predictions.jsonl")
    assert [p.data_id for p in preds] == [r["data_id"] for r in results]
    assert "[PERSON]" in preds[0].metadata["anonymized_text"]
    # the same run again with one more document: the first two are resumed
    assert _evaluate(out, data_dir, "--limit", "3") == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_docs"] == 3 and summary["n_resumed"] == 2
    assert "resumed run" in capsys.readouterr().out


def test_predictions_can_be_rescored(tmp_path, tab_gt_path, capsys) -> None:
    out = tmp_path / "out"
    assert _evaluate(out, tmp_path / "store", "--limit", "2") == 0
    cpr = json.loads((out / "summary.json").read_text())["cpr"]
    capsys.readouterr()
    score_out = tmp_path / "score.json"
    args = ["score", "--gt", str(tab_gt_path), "--pred", str(out / "predictions.jsonl")]
    main([*args, "--out", str(score_out)])
    rescored = json.loads(score_out.read_text())
    assert rescored["cpr"] == pytest.approx(cpr)


def test_failed_document_is_recorded_not_dropped(tmp_path, tab_gt_path) -> None:
    first = tab_gt_path.read_text(encoding="utf-8").splitlines()[0]
    big = {"metadata": {"data_id": "too-long"}, "text": "word " * (MAX_CHARS // 5 + 1)}
    big["subjects"] = []
    dataset = tmp_path / "mini.jsonl"
    dataset.write_text(first + "\n" + json.dumps(big) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    code = main(
        [
            "evaluate",
            "--dataset",
            str(dataset),
            "--anonymizer",
            "none",
            "--out",
            str(out),
            "--data-dir",
            str(tmp_path / "store"),
            "--quiet",
        ]
    )
    assert code == 1
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_docs"] == 2 and summary["n_failed"] == 1
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    failed = [r for r in results if r["status"] == "failed"]
    assert [r["data_id"] for r in failed] == ["too-long"]
    assert "limit" in failed[0]["error"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--anonymizer", "no-such"], "unknown anonymizer"),
        (["--adversary", "no-such"], "unknown adversary"),
        (["--limit", "0"], "--limit"),
        (["--anonymizer-option", "numbered"], "KEY=VALUE"),
    ],
)
def test_bad_options_exit_2_with_a_message(tmp_path, capsys, args, message) -> None:
    assert _evaluate(tmp_path / "out", tmp_path / "store", *args) == 2
    assert message in capsys.readouterr().err


def test_missing_dataset_file(tmp_path, capsys) -> None:
    code = main(
        ["evaluate", "--dataset", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path), "--quiet"]
    )
    assert code == 2 and "neither a bundled name" in capsys.readouterr().err


def test_bench_offline_small(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    args = ["bench", "offline", "--limit", "3", "--timing-docs", "1", "--json", str(out)]
    assert main(args) == 0
    figures = json.loads(out.read_text())
    assert figures["n_docs"] == 3 and figures["n_timed_docs"] == 1
    assert figures["audit_median_s"] > 0 and figures["peak_rss_mb"] > 50
    assert figures["quality_ner_mask"]["token_recall"] > 0.8
    assert figures["quality_none"]["subject_match_rate"] > 0
    assert "audit_median_s" in capsys.readouterr().out
