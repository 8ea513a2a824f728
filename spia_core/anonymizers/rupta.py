"""RUPTA (Yang, Zhu & Gurevych, ACL 2025): privacy first, then utility, by an LLM optimizer.

x_1 is a plain generalising rewrite. Each iterate is scored by a privacy evaluator (p_t,
higher is safer) and a utility evaluator (u_t, 0-100). While p_t is below its maximum the
optimizer works in the privacy phase (it sees the clues that gave the truth away); once p_t is
at its maximum, in the utility phase (raise u_t without lowering p_t). The optimizer sees the
original and a memory of the last ``memory`` iterates with their scores and reward (p_t until
privacy is at its maximum, then u_t). Stops when privacy is at its maximum and u_t exceeds
``utility_goal``, or after ``iterations`` refinement steps (the authors' code: T = 5 after
the first rewrite, K = 10, memory 3, u_t > 95); ours: also when the optimizer returns a version
it already produced (unchanged, or a cycle between phases). Returns the lexicographically
best iterate: highest p_t, then highest u_t.

Privacy objective: ``target="<value>"`` protects one value (the paper: top-K guesses matched
with the project's PII scorer); without a target, every SPIA subject (our extension: p_t =
the CPR of the iterate against the two-stage adversary, ``adversary="local"`` by default, so
only the optimizer and the utility judge call the LLM).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spia_core.anonymizers._llm_text import word_diff
from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS
from spia_core.llm.base import LLM, LLMError
from spia_core.llm.connection import LLMConnection, resolve
from spia_core.prompts import data_block, load_prompt
from spia_core.related.evaluators import (
    TARGET_KINDS,
    PrivacyResult,
    SubjectsPrivacy,
    TargetPrivacy,
    UtilityEvaluator,
)
from spia_core.related.trajectory import lex_best, make_adversary, refusal, rewrite

PRIVACY_PHASE = (
    "Work on privacy now: generalise the clues listed below so that the protected information "
    "can no longer be inferred, even at some cost in utility."
)
UTILITY_PHASE = (
    "Privacy is at its maximum: now raise the utility score for {task} by restoring specific, "
    "non-identifying details of the original, without lowering the privacy score."
)


@dataclass
class Iterate:
    """One RUPTA iterate x_t with its scores."""

    index: int
    phase: str  # "initial" | "privacy" | "utility"
    text: str
    privacy: float
    privacy_max: float
    privacy_reached: bool
    utility: float
    utility_reason: str = ""
    clues: list[str] = field(default_factory=list)
    guesses: list[str] = field(default_factory=list)
    rank: int | None = None
    diff: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def reward(self) -> float:
        return self.utility if self.privacy_reached else self.privacy

    def key(self) -> tuple[float, float]:
        """Lexicographic order: privacy first, then utility."""
        return (self.privacy, self.utility)


def lex_better(a: Iterate, b: Iterate) -> bool:
    """``a`` is lexicographically better than ``b`` (privacy first, then utility)."""
    return a.key() > b.key()


def render_memory(steps: list[Iterate]) -> str:
    """The optimizer's memory: each kept iterate with its scores and reward, oldest first."""
    blocks = [
        f"Version {s.index}:\n{s.text}\nPrivacy score: {s.privacy:g}\n"
        f"Utility score: {s.utility:g}\nReward: {s.reward():g}"
        for s in steps
    ]
    return data_block("history", "\n\n".join(blocks))


@ANONYMIZERS.register("rupta")
class RuptaAnonymizer:
    """RUPTA: an LLM optimizer driven by a privacy and a utility evaluator (lexicographic)."""

    name = "rupta"
    display_name = "RUPTA (privacy then utility, Yang et al.)"
    is_local = False
    needs_backbone = True
    rewrites = True
    description = (
        "An LLM rewrites the text, then refines it up to 5 times: privacy first (an attacker's "
        "top-10 guesses, or the SPIA adversary's CPR over every person), then utility (a 0-100 "
        "judge), with a memory of the last 3 versions; returns the best version by privacy, "
        "then utility (about 3-4 calls per step)."
    )

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        connection: LLMConnection | None = None,
        target: str | None = None,
        target_tag: str = "NAME",
        target_kind: str | None = None,
        subject: str = "the person the text is mainly about",
        label: str | None = None,
        k: int = 10,
        iterations: int = 5,
        memory: int = 3,
        utility_goal: float = 95.0,
        privacy_goal: float = 1.0,
        adversary: Any = "local",
        min_certainty: int = 3,
        temperature: float | None = 0.0,
    ) -> None:
        if iterations < 0 or memory < 1 or k < 1:
            raise ValueError("rupta needs iterations >= 0, memory >= 1 and k >= 1")
        self.llm = resolve(llm, connection)
        self.target = (target or "").strip() or None
        self.target_tag, self.subject = target_tag, subject
        self.target_kind = target_kind or TARGET_KINDS.get(target_tag, f"the {target_tag.lower()}")
        self.label = (label or "").strip() or None
        self.k, self.iterations, self.memory = int(k), int(iterations), int(memory)
        self.utility_goal, self.privacy_goal = float(utility_goal), float(privacy_goal)
        self.min_certainty = int(min_certainty)
        self.temperature = temperature
        self.adversary = None if self.target else make_adversary(adversary, self.llm, self.name)
        self.prompts = {
            name: load_prompt(name)
            for name in (
                "rupta_rewrite",
                "rupta_optimize",
                "rupta_privacy_guess",
                "rupta_privacy_clues",
                "rupta_utility_label",
                "rupta_utility_meaning",
            )
        }

    # ------------------------------------------------------------------ evaluators

    def _privacy(self, original: str) -> TargetPrivacy | SubjectsPrivacy:
        if self.target:
            return TargetPrivacy(
                self.llm,
                self.target,
                k=self.k,
                tag=self.target_tag,
                target_kind=self.target_kind,
                subject=self.subject,
                temperature=self.temperature,
            )
        return SubjectsPrivacy(
            self.adversary, original, goal=self.privacy_goal, min_certainty=self.min_certainty
        )

    def _score(
        self, privacy: Any, utility: UtilityEvaluator, text: str, phase: str, index: int
    ) -> Iterate:
        p: PrivacyResult = privacy.evaluate(text)
        u, reason = utility.evaluate(text)
        return Iterate(
            index=index,
            phase=phase,
            text=text,
            privacy=p.score,
            privacy_max=p.maximum,
            privacy_reached=p.reached,
            utility=u,
            utility_reason=reason,
            clues=p.clues,
            guesses=p.guesses,
            rank=p.rank,
        )

    def _goals_met(self, step: Iterate) -> bool:
        return step.privacy_reached and step.utility > self.utility_goal

    # ------------------------------------------------------------------ optimizer

    def _optimize(self, original: str, steps: list[Iterate]) -> tuple[str, list[str]]:
        last = steps[-1]
        if last.privacy_reached:
            task = f'the label "{self.label}"' if self.label else "keeping the original's meaning"
            instruction, clues = UTILITY_PHASE.format(task=task), ""
        else:
            instruction = PRIVACY_PHASE
            listed = "\n".join(f"- {c}" for c in last.clues) or "- (no specific clue was given)"
            clues = "Clues that still give the protected information away:\n" + data_block(
                "clues", listed
            )
        return rewrite(
            self.llm,
            self.prompts["rupta_optimize"],
            original,
            temperature=self.temperature,
            privacy_max=f"{last.privacy_max:g}",
            original=data_block("original_document", original),
            memory=render_memory(steps[-self.memory :]),
            phase_instruction=instruction,
            clues=clues,
        )

    # ------------------------------------------------------------------ loop

    def anonymize(self, text: str) -> AnonymizedText:
        privacy = self._privacy(text)
        utility = UtilityEvaluator(self.llm, text, label=self.label, temperature=self.temperature)
        first, warnings = rewrite(
            self.llm,
            self.prompts["rupta_rewrite"],
            text,
            temperature=self.temperature,
            document=data_block("document", text),
        )
        if (why := refusal(text, first, self.name)) is not None:
            raise LLMError(f"rupta: the first rewrite is no rewrite: {why}", reason="refusal")
        steps = [self._score(privacy, utility, first, "initial", 1)]
        steps[0].diff = word_diff(text, first)
        stopped = self._refine(text, privacy, utility, steps, warnings)
        best = steps[lex_best([s.key() for s in steps])]
        return AnonymizedText(
            text=best.text,
            masked_spans=None,
            method=self.name,
            trace=self._trace(steps, best, stopped),
            warnings=warnings,
        )

    def _refine(
        self,
        original: str,
        privacy: Any,
        utility: UtilityEvaluator,
        steps: list[Iterate],
        warnings: list[str],
    ) -> str:
        """Run the refinement steps in place; return the stop rule that ended them."""
        for _ in range(self.iterations):
            last = steps[-1]
            if self._goals_met(last):
                return "goals_met"
            phase = "utility" if last.privacy_reached else "privacy"
            index = last.index + 1
            try:
                text, step_warnings = self._optimize(original, steps)
                if (why := refusal(original, text, self.name)) is not None:
                    warnings.append(f"iteration {index}: {why}")
                    return "refused"
                if any(text.strip() == s.text.strip() for s in steps):
                    return "unchanged"  # a version it already produced: the loop would cycle
                step = self._score(privacy, utility, text, phase, index)
            except LLMError as exc:
                warnings.append(f"iteration {index} failed, kept the best so far: {exc}")
                return "empty_rewrite" if exc.reason == "empty" else "llm_failed"
            step.diff, step.warnings = word_diff(last.text, text), step_warnings
            warnings.extend(f"iteration {index}: {w}" for w in step_warnings)
            steps.append(step)
        return "goals_met" if self._goals_met(steps[-1]) else "max_iterations"

    def _trace(self, steps: list[Iterate], best: Iterate, stopped: str) -> dict[str, Any]:
        return {
            "method": self.name,
            "model": f"{self.llm.provider}/{self.llm.model}",
            "privacy_objective": "target" if self.target else "subjects",
            "adversary": getattr(self.adversary, "name", None),
            "settings": {
                "k": self.k,
                "iterations": self.iterations,
                "memory": self.memory,
                "utility_goal": self.utility_goal,
                "privacy_goal": self.privacy_goal,
                "label": self.label,
                "target_tag": self.target_tag,
            },
            "prompts": sorted(p.version_id for p in self.prompts.values()),
            "trajectory": [
                {
                    "index": s.index,
                    "phase": s.phase,
                    "text": s.text,
                    "diff": s.diff,
                    "scores": {
                        "privacy": s.privacy,
                        "privacy_max": s.privacy_max,
                        "privacy_reached": s.privacy_reached,
                        "utility": s.utility,
                        "reward": s.reward(),
                    },
                    "feedback": {
                        "clues": s.clues,
                        "guesses": s.guesses,
                        "rank": s.rank,
                        "utility_reason": s.utility_reason,
                    },
                }
                for s in steps
            ],
            "best": best.index,
            "stopped": stopped,
        }
