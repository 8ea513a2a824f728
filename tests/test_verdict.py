from __future__ import annotations

import pytest
from _dashboard_factory import make_report, metrics_of

from spia_core.model import Failure, SpanMetrics
from spia_core.verdict import INCONCLUSIVE, NOT_SAFE, SAFE, Target, gap_sentence, judge


def test_not_safe_counts_identifiable_people() -> None:
    r = make_report()  # subject 0: 2/3 inferred, subject 1: 1/2 inferred
    v = judge(r.metrics, Target(0.9, 0.8), adversary_is_local=True)
    assert v.status == NOT_SAFE
    assert v.headline == "not safe to release: 2 of 2 people remain identifiable"
    assert any("CPR" in reason for reason in v.reasons)
    assert [s.gt_subject_id for s in v.at_risk] == [0, 1]  # worst first
    assert v.caveats and "overestimated" in v.caveats[0]


def test_safe_when_all_protected() -> None:
    r = make_report({(0, "NATIONALITY"): 0.0, (0, "LOCATION"): 0.0, (1, "OCCUPATION"): 0.0})
    v = judge(r.metrics)
    assert v.status == SAFE and v.safe
    assert not v.reasons


def test_one_person_singular_and_threshold_edges() -> None:
    r = make_report({(0, "NATIONALITY"): 0.0, (0, "LOCATION"): 0.0})
    # subject 1 protection 0.5, subject 0 protection 1.0, CPR 0.75
    v = judge(r.metrics, Target(min_cpr=0.7, min_subject=0.5))
    assert v.status == SAFE  # 0.5 >= 0.5 is not below the target
    v = judge(r.metrics, Target(min_cpr=0.7, min_subject=0.6))
    assert v.headline == "not safe to release: 1 of 2 people remains identifiable"


def test_unscored_pii_is_inconclusive_not_protected() -> None:
    r = make_report({(0, "NATIONALITY"): 0.0, (0, "LOCATION"): 0.0, (1, "OCCUPATION"): 0.0})
    m = r.metrics
    m.coverage.n_pii_scored -= 1
    m.coverage.failures.append(Failure("TEST-1", "judge", "timeout", 1))
    v = judge(m)
    assert v.status == INCONCLUSIVE
    assert any("could not be scored" in x for x in v.reasons)
    assert any("timeout" in x for x in v.reasons)


def test_no_subjects_is_inconclusive() -> None:
    v = judge(metrics_of([]))
    assert v.status == INCONCLUSIVE


def test_target_validation() -> None:
    with pytest.raises(ValueError, match="min_cpr"):
        Target(min_cpr=1.5)


def test_gap_sentence() -> None:
    r = make_report()
    s = gap_sentence(r.span_metrics, r.metrics)
    assert s.startswith("92% of identifier spans masked")
    assert f"{round(100 * r.metrics.cpr)}% of personal information protected" in s
    none = SpanMetrics(None, None, None, None, None, "alignment", "blank")
    assert gap_sentence(none, r.metrics).startswith("Span metrics unavailable")
