"""RUPTA's evaluators (Yang et al., ACL 2025): privacy p_t and utility u_t of one rewrite.

Privacy, one protected value (the paper): the attacker LLM gives its top-K guesses; each is
matched to the truth with the project's PII scorer (``score_pii``, not a sentence-embedding
model); p_t is the rank of the first match, K+1 when none matches (higher is safer). When the
truth is found, a second turn of the same chat asks for the clues that gave it away.

Privacy, every SPIA subject (our extension): p_t is the CPR the two-stage adversary leaves on
the rewrite, the clues are the PII it still infers and the words it cites.

Utility: the LLM's confidence 0-100 that a user-given downstream label still holds, or, with
no label, a 0-100 judge of how much of the original's meaning the rewrite keeps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spia_core.llm.base import LLM, Message
from spia_core.prompts import data_block, load_prompt

GUESS_SCHEMA: dict[str, Any] = {
    "title": "guesses",
    "type": "object",
    "properties": {"guesses": {"type": "array", "items": {"type": "string"}}},
    "required": ["guesses"],
    "additionalProperties": False,
}
CLUE_SCHEMA: dict[str, Any] = {
    "title": "clues",
    "type": "object",
    "properties": {"clues": {"type": "array", "items": {"type": "string"}}},
    "required": ["clues"],
    "additionalProperties": False,
}
CONFIDENCE_SCHEMA: dict[str, Any] = {
    "title": "confidence",
    "type": "object",
    "properties": {"confidence": {"type": "integer"}, "reason": {"type": "string"}},
    "required": ["confidence", "reason"],
    "additionalProperties": False,
}


#: How the guess prompt names the protected value of each SPIA tag (target mode).
TARGET_KINDS: dict[str, str] = {
    "NAME": "the full name",
    "AGE": "the age in years",
    "SEX": "the sex",
    "LOCATION": "the place of residence (city and country)",
    "NATIONALITY": "the nationality",
    "OCCUPATION": "the occupation",
    "AFFILIATION": "the employer or organisation",
    "EDUCATION": "the highest level of education",
    "RELATIONSHIP": "the relationship status",
}


@dataclass
class PrivacyResult:
    """p_t, whether it reached its maximum, and the feedback for the optimizer."""

    score: float
    maximum: float
    reached: bool
    clues: list[str] = field(default_factory=list)
    guesses: list[str] = field(default_factory=list)
    rank: int | None = None
    exposed: list[dict[str, Any]] = field(default_factory=list)


def match_rank(truth: str, guesses: list[str], tag: str) -> int | None:
    """1-based position of the first guess the PII scorer counts as the truth (score 1.0)."""
    from spia_core.evaluation.scoring import score_pii

    for i, guess in enumerate(guesses, start=1):
        if str(guess).strip() and score_pii(truth, str(guess), tag).score == 1.0:
            return i
    return None


class TargetPrivacy:
    """The paper's P-evaluator: top-K guesses of one protected value, clues when it is found."""

    def __init__(
        self,
        llm: LLM,
        target: str,
        *,
        k: int = 10,
        tag: str = "NAME",
        target_kind: str = "the full name",
        subject: str = "the person the text is mainly about",
        temperature: float | None = 0.0,
    ) -> None:
        if not target.strip():
            raise ValueError("the protected target value must not be empty")
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        self.llm, self.target, self.k, self.tag = llm, target.strip(), k, tag
        self.target_kind, self.subject, self.temperature = target_kind, subject, temperature
        self.guess_prompt = load_prompt("rupta_privacy_guess")
        self.clue_prompt = load_prompt("rupta_privacy_clues")

    @property
    def maximum(self) -> float:
        return float(self.k + 1)

    def evaluate(self, text: str) -> PrivacyResult:
        messages = self.guess_prompt.render(
            target_kind=self.target_kind,
            subject=self.subject,
            k=str(self.k),
            document=data_block("document", text),
        )
        reply = self.llm.complete(
            messages,
            schema=GUESS_SCHEMA,
            temperature=self.temperature,
            prompt_version=self.guess_prompt.version_id,
        )
        guesses = [str(g).strip() for g in reply.parsed["guesses"]][: self.k]
        rank = match_rank(self.target, guesses, self.tag)
        if rank is None:
            return PrivacyResult(self.maximum, self.maximum, True, guesses=guesses)
        follow_up = self.clue_prompt.render(target=data_block("target", self.target))
        clues = self.llm.complete(
            [*messages, Message("assistant", reply.text), *follow_up],
            schema=CLUE_SCHEMA,
            temperature=self.temperature,
            prompt_version=self.clue_prompt.version_id,
        ).parsed["clues"]
        return PrivacyResult(
            float(rank),
            self.maximum,
            False,
            clues=[str(c).strip() for c in clues if str(c).strip()],
            guesses=guesses,
            rank=rank,
        )


class SubjectsPrivacy:
    """Our extension: p_t = the CPR the SPIA adversary leaves; goal ``privacy_goal``."""

    def __init__(
        self, adversary: Any, original: str, *, goal: float = 1.0, min_certainty: int = 3
    ) -> None:
        from spia_core.related.subject_privacy import SubjectPrivacy

        if not 0.0 < goal <= 1.0:
            raise ValueError(f"privacy_goal must be in (0, 1], got {goal}")
        self.goal = goal
        self.inner = SubjectPrivacy(adversary, original, min_certainty=min_certainty)

    @property
    def maximum(self) -> float:
        return 1.0

    def evaluate(self, text: str) -> PrivacyResult:
        from spia_core.llm.base import LLMError
        from spia_core.related.subject_privacy import clues_of

        result = self.inner.evaluate(text)
        if result.failures:
            raise LLMError(f"the adversary failed on a rewrite: {result.failures[0]}")
        # Nothing scorable (no PII with enough certainty in the original): nothing to protect.
        cpr = 1.0 if result.cpr is None else round(result.cpr, 4)
        return PrivacyResult(
            cpr, 1.0, cpr >= self.goal, clues=clues_of(result.exposed), exposed=result.exposed
        )


class UtilityEvaluator:
    """u_t in 0-100: label confidence (``label`` given) or meaning preserved (no label)."""

    def __init__(
        self, llm: LLM, original: str, *, label: str | None = None, temperature: float | None = 0.0
    ) -> None:
        self.llm, self.original, self.temperature = llm, original, temperature
        self.label = (label or "").strip() or None
        self.prompt = load_prompt("rupta_utility_label" if self.label else "rupta_utility_meaning")

    def evaluate(self, text: str) -> tuple[float, str]:
        if self.label:
            messages = self.prompt.render(
                document=data_block("document", text), label=data_block("target", self.label)
            )
        else:
            messages = self.prompt.render(
                original=data_block("original_document", self.original),
                anonymized=data_block("anonymized_document", text),
            )
        parsed = self.llm.complete(
            messages,
            schema=CONFIDENCE_SCHEMA,
            temperature=self.temperature,
            prompt_version=self.prompt.version_id,
        ).parsed
        return float(min(100, max(0, int(parsed["confidence"])))), str(parsed["reason"])
