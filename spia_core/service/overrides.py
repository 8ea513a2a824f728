"""Human score overrides of one audit version (adjudication), applied to a copy of the report."""

from __future__ import annotations

import math
from typing import Any

from spia_core.evaluation.adjudication import apply_overrides
from spia_core.model import AuditReport, ScoreOverride

#: (GT subject id, tag) -> (score, reason): the user's score overrides of one version.
Overrides = dict[tuple[int, str], tuple[float, str]]
AUTHOR = "dashboard"


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
    rows: list[dict[str, Any]], edited_rows: dict[Any, dict[str, Any]], overrides: Overrides
) -> Overrides:
    """``overrides`` updated with a data editor's ``edited_rows`` (row index -> changed cells).

    A row whose score is back to the automatic one with no reason loses its override; an
    emptied score removes it too (an override is never "no score").
    """
    out = dict(overrides)
    for idx, change in edited_rows.items():
        row = rows[int(idx)]
        key = (int(row["subject id"]), str(row["tag"]))
        score = change.get("score", row["score"])
        reason = str(change.get("reason", row["reason"]) or "").strip()
        if score is None or (isinstance(score, float) and math.isnan(score)):
            out.pop(key, None)
            continue
        auto = row["auto score"]
        if auto is not None and float(score) == float(auto) and not reason:
            out.pop(key, None)
        else:
            out[key] = (float(score), reason or "edited in the dashboard")
    return out


def records(overrides: Overrides, data_id: str = "") -> list[ScoreOverride]:
    """The dashboard's overrides as the engine's records (author "dashboard")."""
    return [
        ScoreOverride(sid, tag, score, reason or "edited in the dashboard", AUTHOR, data_id)
        for (sid, tag), (score, reason) in sorted(overrides.items())
    ]


def with_overrides(report: AuditReport, overrides: Overrides) -> AuditReport:
    """A copy of ``report`` carrying ``overrides``, metrics recomputed (the engine's
    :func:`~spia_core.evaluation.adjudication.apply_overrides`, the one place they apply)."""
    return apply_overrides(report, records(overrides, report.data_id))


def overrides_key(overrides: Overrides) -> str:
    """A stable text key of a set of overrides (for memoising views)."""
    return "|".join(f"{k[0]}:{k[1]}={v[0]}:{v[1]}" for k, v in sorted(overrides.items()))
