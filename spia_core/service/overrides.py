"""Human score overrides of one audit version (adjudication) as the engine's one record,
:class:`~spia_core.model.ScoreOverride`, applied by the engine's one function,
:func:`~spia_core.evaluation.adjudication.apply_overrides` (as ``score --overrides FILE``)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from spia_core.evaluation.adjudication import apply_overrides, overrides_json, parse_overrides
from spia_core.model import AuditReport, ScoreOverride

#: (GT subject id, tag, GT keyword) -> the override of that PII: the user's decisions on one
#: version.
Overrides = dict[tuple[int, str, str], ScoreOverride]
AUTHOR = "dashboard"

__all__ = [
    "AUTHOR",
    "Overrides",
    "from_file",
    "key_of",
    "make_override",
    "merge_edits",
    "overrides_json",
    "overrides_key",
    "score_rows",
    "subject_name",
    "with_overrides",
]


def make_override(
    report: AuditReport, key: tuple[int, str, str], score: float, reason: str
) -> ScoreOverride:
    """A dashboard decision on one PII of ``report`` (``key``: subject id, tag, GT keyword)."""
    subject_id, tag, keyword = key
    return ScoreOverride(
        gt_subject_id=int(subject_id),
        tag=str(tag),
        score=float(score),
        reason=reason.strip() or "manual override",
        author=AUTHOR,
        data_id=report.data_id,
        gt_keyword=keyword,
    )


def key_of(override: ScoreOverride) -> tuple[int, str, str]:
    return (override.gt_subject_id, override.tag, override.gt_keyword or "")


def subject_name(description: str, subject_id: int) -> str:
    """A subject's name and role from its description ('Mr X - the applicant')."""
    text = " ".join(description.split())
    return text[:90] if text else f"subject {subject_id}"


def score_rows(report: AuditReport) -> list[dict[str, Any]]:
    """One row per scored GT PII (the adjudication table), overrides applied."""
    return [
        {
            "subject": subject_name(r.description, r.gt_subject_id),
            "subject id": r.gt_subject_id,
            "tag": s.tag,
            "GT PII": s.gt_keyword,
            "inferred": s.pred_keyword,
            "rule": s.rule,
            "auto score": s.score,
            "score": s.effective_score,
            "reason": s.override.reason if s.override else "",
        }
        for r in report.subject_results
        for s in r.scores
    ]


def merge_edits(
    report: AuditReport,
    rows: list[dict[str, Any]],
    edited_rows: dict[Any, dict[str, Any]],
    overrides: Overrides,
) -> Overrides:
    """``overrides`` updated with a data editor's ``edited_rows`` (row index -> changed cells).

    A row whose score is back to the automatic one with no reason loses its override; an
    emptied score removes it too (an override is never "no score").
    """
    out = dict(overrides)
    for idx, change in edited_rows.items():
        row = rows[int(idx)]
        key = (int(row["subject id"]), str(row["tag"]), str(row["GT PII"]))
        score = change.get("score", row["score"])
        reason = str(change.get("reason", row["reason"]) or "").strip()
        if score is None or (isinstance(score, float) and math.isnan(score)):
            out.pop(key, None)
            continue
        auto = row["auto score"]
        if auto is not None and float(score) == float(auto) and not reason:
            out.pop(key, None)
        else:
            out[key] = make_override(report, key, score, reason or "edited in the dashboard")
    return out


def with_overrides(report: AuditReport, overrides: Overrides) -> AuditReport:
    """A copy of ``report`` carrying ``overrides``, every metric recomputed."""
    return apply_overrides(report, list(overrides.values()))


def from_file(text: str, report: AuditReport, source: str) -> Overrides:
    """Overrides read from a ``score --overrides`` file, those of this report only; raises
    ValueError naming the item (and, on apply, the PII that is not scored)."""
    records = [o for o in parse_overrides(text, source) if o.data_id in ("", report.data_id)]
    apply_overrides(report, records)  # every record must name a scored PII of this report
    return {key_of(o): o for o in records}


def overrides_key(overrides: Overrides | Iterable[ScoreOverride]) -> str:
    """A stable text key of a set of overrides (for memoising views)."""
    values = overrides.values() if isinstance(overrides, dict) else overrides
    return "|".join(sorted(f"{o.gt_subject_id}:{o.tag}={o.score}:{o.reason}" for o in values))
