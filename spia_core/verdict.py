"""Release verdict: does an audit meet a protection target? (pure, no UI).

:func:`assess` is the one entry point for every caller (dashboard, CLI ``audit``, ``check``):
it turns an :class:`AuditReport` into a :class:`Verdict`. A verdict needs a complete audit by
an engine that can read the text: any blocking notice (severity error), a failed stage, a
degraded model, a language the offline engine cannot read or no subject in a text about
people gives ``cannot_judge`` with that reason first, never a green status.

Statuses: ``unsafe``, ``cannot_judge``, and ``no_exposure_found`` (redacted-only: the
adversary got nothing with certainty >= 3) or ``meets_target`` (with the original: CPR and
every subject reach the target).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spia_core.model import (
    AuditReport,
    Metrics,
    Notice,
    NoticeKind,
    SpanMetrics,
    SubjectProtection,
)
from spia_core.taxonomy import DISPLAY_NAMES

UNSAFE = "unsafe"
CANNOT_JUDGE = "cannot_judge"
NO_EXPOSURE_FOUND = "no_exposure_found"
MEETS_TARGET = "meets_target"
#: Every status :func:`assess` can return.
STATUSES: tuple[str, ...] = (UNSAFE, CANNOT_JUDGE, NO_EXPOSURE_FOUND, MEETS_TARGET)
# Older names of the with-original statuses.
SAFE = MEETS_TARGET
NOT_SAFE = UNSAFE
INCONCLUSIVE = CANNOT_JUDGE

#: What a stronger check than the offline engine is (named in every offline verdict).
STRONGER_CHECK = (
    "an LLM adversary (--adversary llm, e.g. the paper's claude-sonnet-4-5), which infers "
    "more than the offline rules"
)


@dataclass(frozen=True)
class Target:
    """The protection a document must reach to be released."""

    min_cpr: float = 0.90
    min_subject: float = 0.80

    def __post_init__(self) -> None:
        for name in ("min_cpr", "min_subject"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"Target.{name} must be within [0, 1], got {value!r}")


@dataclass
class Verdict:
    """Outcome of :func:`judge`: a status, a one-line headline and the reasons behind it."""

    status: str  # one of STATUSES
    headline: str
    reasons: list[str] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    at_risk: list[SubjectProtection] = field(default_factory=list)
    n_subjects: int = 0

    #: True when the adversary was the offline one (the result is a lower bound).
    lower_bound: bool = False

    @property
    def safe(self) -> bool:
        return self.status == SAFE

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form for report.json (``status``, ``headline``, ``reasons``, ``caveats``)."""
        return {
            "status": self.status,
            "headline": self.headline,
            "reasons": list(self.reasons),
            "caveats": list(self.caveats),
            "lower_bound": self.lower_bound,
        }


def _label(sp: SubjectProtection) -> str:
    desc = sp.description.split(" - ")[0].strip() or f"subject {sp.gt_subject_id}"
    return f"{desc} (subject {sp.gt_subject_id})"


def _people(n: int) -> str:
    return "person" if n == 1 else "people"


def judge(
    metrics: Metrics, target: Target | None = None, *, adversary_is_local: bool = False
) -> Verdict:
    """Judge ``metrics`` against ``target``.

    A subject is *identifiable* when its protection is below ``target.min_subject``.
    Unscored PII or failed stages make the verdict inconclusive: an unscored item is never
    counted as protected.
    """
    target = target or Target()
    subjects = list(metrics.per_subject)
    at_risk = sorted(
        (s for s in subjects if s.protection < target.min_subject), key=lambda s: s.protection
    )
    reasons: list[str] = []
    caveats: list[str] = []
    cov = metrics.coverage
    n_unscored = cov.n_pii - cov.n_pii_scored if cov.n_pii else 0
    failures = list(cov.failures)

    if metrics.cpr is not None and metrics.cpr < target.min_cpr:
        reasons.append(f"CPR {metrics.cpr:.2f} is below the target {target.min_cpr:.2f}.")
    for sp in at_risk:
        reasons.append(
            f"{_label(sp)}: protection {sp.protection:.2f} is below {target.min_subject:.2f}."
        )
    if n_unscored > 0:
        reasons.append(f"{n_unscored} PII could not be scored (not counted as protected).")
    for f in failures:
        where = f" subject {f.subject_id}" if f.subject_id is not None else ""
        reasons.append(f"Failure in {f.stage}{where}: {f.reason}")
    if adversary_is_local:
        caveats.append(
            "The local adversary is weaker than an LLM adversary: protection is overestimated."
        )

    n = len(subjects)
    if not subjects or metrics.cpr is None:
        status = INCONCLUSIVE
        headline = "no verdict: the ground truth has no subject with PII to protect"
    elif at_risk or (metrics.cpr < target.min_cpr):
        status = NOT_SAFE
        k = len(at_risk)
        if k:
            verb = "remains" if k == 1 else "remain"
            headline = f"not safe to release: {k} of {n} {_people(n)} {verb} identifiable"
        else:
            headline = f"not safe to release: CPR {metrics.cpr:.2f} < {target.min_cpr:.2f}"
    elif n_unscored or failures:
        status = INCONCLUSIVE
        headline = "inconclusive: part of the audit could not be scored"
    else:
        status = SAFE
        headline = (
            f"meets the target: CPR {metrics.cpr:.2f} and all {n} {_people(n)} "
            f">= {target.min_subject:.2f}"
        )
    return Verdict(status, headline, reasons, caveats, at_risk, n)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{round(100 * x)}%"


def gap_sentence(span: SpanMetrics | None, metrics: Metrics) -> str:
    """The span-versus-inference gap in words, e.g. '92% of identifier spans masked; ...'."""
    inference = f"{_pct(metrics.cpr)} of personal information protected (CPR)"
    if span is None or span.token_recall is None:
        return f"Span metrics unavailable; {inference}."
    return f"{_pct(span.token_recall)} of identifier spans masked (token recall); {inference}."


# --------------------------------------------------------------------------- report-level


def _blocking(report: AuditReport) -> list[str]:
    """Why no verdict can be given from ``report`` (empty when the audit is complete)."""
    from spia_core.readability import language_notice, no_subjects_notice

    notices: list[Notice] = list(report.notices)
    kinds = {n.kind for n in notices}
    if NoticeKind.UNSUPPORTED_LANGUAGE not in kinds:
        text = report.original_text or report.anonymized_text
        lang = language_notice(text, adversary_is_local=report.adversary_is_local)
        if lang is not None:
            notices.append(lang)
    readable = all(n.kind != NoticeKind.UNSUPPORTED_LANGUAGE for n in notices)
    if report.mode == "with_original" and NoticeKind.NO_SUBJECTS_FOUND not in kinds and readable:
        empty = no_subjects_notice(report.original_text, report.gt_subjects, stage="ground_truth")
        if empty is not None and report.gt_source != "dataset":
            notices.append(empty)
    reasons = [n.message for n in notices if n.blocks_verdict]
    noticed = {n.stage for n in notices if n.blocks_verdict}
    reasons += [
        f"Stage {f.stage} failed: {f.reason}" for f in report.failures if f.stage not in noticed
    ]
    if report.degraded and NoticeKind.DEGRADED_MODEL not in kinds:
        reasons.append(
            "Degraded engine: no trained spaCy model, so names and places come from patterns only."
        )
    return list(dict.fromkeys(reasons))


#: The verdict's short caveat for the offline lower bound and for a missing original.
LOWER_BOUND_CAVEAT = (
    "Offline result, a lower bound: the local adversary infers less than an LLM adversary "
    f"would. A stronger check is {STRONGER_CHECK}."
)
NO_CPR_CAVEAT = (
    "No CPR without the original text (no ground truth); give the original to measure CPR, "
    "IPR and 1-AAC."
)
#: The notice kind that says each short caveat at length (a page showing both says it once).
CAVEAT_NOTICE_KIND = {
    LOWER_BOUND_CAVEAT: NoticeKind.LOWER_BOUND,
    NO_CPR_CAVEAT: NoticeKind.NO_GROUND_TRUTH,
}


def _caveats(report: AuditReport) -> list[str]:
    out = []
    if report.adversary_is_local:
        out.append(LOWER_BOUND_CAVEAT)
    if report.mode == "redacted_only":
        out.append(NO_CPR_CAVEAT)
    return out


def _exposure_reasons(report: AuditReport) -> list[str]:
    exposure = report.exposure
    if exposure is None:
        return []
    reasons = []
    for sub in sorted(exposure.subjects, key=lambda s: (-s.score, s.subject_id)):
        if not sub.score:
            continue
        parts = []
        if sub.direct:
            parts.append("identifiers: " + ", ".join(DISPLAY_NAMES.get(t, t) for t in sub.direct))
        if sub.quasi:
            parts.append("inferred: " + ", ".join(DISPLAY_NAMES.get(t, t) for t in sub.quasi))
        reasons.append(
            f"{sub.label} (subject {sub.subject_id}): exposure {sub.score} ({'; '.join(parts)})."
        )
    if exposure.placeholders:
        reasons.append(
            f"{exposure.n_seen_through} of {len(exposure.placeholders)} placeholders seen "
            "through (an inference rests on the words around them)."
        )
    return reasons


def _redacted_verdict(report: AuditReport, caveats: list[str]) -> Verdict:
    exposure = report.exposure
    subjects = exposure.subjects if exposure is not None else []
    n_exposed = sum(1 for s in subjects if s.score)
    reasons = _exposure_reasons(report)
    local = report.adversary_is_local
    if n_exposed:
        total = exposure.score if exposure is not None else 0
        facts = "fact" if total == 1 else "facts"
        headline = (
            f"unsafe: the adversary singles out {n_exposed} {_people(n_exposed)} in the redacted "
            f"text and gets {total} identifying {facts} with certainty >= "
            f"{exposure.min_certainty if exposure else 3}"
        )
        return Verdict(UNSAFE, headline, reasons, caveats, [], len(subjects), local)
    headline = "no exposure found by the adversary"
    if local:
        headline += f" (offline lower bound; a stronger check is {STRONGER_CHECK})"
    return Verdict(NO_EXPOSURE_FOUND, headline, reasons, caveats, [], len(subjects), local)


def assess(report: AuditReport, target: Target | None = None) -> Verdict:
    """The verdict on one audit report (both modes); see the module docstring."""
    caveats = _caveats(report)
    blockers = _blocking(report)
    local = report.adversary_is_local
    if blockers:
        n = len(report.exposure.subjects) if report.exposure else len(report.gt_subjects)
        return Verdict(
            CANNOT_JUDGE, f"cannot judge: {blockers[0]}", blockers, caveats, [], n, local
        )
    if report.mode == "redacted_only":
        return _redacted_verdict(report, caveats)
    base = judge(report.metrics, target, adversary_is_local=local)
    headline = base.headline
    if local and base.status == MEETS_TARGET:
        headline += f" (offline lower bound; a stronger check is {STRONGER_CHECK})"
    reasons = list(base.reasons)
    if base.status == CANNOT_JUDGE and not reasons:
        reasons = [headline]
    return Verdict(
        base.status, headline, reasons, caveats + base.caveats, base.at_risk, base.n_subjects, local
    )


def verdict_markdown(verdict: Verdict) -> str:
    """The verdict as Markdown for a UI: bold headline, then the reasons as a list.

    Headline and reasons hold document-derived text (subject names, descriptions), so every
    Markdown metacharacter in them is escaped: a "[x](https://...)" in a document stays text.
    """
    from spia_core.export_safety import escape_markdown

    lines = [f"**Verdict: {escape_markdown(verdict.headline)}**"]
    lines += [f"- {escape_markdown(r)}" for r in verdict.reasons]
    return "\n".join(lines)
