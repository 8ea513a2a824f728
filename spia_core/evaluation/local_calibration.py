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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spia_core.data.published import paper_dataset
from spia_core.paths import DATA_DIR

CALIBRATION_PATH: Path = DATA_DIR / "benchmarks" / "local_adversary_calibration.json"
#: The maintainers' measurement on documents never used in development (copied from their
#: reference file, with its provenance: measured_at_commit, measured_on, command).
UNSEEN_PATH: Path = DATA_DIR / "benchmarks" / "local_adversary_unseen_calibration.json"
#: Posts written for the project in PANORAMA's genres and never used to develop the adversary
#: (tests/fixtures/written/README.md); measured at every save, so its figure is current.
#: A source checkout's file: only saving the calibration reads it.
HELD_OUT_PATH: Path = (
    Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "written" / "heldout_pii.jsonl"
)
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


def write_calibration(
    records: dict[str, dict[str, Any]],
    path: Path = CALIBRATION_PATH,
    held_out: dict[str, Any] | None = None,
) -> Path:
    """Write the per-dataset records (all of CALIBRATION_DATASETS), and the held-out written
    posts' record when given, as sorted, indented JSON."""
    missing = [d for d in CALIBRATION_DATASETS if d not in records]
    if missing:
        raise ValueError(f"calibration must cover every bundled dataset; missing: {missing}")
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {
        "how": "python -m spia_core bench adversary --save-calibration",
        "datasets": records,
    }
    if held_out is not None:
        body["held_out_written"] = held_out
    path.write_text(json.dumps(body, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def _read_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; {} when the file is missing, unreadable or not an object."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return body if isinstance(body, dict) else {}


def _section(body: dict[str, Any], key: str) -> dict[str, Any]:
    value = body.get(key)
    return value if isinstance(value, dict) else {}


def load_calibration(path: Path = CALIBRATION_PATH) -> dict[str, dict[str, Any]]:
    """Dataset name -> record; {} when the file is missing or unreadable (the audit goes on)."""
    return _section(_read_object(path), "datasets")


def load_held_out(path: Path = CALIBRATION_PATH) -> dict[str, Any]:
    """The held-out written posts' record of the calibration file; {} when absent."""
    return _section(_read_object(path), "held_out_written")


def load_unseen(path: Path = UNSEEN_PATH) -> dict[str, Any]:
    """The maintainers' unseen-document figures; {} when the file is missing or unreadable."""
    return _read_object(path)


@dataclass(frozen=True)
class GapRow:
    """One measurement of the local adversary on ner-mask text beside the paper's LLM adversary."""

    dataset: str  # the calibration record it belongs to, e.g. "PANORAMA-151"
    source: str  # "in_sample" | "unseen" | "held_out"
    n_docs: int
    cpr: float  # CPR the local adversary leaves on ner-mask text
    llm_cpr: float  # the paper's LLM adversary on Longformer-masked text
    provenance: str  # who measured it and when

    @property
    def kind(self) -> str:
        return "legal judgments" if paper_dataset(self.dataset) == "TAB" else "online posts"


def _unseen_row(name: str, unseen: dict[str, Any], llm: float) -> GapRow | None:
    """The maintainers' unseen-document measurement of a paper dataset, if any."""
    block = unseen.get(paper_dataset(name))
    if not isinstance(block, dict):
        return None
    for key, value in block.items():
        if key.startswith("unseen_") and isinstance(value, dict):
            try:
                cpr, n = float(value["masked_ner_mask"]["cpr"]), int(key.split("_")[1])
            except (KeyError, TypeError, ValueError, IndexError):
                return None
            when = f"{unseen.get('measured_at_commit', '?')} on {unseen.get('measured_on', '?')}"
            return GapRow(name, "unseen", n, cpr, llm, f"measured by the maintainers at {when}")
    return None


def _dataset_rows(
    name: str, rec: dict[str, Any], unseen: dict[str, Any], held_out: dict[str, Any]
) -> list[GapRow]:
    llm = float(rec["paper_llm_on_longformer_masking"]["cpr"])
    cpr = float(rec["masked_ner_mask"]["cpr"])
    rows = [GapRow(name, "in_sample", int(rec["n_docs"]), cpr, llm, "bundled, developed on")]
    far = _unseen_row(name, unseen, llm)
    if far is not None:
        rows.append(far)
    if paper_dataset(name) == "PANORAMA" and held_out:
        cpr = float(held_out["masked_ner_mask"]["cpr"])
        rows.append(GapRow(name, "held_out", int(held_out["n_docs"]), cpr, llm, "this version"))
    return rows


def gap_rows(
    dataset: str, path: Path = CALIBRATION_PATH, unseen_path: Path = UNSEEN_PATH
) -> list[GapRow]:
    """The measured gap per paper dataset (the audited one, else both): in-sample, unseen by
    the maintainers, and (posts) the held-out written set; [] when nothing is readable."""
    body = _read_object(path)  # one read for the bundled sets and the held-out posts
    records, held_out = _section(body, "datasets"), _section(body, "held_out_written")
    unseen = load_unseen(unseen_path)
    wanted = paper_dataset(dataset)
    rows: list[GapRow] = []
    for name, rec in sorted(records.items()):
        if wanted in ("TAB", "PANORAMA") and paper_dataset(name) != wanted:
            continue
        try:
            rows.extend(_dataset_rows(name, rec, unseen, held_out))
        except (KeyError, TypeError, ValueError):
            continue
    return rows


def _phrase(row: GapRow) -> str:
    gap = row.cpr - row.llm_cpr
    if row.source == "in_sample":
        return (
            f"on {row.dataset} ({row.kind}) masked by ner-mask the local adversary leaves CPR "
            f"{row.cpr:.3f} in-sample (the bundled documents it was developed on; {gap:+.3f} "
            f"against the paper's LLM adversary, {row.llm_cpr:.3f})"
        )
    if row.source == "unseen":
        return (
            f" and {row.cpr:.3f} on {row.n_docs} unseen {row.kind} ({gap:+.3f}; {row.provenance})"
        )
    return (
        f", and {row.cpr:.3f} ({gap:+.3f}) on {row.n_docs} posts written for the project and "
        "never used in its development (measured at this version)"
    )


def by_dataset(rows: Iterable[GapRow]) -> dict[str, list[GapRow]]:
    """``gap_rows`` grouped per calibration record, in order (in-sample first in each)."""
    groups: dict[str, list[GapRow]] = {}
    for row in rows:
        groups.setdefault(row.dataset, []).append(row)
    return groups


def gap_text(rows: list[GapRow]) -> str:
    """``gap_rows`` in one sentence ('' for no rows)."""
    parts: list[str] = []
    for first, *rest in by_dataset(rows).values():
        seen = any(r.source == "unseen" for r in rest)
        note = "" if seen else "; no unseen documents of this kind were measured"
        parts.append(_phrase(first) + note + "".join(_phrase(r) for r in rest))
    if not parts:
        return ""
    return "Measured with the project's adversary bench: " + "; ".join(parts) + "."


def gap_sentence(
    dataset: str, path: Path = CALIBRATION_PATH, unseen_path: Path = UNSEEN_PATH
) -> str:
    """The measured gap (``gap_rows``) in one sentence."""
    return gap_text(gap_rows(dataset, path, unseen_path))
