"""The ``provided`` anonymizer: the user's own redacted text, aligned back to the original.

Masked spans are recovered with a word-level difflib alignment: every original token that
was replaced or deleted in the redacted text counts as masked.
"""

from __future__ import annotations

import difflib
import re

from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS

_TOKEN = re.compile(r"\w+|[^\w\s]")
#: Above this many tokens difflib's autojunk heuristic is switched on to bound the run time.
_AUTOJUNK_ABOVE = 20_000


def _tokens(text: str) -> tuple[list[str], list[tuple[int, int]]]:
    matches = list(_TOKEN.finditer(text))
    return [m.group() for m in matches], [m.span() for m in matches]


def align_masked_spans(original: str, redacted: str) -> list[tuple[int, int]]:
    """[start, end) spans of ``original`` that ``redacted`` replaced or deleted (word level)."""
    a, a_spans = _tokens(original)
    b, _ = _tokens(redacted)
    autojunk = max(len(a), len(b)) > _AUTOJUNK_ABOVE
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=autojunk)
    spans: list[tuple[int, int]] = []
    for op, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if op in ("replace", "delete") and i2 > i1:
            spans.append((a_spans[i1][0], a_spans[i2 - 1][1]))
    return spans


@ANONYMIZERS.register("provided")
class ProvidedAnonymizer:
    """Your own redaction: the text you supply is audited as the anonymized version."""

    name = "provided"
    display_name = "My redacted text"
    is_local = True
    needs_backbone = False
    description = (
        "Audits a redacted version you supply. Masked spans are recovered by aligning it "
        "word by word with the original (difflib)."
    )

    def __init__(self, redacted_text: str = "") -> None:
        self.redacted_text = redacted_text

    def anonymize(self, text: str) -> AnonymizedText:
        if not self.redacted_text.strip():
            raise ValueError("the 'provided' anonymizer needs the redacted text (it is empty)")
        spans = align_masked_spans(text, self.redacted_text)
        return AnonymizedText(
            text=self.redacted_text,
            masked_spans=spans,
            method=self.name,
            trace={"alignment": "difflib-words", "n_masked_spans": len(spans)},
        )
