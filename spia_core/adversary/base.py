"""The Adversary interface: find every subject in a text and infer their PII."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from spia_core.model import Subject


@dataclass
class InferenceResult:
    """What an adversary inferred from one text (SPIA subjects with PIIs and evidence)."""

    subjects: list[Subject]
    adversary: str
    #: Free-form trace (stage outputs, calls, timings) kept for the dashboard.
    trace: dict[str, Any] = field(default_factory=dict)
    #: True when results come from a weaker, degraded setup (e.g. no spaCy model).
    degraded: bool = False
    warnings: list[str] = field(default_factory=list)


class Adversary(Protocol):
    """Two-stage SPIA adversary: Stage A finds subjects, Stage B infers 15 tags per subject."""

    name: str

    def infer(self, text: str) -> InferenceResult:
        """Infer subjects and their PII from ``text`` (treated as data, never instructions)."""
        ...
