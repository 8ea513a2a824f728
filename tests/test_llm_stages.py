"""LLM stages on a scripted FakeLLM: adversary, matcher, judge, utility, anonymizers, calls."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from spia_core.adversary.llm import LLMAdversary, clean_keyword, inference_failures, locate_quote
from spia_core.adversary.registry import ADVERSARIES
from spia_core.anonymizers.adversarial import AdversarialAnonymizer
from spia_core.anonymizers.deid_gpt import DeIDGPTAnonymizer
from spia_core.anonymizers.dp_prompt import DPPromptAnonymizer
from spia_core.anonymizers.registry import anonymizer_info, anonymizer_names
from spia_core.anonymizers.subject_aware import SubjectAwareAnonymizer
from spia_core.evaluation.judge import JudgeRequest
from spia_core.evaluation.llm_judge import LLMJudge
from spia_core.evaluation.llm_matcher import LLMMatcher
from spia_core.evaluation.llm_utility import LLMUtilityJudge, with_llm_scores
from spia_core.llm.base import LLMError, Message
from spia_core.llm.cache import CachedLLM, ResponseCache
from spia_core.llm.fake import FakeLLM
from spia_core.llm.usage import UsageRecorder
from spia_core.model import PII, Subject, UtilityScores

TEXT = (
    "The applicant, Mr Jan Kowalski, was born in 1970 and lives in Krakow, Poland. "
    "He works as a teacher at the Jagiellonian School. His wife, Anna Kowalska, is a nurse. "
    "Contact: jan.kowalski@example.pl."
)

#: The scripted rewrite of TEXT (a full redaction, long enough to be a rewrite of it).
REDACTED = (
    "The applicant, [redacted], was born in [redacted] and lives in [redacted]. "
    "He works as a [redacted] at the [redacted]. His wife, [redacted], is a [redacted]."
)


def profile(piis: list[dict[str, Any]], sid: int = 0) -> dict[str, Any]:
    return {"subjects": [{"id": sid, "description": "", "piis": piis}]}


def pii(tag: str, keyword: str, certainty: Any, evidence: str = "") -> dict[str, Any]:
    reasoning = f"the text points to {keyword}" if keyword else ""
    return {
        "tag": tag,
        "keyword": keyword,
        "certainty": certainty,
        "evidence": evidence,
        "reasoning": reasoning,
    }


STAGE_A = {
    "subjects": [
        {"id": 0, "description": "Mr Jan Kowalski - the applicant, a teacher"},
        {"id": 1, "description": "Anna Kowalska - the applicant's wife, a nurse"},
    ],
    "collectives_not_counted": [],
}
CODE = profile([pii("EMAIL_ADDRESS", "jan.kowalski@example.pl", 5, "jan.kowalski@example.pl")])
NON_CODE = {
    "subjects": [
        {
            "id": 0,
            "description": "",
            "piis": [
                pii("NAME", "Jan Kowalski", "5", "Mr Jan Kowalski"),
                pii("AGE", "55", 4, "was born in 1970"),
                pii("LOCATION", "Krakow / Poland", 5, "lives in krakow,  Poland"),
                pii("OCCUPATION", "teacher", 5, "He work as a teacher at the"),
                pii("EDUCATION", "Unknown", 1, ""),
                pii("PHONE_NUMBER", "123", 5, ""),  # wrong stage: ignored
            ],
        },
        {
            "id": 1,
            "description": "",
            "piis": [
                pii("NAME", "Anna Kowalska", 5, "Anna Kowalska"),
                pii("OCCUPATION", "nurse", 5, "quote that is not in the text at all"),
            ],
        },
    ]
}


def respond(messages: list[Message], schema: dict[str, Any] | None) -> str:
    """A scripted model answering every SPIA prompt (routed on the schema title)."""
    user = messages[-1].content
    title = (schema or {}).get("title")
    answers: dict[str, Any] = {
        "subjects": STAGE_A,
        "code_profile": CODE,
        "non_code_profile": NON_CODE,
        "alignment": {
            "pairs": [{"a_id": 0, "b_id": 0, "confidence": 5, "reason": "same role"}],
            "unmatched_a": [1],
            "unmatched_b": [1],
        },
        "utility": {
            "readability": {"score": 8, "rationale": "fluent"},
            "meaning": {"score": 7, "rationale": "close"},
            "hallucination": {"score": 0, "rationale": "none"},
        },
        "attributes": {
            "attributes": [
                {"type": "LOC", "inference": "city named", "guesses": ["Krakow"], "certainty": 5}
            ]
        },
    }
    if title == "verdicts":
        n = len(re.findall(r"^\d+\. tag:", user, re.MULTILINE))
        return json.dumps(
            {"verdicts": [{"index": i, "label": "no", "rationale": ""} for i in range(n)]}
        )
    if title in answers:
        return json.dumps(answers[title])
    return f"I will remove names.\n<anonymized>\n{REDACTED}\n</anonymized>"


# --------------------------------------------------------------------------- adversary


def test_adversary_merges_stages_and_maps_evidence() -> None:
    fake = FakeLLM(responder=respond)
    result = LLMAdversary(fake, parallel=False).infer(TEXT)
    assert len(fake.calls) == 3 and result.complete and not result.failures
    jan, anna = result.subjects
    assert jan.values("NAME")[0].certainty == 5  # "5" coerced
    assert jan.values("EMAIL_ADDRESS")[0].keyword == "jan.kowalski@example.pl"
    assert not jan.values("EDUCATION") and not jan.values("PHONE_NUMBER")
    loc = jan.values("LOCATION")[0].evidence[0]
    assert TEXT[loc.start : loc.end] == "lives in Krakow, Poland"  # whitespace/case tolerant
    occ = jan.values("OCCUPATION")[0].evidence[0]
    assert "works as a teacher" in TEXT[occ.start : occ.end + 3]  # fuzzy
    assert anna.values("OCCUPATION")[0].evidence == []  # no span rather than a wrong one
    assert result.trace["unlocated_evidence"] == 1
    assert ADVERSARIES.names().count("llm") == 1


def test_adversary_garbage_is_a_recorded_failure_not_a_crash() -> None:
    fake = FakeLLM(["this is not json", "still not json"])
    result = LLMAdversary(fake).infer(TEXT)
    assert result.subjects == [] and not result.complete
    assert inference_failures(result)[0]["stage"] == "adversary.subjects"
    partial = FakeLLM([json.dumps(STAGE_A), json.dumps(CODE), "garbage", "garbage again"])
    result = LLMAdversary(partial, parallel=False).infer(TEXT)
    assert [f["stage"] for f in inference_failures(result)] == ["adversary.non_code"]
    assert result.subjects[0].values("EMAIL_ADDRESS") and not result.subjects[0].values("NAME")


def test_locate_quote_and_clean_keyword() -> None:
    assert locate_quote(TEXT, "Anna Kowalska") == (TEXT.index("Anna"), TEXT.index("Anna") + 13)
    assert locate_quote(TEXT, "completely unrelated words here") is None
    assert locate_quote(TEXT, "ab") is None
    assert clean_keyword("LOCATION", "Unknown / Krakow / Poland") == "Krakow / Poland"
    assert clean_keyword("AGE", " [redacted] ") == ""


# --------------------------------------------------------------------------- matcher


def subj(sid: int, description: str) -> Subject:
    return Subject(sid, description, [PII("NAME", f"Person {sid}", 5)])


def test_matcher_enforces_one_to_one_whatever_the_answer_order() -> None:
    gt = [subj(0, "applicant"), subj(1, "wife")]
    pred = [subj(0, "applicant"), subj(1, "spouse")]
    pairs = [
        {"a_id": 0, "b_id": 0, "confidence": 5, "reason": "x"},
        {"a_id": 1, "b_id": 0, "confidence": 3, "reason": "y"},  # B0 claimed twice
        {"a_id": 1, "b_id": 1, "confidence": 4, "reason": "z"},
        {"a_id": 7, "b_id": 1, "confidence": 5, "reason": "bad id"},
    ]
    results = []
    for order in (pairs, pairs[::-1]):
        answer = {"pairs": order, "unmatched_a": [], "unmatched_b": []}
        matcher = LLMMatcher(FakeLLM([answer]))
        assignment = matcher.match(gt, pred, original_text="o", anonymized_text="a")
        results.append([(p.gt_subject_id, p.pred_subject_id) for p in assignment.pairs])
        assert any("unknown pair" in w for w in matcher.warnings)
    assert results[0] == results[1] == [(0, 0), (1, 1)]


def test_matcher_without_inferred_subjects_makes_no_call() -> None:
    fake = FakeLLM([])
    assignment = LLMMatcher(fake).match([subj(0, "a")], [])
    assert assignment.pairs[0].pred_subject_id is None and fake.calls == []


# --------------------------------------------------------------------------- judge, utility


def test_judge_one_call_exact_labels() -> None:
    answer = {
        "verdicts": [
            {"index": 1, "label": "less precise", "rationale": "city only"},
            {"index": 0, "label": "yes", "rationale": "Yes, it is known as NYC"},
            {"index": 9, "label": "no", "rationale": "out of range"},
        ]
    }
    fake = FakeLLM([answer])
    requests = [
        JudgeRequest("LOCATION", "New York City", "NYC"),
        JudgeRequest("LOCATION", "New York / United States", "United States"),
        JudgeRequest("AGE", "42", "61"),
    ]
    verdicts = LLMJudge(fake).judge(requests)
    assert len(fake.calls) == 1
    assert [v.label if v else None for v in verdicts] == ["yes", "less precise", None]
    assert "tag: LOCATION" in fake.calls[0].user
    assert LLMJudge(FakeLLM([])).judge([]) == []


def test_utility_scores_and_combined_formula() -> None:
    result = LLMUtilityJudge(FakeLLM(responder=respond)).assess("a b", "a [redacted]")
    scores = with_llm_scores(UtilityScores(rouge_l=0.5455), result)
    assert (scores.readability, scores.meaning, scores.hallucination) == (8, 7, 0)
    assert scores.mean_utility == pytest.approx(0.6818, abs=1e-4)


# --------------------------------------------------------------------------- anonymizers


def test_llm_anonymizers_are_registered_as_cloud_methods() -> None:
    for name in ("deid-gpt", "dp-prompt", "adversarial", "subject-aware"):
        assert name in anonymizer_names()
        info = anonymizer_info(name)
        assert info["needs_backbone"] and not info["is_local"]


def test_deid_gpt_and_dp_prompt_parameters() -> None:
    fake = FakeLLM(responder=respond)
    out = DeIDGPTAnonymizer(fake).anonymize(TEXT)
    assert out.text == REDACTED and out.masked_spans is None
    assert fake.calls[0].params["temperature"] == 0.05
    fake = FakeLLM(responder=respond)
    DPPromptAnonymizer(fake, temperature=1.5).anonymize(TEXT)
    assert fake.calls[0].params["temperature"] == 1.5 and fake.calls[0].params["top_p"] == 1.0
    with pytest.raises(ValueError, match="temperature"):
        DPPromptAnonymizer(fake, temperature=0.2)


def test_adversarial_rounds_and_hash_lines_do_not_truncate() -> None:
    body = "THE FACTS\n#1 first point\n# second heading\nThe end."
    fake = FakeLLM(
        responder=lambda m, s: (
            respond(m, s) if s else f"Changes: generalise.\n#\n<anonymized>\n{body}\n</anonymized>"
        )
    )
    out = AdversarialAnonymizer(fake, rounds=3, target="applicant").anonymize(TEXT)
    assert out.text == body
    assert len(fake.calls) == 6 and len(out.trace["rounds"]) == 3
    assert "the applicant" in fake.calls[0].user


def test_subject_aware_stops_when_nothing_certain_remains() -> None:
    empty_a = {"subjects": [], "collectives_not_counted": []}
    seen_texts: list[str] = []

    def model(messages: list[Message], schema: dict[str, Any] | None) -> str:
        user = messages[-1].content
        if schema and schema["title"] == "subjects":
            seen_texts.append(user)
            return json.dumps(STAGE_A if len(seen_texts) == 1 else empty_a)
        if schema is None:
            assert "Person 0" in user and "Person 1" in user  # ALL subjects feed the rewrite
        return respond(messages, schema)

    fake = FakeLLM(responder=model)
    out = SubjectAwareAnonymizer(fake, rounds=3).anonymize(TEXT)
    assert out.trace["stopped"] == "nothing_inferable"
    assert len(out.trace["rounds"]) == 2 and out.trace["rounds"][0]["diff"]
    assert len(fake.calls) == 3 + 1 + 1  # adversary, rewrite, adversary (no subjects left)
    assert out.text == REDACTED


def test_first_round_failure_raises() -> None:
    with pytest.raises(LLMError):
        AdversarialAnonymizer(FakeLLM(["x", "y"])).anonymize(TEXT)


# --------------------------------------------------------------------------- call counts


def run_stages(llm: Any, recorder: UsageRecorder) -> int:
    """The LLM stages of one audit with a dataset GT: anonymize, infer, align, judge."""
    anonymized = DeIDGPTAnonymizer(recorder.wrap(llm, "anonymize")).anonymize(TEXT).text
    inferred = LLMAdversary(recorder.wrap(llm, "adversary"), parallel=False).infer(anonymized)
    gt = [subj(0, "the applicant"), subj(1, "the wife")]
    LLMMatcher(recorder.wrap(llm, "matcher")).match(
        gt, inferred.subjects, original_text=TEXT, anonymized_text=anonymized
    )
    requests = [JudgeRequest("NAME", "Person 0", "Jan Kowalski")]
    LLMJudge(recorder.wrap(llm, "judge")).judge(requests)
    return len(inferred.subjects)


def test_one_document_makes_six_calls_and_zero_on_rerun(tmp_path: Path) -> None:
    fake = FakeLLM(responder=respond)
    cache = ResponseCache(tmp_path / "cache.sqlite")
    first = UsageRecorder()
    assert run_stages(CachedLLM(fake, cache), first) == 2
    assert len(fake.calls) == 6
    usage = first.snapshot()
    assert {k: v.calls for k, v in usage.items()} == {
        "anonymize": 1,
        "adversary": 3,
        "matcher": 1,
        "judge": 1,
    }
    assert first.total().cost_usd > 0
    second = UsageRecorder()
    run_stages(CachedLLM(fake, ResponseCache(tmp_path / "cache.sqlite")), second)
    assert len(fake.calls) == 6  # rerun: zero new calls
    assert second.total().calls == 0 and second.total().cache_hits == 6
