"""Human score overrides of one audit version (adjudication), applied to a copy of the report."""

from __future__ import annotations

import copy
import math
from typing import Any

from spia_core.evaluation.metrics import DocumentScores, compute_metrics
from spia_core.model import AuditReport, Metrics, Override

#: (GT subject id, tag) -> (score, reason): the user's score overrides of one version.
Overrides = dict[tuple[int, str], tuple[float, str]]
AUTHOR = "dashboard"


def recompute_metrics(report: AuditReport) -> Metrics:
    """Metrics recomputed from the (possibly overridden) subject results."""
    return compute_metrics(
        [
            DocumentScores(
                report.data_id,
                report.subject_results,
                report.metrics.n_extra_subjects,
                list(report.failures),
            )
        ]
    )


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


def with_overrides(report: AuditReport, overrides: Overrides) -> AuditReport:
    """A copy of ``report`` carrying ``overrides`` (author "dashboard"), metrics recomputed."""
    new = copy.deepcopy(report)
    for r in new.subject_results:
        for s in r.scores:
            change = overrides.get((r.gt_subject_id, s.tag))
            if change is not None:
                s.override = Override(change[0], change[1], AUTHOR)
    new.metrics = recompute_metrics(new)
    return new


def overrides_key(overrides: Overrides) -> str:
    """A stable text key of a set of overrides (for memoising views)."""
    return "|".join(f"{k[0]}:{k[1]}={v[0]}:{v[1]}" for k, v in sorted(overrides.items()))
