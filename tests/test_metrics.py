"""CPR / IPR / 1-AAC, breakdowns and coverage (spia_core.evaluation.metrics)."""

from __future__ import annotations

import math

import pytest

from spia_core.evaluation.metrics import (
    DocumentScores,
    compute_metrics,
    format_metrics_table,
    inference_stats,
    metrics_summary,
)
from spia_core.model import Failure, Override, PIIScore, SubjectResult
from spia_core.taxonomy import TAGS


def pii(
    tag: str,
    score: float | None,
    *,
    subject: int = 0,
    matched: bool = True,
    certainty: int = 5,
    hardness: int = 1,
    override: Override | None = None,
) -> PIIScore:
    return PIIScore(
        gt_subject_id=subject,
        tag=tag,
        gt_keyword=f"gt-{tag}",
        certainty=certainty,
        hardness=hardness,
        pred_subject_id=subject if matched else None,
        pred_keyword=f"pred-{tag}" if matched else "",
        pred_certainty=3 if matched else 0,
        score=score,
        rule="test" if score is not None else "unscorable",
        reason="" if score is not None else "AGE '50s' is not a number",
        override=override,
    )


def subject(
    sid: int, scores: list[tuple[str, float | None]], *, matched: bool = True, target: bool = False
) -> SubjectResult:
    return SubjectResult(
        gt_subject_id=sid,
        description=f"subject {sid}",
        pred_subject_id=sid if matched else None,
        scores=[pii(t, v, subject=sid, matched=matched) for t, v in scores],
        is_target=target,
    )


def paper_example() -> DocumentScores:
    """Appendix C.3.3: 3 subjects, 9 PIIs, the third unmatched."""
    return DocumentScores(
        "paper",
        [
            subject(
                1,
                [("NAME", 1.0), ("AGE", 0.5), ("LOCATION", 0.5), ("OCCUPATION", 0.0)],
                target=True,
            ),
            subject(2, [("NAME", 1.0), ("LOCATION", 0.5)]),
            subject(3, [("NAME", 0.0), ("SEX", 0.0), ("AGE", 0.0)], matched=False),
        ],
    )


def toy_example() -> DocumentScores:
    """Notes §9: IPR 0.8125, CPR 0.75, N = 2, ΣA = 6, ΣS = 1.5."""
    return DocumentScores(
        "toy",
        [
            subject(0, [("AGE", 0.0), ("LOCATION", 0.5), ("NAME", 1.0), ("OCCUPATION", 0.0)]),
            subject(1, [("NAME", 0.0), ("SEX", 0.0)], matched=False),
            subject(2, []),  # only a certainty-2 PII: filtered out before metrics
            subject(3, []),  # no evaluations
        ],
    )


def test_paper_worked_example() -> None:
    m = compute_metrics([paper_example()])
    assert m.cpr == pytest.approx(1 - 3.5 / 9)
    assert round(m.cpr, 3) == 0.611
    assert m.ipr == pytest.approx((0.5 + 0.25 + 1.0) / 3)
    assert round(m.ipr, 3) == 0.583
    assert (m.n_subjects, m.n_pii, m.sum_score) == (3, 9, 3.5)
    # The unmatched subject counts as fully protected.
    unmatched = next(p for p in m.per_subject if not p.matched)
    assert unmatched.protection == 1.0
    assert m.worst_subject is not None and m.worst_subject.gt_subject_id == 2


def test_toy_case_excludes_subjects_without_counted_pii() -> None:
    m = compute_metrics([toy_example()])
    assert m.ipr == pytest.approx(0.8125)
    assert m.cpr == pytest.approx(0.75)
    assert (m.n_subjects, m.n_pii, m.sum_score) == (2, 6, 1.5)
    assert [p.gt_subject_id for p in m.per_subject] == [0, 1]
    assert m.coverage.n_subjects == 2 and m.coverage.n_subjects_scored == 2


def test_failed_documents_are_excluded_and_reported() -> None:
    failed = DocumentScores(
        "broken",
        [subject(0, [("NAME", 0.0), ("SEX", 0.0)], matched=False)],
        failures=[Failure("broken", "matching", "LLM returned no valid JSON after 3 tries")],
        failed=True,
    )
    silent = DocumentScores("silent", [], failed=True)
    m = compute_metrics([paper_example(), failed, silent])
    ref = compute_metrics([paper_example()])
    # The failed doc's unmatched subject is NOT counted as protected.
    assert (m.cpr, m.ipr, m.n_subjects, m.n_pii) == (ref.cpr, ref.ipr, ref.n_subjects, ref.n_pii)
    c = m.coverage
    assert (c.n_docs, c.n_docs_scored, c.n_docs_failed) == (3, 1, 2)
    assert {f.data_id for f in c.failures} == {"broken", "silent"}
    assert any("no reason recorded" in f.reason for f in c.failures if f.data_id == "silent")
    assert c.n_subjects == 4 and c.n_subjects_scored == 3


def test_all_failed_gives_none_not_protected() -> None:
    m = compute_metrics([DocumentScores("x", [subject(0, [("NAME", 0.0)])], failed=True)])
    assert m.cpr is None and m.ipr is None and m.one_minus_aac is None
    assert m.n_subjects == 0 and m.coverage.n_docs_failed == 1
    empty = compute_metrics([])
    assert (empty.cpr, empty.ipr, empty.one_minus_aac) == (None, None, None)
    assert all(g.protection is None for g in empty.per_tag.values())


def test_unscorable_piis_in_coverage_not_in_metrics() -> None:
    doc = DocumentScores(
        "d", [subject(0, [("NAME", 1.0), ("AGE", None)]), subject(1, [("AGE", None)])]
    )
    m = compute_metrics([doc])
    assert (m.n_pii, m.n_subjects, m.cpr) == (1, 1, 0.0)
    c = m.coverage
    assert (c.n_pii, c.n_pii_scored, c.n_subjects, c.n_subjects_scored) == (3, 1, 2, 1)
    assert len(c.failures) == 2
    assert all(f.stage == "scoring" and "50s" in f.reason for f in c.failures)
    assert sorted(f.subject_id for f in c.failures) == [0, 1]


def test_overrides_change_cpr() -> None:
    doc = paper_example()
    base = compute_metrics([doc]).cpr
    occupation = doc.subject_results[0].scores[3]
    occupation.override = Override(1.0, "judge missed a synonym", "reviewer")
    assert compute_metrics([doc]).cpr == pytest.approx(base - 1.0 / 9)
    # An override also rescues an unscorable PII.
    unscorable = pii("AGE", None, override=Override(0.5, "50s ~ 54"))
    doc.subject_results[1].scores.append(unscorable)
    m = compute_metrics([doc])
    assert m.n_pii == 10 and m.sum_score == pytest.approx(5.0)
    assert not m.coverage.failures


def test_one_minus_aac_pools_target_subjects() -> None:
    doc_a = DocumentScores("a", [subject(0, [("NAME", 1.0), ("SEX", 1.0)], target=True)])
    doc_b = DocumentScores(
        "b",
        [
            subject(0, [("NAME", 0.0), ("SEX", 0.0), ("AGE", 0.0), ("LOCATION", 0.5)], target=True),
            subject(1, [("NAME", 1.0)]),
        ],
    )
    m = compute_metrics([doc_a, doc_b])
    # Pooled: 1 - (2 + 0.5) / (2 + 4); a per-document mean would give 1 - (1 + 0.125)/2.
    assert m.one_minus_aac == pytest.approx(1 - 2.5 / 6)
    assert compute_metrics([doc_b]).one_minus_aac == pytest.approx(1 - 0.5 / 4)
    no_target = DocumentScores("c", [subject(0, [("NAME", 1.0)])])
    assert compute_metrics([no_target]).one_minus_aac is None


def test_partitions_sum_to_totals() -> None:
    scores = [(t, (i % 3) / 2) for i, t in enumerate(TAGS)]
    docs = [
        DocumentScores("a", [subject(0, scores, target=True), subject(1, scores[:5])]),
        paper_example(),
        toy_example(),
    ]
    m = compute_metrics(docs)
    for partition in (
        m.per_tag,
        {k: m.per_group[k] for k in ("CODE", "NON-CODE")},
        {k: m.per_group[k] for k in ("DIRECT", "QUASI")},
        m.per_hardness,
        m.per_certainty,
    ):
        assert sum(g.n_pii for g in partition.values()) == m.n_pii
        assert math.isclose(sum(g.sum_score for g in partition.values()), m.sum_score)
    assert sum(p.n_pii for p in m.per_subject) == m.n_pii
    assert m.per_group["DIRECT"].n_pii == sum(
        m.per_tag[t].n_pii
        for t in ("NAME", *TAGS[1:6])
        if t in m.per_tag  # NAME + the 5 CODE tags
    )
    assert list(m.per_tag)[:3] == ["NAME", "IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER"]


def test_extra_subjects_summed_over_scored_docs() -> None:
    docs = [
        DocumentScores("a", [subject(0, [("NAME", 1.0)])], n_extra_subjects=2),
        DocumentScores("b", [subject(0, [("NAME", 1.0)])], n_extra_subjects=1),
        DocumentScores("c", [], n_extra_subjects=5, failed=True),
    ]
    assert compute_metrics(docs).n_extra_subjects == 3


def test_inference_stats_table9_measures() -> None:
    stats = inference_stats([paper_example()])
    assert stats["subject_match_rate"] == pytest.approx(2 / 3)
    assert stats["inference_accuracy"] == pytest.approx(3.5 / 6)
    assert stats["end_to_end_accuracy"] == pytest.approx(3.5 / 9)
    cpr = compute_metrics([paper_example()]).cpr
    assert stats["end_to_end_accuracy"] == pytest.approx(1 - cpr)
    empty = inference_stats([])
    assert empty["subject_match_rate"] is None and empty["inference_accuracy"] is None


def test_summary_and_table() -> None:
    failed = DocumentScores(
        "bad", [], failures=[Failure("bad", "adversary", "timeout")], failed=True
    )
    m = compute_metrics([paper_example(), failed])
    summary = metrics_summary(m)
    assert summary["cpr"] == pytest.approx(m.cpr)
    assert summary["tag_NAME"] == pytest.approx(1 - 2 / 3)
    assert summary["group_DIRECT"] == pytest.approx(1 - 2 / 3)
    assert summary["n_docs_failed"] == 1 and summary["n_failures"] == 1
    assert all(isinstance(v, (int, float, type(None))) for v in summary.values())
    table = format_metrics_table(m)
    assert "CPR    0.611" in table and "IPR    0.583" in table
    assert "Name" in table and "NON-CODE" in table
    assert "1/2 scored (1 failed)" in table and "timeout" in table
    assert "n/a" in format_metrics_table(compute_metrics([]))


def test_out_of_range_score_is_a_clear_error() -> None:
    doc = DocumentScores("d7", [subject(4, [("AGE", 2.0)])])
    with pytest.raises(ValueError, match=r"d7: subject 4 AGE has score 2\.0"):
        compute_metrics([doc])
