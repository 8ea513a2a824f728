"""The Anonymizer interface: original text in, redacted text (and masked spans) out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class AnonymizedText:
    """An anonymizer's output.

    ``masked_spans`` are [start, end) character offsets into the ORIGINAL text, when the
    method knows them (None otherwise: span metrics then align or search instead).
    """

    text: str
    masked_spans: list[tuple[int, int]] | None = None
    method: str = ""
    trace: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


class Anonymizer(Protocol):
    name: str

    def anonymize(self, text: str) -> AnonymizedText: ...
