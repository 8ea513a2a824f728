"""DeID-GPT: zero-shot LLM redaction of TAB's 8 categories into "[redacted]" (one call)."""

from __future__ import annotations

from spia_core.anonymizers._llm_text import rewrite_budget, single_rewrite
from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS
from spia_core.llm.base import LLM
from spia_core.llm.connection import LLMConnection, resolve
from spia_core.prompts import load_prompt


@ANONYMIZERS.register("deid-gpt")
class DeIDGPTAnonymizer:
    """Zero-shot redaction by an LLM of names, codes, places, organisations, demographics,
    dates, quantities and other identifiers, each replaced with "[redacted]"."""

    name = "deid-gpt"
    display_name = "DeID-GPT (LLM redaction)"
    is_local = False
    needs_backbone = True
    #: Its output is a model's rewrite: checked by validation.check_rewrite before scoring.
    rewrites = True
    description = (
        "An LLM replaces every name, code, place, organisation, demographic attribute, date, "
        "quantity and other identifier with [redacted] (one call, temperature 0.05 where the "
        "model allows it)."
    )

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        connection: LLMConnection | None = None,
        temperature: float = 0.05,
    ) -> None:
        self.llm = resolve(llm, connection)
        self.temperature = temperature
        self.prompt = load_prompt("deid_gpt")

    def anonymize(self, text: str) -> AnonymizedText:
        return single_rewrite(
            self.llm,
            self.prompt,
            text,
            method=self.name,
            max_tokens=rewrite_budget(text),
            temperature=self.temperature,
        )
