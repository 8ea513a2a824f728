"""LLM utility judge: readability (1-10), meaning (1-10), hallucination (0/1) in one call.

:func:`with_llm_scores` folds them into :class:`model.UtilityScores` next to ROUGE-L:
``mean_utility = (readability/10 + meaning/10 + ROUGE-L) / 3`` (SPIA / Staab et al.).
Out-of-range scores are clamped and reported; a failed call raises :class:`LLMError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from spia_core.llm import budgets
from spia_core.llm.stage import PromptedLLMStage
from spia_core.model import UtilityScores
from spia_core.prompts import data_block


def _scored(kind: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"score": {"type": kind}, "rationale": {"type": "string"}},
        "required": ["score", "rationale"],
        "additionalProperties": False,
    }


UTILITY_SCHEMA: dict[str, Any] = {
    "title": "utility",
    "type": "object",
    "properties": {
        "readability": _scored("number"),
        "meaning": _scored("number"),
        "hallucination": _scored("integer"),
    },
    "required": ["readability", "meaning", "hallucination"],
    "additionalProperties": False,
}


@dataclass
class LLMUtility:
    readability: float
    meaning: float
    hallucination: int
    rationales: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


class LLMUtilityJudge(PromptedLLMStage):
    """Rates an anonymized text against its original with one LLM call."""

    name = "llm"
    prompt_name = "utility"

    def assess(self, original: str, anonymized: str) -> LLMUtility:
        response = self.llm.complete(
            self.prompt.render(
                original=data_block("original_document", original),
                anonymized=data_block("anonymized_document", anonymized),
            ),
            schema=UTILITY_SCHEMA,
            temperature=self.temperature,
            max_tokens=budgets.UTILITY,
            prompt_version=self.prompt.version_id,
        )
        answer = response.parsed
        warnings: list[str] = []

        def clamp(name: str, low: float, high: float) -> float:
            value = float(answer[name]["score"])
            if not low <= value <= high:
                warnings.append(f"{name} score {value} outside [{low}, {high}]; clamped")
            return min(high, max(low, value))

        return LLMUtility(
            readability=clamp("readability", 1, 10),
            meaning=clamp("meaning", 1, 10),
            hallucination=int(clamp("hallucination", 0, 1) >= 0.5),
            rationales={
                k: str(answer[k]["rationale"]) for k in ("readability", "meaning", "hallucination")
            },
            warnings=warnings,
        )


def with_llm_scores(scores: UtilityScores, llm: LLMUtility) -> UtilityScores:
    """``scores`` (with ROUGE-L) completed with the LLM's readability, meaning, hallucination."""
    mean = (llm.readability / 10 + llm.meaning / 10 + scores.rouge_l) / 3
    return replace(
        scores,
        readability=llm.readability,
        meaning=llm.meaning,
        hallucination=llm.hallucination,
        mean_utility=mean,
    )
