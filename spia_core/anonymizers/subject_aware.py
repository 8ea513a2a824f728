"""Subject-aware anonymization (ours): adversarial rewriting against the FULL SPIA adversary.

Like Adversarial Anonymization, but each round the two-stage SPIA adversary infers the PII of
ALL subjects, and every inference with certainty >= ``min_certainty`` (with its evidence words)
feeds the rewrite. Stops early when nothing that certain remains inferable, or after ``rounds``
rewrites. The trace keeps, per round, the inferences, the rewrite and the word diff.
"""

from __future__ import annotations

from typing import Any

from spia_core.adversary.base import Adversary
from spia_core.adversary.llm import LLMAdversary, inference_failures
from spia_core.anonymizers._llm_text import extract_rewrite, rewrite_budget, word_diff
from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS
from spia_core.anonymizers.validation import rejected_round
from spia_core.llm.base import LLM, LLMError
from spia_core.llm.connection import LLMConnection, resolve
from spia_core.model import Subject, to_dict
from spia_core.prompts import data_block, load_prompt


def exposed(subjects: list[Subject], min_certainty: int) -> list[Subject]:
    """Subjects with only their PIIs inferred at ``min_certainty`` or more (others dropped)."""
    out = []
    for s in subjects:
        piis = [p for p in s.piis if not p.is_empty and p.certainty >= min_certainty]
        if piis:
            out.append(Subject(s.id, s.description, piis))
    return out


def render_inferences(subjects: list[Subject]) -> str:
    """Per subject: ``TAG: value (certainty c; evidence: "...")`` lines."""
    blocks = []
    for s in subjects:
        lines = [f"Person {s.id}: {s.description}"]
        for p in s.piis:
            quotes = "; ".join(f'"{e.text}"' for e in p.evidence if e.text)
            evidence = f"; evidence: {quotes}" if quotes else ""
            lines.append(f"  - {p.tag}: {p.keyword} (certainty {p.certainty}{evidence})")
        blocks.append("\n".join(lines))
    return data_block("inferences", "\n\n".join(blocks))


@ANONYMIZERS.register("subject-aware")
class SubjectAwareAnonymizer:
    """Iterative rewriting until the SPIA adversary infers nothing certain about anyone."""

    name = "subject-aware"
    display_name = "Subject-aware anonymization (ours)"
    is_local = False
    needs_backbone = True
    #: Its output is a model's rewrite: checked by validation.check_rewrite before scoring.
    rewrites = True
    description = (
        "Each round the full SPIA adversary infers the PII of every person in the text; an LLM "
        "then generalises the text against all inferences with certainty >= 3. Stops when "
        "nothing certain remains or after N rounds (4 calls per round)."
    )

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        connection: LLMConnection | None = None,
        adversary: Adversary | None = None,
        rounds: int = 3,
        min_certainty: int = 3,
        temperature: float | None = 0.1,
    ) -> None:
        if rounds < 1:
            raise ValueError(f"rounds must be >= 1, got {rounds}")
        self.llm = resolve(llm, connection)
        self.adversary = adversary or LLMAdversary(self.llm)
        self.rounds = rounds
        self.min_certainty = min_certainty
        self.temperature = temperature
        self.prompt = load_prompt("subject_aware_rewrite")

    def anonymize(self, text: str) -> AnonymizedText:
        current = text
        trace: dict[str, Any] = {
            "model": f"{self.llm.provider}/{self.llm.model}",
            "adversary": getattr(self.adversary, "name", ""),
            "prompt": self.prompt.version_id,
            "min_certainty": self.min_certainty,
            "rounds": [],
            "stopped": "max_rounds",
        }
        warnings: list[str] = []
        for round_no in range(1, self.rounds + 2):
            result = self.adversary.infer(current)
            failures = inference_failures(result)
            targets = exposed(result.subjects, self.min_certainty)
            entry: dict[str, Any] = {
                "round": round_no,
                "inferences": [to_dict(s) for s in targets],
                "adversary_failures": failures,
            }
            trace["rounds"].append(entry)
            if failures and not result.subjects:
                if round_no == 1:
                    raise LLMError(f"subject-aware: the adversary failed: {failures[0]['reason']}")
                warnings.append(f"round {round_no}: adversary failed; kept the previous rewrite")
                trace["stopped"] = "adversary_failed"
                break
            if not targets:
                trace["stopped"] = "nothing_inferable"
                break
            if round_no > self.rounds:  # last pass only measured what remains
                break
            try:
                reply = self.llm.complete(
                    self.prompt.render(
                        document=data_block("document", current),
                        inferences=render_inferences(targets),
                    ),
                    temperature=self.temperature,
                    max_tokens=rewrite_budget(current) + 1024,
                    prompt_version=self.prompt.version_id,
                ).text
            except LLMError as exc:
                if round_no == 1:
                    raise
                warnings.append(f"round {round_no}: rewrite failed, kept the previous text: {exc}")
                trace["stopped"] = "rewrite_failed"
                break
            rewritten, round_warnings = extract_rewrite(reply)
            warnings.extend(f"round {round_no}: {w}" for w in round_warnings)
            if rejected_round(trace, warnings, round_no, current, rewritten, self.name):
                current = rewritten if round_no == 1 else current
                trace["stopped"] = "rewrite_rejected"
                break
            entry["text"] = rewritten
            entry["diff"] = word_diff(current, rewritten)
            current = rewritten
        trace["remaining"] = trace["rounds"][-1]["inferences"]
        return AnonymizedText(
            text=current, masked_spans=None, method=self.name, trace=trace, warnings=warnings
        )
