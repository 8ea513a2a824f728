"""Published reference results of the SPIA paper (Table 4: anonymizers; Table 9: adversaries).

Rows are read from ``data/paper_table4.csv`` and ``data/paper_table9.csv``; numbers become
floats. :func:`closest_published` finds the published row nearest to one of our
configurations, so that a local result can be shown next to the paper's figure.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path
from typing import Any

from spia_core.paths import DATA_DIR

TABLE4: Path = DATA_DIR / "paper_table4.csv"
TABLE9: Path = DATA_DIR / "paper_table9.csv"

#: Our anonymizer name -> the paper's method it is closest to (None: no published row).
CLOSEST_METHOD: dict[str, str | None] = {
    "ner-mask": "Longformer",
    "presidio": "Longformer",
    "provided": None,
    "none": None,
    "deid-gpt": "DeID-GPT",
    "dp-prompt": "DP-Prompt",
    "adversarial": "Adversarial Anonymization",
    "subject-aware": None,
}

_TEXT_COLUMNS = frozenset({"dataset", "method", "backbone", "model"})


def _read(path: Path, table: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8", newline="") as fh:
        for line_no, raw in enumerate(csv.DictReader(fh), start=2):
            row: dict[str, Any] = {"table": table}
            for key, value in raw.items():
                if key in _TEXT_COLUMNS:
                    row[key] = value
                    continue
                try:
                    row[key] = float(value)
                except (TypeError, ValueError):
                    raise ValueError(
                        f"{path.name} line {line_no}: column {key!r} is not a number: {value!r}"
                    ) from None
            rows.append(row)
    return rows


@functools.cache
def _table4() -> tuple[dict[str, Any], ...]:
    return tuple(_read(TABLE4, "table4"))


@functools.cache
def _table9() -> tuple[dict[str, Any], ...]:
    return tuple(_read(TABLE9, "table9"))


def published_results() -> list[dict[str, Any]]:
    """Table 4 rows (anonymizer x backbone x dataset) then Table 9 rows (adversary models)."""
    return [dict(r) for r in (*_table4(), *_table9())]


def published_anonymizer_results() -> list[dict[str, Any]]:
    """Table 4 only: dataset, method, backbone, token_recall, er_di, er_qi, 1-AAC, CPR, IPR."""
    return [dict(r) for r in _table4()]


def published_adversary_results() -> list[dict[str, Any]]:
    """Table 9 only: dataset, model, subject_match, pii_accuracy."""
    return [dict(r) for r in _table9()]


def paper_dataset(dataset: str) -> str:
    """'TAB' or 'PANORAMA' for a dataset name or data_id ('TAB-144', 'TAB-bf828', ...)."""
    upper = dataset.upper()
    for name in ("PANORAMA", "TAB"):
        if upper.startswith(name):
            return name
    return upper


def closest_published(dataset: str, method: str, backbone: str | None = None) -> dict[str, Any]:
    """The Table 4 row closest to (dataset, our anonymizer name or a paper method, backbone).

    Returns {} when the paper has no comparable configuration. The row gets ``match_note``
    saying how close the comparison is.
    """
    paper_method = CLOSEST_METHOD.get(method, method)
    if paper_method is None:
        return {}
    ds = paper_dataset(dataset)
    rows = [
        r
        for r in _table4()
        if r["dataset"] == ds and r["method"].casefold() == paper_method.casefold()
    ]
    if not rows:
        return {}
    exact = [r for r in rows if backbone and r["backbone"].casefold() == backbone.casefold()]
    row = dict(exact[0] if exact else rows[0])
    if paper_method != method and method in CLOSEST_METHOD:
        row["match_note"] = f"{method} is compared with the paper's {paper_method}"
    elif backbone and not exact:
        row["match_note"] = f"no published row with backbone {backbone}; showing {row['backbone']}"
    else:
        row["match_note"] = "same configuration"
    return row
