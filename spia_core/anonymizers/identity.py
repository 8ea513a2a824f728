"""The ``none`` anonymizer: returns the text unchanged (audit what the original reveals)."""

from __future__ import annotations

from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS


@ANONYMIZERS.register("none")
class IdentityAnonymizer:
    """No anonymization: the baseline of what an adversary infers from the original text."""

    name = "none"
    display_name = "None (original text)"
    is_local = True
    needs_backbone = False
    description = (
        "Leaves the text unchanged. Use it to see everything the original text reveals, "
        "or to measure the adversary itself."
    )

    def anonymize(self, text: str) -> AnonymizedText:
        return AnonymizedText(text=text, masked_spans=[], method=self.name, trace={"changed": 0})
