"""TRIA-lite: windows, summed-score aggregation, bounds, a synthetic collection with a known
TRIR, the bundled demo collection, and the ``tria`` command. Texts are invented for the tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spia_core.cli import main
from spia_core.related.tria import TriaLite, aggregate, bounds, preprocess, trir, windows
from spia_core.related.tria_data import (
    DEMO_PATH,
    CollectionError,
    Record,
    build_panorama_collection,
    load_collection,
    write_collection,
)

# ten invented individuals, each with one rare word of their own
MARKS = [
    "zorblat",
    "quennix",
    "plivard",
    "tromquel",
    "vastrine",
    "gelmoor",
    "yuskin",
    "brindaval",
    "okkorow",
    "feltspar",
]
FILLER = "the weather was mild and the market opened early on the square"


def synthetic() -> list[Record]:
    """Docs 0-5 carry their own mark (re-identifiable); 6-9 carry the NEXT person's mark
    (always linked to the wrong person); one more person is protected but unknown."""
    records = []
    for i, mark in enumerate(MARKS):
        background = f"{mark} {FILLER} {mark} lives near the {mark} hall"
        own = mark if i < 6 else MARKS[(i + 1) % len(MARKS)]
        records.append(Record(f"d{i}", f"person-{i}", background, f"{FILLER} and {own} again"))
    records.append(Record("d10", "person-10", None, f"{FILLER} with nothing known"))
    return records


def test_windows_slide_with_overlap() -> None:
    words = " ".join(str(i) for i in range(10))
    assert windows(words, size=4, overlap=1) == ["0 1 2 3", "3 4 5 6", "6 7 8 9"]
    assert windows("a b", size=4, overlap=1) == ["a b"]
    assert windows("", size=4, overlap=1) == [""]
    with pytest.raises(ValueError):
        windows("a", size=4, overlap=4)


def test_scores_are_summed_not_voted() -> None:
    # per-window scores [5, 0] and [0, 1]: a vote ties, the sum picks class 0
    assert aggregate(np.array([[5.0, 0.0], [0.0, 1.0]])) == 0
    assert aggregate(np.array([[0.2, 0.1], [0.0, 0.3], [0.0, 0.3]])) == 1


def test_preprocess_strips_special_characters() -> None:
    assert preprocess("Hi [PERSON], see (https://x.example)!") == "hi person see https //x.example"


def test_bounds_and_trir() -> None:
    assert bounds(["a", "b", "c"], ["a", "b", "x", "y"]) == {"max_trir": 2 / 3, "chance": 0.25}
    result = trir(["a", "x", "c"], ["a", "b", "c"])
    assert result.trir == pytest.approx(2 / 3) and result.n_correct == 2


def test_synthetic_collection_gives_the_expected_trir() -> None:
    records = synthetic()
    known = [r for r in records if r.background]
    attack = TriaLite(window=8, overlap=2).fit(
        [r.individual for r in known], [r.background or "" for r in known]
    )
    protected = [r for r in records if r.text]
    result = trir(
        attack.predict([r.text or "" for r in protected]), [r.individual for r in protected]
    )
    assert result.n_correct == 6 and result.trir == pytest.approx(6 / 11)
    assert bounds([r.individual for r in protected], [r.individual for r in known]) == {
        "max_trir": 10 / 11,
        "chance": 0.1,
    }


def test_run_reports_ceiling_anonymizers_and_bounds() -> None:
    from spia_core.related.tria_run import run_tria

    result = run_tria(synthetic(), ["none"], cache=False)
    assert result["ceiling"] == pytest.approx(6 / 11)
    assert result["results"]["none"]["trir"] == result["ceiling"] == result["trir"]
    assert result["chance"] == 0.1 and result["max_trir"] == pytest.approx(10 / 11)
    assert "not comparable" in result["method"]


def test_bundled_demo_equals_its_builder_and_loads() -> None:
    built = build_panorama_collection()
    assert [json.loads(line) for line in DEMO_PATH.read_text(encoding="utf-8").splitlines()] == [
        vars(r) for r in built
    ]
    records = load_collection("tria-demo")
    assert len(records) == 145 and all(r.background and r.text for r in records)
    assert "Passport" not in records[0].background  # identity documents are not public


def test_collection_errors_are_specific(tmp_path: Path) -> None:
    bad = tmp_path / "c.jsonl"
    bad.write_text('{"id": "1", "individual": ""}\n', encoding="utf-8")
    with pytest.raises(CollectionError, match="line 1, field individual"):
        load_collection(str(bad))
    with pytest.raises(CollectionError, match="no TRIA collection"):
        load_collection(str(tmp_path / "missing.jsonl"))


def test_tria_command_writes_json_and_prints(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "collection.jsonl"
    write_collection(synthetic(), path)
    out = tmp_path / "out"
    code = main(["tria", "--dataset", str(path), "--anonymizer", "none", "--out", str(out)])
    assert code == 0
    data = json.loads((out / "tria.json").read_text(encoding="utf-8"))
    assert {"trir", "ceiling", "chance"} <= set(data)
    printed = capsys.readouterr().out
    assert "ceiling=0.5455" in printed and "chance=0.1000" in printed


def test_tria_command_rejects_llm_anonymizer_without_backbone(tmp_path: Path) -> None:
    path = tmp_path / "collection.jsonl"
    write_collection(synthetic(), path)
    args = ["tria", "--dataset", str(path), "--anonymizer", "rupta", "--out", str(tmp_path)]
    assert main(args) == 2


def test_tria_command_scores_texts_anonymized_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "collection.jsonl"
    write_collection(synthetic(), path)
    anonymized = tmp_path / "results.jsonl"
    lines = [  # d6-d8 carried the next person's mark; here they carry their own
        json.dumps({"data_id": f"d{i}", "anonymized_text": f"{FILLER} {MARKS[i]}"})
        for i in (6, 7, 8)
    ]
    anonymized.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    code = main(
        ["tria", "--dataset", str(path), "--anonymized", str(anonymized), "--out", str(out)]
    )
    assert code == 0
    data = json.loads((out / "tria.json").read_text(encoding="utf-8"))
    entry = data["results"]["provided:results.jsonl"]
    assert entry["trir"] == 1.0 and entry["n_protected"] == 3
    assert entry["ceiling_on_subset"] == 0.0  # their originals point at the wrong person
    assert "3 documents covered" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"data_id": "d1"}\n', encoding="utf-8")
    args = ["tria", "--dataset", str(path), "--anonymized", str(bad), "--out", str(out)]
    assert main(args) == 2
