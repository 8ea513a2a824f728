"""The ``provided`` anonymizer: the user's own redacted text, aligned back to the original.

Masked spans are recovered with the word-then-character difflib alignment of
:func:`spia_core.evaluation.masking.alignment_spans` (the span metrics use the same one).
"""

from __future__ import annotations

from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS
from spia_core.evaluation.masking import alignment_spans


@ANONYMIZERS.register("provided")
class ProvidedAnonymizer:
    """Your own redaction: the text you supply is audited as the anonymized version."""

    name = "provided"
    display_name = "My redacted text"
    is_local = True
    needs_backbone = False
    description = (
        "Audits a redacted version you supply. Masked spans are recovered by aligning it "
        "with the original (difflib, word then character level)."
    )

    def __init__(
        self, redacted_text: str = "", masked_spans: list[tuple[int, int]] | None = None
    ) -> None:
        self.redacted_text = redacted_text
        #: Masked [start, end) offsets into the original, when the user's file gives them.
        self.masked_spans = masked_spans

    def anonymize(self, text: str) -> AnonymizedText:
        if not self.redacted_text.strip():
            raise ValueError("the 'provided' anonymizer needs the redacted text (it is empty)")
        if self.masked_spans is not None:
            spans = [(int(s), int(e)) for s, e in self.masked_spans]
            source = "given"
        else:
            spans, source = alignment_spans(text, self.redacted_text), "difflib"
        return AnonymizedText(
            text=self.redacted_text,
            masked_spans=spans,
            method=self.name,
            trace={"alignment": source, "n_masked_spans": len(spans)},
        )
