"""Release verdict: does an audit meet a protection target? (pure, no UI)."""

from __future__ import annotations

from dataclasses import dataclass, field

from spia_core.model import Metrics, SpanMetrics, SubjectProtection

SAFE = "safe"
NOT_SAFE = "not_safe"
INCONCLUSIVE = "inconclusive"


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

    status: str  # SAFE | NOT_SAFE | INCONCLUSIVE
    headline: str
    reasons: list[str] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    at_risk: list[SubjectProtection] = field(default_factory=list)
    n_subjects: int = 0

    @property
    def safe(self) -> bool:
        return self.status == SAFE


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
