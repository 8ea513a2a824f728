"""DP-Prompt (Utpala et al.): paraphrase the document at a high sampling temperature."""

from __future__ import annotations

from spia_core.anonymizers._llm_text import single_rewrite
from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS
from spia_core.llm.base import LLM
from spia_core.llm.connection import LLMConnection, resolve
from spia_core.prompts import load_prompt


@ANONYMIZERS.register("dp-prompt")
class DPPromptAnonymizer:
    """Paraphrasing with temperature 1.0-1.5 and top_p 1.0, where the model accepts them."""

    name = "dp-prompt"
    display_name = "DP-Prompt (paraphrase)"
    is_local = False
    needs_backbone = True
    #: Its output is a model's rewrite: checked by validation.check_rewrite before scoring.
    rewrites = True
    description = (
        "An LLM paraphrases the whole document at a high temperature (1.0-1.5, top_p 1.0) "
        "to blur wording and style. Models without sampling parameters (Claude on the current "
        "API) paraphrase at their default sampling."
    )

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        connection: LLMConnection | None = None,
        temperature: float = 1.0,
        top_p: float = 1.0,
    ) -> None:
        if not 1.0 <= temperature <= 1.5:
            raise ValueError(f"DP-Prompt temperature must be in [1.0, 1.5], got {temperature}")
        self.llm = resolve(llm, connection)
        self.temperature = temperature
        self.top_p = top_p
        self.prompt = load_prompt("dp_prompt")

    def anonymize(self, text: str) -> AnonymizedText:
        sent = getattr(getattr(self.llm, "spec", None), "temperature", True)
        return single_rewrite(
            self.llm,
            self.prompt,
            text,
            method=self.name,
            max_tokens=int((len(text) // 2) * 1.5) + 50,  # the reference's budget
            trace={"temperature": self.temperature if sent else None},
            warnings=[]
            if sent
            else ["the model takes no temperature: paraphrased at its default sampling"],
            temperature=self.temperature,
            top_p=self.top_p,
        )
