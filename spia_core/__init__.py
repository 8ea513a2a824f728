"""SPIA Audit engine: subject-level PII inference evaluation (UI-free)."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["__version__", "score_pii"]


def __getattr__(name: str) -> Any:
    # Lazy, so that `import spia_core` stays cheap (no spaCy, no SDKs).
    if name == "score_pii":
        from spia_core.evaluation.scoring import score_pii

        return score_pii
    raise AttributeError(name)
