"""LLM judge: ONE call judges all of a document's rule mismatches, with the tag as context.

Labels are read from a JSON array and must be exactly "yes", "less precise" or "no" (after
trimming and lower-casing); the reference's substring test ("kNOwn" -> no) is not used. An
item the answer leaves out, or labels otherwise, gets None (undecided). A failed call raises
:class:`LLMError`, which the caller records as a failure.
"""

from __future__ import annotations

from typing import Any

from spia_core.evaluation.judge import JUDGES, LABEL_SCORES, JudgeRequest, JudgeVerdict
from spia_core.llm import budgets
from spia_core.llm.stage import PromptedLLMStage
from spia_core.prompts import data_block

JUDGE_SCHEMA: dict[str, Any] = {
    "title": "verdicts",
    "type": "object",
    "properties": {
        "verdicts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "index": {"type": "integer"},
                    "label": {"type": "string", "enum": list(LABEL_SCORES)},
                    "rationale": {"type": "string"},
                },
                "required": ["index", "label", "rationale"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["verdicts"],
    "additionalProperties": False,
}


def render_pairs(requests: list[JudgeRequest]) -> str:
    """Numbered ``tag | GT | Pred`` items."""
    lines = [
        f"{i}. tag: {r.tag} | GT: {r.gt_keyword.strip()!r} | Pred: {r.pred_keyword.strip()!r}"
        for i, r in enumerate(requests)
    ]
    return data_block("pairs", "\n".join(lines))


@JUDGES.register("llm")
class LLMJudge(PromptedLLMStage):
    """Judges rule-0 pairs with one LLM call per document (batched)."""

    name = "llm"
    prompt_name = "pii_judge"
    needs_backbone = True

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict | None]:
        if not requests:
            return []
        response = self.llm.complete(
            self.prompt.render(pairs=render_pairs(requests)),
            schema=JUDGE_SCHEMA,
            temperature=self.temperature,
            max_tokens=budgets.judge(len(requests)),
            prompt_version=self.prompt.version_id,
        )
        verdicts: list[JudgeVerdict | None] = [None] * len(requests)
        for item in response.parsed["verdicts"]:
            index = int(item["index"])
            label = str(item["label"]).strip().lower()
            if 0 <= index < len(requests) and label in LABEL_SCORES and verdicts[index] is None:
                verdicts[index] = JudgeVerdict(label, str(item.get("rationale", "")).strip())
        return verdicts
