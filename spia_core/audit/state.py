"""The one object that flows through the stages of an audit, and its progress events.

Each stage reads some fields of :class:`AuditState` and writes others (it declares which); the
report is built from the state at the end. Failures, degradations and caveats are typed
:class:`~spia_core.model.Notice` objects in ``state.notices``; the report's ``failures`` and
``warnings`` are derived from them for older readers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spia_core.adversary.base import Adversary, InferenceResult
from spia_core.anonymizers.base import AnonymizedText
from spia_core.audit.config import AuditConfig, Components
from spia_core.llm.usage import UsageRecorder
from spia_core.model import (
    Assignment,
    Document,
    DocumentExposure,
    Failure,
    Metrics,
    Notice,
    NoticeKind,
    Severity,
    SpanMetrics,
    StageUsage,
    Subject,
    SubjectResult,
    UtilityScores,
)
from spia_core.progress import Receiver, notify, takes_counts

#: Notice kinds that are failures (they also appear in ``AuditReport.failures``).
FAILURE_KINDS: frozenset[str] = frozenset(
    {
        NoticeKind.STAGE_FAILED,
        NoticeKind.PARTIAL_FAILURE,
        NoticeKind.INFERENCE_INCOMPLETE,
        NoticeKind.ANONYMIZER_REFUSED,
    }
)

INCOMPLETE_MESSAGE = (
    "inference incomplete: the document is not scored (a PII the adversary "
    "could not infer would otherwise count as protected)"
)


class AuditCancelled(RuntimeError):
    """The caller set the cancel event; the audit stopped between two stages."""


#: ``on_stage(stage, fraction)``, or ``on_stage(stage, fraction, counts)`` to also get counts
#: inside a stage (``{"done": i, "total": n, "unit": "people"}``; see :mod:`spia_core.progress`).
StageCallback = Callable[..., None]


@dataclass
class Progress:
    """Where an audit reports progress and learns it is cancelled."""

    on_stage: StageCallback | None = None
    cancel: threading.Event | None = None

    def start(self, state: AuditState, stage: str, index: int, steps: int) -> None:
        """Raise :class:`AuditCancelled` when cancelled; else report ``stage`` starting."""
        if self.cancel is not None and self.cancel.is_set():
            raise AuditCancelled(f"audit of {state.data_id!r} cancelled before stage {stage!r}")
        notify(self.on_stage, stage, index / steps)

    def within(self, stage: str, index: int, steps: int) -> Receiver | None:
        """A receiver for counts reported inside ``stage`` (None unless the callback takes a
        third argument, so a two-argument callback sees exactly one call per stage): the
        fraction moves through the stage's share of the bar, with the counts."""
        if self.on_stage is None or not takes_counts(self.on_stage):
            return None

        def receive(done: int, total: int, unit: str) -> None:
            share = done / total if total else 0.0
            counts = {"done": done, "total": total, "unit": unit}
            notify(self.on_stage, stage, (index + 0.999 * share) / steps, counts)

        return receive

    def finish(self) -> None:
        notify(self.on_stage, "done", 1.0)


@dataclass
class AuditState:
    """Everything one audit knows, filled stage by stage.

    ``document`` is the original (None in a redacted-only audit: the stages that need it,
    ground truth, match, score, span metrics and utility, then skip). ``anonymized`` is the
    text the adversary reads.
    """

    config: AuditConfig
    #: The input as given (validated into ``document`` by the validate stage).
    source: Document | str | None = None
    data_id: str = "text"
    document: Document | None = None
    #: Components as built (shared across audits) and as bound to this audit's usage recorder.
    components: Components | None = None
    parts: Components | None = None
    gt_adversary: Adversary | None = None
    recorder: UsageRecorder = field(default_factory=UsageRecorder)
    anonymized: AnonymizedText | None = None
    #: An anonymizer output rejected by the rewrite check (shown in the report, never scored).
    rejected: AnonymizedText | None = None
    #: "dataset" (human GT), "automatic" (the adversary on the original) or "none".
    gt_source: str = "automatic"
    gt_subjects: list[Subject] | None = None
    original_inference: InferenceResult | None = None
    inferred: InferenceResult | None = None
    inference_complete: bool = False
    assignment: Assignment | None = None
    subject_results: list[SubjectResult] = field(default_factory=list)
    scored: bool = False
    metrics: Metrics | None = None
    span_metrics: SpanMetrics | None = None
    utility: UtilityScores | None = None
    #: What the adversary exposes (redacted-only audits: the exposure stage).
    exposure: DocumentExposure | None = None
    degraded: bool = False
    notices: list[Notice] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    usage: dict[str, StageUsage] = field(default_factory=dict)
    #: How to build the components when none are given; cleared once used (keys stay out).
    api_keys: dict[str, str] | None = field(default=None, repr=False)
    cache: Any = field(default=True, repr=False)

    # ---------------------------------------------------------------- views

    @property
    def has_original(self) -> bool:
        return self.document is not None

    @property
    def original_text(self) -> str:
        return self.document.text if self.document is not None else ""

    @property
    def anonymized_text(self) -> str:
        return self.anonymized.text if self.anonymized is not None else ""

    @property
    def shown(self) -> AnonymizedText | None:
        """The anonymizer's output as the report shows it (a rejected one included)."""
        return self.anonymized if self.anonymized is not None else self.rejected

    @property
    def failures(self) -> list[Failure]:
        """The failure notices as :class:`Failure` records (for metrics and older readers)."""
        return [
            Failure(n.data_id, n.stage, failure_reason(n)) for n in self.notices if is_failure(n)
        ]

    @property
    def warnings(self) -> list[str]:
        """The messages of every other notice, once each, in order."""
        return list(dict.fromkeys(n.message for n in self.notices if not is_failure(n)))

    # ---------------------------------------------------------------- recording

    def note(
        self,
        kind: str,
        stage: str,
        message: str,
        severity: str = Severity.WARNING,
        **detail: Any,
    ) -> None:
        """Add a notice (a caveat already noted with the same kind and text is not repeated)."""
        notice = Notice(kind, stage, message, severity, self.data_id, dict(detail))
        if not is_failure(notice) and any(
            n.kind == kind and n.message == message for n in self.notices
        ):
            return
        self.notices.append(notice)

    def fail(
        self,
        stage: str,
        exc: BaseException | str,
        *,
        kind: str = NoticeKind.STAGE_FAILED,
        severity: str = Severity.ERROR,
    ) -> None:
        """Record a failed stage (its output is missing; it is never scored as protected)."""
        reason = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
        self.note(kind, stage, reason, severity)

    def record_inference(self, stage: str, result: InferenceResult) -> bool:
        """Record an inference's warnings, failed parts and usage; False when incomplete.

        An incomplete inference (a failed LLM call) cannot be scored: a tag it could not infer
        would otherwise count as protected.
        """
        for warning in result.warnings:
            self.note(NoticeKind.CAVEAT, stage, warning)
        for part in result.failures:
            self.note(
                NoticeKind.PARTIAL_FAILURE,
                stage,
                f"partial inference failure: stage={part.stage}; reason={part.message}",
                Severity.ERROR,
                call=part.stage,
            )
        if result.usage is not None:
            self.usage[stage] = result.usage
        complete = result.complete and not result.failures
        if not complete:
            self.note(NoticeKind.INFERENCE_INCOMPLETE, stage, INCOMPLETE_MESSAGE, Severity.ERROR)
        return complete


def is_failure(notice: Notice) -> bool:
    return notice.kind in FAILURE_KINDS


#: Failure kinds whose message is the whole reason (others are prefixed with their kind).
_PLAIN_REASONS = frozenset(
    {NoticeKind.STAGE_FAILED, NoticeKind.PARTIAL_FAILURE, NoticeKind.INFERENCE_INCOMPLETE}
)


def failure_reason(notice: Notice) -> str:
    """The :class:`Failure` reason of a failure notice (``kind: message`` for specific kinds)."""
    if notice.kind in _PLAIN_REASONS:
        return notice.message
    return f"{notice.kind}: {notice.message}"
