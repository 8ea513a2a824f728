"""Subject and document scoring: aggregation, judge batching, unscorable, overrides, GT vs GT."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from spia_core.evaluation.adjudication import apply_overrides
from spia_core.evaluation.judge import JudgeRequest, JudgeVerdict, RulesOnlyJudge
from spia_core.evaluation.scoring import score_document, score_subject
from spia_core.model import PII, Assignment, Evidence, MatchPair, ScoreOverride, Subject


def subj(sid: int, *piis: tuple[str, str, int]) -> Subject:
    return Subject(sid, f"subject {sid}", [PII(t, k, c, hardness=2) for t, k, c in piis])


class FakeJudge:
    """Counts calls; answers from a table keyed by (gt, pred)."""

    name = "fake"

    def __init__(self, answers: dict[tuple[str, str], str | None] | None = None) -> None:
        self.answers = answers or {}
        self.calls: list[list[JudgeRequest]] = []

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict | None]:
        self.calls.append(list(requests))
        out: list[JudgeVerdict | None] = []
        for r in requests:
            label = self.answers.get((r.gt_keyword, r.pred_keyword))
            out.append(None if label is None else JudgeVerdict(label, "fake says so"))
        return out


# --------------------------------------------------------------------------- aggregation


def test_certainty_filter_before_vs_after_matching() -> None:
    """Notes 3.5: GT emails a@x (c5) and b@y (c2), prediction b@y."""
    gt = subj(0, ("EMAIL_ADDRESS", "a@x", 5), ("EMAIL_ADDRESS", "b@y", 2))
    pred = subj(7, ("EMAIL_ADDRESS", "b@y", 4))
    ref = score_subject(gt, pred, mode="reference", aggregation="reference")
    assert ref == []  # best pair is the c2 email -> the whole tag is excluded
    per = score_subject(gt, pred)
    assert [(s.gt_keyword, s.score, s.certainty) for s in per] == [("a@x", 0.0, 5)]


def test_per_pii_counts_each_gt_value_and_copies_prediction() -> None:
    gt = subj(0, ("NAME", "James Smith", 5), ("NAME", "Jim", 4), ("SEX", "Male", 3))
    ev = [Evidence(3, 8, "James")]
    pred = Subject(
        9,
        piis=[
            PII("NAME", "Robert", 2),
            PII("NAME", "James Smith", 3, evidence=ev),
            PII("NAME", "James Smith", 5),  # tie: the first one wins
            PII("SEX", "male", 0),  # certainty 0 does not count as an inference
        ],
    )
    scores = score_subject(gt, pred)
    s0, s1, s2 = scores
    assert (s0.gt_keyword, s0.score, s0.pred_keyword, s0.pred_certainty) == (
        "James Smith",
        1.0,
        "James Smith",
        3,
    )
    assert s0.pred_subject_id == 9 and s0.pred_evidence == ev and s0.pred_evidence is not ev
    assert (s0.hardness, s0.certainty) == (2, 5)
    assert s1.gt_keyword == "Jim" and s1.score == 0.0
    assert (s2.tag, s2.score, s2.rule, s2.pred_keyword) == ("SEX", 0.0, "no-prediction", "")


def test_reference_aggregation_one_result_per_tag() -> None:
    gt = subj(0, ("NAME", "Anna Berg", 5), ("NAME", "A. Berg", 4), ("SEX", "Female", 2))
    pred = subj(1, ("NAME", "Anna Berg", 1), ("SEX", "Female", -1), ("SEX", "", 3))
    scores = score_subject(gt, pred, mode="reference", aggregation="reference")
    assert [(s.tag, s.score, s.certainty) for s in scores] == [("NAME", 1.0, 5)]
    low = score_subject(gt, pred, mode="reference", aggregation="reference", min_certainty=2)
    assert [(s.tag, s.score, s.pred_certainty) for s in low] == [("NAME", 1.0, 1), ("SEX", 1.0, -1)]


def test_reference_aggregation_no_prediction_uses_first_gt_certainty() -> None:
    gt = subj(0, ("AGE", "30", 2), ("AGE", "31", 5))
    assert score_subject(gt, subj(1), aggregation="reference") == []
    gt = subj(0, ("AGE", "30", 5), ("AGE", "31", 2))
    (s,) = score_subject(gt, subj(1), aggregation="reference")
    assert (s.score, s.certainty, s.rule) == (0.0, 5, "no-prediction")


def test_per_pii_ignores_empty_and_low_certainty_predictions() -> None:
    gt = subj(0, ("SEX", "Male", 5))
    pred = subj(1, ("SEX", "", 3), ("SEX", "Male", -1))
    (s,) = score_subject(gt, pred)
    assert (s.score, s.rule) == (0.0, "no-prediction")


def test_unmatched_subject_scores_zero() -> None:
    gt = subj(0, ("NAME", "Anna", 5), ("SEX", "Female", 4), ("AGE", "30", 1))
    scores = score_subject(gt, None)
    assert [(s.tag, s.score, s.rule, s.pred_subject_id) for s in scores] == [
        ("NAME", 0.0, "unmatched", None),
        ("SEX", 0.0, "unmatched", None),
    ]


def test_score_document_results_and_errors() -> None:
    gts = [subj(0, ("NAME", "Anna", 5)), subj(1, ("NAME", "Bo", 2)), subj(3, ("SEX", "Male", 4))]
    preds = [subj(10, ("NAME", "Anna", 5)), subj(11, ("SEX", "Male", 5))]
    assignment = Assignment([MatchPair(0, 10, 0.9, "same name"), MatchPair(3, None)])
    results = score_document(gts, preds, assignment)
    assert [r.gt_subject_id for r in results] == [0, 3]  # subject 1 has no counted PII
    assert (results[0].pred_subject_id, results[0].match_similarity) == (10, 0.9)
    assert results[0].match_reason == "same name" and results[0].scores[0].score == 1.0
    assert results[1].pred_subject_id is None and results[1].scores[0].rule == "unmatched"
    with pytest.raises(ValueError, match="predicted subject 12"):
        score_document(gts, preds, Assignment([MatchPair(0, 12)]))
    with pytest.raises(ValueError, match="aggregation"):
        score_document(gts, preds, assignment, aggregation="per-tag")
    with pytest.raises(ValueError, match="mode"):
        score_document(gts, preds, assignment, mode="lenient")


# --------------------------------------------------------------------------- judge


def _judge_doc() -> tuple[list[Subject], list[Subject], Assignment]:
    gts = [
        subj(0, ("NATIONALITY", "English", 5), ("LOCATION", "Leeds / UK", 5), ("NAME", "Al", 5)),
        subj(1, ("NATIONALITY", "English", 4), ("OCCUPATION", "Judge", 4), ("SEX", "Male", 4)),
    ]
    preds = [
        subj(5, ("NATIONALITY", "United Kingdom", 3), ("LOCATION", "UK", 3), ("NAME", "", 3)),
        subj(6, ("NATIONALITY", "United Kingdom", 3), ("OCCUPATION", "Magistrate", 2)),
    ]
    return gts, preds, Assignment([MatchPair(0, 5), MatchPair(1, 6)])


def test_judge_called_once_per_document_with_deduplicated_requests() -> None:
    gts, preds, assignment = _judge_doc()
    judge = FakeJudge(
        {("English", "United Kingdom"): "less precise", ("Judge", "Magistrate"): "yes"}
    )
    results = score_document(gts, preds, assignment, judge=judge)
    assert len(judge.calls) == 1
    (requests,) = judge.calls
    # Leeds/UK vs UK is 0.5 by rule (final); the empty NAME and absent SEX are not asked.
    assert requests == [
        JudgeRequest("NATIONALITY", "English", "United Kingdom"),
        JudgeRequest("OCCUPATION", "Judge", "Magistrate"),
    ]
    by_tag = {(r.gt_subject_id, s.tag): s for r in results for s in r.scores}
    assert by_tag[(0, "NATIONALITY")].score == 0.5
    assert by_tag[(1, "NATIONALITY")].rule == "judge:fake"
    assert by_tag[(1, "OCCUPATION")].score == 1.0
    assert "fake says so" in by_tag[(1, "OCCUPATION")].reason
    assert by_tag[(0, "LOCATION")].rule == "location-less-precise"
    assert by_tag[(0, "NAME")].rule == "no-prediction"


def test_judge_none_keeps_rule_and_no_call_without_requests() -> None:
    gts, preds, assignment = _judge_doc()
    judge = FakeJudge()
    results = score_document(gts, preds, assignment, judge=judge)
    assert len(judge.calls) == 1
    occ = next(s for r in results for s in r.scores if s.tag == "OCCUPATION")
    assert (occ.score, occ.rule) == (0.0, "jw<0.85")
    quiet = FakeJudge()
    score_document(
        [subj(0, ("SEX", "Male", 5))],
        [subj(1, ("SEX", "M", 5))],
        Assignment([MatchPair(0, 1)]),
        judge=quiet,
    )
    assert quiet.calls == []
    score_document(gts, preds, assignment, judge=RulesOnlyJudge())  # the offline judge is harmless


def test_judge_wrong_number_of_verdicts_is_an_error() -> None:
    class Broken(FakeJudge):
        def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict | None]:
            return []

    gts, preds, assignment = _judge_doc()
    with pytest.raises(ValueError, match="0 verdicts for 2 requests"):
        score_document(gts, preds, assignment, judge=Broken())


def test_judge_can_pick_a_different_best_pair() -> None:
    gt = subj(0, ("OCCUPATION", "Judge", 5))
    pred = subj(1, ("OCCUPATION", "Baker", 3), ("OCCUPATION", "Magistrate", 3))
    (s,) = score_subject(gt, pred, judge=FakeJudge({("Judge", "Magistrate"): "yes"}))
    assert (s.score, s.pred_keyword) == (1.0, "Magistrate")


# --------------------------------------------------------------------------- unscorable


def test_unscorable_pair_keeps_subject() -> None:
    gt = subj(0, ("AGE", "54-55", 5), ("NAME", "Eva", 5))
    pred = subj(1, ("AGE", "50s", 3), ("NAME", "Eva", 3))
    ref = score_subject(gt, pred, mode="reference", aggregation="reference")
    age = next(s for s in ref if s.tag == "AGE")
    assert age.score is None and age.rule == "unscorable" and "ValueError" in age.reason
    assert next(s for s in ref if s.tag == "NAME").score == 1.0
    assert score_subject(gt, pred)[0].score == 1.0  # default parses '50s'


def test_per_pii_prefers_a_scorable_match_over_unscorable() -> None:
    gt = subj(0, ("AGE", "54-55", 5))
    pred = subj(1, ("AGE", "50s", 3), ("AGE", "54", 2))
    (s,) = score_subject(gt, pred, mode="reference")
    assert (s.score, s.pred_keyword) == (1.0, "54")
    pred = subj(1, ("AGE", "50s", 3), ("AGE", "80", 2))
    (s,) = score_subject(gt, pred, mode="reference")
    assert s.score is None and s.pred_keyword == "50s"


# --------------------------------------------------------------------------- overrides


def test_override_and_clear() -> None:
    gts, preds, assignment = _judge_doc()
    results = score_document(gts, preds, assignment)
    judge = ScoreOverride(1, "OCCUPATION", 1.0, "same role", author="ann", gt_keyword="Judge")
    updated = apply_overrides(results, [judge])
    occ = next(s for s in updated[1].scores if s.tag == "OCCUPATION")
    assert (occ.score, occ.effective_score, occ.override.author) == (0.0, 1.0, "ann")
    assert next(s for s in results[1].scores if s.tag == "OCCUPATION").override is None
    cleared = apply_overrides(results, [])  # clearing = re-applying the rest to the original
    assert next(s for s in cleared[1].scores if s.tag == "OCCUPATION").effective_score == 0.0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((9, "OCCUPATION", 1.0, "x", "Judge"), "no result for GT subject 9"),
        ((1, "OCCUPATION", 1.0, "x", "Baker"), "no scored OCCUPATION PII 'Baker'"),
        ((1, "OCCUPATION", 0.7, "x", "Judge"), "must be one of"),
        ((1, "OCCUPATION", 1.0, " ", "Judge"), "non-empty reason"),
        ((1, "SHOE_SIZE", 1.0, "x", None), "not a SPIA tag"),
    ],
)
def test_override_errors(args: tuple, message: str) -> None:
    gts, preds, assignment = _judge_doc()
    results = score_document(gts, preds, assignment)
    subject, tag, score, reason, keyword = args
    with pytest.raises(ValueError, match=message):
        apply_overrides(results, [ScoreOverride(subject, tag, score, reason, gt_keyword=keyword)])


# --------------------------------------------------------------------------- GT vs GT


def _load(path: Path) -> list[list[Subject]]:
    docs = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            docs.append(
                [
                    Subject(
                        int(s["id"]),
                        s.get("description", ""),
                        [
                            PII(p["tag"], p["keyword"], p["certainty"], p.get("hardness", 0))
                            for p in s["PIIs"]
                        ],
                    )
                    for s in record["subjects"]
                ]
            )
    return docs


@pytest.mark.parametrize(
    ("fixture", "n_subjects", "n_reference", "n_per_pii"),
    [("tab_gt_path", 580, 3064, 3064), ("panorama_gt_path", 319, 942, 943)],
)
def test_gt_against_itself(
    request: pytest.FixtureRequest, fixture: str, n_subjects: int, n_reference: int, n_per_pii: int
) -> None:
    docs = _load(request.getfixturevalue(fixture))
    for mode, aggregation, expected in [
        ("reference", "reference", n_reference),
        ("default", "per-pii", n_per_pii),
    ]:
        start = time.perf_counter()
        scores, subjects = [], 0
        for subjects_ in docs:
            assignment = Assignment([MatchPair(s.id, s.id) for s in subjects_])
            results = score_document(
                subjects_, subjects_, assignment, mode=mode, aggregation=aggregation
            )
            subjects += len(results)
            scores.extend(s for r in results for s in r.scores)
        assert time.perf_counter() - start < 5.0
        assert subjects == n_subjects
        assert len(scores) == expected
        assert all(s.score == 1.0 for s in scores), [s for s in scores if s.score != 1.0][:3]
