"""How far the local adversary's protection figures sit from an LLM adversary's, as measured.

``python -m spia_core bench adversary --save-calibration`` runs the adversary-quality benchmark
on every bundled document and writes the deterministic figures (no timings) to
``data/benchmarks/local_adversary_calibration.json``. An offline audit reads them back to say by
how much its CPR is likely to overstate protection on similar text: the local adversary's CPR on
``ner-mask`` text beside the paper's LLM adversary on Longformer-masked text (Table 4).
A test re-runs the benchmark and fails when the shipped file is stale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spia_core.data.published import paper_dataset
from spia_core.paths import DATA_DIR

CALIBRATION_PATH: Path = DATA_DIR / "benchmarks" / "local_adversary_calibration.json"
#: Datasets the calibration must cover (every bundled SPIA test set).
CALIBRATION_DATASETS: tuple[str, ...] = ("TAB-144", "PANORAMA-151")
#: The scalar figures of ``bench.adversary_quality.figures`` that summaries print and the
#: calibration file keeps.
HEADLINE_FIGURES: tuple[str, ...] = (
    "subject_match",
    "accuracy_matched",
    "inferred_share",
    "cpr",
    "ipr",
    "n_subjects",
)


def calibration_record(report: dict[str, Any]) -> dict[str, Any]:
    """The deterministic figures of one ``adversary_quality`` report (half 'all', masked run)."""
    if report.get("half") != "all" or "masked" not in report:
        raise ValueError("calibration needs every document (half 'all') and the masked run")
    paper = report["paper"].get("table4_longformer_masked") or {}
    return {
        "n_docs": report["n_docs"],
        "original": {k: report["original"]["all"][k] for k in HEADLINE_FIGURES},
        "masked_ner_mask": {k: report["masked"]["all"][k] for k in HEADLINE_FIGURES},
        "paper_llm_on_longformer_masking": {
            k: float(paper[k]) for k in ("token_recall", "cpr", "ipr") if k in paper
        },
    }


def write_calibration(records: dict[str, dict[str, Any]], path: Path = CALIBRATION_PATH) -> Path:
    """Write the per-dataset records (all of CALIBRATION_DATASETS) as sorted, indented JSON."""
    missing = [d for d in CALIBRATION_DATASETS if d not in records]
    if missing:
        raise ValueError(f"calibration must cover every bundled dataset; missing: {missing}")
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {
        "how": "python -m spia_core bench adversary --save-calibration",
        "datasets": records,
    }
    path.write_text(json.dumps(body, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def load_calibration(path: Path = CALIBRATION_PATH) -> dict[str, dict[str, Any]]:
    """Dataset name -> record; {} when the file is missing or unreadable (the audit goes on)."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    datasets = body.get("datasets") if isinstance(body, dict) else None
    return datasets if isinstance(datasets, dict) else {}


def gap_sentence(dataset: str, path: Path = CALIBRATION_PATH) -> str:
    """One sentence per paper dataset (the audited one, else both) with the measured gap."""
    records = load_calibration(path)
    wanted = paper_dataset(dataset)
    parts: list[str] = []
    for name, rec in sorted(records.items()):
        if wanted in ("TAB", "PANORAMA") and paper_dataset(name) != wanted:
            continue
        try:
            ours = float(rec["masked_ner_mask"]["cpr"])
            llm = float(rec["paper_llm_on_longformer_masking"]["cpr"])
        except (KeyError, TypeError, ValueError):
            continue
        kind = "legal judgments" if paper_dataset(name) == "TAB" else "online posts"
        parts.append(
            f"on {name} ({kind}) masked by ner-mask the local adversary leaves CPR {ours:.3f}, "
            f"where the paper's LLM adversary leaves {llm:.3f} on similarly masked text "
            f"(offline protection higher by {ours - llm:+.3f})"
        )
    if not parts:
        return ""
    return "Measured (`bench adversary`): " + "; ".join(parts) + "."
