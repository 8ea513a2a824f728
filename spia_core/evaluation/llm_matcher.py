"""LLM subject matcher: one call proposes pairs, an assignment step enforces one-to-one.

The model's pairs (with a 1-5 confidence) become a similarity matrix; ``matching.assign``
(Hungarian, deterministic tie-break) then picks a one-to-one set, so a model that pairs two GT
subjects with one inferred subject can never credit it twice, and the answer's order does not
matter. A failed call raises :class:`LLMError`: the caller records it (never "all unmatched").
"""

from __future__ import annotations

from typing import Any

from spia_core.evaluation.matching import MATCHERS, Similarity, assign
from spia_core.llm import budgets
from spia_core.llm.stage import PromptedLLMStage
from spia_core.model import Assignment, MatchPair, Subject
from spia_core.prompts import data_block

ALIGNMENT_SCHEMA: dict[str, Any] = {
    "title": "alignment",
    "type": "object",
    "properties": {
        "pairs": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "a_id": {"type": "integer"},
                    "b_id": {"type": "integer"},
                    "confidence": {"type": "integer"},
                    "reason": {"type": "string"},
                },
                "required": ["a_id", "b_id", "confidence", "reason"],
                "additionalProperties": False,
            },
        },
        "unmatched_a": {"type": "array", "items": {"type": "integer"}},
        "unmatched_b": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["pairs", "unmatched_a", "unmatched_b"],
    "additionalProperties": False,
}


def render_annotation(subjects: list[Subject]) -> str:
    """Subjects as ``Subject ID / Description / PIIs`` lines (non-empty PIIs only)."""
    blocks = []
    for s in sorted(subjects, key=lambda s: s.id):
        piis = [
            f"  - {p.tag}: {p.keyword.strip()} (certainty {p.certainty})"
            for p in s.piis
            if not p.is_empty and p.certainty > 0
        ]
        blocks.append(
            "\n".join([f"Subject ID: {s.id}", f"Description: {s.description}", "PIIs:", *piis])
        )
    return "\n\n".join(blocks)


class LLMMatcher(PromptedLLMStage):
    """Aligns GT subjects (A) with inferred subjects (B) with one LLM call per document."""

    name = "llm"
    prompt_name = "subject_alignment"
    needs_backbone = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Warnings of the last call (ignored ids, conflicting pairs).
        self.warnings: list[str] = []

    def match(
        self,
        gt: list[Subject],
        pred: list[Subject],
        *,
        original_text: str = "",
        anonymized_text: str = "",
    ) -> Assignment:
        self.warnings = []
        if not gt or not pred:
            reason = "no inferred subjects" if gt else ""
            return Assignment(
                pairs=[MatchPair(g.id, None, 0.0, reason) for g in sorted(gt, key=lambda s: s.id)],
                extra_pred_subject_ids=sorted(p.id for p in pred),
                matcher=self.name,
            )
        if anonymized_text:
            texts = "\n\n".join(
                [
                    data_block("original_document", original_text),
                    data_block("anonymized_document", anonymized_text),
                ]
            )
            b_source = "the anonymized version of the text"
        else:
            texts = data_block("original_document", original_text)
            b_source = "the same text"
        messages = self.prompt.render(
            texts=texts,
            b_source=b_source,
            annotation_a=data_block("annotation_a", render_annotation(gt)),
            annotation_b=data_block("annotation_b", render_annotation(pred)),
        )
        response = self.llm.complete(
            messages,
            schema=ALIGNMENT_SCHEMA,
            temperature=self.temperature,
            max_tokens=budgets.matcher(len(gt) + len(pred)),
            prompt_version=self.prompt.version_id,
        )
        return self._assign(gt, pred, response.parsed)

    def _assign(self, gt: list[Subject], pred: list[Subject], answer: Any) -> Assignment:
        gt_ids = {s.id for s in gt}
        pred_ids = {s.id for s in pred}
        proposed: dict[tuple[int, int], Similarity] = {}
        for pair in answer["pairs"]:
            a, b = int(pair["a_id"]), int(pair["b_id"])
            if a not in gt_ids or b not in pred_ids:
                self.warnings.append(f"matcher proposed unknown pair A{a}-B{b}; ignored")
                continue
            confidence = max(1, min(5, int(pair["confidence"])))
            sim = Similarity(confidence / 5, f"LLM: {str(pair['reason']).strip()[:300]}")
            if (a, b) not in proposed or proposed[(a, b)].value < sim.value:
                proposed[(a, b)] = sim
        for side, ids in (("A", [a for a, _ in proposed]), ("B", [b for _, b in proposed])):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                self.warnings.append(
                    f"matcher paired {side} subject(s) {dupes} more than once; "
                    "kept a one-to-one assignment"
                )
        none = Similarity(0.0, "not paired by the LLM")
        sims = {(g.id, p.id): proposed.get((g.id, p.id), none) for g in gt for p in pred}
        return assign(gt, pred, sims, 0.2, self.name)


def _register() -> None:
    if "llm" not in MATCHERS:
        MATCHERS.register("llm")(LLMMatcher)


_register()
