"""The Adversary interface: find every subject in a text and infer their PII."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from spia_core.model import Notice, NoticeKind, Severity, StageUsage, Subject


@dataclass
class InferenceResult:
    """What an adversary inferred from one text (SPIA subjects with PIIs and evidence).

    Control data is typed: ``complete``, ``failures`` and ``usage``. ``trace`` holds
    diagnostics for the reader only (stage outputs, model, timings); no engine code branches
    on it.
    """

    subjects: list[Subject]
    adversary: str
    #: Diagnostics (stage outputs, calls, timings) kept for the dashboard; never control data.
    trace: dict[str, Any] = field(default_factory=dict)
    #: True when results come from a weaker, degraded setup (e.g. no spaCy model).
    degraded: bool = False
    warnings: list[str] = field(default_factory=list)
    #: False when a part of the inference failed: the result must not be scored (a tag the
    #: adversary could not infer would otherwise count as protected).
    complete: bool = True
    #: One notice per failed part (``stage`` names the call, e.g. ``adversary.code``).
    failures: list[Notice] = field(default_factory=list)
    #: LLM usage, when the adversary measures its own (the audit's recorder does otherwise).
    usage: StageUsage | None = None

    def fail(self, stage: str, reason: str) -> None:
        """Record a failed part; the result becomes incomplete."""
        self.failures.append(
            Notice(NoticeKind.PARTIAL_FAILURE, stage, reason, severity=Severity.ERROR)
        )
        self.complete = False


class Adversary(Protocol):
    """Two-stage SPIA adversary: Stage A finds subjects, Stage B infers 15 tags per subject."""

    name: str

    def infer(self, text: str) -> InferenceResult:
        """Infer subjects and their PII from ``text`` (treated as data, never instructions)."""
        ...
