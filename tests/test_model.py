"""The data model round-trips through to_dict/from_dict."""

from spia_core.model import (
    PII,
    Evidence,
    GroupMetric,
    Metrics,
    Override,
    PIIScore,
    Subject,
    from_dict,
    to_dict,
)


def test_subject_round_trip() -> None:
    s = Subject(1, "Mr X", [PII("NAME", "John Smith", 5, 1, [Evidence(3, 13, "John Smith")])])
    assert from_dict(Subject, to_dict(s)) == s
    assert s.name == "John Smith"


def test_score_override_wins() -> None:
    sc = PIIScore(0, "AGE", "30", 5, 1, 0, "40", 3, 0.0, "age-tolerance")
    assert sc.effective_score == 0.0
    sc.override = Override(1.0, "judged equivalent")
    assert sc.effective_score == 1.0
    assert from_dict(PIIScore, to_dict(sc)) == sc


def test_metrics_round_trip_and_group_protection() -> None:
    m = Metrics(0.5, 0.4, None, 2, 4, 2.0, per_tag={"AGE": GroupMetric(2, 0.5)})
    assert from_dict(Metrics, to_dict(m)) == m
    assert m.per_tag["AGE"].protection == 0.75
    assert GroupMetric(0, 0.0).protection is None
