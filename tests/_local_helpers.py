"""Helpers shared by the local-adversary tests (the ``adversary`` fixture is in conftest.py)."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


def value(s: Subject, tag: str) -> str:
    """The first non-empty value of ``tag`` among a subject's PII ('' when none)."""
    return next((p.keyword for p in s.piis if p.tag == tag and p.keyword), "")


def by_name(adversary: LocalAdversary, text: str) -> dict[str, Subject]:
    """The named subjects of ``text``, by their NAME value."""
    return {value(s, "NAME"): s for s in adversary.infer(text).subjects if value(s, "NAME")}


def labels(adversary: LocalAdversary, text: str) -> list[str]:
    """Each subject's label: its description up to " - "."""
    return [s.description.split(" - ")[0] for s in adversary.infer(text).subjects]
