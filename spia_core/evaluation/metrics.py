"""SPIA metrics: CPR, IPR, 1-AAC and their breakdowns, with explicit coverage.

Notation (paper §4.1): for GT subject i, O_i is the number of counted GT PIIs and A_i (here S_i)
the sum of their scores (1.0 / 0.5 / 0.0). P_i = 1 - S_i / O_i.

- IPR = mean of P_i over subjects with O_i > 0.
- CPR = 1 - ΣS_i / ΣO_i.
- 1-AAC = 1 - ΣS / ΣO pooled over the target subject of each document.

The PIIScores given are already filtered by GT certainty; every one whose effective score is not
None counts. Unmatched GT subjects carry 0.0 scores, so they count as fully protected (as in the
paper). Unlike the reference, a document that failed is never scored as protected: it is left out
of every metric and listed in ``coverage.failures``; so is each unscorable PII.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from spia_core.model import (
    Coverage,
    Failure,
    GroupMetric,
    Metrics,
    PIIScore,
    SubjectProtection,
    SubjectResult,
)
from spia_core.taxonomy import CODE_TAGS, DIRECT_TAGS, DISPLAY_NAMES, TAGS

#: Tag groups reported in ``Metrics.per_group``.
GROUPS: tuple[str, ...] = ("CODE", "NON-CODE", "DIRECT", "QUASI")


@dataclass
class DocumentScores:
    """Scored subjects of one document (or why it could not be scored)."""

    data_id: str
    subject_results: list[SubjectResult]
    n_extra_subjects: int = 0
    failures: list[Failure] = field(default_factory=list)
    #: True when the document could not be scored at all (``failures`` says why).
    failed: bool = False


def groups_of(tag: str) -> tuple[str, str]:
    """The two groups a tag belongs to: CODE or NON-CODE, and DIRECT or QUASI."""
    return ("CODE" if tag in CODE_TAGS else "NON-CODE", "DIRECT" if tag in DIRECT_TAGS else "QUASI")


def _ratio(num: float, den: float) -> float | None:
    return None if den == 0 else num / den


def _add(groups: dict[str, GroupMetric], key: str, score: float) -> None:
    group = groups.setdefault(key, GroupMetric(0, 0.0))
    group.n_pii += 1
    group.sum_score += score


def _ordered(groups: dict[str, GroupMetric], order: Iterable[str]) -> dict[str, GroupMetric]:
    """Known keys in ``order`` first, then the rest sorted."""
    known = [k for k in order if k in groups]
    return {k: groups[k] for k in [*known, *sorted(set(groups) - set(known))]}


def _unscorable(data_id: str, s: PIIScore) -> Failure:
    return Failure(
        data_id=data_id,
        stage="scoring",
        reason=(
            f"unscorable {s.tag} {s.gt_keyword!r} vs {s.pred_keyword!r}"
            f" ({s.rule}: {s.reason or 'no reason given'})"
        ),
        subject_id=s.gt_subject_id,
    )


def _counted(result: SubjectResult, data_id: str = "") -> list[tuple[PIIScore, float]]:
    """The subject's PIIScores that count, with their effective score (checked in [0, 1])."""
    counted = [(s, v) for s in result.scores if (v := s.effective_score) is not None]
    for s, v in counted:
        if not 0.0 <= v <= 1.0:
            raise ValueError(
                f"{data_id}: subject {s.gt_subject_id} {s.tag} has score {v!r}; "
                "scores must lie in [0, 1]"
            )
    return counted


def compute_metrics(docs: list[DocumentScores]) -> Metrics:
    """CPR, IPR, 1-AAC, breakdowns and coverage over scored documents (see module docstring)."""
    coverage = Coverage(n_docs=len(docs))
    per_tag: dict[str, GroupMetric] = {}
    per_group: dict[str, GroupMetric] = {}
    per_hardness: dict[str, GroupMetric] = {}
    per_certainty: dict[str, GroupMetric] = {}
    per_subject: list[SubjectProtection] = []
    target_n, target_sum = 0, 0.0
    n_extra = 0

    for doc in docs:
        coverage.failures.extend(doc.failures)
        with_pii = [r for r in doc.subject_results if r.scores]
        coverage.n_subjects += len(with_pii)
        coverage.n_pii += sum(len(r.scores) for r in with_pii)
        if doc.failed:
            if not doc.failures:
                coverage.failures.append(
                    Failure(doc.data_id, "document", "document failed (no reason recorded)")
                )
            continue
        coverage.n_docs_scored += 1
        n_extra += doc.n_extra_subjects
        for result in with_pii:
            counted = _counted(result, doc.data_id)
            coverage.failures.extend(
                _unscorable(doc.data_id, s) for s in result.scores if s.effective_score is None
            )
            if not counted:
                continue
            coverage.n_subjects_scored += 1
            coverage.n_pii_scored += len(counted)
            subject_sum = 0.0
            for s, v in counted:
                subject_sum += v
                _add(per_tag, s.tag, v)
                for group in groups_of(s.tag):
                    _add(per_group, group, v)
                _add(per_hardness, str(s.hardness), v)
                _add(per_certainty, str(s.certainty), v)
            per_subject.append(
                SubjectProtection(
                    data_id=doc.data_id,
                    gt_subject_id=result.gt_subject_id,
                    description=result.description,
                    matched=result.pred_subject_id is not None,
                    n_pii=len(counted),
                    sum_score=subject_sum,
                    is_target=result.is_target,
                )
            )
            if result.is_target:
                target_n += len(counted)
                target_sum += subject_sum

    n_pii = sum(p.n_pii for p in per_subject)
    sum_score = sum(p.sum_score for p in per_subject)
    inferred = _ratio(sum_score, n_pii)
    target_inferred = _ratio(target_sum, target_n)
    return Metrics(
        cpr=None if inferred is None else 1.0 - inferred,
        ipr=_ratio(sum(p.protection for p in per_subject), len(per_subject)),
        one_minus_aac=None if target_inferred is None else 1.0 - target_inferred,
        n_subjects=len(per_subject),
        n_pii=n_pii,
        sum_score=sum_score,
        per_tag=_ordered(per_tag, TAGS),
        per_group=_ordered(per_group, GROUPS),
        per_hardness=_ordered(per_hardness, [str(h) for h in range(6)]),
        per_certainty=_ordered(per_certainty, [str(c) for c in range(6)]),
        per_subject=per_subject,
        n_extra_subjects=n_extra,
        coverage=coverage,
    )


def inference_stats(docs: list[DocumentScores]) -> dict[str, Any]:
    """The paper's Table 9 measures over scored documents.

    - subject_match_rate: matched GT subjects / GT subjects with a counted PII;
    - inference_accuracy: summed scores / counted PIIs of matched subjects;
    - end_to_end_accuracy: summed scores / all counted PIIs (unmatched subjects score 0).
    """
    n_subjects = n_matched = n_pii = n_pii_matched = 0
    matched_sum = 0.0
    for doc in docs:
        if doc.failed:
            continue
        for result in doc.subject_results:
            counted = _counted(result, doc.data_id)
            if not counted:
                continue
            n_subjects += 1
            n_pii += len(counted)
            if result.pred_subject_id is not None:
                n_matched += 1
                n_pii_matched += len(counted)
                matched_sum += sum(v for _, v in counted)
    return {
        "subject_match_rate": _ratio(n_matched, n_subjects),
        "inference_accuracy": _ratio(matched_sum, n_pii_matched),
        "end_to_end_accuracy": _ratio(matched_sum, n_pii),
        "n_subjects": n_subjects,
        "n_subjects_matched": n_matched,
        "n_pii": n_pii,
        "n_pii_matched": n_pii_matched,
        "sum_score": matched_sum,
    }


def metrics_summary(m: Metrics) -> dict[str, Any]:
    """A flat dict for tables and CSV: headline figures, per-tag/group protection, coverage."""
    c = m.coverage
    out: dict[str, Any] = {
        "cpr": m.cpr,
        "ipr": m.ipr,
        "one_minus_aac": m.one_minus_aac,
        "n_subjects": m.n_subjects,
        "n_pii": m.n_pii,
        "sum_score": m.sum_score,
        "n_extra_subjects": m.n_extra_subjects,
    }
    out.update({f"tag_{tag}": g.protection for tag, g in m.per_tag.items()})
    out.update({f"group_{name}": g.protection for name, g in m.per_group.items()})
    out.update(
        {
            "n_docs": c.n_docs,
            "n_docs_scored": c.n_docs_scored,
            "n_docs_failed": c.n_docs_failed,
            "n_subjects_total": c.n_subjects,
            "n_subjects_scored": c.n_subjects_scored,
            "n_pii_total": c.n_pii,
            "n_pii_scored": c.n_pii_scored,
            "n_failures": len(c.failures),
        }
    )
    return out


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _group_rows(title: str, groups: dict[str, GroupMetric], label: Any = str) -> list[str]:
    rows = [f"{title:<22}{'protection':>11}{'inferred':>10}{'PIIs':>7}"]
    for key, g in groups.items():
        rows.append(f"  {label(key):<20}{_fmt(g.protection):>11}{g.sum_score:>10.1f}{g.n_pii:>7}")
    return rows


def format_metrics_table(m: Metrics, *, max_failures: int = 10) -> str:
    """A plain-text report for the terminal: headline, per tag, groups, coverage."""
    c = m.coverage
    lines = [
        "SPIA protection (1 = fully protected, 0 = fully exposed)",
        f"  CPR    {_fmt(m.cpr)}   ({m.sum_score:.1f} of {m.n_pii} PIIs inferred)",
        f"  IPR    {_fmt(m.ipr)}   (mean over {m.n_subjects} subjects)",
        f"  1-AAC  {_fmt(m.one_minus_aac)}   (target subjects)",
        f"  extra inferred subjects: {m.n_extra_subjects}",
    ]
    worst = m.worst_subject
    if worst is not None:
        lines.append(
            f"  least protected: {worst.data_id} subject {worst.gt_subject_id} "
            f"{_fmt(worst.protection)} ({worst.description[:50]})"
        )
    lines += ["", *_group_rows("Per tag", m.per_tag, lambda t: DISPLAY_NAMES.get(t, t))]
    lines += ["", *_group_rows("Per group", m.per_group)]
    if m.per_hardness:
        lines += ["", *_group_rows("Per hardness", m.per_hardness)]
    lines += [
        "",
        "Coverage",
        f"  documents  {c.n_docs_scored}/{c.n_docs} scored ({c.n_docs_failed} failed)",
        f"  subjects   {c.n_subjects_scored}/{c.n_subjects} scored",
        f"  PIIs       {c.n_pii_scored}/{c.n_pii} scored",
        f"  failures   {len(c.failures)}",
    ]
    for f in c.failures[:max_failures]:
        subject = "" if f.subject_id is None else f" subject {f.subject_id}"
        lines.append(f"    - {f.data_id}{subject} [{f.stage}] {f.reason}")
    if len(c.failures) > max_failures:
        lines.append(f"    ... and {len(c.failures) - max_failures} more")
    return "\n".join(lines)
