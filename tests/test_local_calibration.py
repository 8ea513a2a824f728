"""The measured local-vs-LLM gap an offline audit shows: its file, its sentence, its freshness."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spia_core.bench.adversary_quality import adversary_quality
from spia_core.evaluation.local_calibration import (
    CALIBRATION_DATASETS,
    CALIBRATION_PATH,
    HELD_OUT_PATH,
    calibration_record,
    gap_rows,
    gap_sentence,
    load_calibration,
    load_held_out,
    load_unseen,
    write_calibration,
)
from spia_core.pipeline import lower_bound_warning

#: Float noise allowed between machines; any real change to the adversary moves CPR more.
TOLERANCE = 0.003


def _record(cpr: float, llm: float) -> dict:
    return {
        "n_docs": 3,
        "original": {"cpr": 0.1},
        "masked_ner_mask": {"cpr": cpr},
        "paper_llm_on_longformer_masking": {"cpr": llm, "token_recall": 0.9, "ipr": llm},
    }


def test_shipped_file_covers_every_dataset() -> None:
    records = load_calibration()
    assert sorted(records) == sorted(CALIBRATION_DATASETS)
    for rec in records.values():
        assert 0.0 <= rec["masked_ner_mask"]["cpr"] <= 1.0
        assert 0.0 < rec["paper_llm_on_longformer_masking"]["cpr"] < 1.0


def test_gap_sentence_names_the_figures(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    write_calibration({"TAB-144": _record(0.46, 0.33), "PANORAMA-151": _record(0.66, 0.597)}, path)
    tab = gap_sentence("TAB-bf828", path)
    assert "CPR 0.460" in tab and "0.330" in tab and "+0.130" in tab
    assert "PANORAMA" not in tab
    both = gap_sentence("my-upload", path)
    assert "TAB-144" in both and "PANORAMA-151" in both and "+0.063" in both


def test_gap_sentence_states_in_sample_and_unseen_with_provenance(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    write_calibration({"TAB-144": _record(0.46, 0.33), "PANORAMA-151": _record(0.66, 0.597)}, path)
    unseen = tmp_path / "unseen.json"
    unseen.write_text(
        json.dumps(
            {
                "measured_at_commit": "abc1234",
                "measured_on": "2030-01-02",
                "PANORAMA": {"unseen_200": {"masked_ner_mask": {"cpr": 0.75}}},
            }
        ),
        "utf-8",
    )
    pan = gap_sentence("PANORAMA-xyz", path, unseen)
    assert "CPR 0.660 in-sample" in pan and "+0.063" in pan
    assert "0.750 on 200 unseen online posts (+0.153" in pan
    assert "abc1234" in pan and "2030-01-02" in pan
    tab = gap_sentence("TAB-1", path, unseen)
    assert "no unseen documents" in tab
    # without the unseen file the in-sample figure still stands
    assert "in-sample" in gap_sentence("PANORAMA-1", path, tmp_path / "absent.json")


def test_gap_sentence_adds_the_held_out_posts_for_posts_only(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    records = {"TAB-144": _record(0.46, 0.33), "PANORAMA-151": _record(0.66, 0.597)}
    write_calibration(records, path, held_out=_record(0.9, 0.597))
    pan = gap_sentence("PANORAMA-1", path, tmp_path / "absent.json")
    assert "0.900 (+0.303) on 3 posts written for the project" in pan
    assert "written for the project" not in gap_sentence("TAB-1", path, tmp_path / "absent.json")
    write_calibration(records, path)  # an old file without the record: no held-out clause
    assert "written for the project" not in gap_sentence("PANORAMA-1", path)


def test_gap_rows_are_what_the_sentence_and_the_chart_show(tmp_path: Path) -> None:
    from spia_core.charts import calibration_gap

    path = tmp_path / "cal.json"
    records = {"TAB-144": _record(0.46, 0.33), "PANORAMA-151": _record(0.66, 0.597)}
    write_calibration(records, path, held_out=_record(0.9, 0.597))
    unseen = tmp_path / "unseen.json"
    body = {"measured_at_commit": "abc1234", "measured_on": "2030-01-02"}
    body["PANORAMA"] = {"unseen_200": {"masked_ner_mask": {"cpr": 0.75}}}
    unseen.write_text(json.dumps(body), "utf-8")
    rows = gap_rows("my-upload", path, unseen)
    assert [(r.dataset, r.source, r.cpr) for r in rows] == [
        ("PANORAMA-151", "in_sample", 0.66),
        ("PANORAMA-151", "unseen", 0.75),
        ("PANORAMA-151", "held_out", 0.9),
        ("TAB-144", "in_sample", 0.46),
    ]
    assert "abc1234" in rows[1].provenance and rows[1].n_docs == 200
    fig = calibration_gap(rows)
    assert list(fig.data[0].x) == [0.66, 0.75, 0.9, 0.597, 0.46, 0.33]  # + the paper's LLM bars
    assert gap_rows("TAB-1", tmp_path / "absent.json", unseen) == []


def test_shipped_unseen_file_keeps_its_provenance() -> None:
    body = load_unseen()
    assert body["measured_at_commit"] and body["measured_on"] and body["command"]
    assert body["PANORAMA"]["unseen_380"]["masked_ner_mask"]["cpr"] == 0.778
    text = lower_bound_warning("PANORAMA-151", "ner-mask")
    assert "0.778 on 380 unseen online posts" in text and body["measured_at_commit"] in text


def test_missing_or_garbage_file_gives_no_sentence(tmp_path: Path) -> None:
    assert gap_sentence("TAB-144", tmp_path / "absent.json") == ""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert gap_sentence("TAB-144", bad) == ""
    bad.write_text(json.dumps({"datasets": {"TAB-144": {"masked_ner_mask": {}}}}), "utf-8")
    assert gap_sentence("TAB-144", bad) == ""


def test_write_refuses_partial_coverage(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="missing"):
        write_calibration({"TAB-144": _record(0.4, 0.3)}, tmp_path / "x.json")


def test_record_refuses_a_half_or_unmasked_report() -> None:
    with pytest.raises(ValueError, match="every document"):
        calibration_record({"half": "dev", "masked": {}})
    with pytest.raises(ValueError, match="masked"):
        calibration_record({"half": "all", "original": {}})


def test_offline_warning_carries_the_measured_gap() -> None:
    text = lower_bound_warning("PANORAMA-151", "ner-mask")
    assert "Measured with the project's adversary bench" in text and "PANORAMA-151" in text


def _check_fresh(dataset: str) -> None:
    held_out = dataset == str(HELD_OUT_PATH)
    shipped = load_held_out() if held_out else load_calibration()[dataset]
    assert shipped, f"{CALIBRATION_PATH.name} has no held-out record: re-save it"
    now = calibration_record(adversary_quality(dataset))
    for part in ("original", "masked_ner_mask"):
        for key in ("subject_match", "accuracy_matched", "cpr"):
            assert now[part][key] == pytest.approx(shipped[part][key], abs=TOLERANCE), (
                f"{CALIBRATION_PATH.name} is stale for {dataset} {part} {key}: run "
                "`python -m spia_core bench adversary --save-calibration`"
            )


def test_shipped_figures_are_fresh_panorama() -> None:
    _check_fresh("PANORAMA-151")


def test_shipped_figures_are_fresh_held_out_posts() -> None:
    _check_fresh(str(HELD_OUT_PATH))


@pytest.mark.skipif(
    os.environ.get("SPIA_SLOW_CHECKS") != "1", reason="about 80 s; CI sets SPIA_SLOW_CHECKS=1"
)
def test_shipped_figures_are_fresh_tab() -> None:
    _check_fresh("TAB-144")
