"""Adversarial Anonymization (Staab et al.): rounds of "infer the target, then generalise".

Each round makes two calls: an adversary guesses the target's attributes in TAB's 8 categories
(JSON), then an anonymizer rewrites the text against those guesses. The rewritten text is read
between ``<anonymized>`` tags, never by splitting on '#'. The target is the applicant (TAB),
the author (online text) or any subject description the user gives.
"""

from __future__ import annotations

from typing import Any

from spia_core.anonymizers._llm_text import (
    attribute_schema,
    extract_rewrite,
    rewrite_budget,
    word_diff,
)
from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS
from spia_core.anonymizers.validation import rejected_round
from spia_core.llm.base import LLM, LLMError
from spia_core.llm.connection import LLMConnection, resolve
from spia_core.prompts import data_block, load_prompt
from spia_core.taxonomy import TAB_ENTITY_TYPES

TARGETS = {
    "applicant": "the applicant (the person who lodged the application)",
    "author": "the author of the text",
}

INFERENCE_SCHEMA = attribute_schema("attributes", list(TAB_ENTITY_TYPES), "guesses")


def target_phrase(target: str) -> str:
    """The wording used for the target in the prompts."""
    target = target.strip()
    if not target:
        raise ValueError("the target subject must not be empty")
    return TARGETS.get(target.lower(), f"this person: {target}")


def render_attributes(attributes: list[dict[str, Any]]) -> str:
    """``Type / Inference / Guess`` blocks (certainty left out, as in the original method)."""
    blocks = [
        f"Type: {a['type']}\nInference: {str(a['inference']).strip()}\n"
        f"Guess: {'; '.join(str(g).strip() for g in a['guesses'][:3])}"
        for a in attributes
    ]
    return data_block("inferences", "\n\n".join(blocks))


@ANONYMIZERS.register("adversarial")
class AdversarialAnonymizer:
    """Staab et al.'s adversarial anonymization, 3 rounds by default (2 calls per round)."""

    name = "adversarial"
    display_name = "Adversarial Anonymization (Staab et al.)"
    is_local = False
    needs_backbone = True
    #: Its output is a model's rewrite: checked by validation.check_rewrite before scoring.
    rewrites = True
    description = (
        "Each round an LLM adversary guesses one target's attributes (TAB's 8 categories), "
        "then an LLM anonymizer generalises the text against those guesses (2 calls per round)."
    )

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        connection: LLMConnection | None = None,
        rounds: int = 3,
        target: str = "applicant",
        temperature: float | None = 0.1,
    ) -> None:
        if rounds < 1:
            raise ValueError(f"rounds must be >= 1, got {rounds}")
        self.llm = resolve(llm, connection)
        self.rounds = rounds
        self.target = target_phrase(target)
        self.temperature = temperature
        self.infer_prompt = load_prompt("adversarial_inference")
        self.rewrite_prompt = load_prompt("adversarial_rewrite")

    def anonymize(self, text: str) -> AnonymizedText:
        current = text
        trace: dict[str, Any] = {
            "model": f"{self.llm.provider}/{self.llm.model}",
            "target": self.target,
            "prompts": [self.infer_prompt.version_id, self.rewrite_prompt.version_id],
            "rounds": [],
            "failures": [],
        }
        warnings: list[str] = []
        for round_no in range(1, self.rounds + 1):
            try:
                attributes = self.llm.complete(
                    self.infer_prompt.render(
                        target=self.target, document=data_block("document", current)
                    ),
                    schema=INFERENCE_SCHEMA,
                    temperature=self.temperature,
                    prompt_version=self.infer_prompt.version_id,
                ).parsed["attributes"]
                reply = self.llm.complete(
                    self.rewrite_prompt.render(
                        target=self.target,
                        document=data_block("document", current),
                        inferences=render_attributes(attributes),
                    ),
                    temperature=self.temperature,
                    max_tokens=rewrite_budget(current) + 1024,
                    prompt_version=self.rewrite_prompt.version_id,
                ).text
            except LLMError as exc:
                if round_no == 1:
                    raise
                trace["failures"].append({"round": round_no, "reason": str(exc)})
                warnings.append(f"round {round_no} failed, kept round {round_no - 1}: {exc}")
                break
            rewritten, round_warnings = extract_rewrite(reply)
            warnings.extend(f"round {round_no}: {w}" for w in round_warnings)
            if rejected_round(trace, warnings, round_no, current, rewritten, self.name):
                current = rewritten if round_no == 1 else current
                break
            trace["rounds"].append(
                {
                    "round": round_no,
                    "inferences": attributes,
                    "text": rewritten,
                    "diff": word_diff(current, rewritten),
                }
            )
            current = rewritten
        return AnonymizedText(
            text=current, masked_spans=None, method=self.name, trace=trace, warnings=warnings
        )
