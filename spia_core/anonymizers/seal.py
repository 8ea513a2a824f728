"""SEAL-style self-refinement (Kim, Jeon & Shin): one model anonymizes, infers, judges, refines.

x_0 is the text. Each round the same model (1) infers the target's attributes from x_t (SEAL's
8 types, rationale, up to 3 guesses, certainty 1-5), (2) rewrites x_t against the inferences
with certainty >= ``min_certainty`` and against its own utility critique of x_t, and (3)
judges the rewrite against x_0 (readability, meaning, hallucinations). Stops when nothing is
inferable with that certainty, when utility falls below ``utility_floor`` (if set), or after
``rounds`` rewrites (SEAL trains on 3 and evaluates 1-5). Returns the rewrite with the best
SEAL score, privacy p(s) first, then utility u(s) (see ``spia_core.related.seal_scoring``).

The paper's distilled small model is not used (its weights are not available here); this is
the same loop with one API or local model in every role. ``adversary="local"`` (or ``"llm"``)
makes the privacy role the SPIA adversary over every person instead of the model itself.
The trace carries the trajectory in SEAL's JSON shape (``trace["seal_trajectory"]``).
"""

from __future__ import annotations

from typing import Any

from spia_core.anonymizers._llm_text import attribute_schema, word_diff
from spia_core.anonymizers.adversarial import target_phrase
from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS
from spia_core.llm.base import LLM, LLMError
from spia_core.llm.connection import LLMConnection, resolve
from spia_core.prompts import data_block, load_prompt
from spia_core.related import seal_scoring as sc
from spia_core.related.trajectory import lex_best, make_adversary, refusal, rewrite

INFER_SCHEMA = attribute_schema("seal_attributes", list(sc.SEAL_TYPES), "guess")
_PART = {
    "type": "object",
    "properties": {"explanation": {"type": "string"}, "score": {"type": "integer"}},
    "required": ["explanation", "score"],
    "additionalProperties": False,
}
UTILITY_SCHEMA: dict[str, Any] = {
    "title": "seal_utility",
    "type": "object",
    "properties": {part: _PART for part in sc.UTILITY_PARTS},
    "required": list(sc.UTILITY_PARTS),
    "additionalProperties": False,
}
ORIGINAL_UTILITY = {
    part: {
        "explanation": "the original text (not judged)",
        "score": 1 if part == "hallucinations" else 10,
    }
    for part in sc.UTILITY_PARTS
}


def render_inferences(privacy: list[dict[str, Any]]) -> str:
    blocks = [
        f"Type: {p['type']}\nInference: {p['inference']}\nGuess: "
        f"{'; '.join(str(g) for g in p['guess'][:3])}\nCertainty: {p['certainty']}"
        for p in privacy
    ]
    return data_block("inferences", "\n\n".join(blocks))


def render_critique(utility: dict[str, Any], is_original: bool) -> str:
    if is_original:
        return data_block("critique", "This is the original text: no critique yet.")
    lines = [
        f"{part}: {utility[part]['score']} ({utility[part]['explanation']})"
        for part in sc.UTILITY_PARTS
    ]
    return data_block("critique", "\n".join(lines))


def from_subjects(subjects: list[Any]) -> list[dict[str, Any]]:
    """SPIA adversary output as SEAL privacy entries (one per inferred PII, any subject)."""
    out = []
    for s in subjects:
        for p in s.piis:
            if p.is_empty:
                continue
            quotes = "; ".join(f'"{e.text}"' for e in p.evidence if e.text)
            out.append(
                {
                    "type": p.tag.lower(),
                    "inference": f"{s.description}: {quotes}".strip(": "),
                    "guess": [p.keyword],
                    "certainty": int(p.certainty),
                    "subject": s.description,
                }
            )
    return out


@ANONYMIZERS.register("seal")
class SealAnonymizer:
    """SEAL-style self-refinement with one LLM as anonymizer, adversary and utility judge."""

    name = "seal"
    display_name = "SEAL-style self-refinement (Kim et al.)"
    is_local = False
    needs_backbone = True
    rewrites = True
    description = (
        "One LLM infers the author's attributes, rewrites the text against them and against its "
        "own utility critique, and judges readability, meaning and hallucination; up to 3 "
        "rounds (3 calls each); returns the best round by SEAL's privacy-then-utility rule."
    )

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        connection: LLMConnection | None = None,
        rounds: int = 3,
        min_certainty: int = 3,
        utility_floor: float | None = None,
        target: str = "author",
        adversary: Any = "self",
        temperature: float | None = 0.1,
    ) -> None:
        if int(rounds) < 1:
            raise ValueError(f"rounds must be >= 1, got {rounds}")
        self.llm = resolve(llm, connection)
        self.rounds, self.min_certainty = int(rounds), int(min_certainty)
        self.utility_floor = None if utility_floor in (None, "") else float(utility_floor)
        self.target = target_phrase(target)
        self.temperature = temperature
        self.adversary = (
            None if adversary == "self" else make_adversary(adversary, self.llm, self.name)
        )
        self.prompts = {n: load_prompt(n) for n in ("seal_infer", "seal_anonymize", "seal_utility")}

    # ------------------------------------------------------------------ roles

    def _infer(self, text: str) -> list[dict[str, Any]]:
        if self.adversary is not None:
            result = self.adversary.infer(text)
            if result.failures:
                first = result.failures[0]
                raise LLMError(f"the adversary failed: {first.stage}: {first.message}")
            return from_subjects(result.subjects)
        prompt = self.prompts["seal_infer"]
        parsed = self.llm.complete(
            prompt.render(
                target=self.target,
                types=", ".join(sc.SEAL_TYPES),
                document=data_block("document", text),
            ),
            schema=INFER_SCHEMA,
            temperature=self.temperature,
            prompt_version=prompt.version_id,
        ).parsed
        return [
            {
                "type": a["type"],
                "inference": str(a["inference"]),
                "guess": [str(g) for g in a["guess"]][:3],
                "certainty": int(a["certainty"]),
            }
            for a in parsed["attributes"]
        ]

    def _judge(self, original: str, text: str) -> dict[str, Any]:
        prompt = self.prompts["seal_utility"]
        parsed = self.llm.complete(
            prompt.render(
                original=data_block("original_document", original),
                anonymized=data_block("anonymized_document", text),
            ),
            schema=UTILITY_SCHEMA,
            temperature=self.temperature,
            prompt_version=prompt.version_id,
        ).parsed
        return sc.clamp_utility(parsed)

    def _state(
        self,
        index: int,
        text: str,
        privacy: list[dict[str, Any]],
        utility: dict[str, Any],
        before: str,
    ) -> dict[str, Any]:
        return {
            "index": index,
            "text": text,
            "privacy": privacy,
            "utility": utility,
            "p": sc.privacy_key(privacy, self.min_certainty),
            "u": sc.utility_score(utility),
            "diff": word_diff(before, text) if index else [],
        }

    # ------------------------------------------------------------------ loop

    def anonymize(self, text: str) -> AnonymizedText:
        states = [self._state(0, text, self._infer(text), ORIGINAL_UTILITY, text)]
        warnings: list[str] = []
        stopped = self._refine(text, states, warnings)
        rewrites = states[1:] or states
        best = rewrites[lex_best([(s["p"], s["u"]) for s in rewrites])]
        return AnonymizedText(
            text=best["text"],
            masked_spans=None,
            method=self.name,
            trace=self._trace(states, best, stopped),
            warnings=warnings,
        )

    def _refine(self, original: str, states: list[dict[str, Any]], warnings: list[str]) -> str:
        for round_no in range(1, self.rounds + 1):
            current = states[-1]
            targets = sc.inferable(current["privacy"], self.min_certainty)
            if not targets:
                return "nothing_inferable"
            try:
                new, round_warnings = rewrite(
                    self.llm,
                    self.prompts["seal_anonymize"],
                    current["text"],
                    temperature=self.temperature,
                    document=data_block("document", current["text"]),
                    inferences=render_inferences(targets),
                    critique=render_critique(current["utility"], current["index"] == 0),
                )
                if (why := refusal(original, new, self.name)) is not None:
                    if round_no == 1:
                        raise LLMError(
                            f"seal: the first rewrite is no rewrite: {why}", reason="refusal"
                        )
                    warnings.append(f"round {round_no}: {why}")
                    return "refused"
                if any(new.strip() == s["text"].strip() for s in states):
                    return "unchanged"  # a version it already produced: the loop would cycle
                state = self._state(
                    round_no, new, self._infer(new), self._judge(original, new), current["text"]
                )
            except LLMError as exc:
                if round_no == 1:
                    raise
                warnings.append(f"round {round_no} failed, kept the best so far: {exc}")
                return "empty_rewrite" if exc.reason == "empty" else "llm_failed"
            warnings.extend(f"round {round_no}: {w}" for w in round_warnings)
            states.append(state)
            if self.utility_floor is not None and state["u"] < self.utility_floor:
                return "utility_floor"
        if not sc.inferable(states[-1]["privacy"], self.min_certainty):
            return "nothing_inferable"
        return "max_iterations"

    def _trace(
        self, states: list[dict[str, Any]], best: dict[str, Any], stopped: str
    ) -> dict[str, Any]:
        n0 = len(sc.inferable(states[0]["privacy"], self.min_certainty))
        trajectory = []
        for s in states:
            n = len(sc.inferable(s["privacy"], self.min_certainty))
            trajectory.append(
                {
                    "index": s["index"],
                    "phase": "original" if s["index"] == 0 else "refine",
                    "text": s["text"],
                    "diff": s["diff"],
                    "scores": {
                        "inferable": n,
                        "privacy_key": list(s["p"]),
                        "utility": s["u"],
                        "overall": sc.overall(n0, n, 1.0, s["u"]) if s["index"] else None,
                        **{part: s["utility"][part]["score"] for part in sc.UTILITY_PARTS},
                    },
                    "feedback": {"inferences": s["privacy"], "utility": s["utility"]},
                }
            )
        return {
            "method": self.name,
            "model": f"{self.llm.provider}/{self.llm.model}",
            "privacy_role": getattr(self.adversary, "name", "self"),
            "settings": {
                "rounds": self.rounds,
                "min_certainty": self.min_certainty,
                "utility_floor": self.utility_floor,
                "target": self.target,
            },
            "prompts": sorted(p.version_id for p in self.prompts.values()),
            "trajectory": trajectory,
            "best": best["index"],
            "stopped": stopped,
            "seal_trajectory": [
                {
                    "text": s["text"],
                    "utility": s["utility"],
                    "privacy": [
                        {k: p[k] for k in ("type", "inference", "guess", "certainty")}
                        for p in s["privacy"]
                    ],
                }
                for s in states
            ],
        }
