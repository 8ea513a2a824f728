"""`bench adversary`: the quality report on original and masked text, with the paper beside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spia_core.bench.adversary_quality import adversary_quality, split_half
from spia_core.cli import main


def test_split_halves_are_disjoint_and_cover_all() -> None:
    from spia_core.model import Document

    docs = [Document(f"D{i:02d}", "t") for i in range(7)]
    dev, test = split_half(docs, "dev"), split_half(docs, "test")
    assert {d.data_id for d in dev} | {d.data_id for d in test} == {d.data_id for d in docs}
    assert not {d.data_id for d in dev} & {d.data_id for d in test}
    with pytest.raises(ValueError, match="half must be"):
        split_half(docs, "other")


def test_identity_adversary_is_perfect_and_null_test_is_not() -> None:
    # An "adversary" that returns the GT of the document it is given must score 1.0;
    # the null test (predictions of another document) must score far lower.
    from spia_core.datasets import load_bundled

    docs = {d.text: d for d in load_bundled("PANORAMA-151")}

    class Oracle:
        name = "oracle"

        def infer(self, text: str):
            from spia_core.adversary.base import InferenceResult

            doc = docs.get(text)
            return InferenceResult(doc.subjects if doc else [], "oracle")

    from spia_core.adversary.registry import ADVERSARIES

    if "oracle-test" not in ADVERSARIES:
        ADVERSARIES.register("oracle-test")(Oracle)
    rep = adversary_quality("PANORAMA-151", limit=20, masked=False, adversary="oracle-test")
    orig = rep["original"]
    assert orig["all"]["subject_match"] == 1.0
    assert orig["all"]["inferred_share"] == 1.0
    assert orig["null_test"]["inferred_share"] < 0.3
    assert rep["paper"]["table4_longformer_masked"]["cpr"] == pytest.approx(0.597)


def test_bench_adversary_cli_writes_report(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "adv.json"
    assert (
        main(
            ["bench", "adversary", "--dataset", "PANORAMA-151", "--limit", "8", "--json", str(out)]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "Claude-Sonnet-4.5" in printed
    report = json.loads(out.read_text())["PANORAMA-151"]
    for variant in ("original", "masked"):
        assert 0.0 <= report[variant]["all"]["inferred_share"] <= 1.0
        assert "null_test" in report[variant]
