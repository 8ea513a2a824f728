"""Human adjudication: replace (or restore) the automatic score of one GT PII.

Overrides are stored on :class:`PIIScore.override`; metrics read ``PIIScore.effective_score``,
so an override flows into CPR / IPR / 1-AAC without touching the automatic decision.
"""

from __future__ import annotations

import copy

from spia_core.model import Override, PIIScore, SubjectResult

__all__ = ["ALLOWED_SCORES", "apply_override", "clear_override"]

ALLOWED_SCORES: tuple[float, ...] = (0.0, 0.5, 1.0)


def _targets(
    results: list[SubjectResult], gt_subject_id: int, tag: str, gt_keyword: str
) -> list[tuple[int, int]]:
    """(result index, score index) of every PIIScore with this subject, tag and GT keyword."""
    subject_found = False
    hits: list[tuple[int, int]] = []
    for ri, result in enumerate(results):
        if result.gt_subject_id != gt_subject_id:
            continue
        subject_found = True
        for si, score in enumerate(result.scores):
            if score.tag == tag and score.gt_keyword.strip() == gt_keyword.strip():
                hits.append((ri, si))
    if not subject_found:
        known = sorted({r.gt_subject_id for r in results})
        raise ValueError(f"no result for GT subject {gt_subject_id} (subjects: {known})")
    if not hits:
        scored = sorted(
            {
                (s.tag, s.gt_keyword)
                for r in results
                if r.gt_subject_id == gt_subject_id
                for s in r.scores
            }
        )
        raise ValueError(
            f"GT subject {gt_subject_id} has no scored {tag} PII {gt_keyword!r}; "
            f"scored PIIs: {scored}"
        )
    return hits


def _updated(
    results: list[SubjectResult], hits: list[tuple[int, int]], override: Override | None
) -> list[SubjectResult]:
    out = copy.deepcopy(results)
    for ri, si in hits:
        old: PIIScore = out[ri].scores[si]
        old.override = copy.deepcopy(override)
    return out


def apply_override(
    results: list[SubjectResult],
    gt_subject_id: int,
    tag: str,
    gt_keyword: str,
    score: float,
    reason: str,
    author: str = "",
) -> list[SubjectResult]:
    """Copies of ``results`` where the matching PII score carries a human override.

    Raises ValueError if the subject or PII is not found, the score is not 0, 0.5 or 1,
    or the reason is empty. Every PIIScore with the same subject, tag and keyword is updated.
    """
    if (
        isinstance(score, bool)
        or not isinstance(score, (int, float))
        or score not in ALLOWED_SCORES
    ):
        raise ValueError(f"override score must be one of {ALLOWED_SCORES}, got {score!r}")
    if not reason.strip():
        raise ValueError("an override needs a non-empty reason")
    hits = _targets(results, gt_subject_id, tag, gt_keyword)
    return _updated(results, hits, Override(float(score), reason.strip(), author))


def clear_override(
    results: list[SubjectResult], gt_subject_id: int, tag: str, gt_keyword: str
) -> list[SubjectResult]:
    """Copies of ``results`` with the override of the matching PII score removed."""
    hits = _targets(results, gt_subject_id, tag, gt_keyword)
    return _updated(results, hits, None)
