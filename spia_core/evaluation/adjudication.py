"""Human adjudication: :class:`~spia_core.model.ScoreOverride` records applied in one place.

An override is stored on :attr:`PIIScore.override`; metrics read ``PIIScore.effective_score``,
so it flows into CPR / IPR / 1-AAC while the automatic decision stays visible. The dashboard,
``python -m spia_core score --overrides FILE`` and the exports all use :func:`apply_overrides`
and the file format of :func:`read_overrides` / :func:`overrides_json`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, overload

from spia_core.model import AuditReport, Override, ScoreOverride, SubjectResult
from spia_core.taxonomy import TAGS

__all__ = [
    "ALLOWED_SCORES",
    "apply_overrides",
    "overrides_for",
    "overrides_json",
    "parse_overrides",
    "read_overrides",
]

ALLOWED_SCORES: tuple[float, ...] = (0.0, 0.5, 1.0)
_FIELDS = ("data_id", "gt_subject_id", "tag", "gt_keyword", "score", "reason", "author")


def check_override(override: ScoreOverride) -> None:
    """Raise ValueError unless the score is 0, 0.5 or 1, the tag known and a reason given."""
    score = override.score
    if (
        isinstance(score, bool)
        or not isinstance(score, (int, float))
        or score not in ALLOWED_SCORES
    ):
        raise ValueError(f"override score must be one of {ALLOWED_SCORES}, got {score!r}")
    if override.tag not in TAGS:
        raise ValueError(f"override tag {override.tag!r} is not a SPIA tag")
    if not override.reason.strip():
        raise ValueError("an override needs a non-empty reason")


def _apply_one(results: list[SubjectResult], override: ScoreOverride) -> None:
    """Set ``override`` on every matching PII score (in place); raise when none matches."""
    subjects = [r for r in results if r.gt_subject_id == override.gt_subject_id]
    if not subjects:
        known = sorted({r.gt_subject_id for r in results})
        raise ValueError(f"no result for GT subject {override.gt_subject_id} (subjects: {known})")
    want = None if override.gt_keyword is None else override.gt_keyword.strip()
    hits = [
        s
        for r in subjects
        for s in r.scores
        if s.tag == override.tag and (want is None or s.gt_keyword.strip() == want)
    ]
    if not hits:
        scored = sorted({(s.tag, s.gt_keyword) for r in subjects for s in r.scores})
        what = override.tag if want is None else f"{override.tag} PII {want!r}"
        raise ValueError(
            f"GT subject {override.gt_subject_id} has no scored {what}; scored PIIs: {scored}"
        )
    decision = Override(float(override.score), override.reason.strip(), override.author)
    for score in hits:
        score.override = copy.copy(decision)


@overload
def apply_overrides(target: AuditReport, overrides: Iterable[ScoreOverride]) -> AuditReport: ...
@overload
def apply_overrides(
    target: list[SubjectResult], overrides: Iterable[ScoreOverride]
) -> list[SubjectResult]: ...
def apply_overrides(target: Any, overrides: Iterable[ScoreOverride]) -> Any:
    """A copy of ``target`` (a report or a document's subject results) with ``overrides`` set.

    For a report, overrides naming another ``data_id`` are left out and the metrics are
    recomputed from the effective scores. Later overrides of the same PII win. Raises
    ValueError naming the override when its subject, tag or keyword is not scored, or its score
    or reason is invalid: a decision is never dropped silently.
    """
    if isinstance(target, AuditReport):
        return _apply_to_report(target, list(overrides))
    results = copy.deepcopy(list(target))
    for override in overrides:
        check_override(override)
        _apply_one(results, override)
    return results


def _apply_to_report(report: AuditReport, overrides: list[ScoreOverride]) -> AuditReport:
    from spia_core.evaluation.metrics import DocumentScores, compute_metrics

    new = copy.deepcopy(report)
    new.subject_results = apply_overrides(
        new.subject_results, overrides_for(overrides, report.data_id)
    )
    scored = report.metrics.coverage.n_docs_scored > 0
    scores = DocumentScores(
        report.data_id,
        new.subject_results,
        len(report.assignment.extra_pred_subject_ids),
        list(report.failures),
        failed=not scored,
    )
    new.metrics = compute_metrics([scores])
    return new


def overrides_for(overrides: Iterable[ScoreOverride], data_id: str) -> list[ScoreOverride]:
    """The overrides of one document (those naming it, and those naming none)."""
    return [o for o in overrides if o.data_id in ("", data_id)]


# --------------------------------------------------------------------------- file format


def _record(item: Any, where: str) -> ScoreOverride:
    if not isinstance(item, dict):
        raise ValueError(f"{where}: an override must be a JSON object, got {type(item).__name__}")
    unknown = sorted(set(item) - set(_FIELDS))
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(unknown)}")
    for name in ("gt_subject_id", "tag", "score", "reason"):
        if name not in item:
            raise ValueError(f"{where}: field {name!r} is required")
    subject = item["gt_subject_id"]
    if isinstance(subject, bool) or not isinstance(subject, int):
        raise ValueError(f"{where}: field 'gt_subject_id' must be an integer, got {subject!r}")
    keyword = item.get("gt_keyword")
    override = ScoreOverride(
        gt_subject_id=subject,
        tag=str(item["tag"]),
        score=item["score"],
        reason=str(item["reason"]),
        author=str(item.get("author") or ""),
        data_id=str(item.get("data_id") or ""),
        gt_keyword=None if keyword is None else str(keyword),
    )
    try:
        check_override(override)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    return override


def parse_overrides(text: str, source: str = "overrides") -> list[ScoreOverride]:
    """Overrides from JSON (a list, or ``{"overrides": [...]}``) or JSON Lines."""
    stripped = text.strip()
    if not stripped:
        return []
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError:
        data = None
        items: list[tuple[str, Any]] = []
        for n, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    items.append((f"{source} line {n}", json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{source} line {n}: not JSON ({exc.msg})") from None
        return [_record(item, where) for where, item in items]
    if isinstance(data, dict) and set(data) == {"overrides"}:
        data = data["overrides"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ValueError(f"{source}: expected a list of overrides")
    return [_record(item, f"{source} item {i + 1}") for i, item in enumerate(data)]


def read_overrides(path: str | Path) -> list[ScoreOverride]:
    """Read an overrides file (see :func:`parse_overrides`); errors name the file and item."""
    path = Path(path)
    return parse_overrides(path.read_text(encoding="utf-8"), path.name)


def overrides_json(overrides: Iterable[ScoreOverride]) -> str:
    """The overrides as the JSON file :func:`read_overrides` reads (``gt_keyword`` kept)."""
    rows = [{name: getattr(o, name) for name in _FIELDS} for o in overrides]
    return json.dumps({"overrides": rows}, indent=2, ensure_ascii=False) + "\n"
