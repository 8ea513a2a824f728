"""SEAL-style self-refinement: roles, stop rules, SEAL's scores and best-iterate rule, export.

The fake model infers one attribute per clue word still in the text (certainty from a table),
drops the first clue per rewrite, and judges meaning from a script. Sentences are written for
these tests.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from spia_core.anonymizers.registry import anonymizer_info
from spia_core.anonymizers.seal import SealAnonymizer, from_subjects
from spia_core.llm.base import LLMError
from spia_core.llm.fake import FakeLLM
from spia_core.model import PII, Evidence, Subject
from spia_core.related import seal_scoring as sc

TEXT = "Back from my night shift at the ward in Tromsø; my husband cooked reindeer stew again."
CLUES = {  # clue -> (type, guess, certainty, general form)
    "night shift at the ward": ("occupation", "nurse", 4, "late shift"),
    "Tromsø": ("location", "Tromsø, Norway", 5, "the north"),
    "my husband": ("married", "Married", 3, "my partner"),
    "reindeer stew": ("location", "Norway", 2, "a stew"),
}


def _block(text: str, tag: str) -> str:
    match = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return match.group(1) if match else ""


class World:
    def __init__(self, meaning: list[int]) -> None:
        self.meaning = list(meaning)

    def __call__(self, messages: list[Any], schema: dict[str, Any] | None) -> Any:
        user = messages[-1].content
        if schema is None:
            text = _block(user, "document")
            for clue, (*_, general) in CLUES.items():
                if clue in text:
                    text = text.replace(clue, general)
                    break
            return f"<anonymized>\n{text}\n</anonymized>"
        if schema["title"] == "seal_attributes":
            doc = _block(user, "document")
            return {
                "attributes": [
                    {"type": t, "inference": f"mentions {c}", "guess": [g], "certainty": k}
                    for c, (t, g, k, _) in CLUES.items()
                    if c in doc
                ]
            }
        if schema["title"] == "seal_utility":
            m = self.meaning.pop(0) if len(self.meaning) > 1 else self.meaning[0]
            return {
                "readability": {"explanation": "fluent", "score": 10},
                "meaning": {"explanation": "scripted", "score": m},
                "hallucinations": {"explanation": "nothing new", "score": 1},
            }
        raise AssertionError(schema["title"])


def kinds(llm: FakeLLM) -> list[str]:
    return [c.schema["title"] if c.schema else "rewrite" for c in llm.calls]


def test_registered() -> None:
    info = anonymizer_info("seal")
    assert info["needs_backbone"] and info["display_name"].startswith("SEAL")


def test_scores_match_the_paper_arithmetic() -> None:
    # SEAL Table 1 (main set): iteration 1 from the original
    assert sc.overall(0.625, 0.391, 1.0, 0.931) == pytest.approx(0.305, abs=1e-3)
    assert sc.overall(0.846, 0.505, 1.0, 0.895) == pytest.approx(0.298, abs=1e-3)
    u = {"readability": {"score": 10}, "meaning": {"score": 9}, "hallucinations": {"score": 1}}
    assert sc.utility_score(u) == pytest.approx(0.9667, abs=1e-4)
    privacy = [
        {"guess": ["nurse"], "certainty": 4},
        {"guess": ["x"], "certainty": 2},
        {"guess": [], "certainty": 5},
        {"guess": ["y"], "certainty": 3},
    ]
    assert sc.privacy_key(privacy, 3) == (-2, -3.5)
    assert sc.privacy_key([], 3) == (0, 0.0)
    assert sc.preferred((-1, -2.0), 0.9, (-2, -3.0), 0.9)
    assert not sc.preferred((-1, -2.0), 0.8, (-2, -3.0), 0.9)
    assert sc.spia_overall(0.7, 0.9) == pytest.approx(0.6)
    assert sc.overall(0, 0, 1.0, 1.0) is None


def test_refines_until_nothing_is_inferable() -> None:
    llm = FakeLLM(responder=World([9]))
    result = SealAnonymizer(llm, rounds=5).anonymize(TEXT)
    trace = result.trace
    # certainty >= 3: the ward (4), Tromsø (5), husband (3); the stew (2) does not count
    assert [s["scores"]["inferable"] for s in trace["trajectory"]] == [3, 2, 1, 0]
    assert trace["stopped"] == "nothing_inferable"
    assert trace["best"] == 3 and "my partner" in result.text
    # x0 inferred once, then per round: rewrite, infer, judge
    assert kinds(llm) == ["seal_attributes"] + ["rewrite", "seal_attributes", "seal_utility"] * 3
    overall = [s["scores"]["overall"] for s in trace["trajectory"]]
    assert overall[0] is None and overall[-1] == pytest.approx(1 - (1 - 0.9667), abs=1e-3)


def test_round_limit_and_best_prefers_privacy_then_utility() -> None:
    result = SealAnonymizer(FakeLLM(responder=World([10, 6])), rounds=2).anonymize(TEXT)
    trace = result.trace
    assert trace["stopped"] == "max_iterations" and len(trace["trajectory"]) == 3
    # round 2 leaks one attribute fewer: it wins although its meaning fell from 10 to 6
    assert trace["best"] == 2


def test_the_rewrite_sees_inferences_and_its_own_critique() -> None:
    llm = FakeLLM(responder=World([7]))
    SealAnonymizer(llm, rounds=2).anonymize(TEXT)
    rewrites = [c for c in llm.calls if c.schema is None]
    assert "no critique yet" in rewrites[0].user
    assert "meaning: 7 (scripted)" in _block(rewrites[1].user, "critique")
    inferences = _block(rewrites[0].user, "inferences")
    assert "Guess: nurse" in inferences and "Certainty: 2" not in inferences


def test_utility_floor_stops() -> None:
    result = SealAnonymizer(FakeLLM(responder=World([4])), rounds=3, utility_floor=0.85).anonymize(
        TEXT
    )
    assert result.trace["stopped"] == "utility_floor" and len(result.trace["trajectory"]) == 2


def test_nothing_inferable_in_the_original_returns_it_unchanged() -> None:
    llm = FakeLLM(responder=World([9]))
    plain = "The weather was mild and the bus came on time."
    result = SealAnonymizer(llm).anonymize(plain)
    assert result.text == plain and result.trace["stopped"] == "nothing_inferable"
    assert len(llm.calls) == 1


def test_parsing_failure_first_round_raises_later_keeps_best() -> None:
    llm = FakeLLM(["not json", "nor this"])
    with pytest.raises(LLMError):
        SealAnonymizer(llm).anonymize(TEXT)
    world = World([9])
    calls = {"n": 0}

    def flaky(messages: list[Any], schema: dict[str, Any] | None) -> Any:
        calls["n"] += 1
        if schema and schema["title"] == "seal_utility" and calls["n"] > 4:
            return "{broken"
        return world(messages, schema)

    result = SealAnonymizer(FakeLLM(responder=flaky), rounds=3).anonymize(TEXT)
    assert result.trace["stopped"] == "llm_failed" and result.trace["best"] == 1


def test_trajectory_export_has_seal_shape() -> None:
    result = SealAnonymizer(FakeLLM(responder=World([9])), rounds=1).anonymize(TEXT)
    exported = json.loads(json.dumps(result.trace["seal_trajectory"]))
    assert len(exported) == 2 and exported[0]["text"] == TEXT
    first = exported[1]
    assert set(first) == {"text", "utility", "privacy"}
    assert set(first["utility"]) == {"readability", "meaning", "hallucinations"}
    assert set(first["utility"]["meaning"]) == {"explanation", "score"}
    assert set(first["privacy"][0]) == {"type", "inference", "guess", "certainty"}


def test_spia_adversary_as_privacy_role() -> None:
    subject = Subject(
        0,
        "the author",
        [PII("OCCUPATION", "nurse", 4, evidence=[Evidence(0, 5, "ward")]), PII("AGE", "", 0)],
    )
    entries = from_subjects([subject])
    assert entries == [
        {
            "type": "occupation",
            "inference": 'the author: "ward"',
            "guess": ["nurse"],
            "certainty": 4,
            "subject": "the author",
        }
    ]
