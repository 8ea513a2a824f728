"""audit(): end to end on a dataset document and on raw text, failures, progress, cancel."""

from __future__ import annotations

import json
import threading

import pytest

from spia_core.adversary.base import InferenceResult
from spia_core.data.published import closest_published, published_results
from spia_core.datasets import load_bundled
from spia_core.model import AuditReport
from spia_core.pipeline import (
    STAGES,
    AuditCancelled,
    AuditConfig,
    audit,
    build_components,
    report_from_dict,
    report_to_dict,
)
from spia_core.textio import MAX_CHARS, InputError, decode_text


@pytest.fixture(scope="module")
def tab_doc():
    docs = load_bundled("TAB-144")
    return min(docs[:20], key=lambda d: len(d.text))


@pytest.fixture(scope="module")
def masked_report(tab_doc) -> AuditReport:
    return audit(tab_doc, AuditConfig(anonymizer="ner-mask"))


class Boom:
    name = "boom"

    def anonymize(self, text):
        raise RuntimeError("anonymizer exploded")

    def infer(self, text):
        raise RuntimeError("adversary exploded")


def test_audit_dataset_document(masked_report: AuditReport, tab_doc) -> None:
    r = masked_report
    assert r.gt_source == "dataset" and r.gt_subjects == tab_doc.subjects
    assert r.anonymized_text != r.original_text and "[PERSON]" in r.anonymized_text
    assert r.failures == [] or all(f.stage == "utility" for f in r.failures)
    assert r.metrics.cpr is not None and 0.0 <= r.metrics.cpr <= 1.0
    assert r.metrics.coverage.n_docs_scored == 1
    assert sum(s.is_target for s in r.subject_results) == 1
    assert r.span_metrics is not None and r.span_metrics.gt_source == "dataset"
    assert r.span_metrics.token_recall is not None
    assert set(r.timings) >= {"anonymize", "infer", "match", "score", "span_metrics"}
    assert r.adversary_is_local
    # local adversary: lower-bound warning with the paper's TAB Longformer figure
    assert any("lower bound" in w and "0.330" in w for w in r.warnings)


def test_report_json_round_trip(masked_report: AuditReport) -> None:
    data = json.loads(json.dumps(report_to_dict(masked_report)))
    assert report_from_dict(data) == masked_report


def test_audit_raw_text_uses_automatic_ground_truth() -> None:
    text = (
        "Maria Keller, a 34-year-old nurse from Zurich, wrote to her brother Tom Keller. "
        "Maria is married and works at the University Hospital."
    )
    r = audit(text, AuditConfig(anonymizer="ner-mask"))
    assert r.gt_source == "automatic"
    assert r.gt_subjects, "the local adversary finds Maria Keller"
    assert r.span_metrics is not None and r.span_metrics.gt_source == "automatic"
    assert r.data_id.startswith("doc-")
    assert any("gt_source=automatic" in w for w in r.warnings)


def test_document_without_person_is_a_valid_empty_report() -> None:
    r = audit("The weather was mild and the river rose slowly.", AuditConfig(anonymizer="none"))
    assert r.gt_subjects == [] and r.subject_results == []
    assert r.metrics.n_subjects == 0
    assert not [f for f in r.failures if f.stage != "utility"]


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "empty"), ("   \n\t ", "whitespace"), ("x" * (MAX_CHARS + 1), "limit")],
)
def test_bad_input_is_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        audit(text, AuditConfig())


def test_non_utf8_bytes_are_refused_clearly() -> None:
    with pytest.raises(InputError, match="UTF-8"):
        decode_text(b"caf\xe9 \x81\x8d", "notes.txt")  # neither UTF-8 nor Windows-1252


def test_provided_redaction_is_audited() -> None:
    original = "Mr Peter Novak, born 12 March 1961, lives in Brno and works as a teacher."
    redacted = "Mr [X], born [DATE], lives in [CITY] and works as a teacher."
    r = audit(original, AuditConfig(anonymizer="provided", provided_text=redacted))
    assert r.anonymized_text == redacted
    assert r.masked_spans and original.index("Peter") in {
        i for s, e in r.masked_spans for i in range(s, e)
    }
    assert "provided_text" not in r.config


def test_provided_redaction_must_not_be_empty() -> None:
    with pytest.raises(InputError, match="redacted text"):
        audit("Mr Peter Novak lives in Brno.", AuditConfig(anonymizer="provided", provided_text=""))


def test_anonymizer_failure_is_recorded_not_protected(tab_doc) -> None:
    config = AuditConfig(anonymizer="none")
    parts = build_components(config)
    parts.anonymizer = Boom()
    r = audit(tab_doc, config, components=parts)
    assert [f.stage for f in r.failures if f.stage != "utility"] == ["anonymize"]
    assert "anonymizer exploded" in r.failures[0].reason
    assert r.metrics.cpr is None and r.metrics.coverage.n_docs_scored == 0


def test_adversary_failure_is_recorded(tab_doc) -> None:
    config = AuditConfig(anonymizer="none")
    parts = build_components(config)
    parts.adversary = Boom()
    r = audit(tab_doc, config, components=parts)
    assert "infer" in [f.stage for f in r.failures]
    assert r.metrics.cpr is None and r.subject_results == []


def test_partial_inference_failures_are_reported(tab_doc) -> None:
    class Partial:
        name = "partial"
        is_local = False

        def infer(self, text):
            result = InferenceResult([], "partial")
            result.fail("adversary.code", "timeout")
            return result

    config = AuditConfig(anonymizer="none")
    parts = build_components(config)
    parts.adversary = Partial()
    r = audit(tab_doc, config, components=parts)
    assert any("partial inference failure" in f.reason for f in r.failures)
    kinds = {(n.kind, n.stage, n.severity) for n in r.notices}
    assert ("partial_failure", "infer", "error") in kinds
    assert ("inference_incomplete", "infer", "error") in kinds
    assert not r.adversary_is_local
    assert not any("lower bound" in w for w in r.warnings)


def test_progress_and_cancel(tab_doc) -> None:
    seen: list[tuple[str, float]] = []
    audit(tab_doc, AuditConfig(anonymizer="none"), on_stage=lambda s, f: seen.append((s, f)))
    assert [s for s, _ in seen] == [*STAGES, "done"]
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0

    cancel = threading.Event()

    def stop_after_anonymize(stage: str, _fraction: float) -> None:
        if stage == "anonymize":
            cancel.set()

    with pytest.raises(AuditCancelled, match="ground_truth"):
        audit(tab_doc, AuditConfig(), on_stage=stop_after_anonymize, cancel=cancel)


def test_config_round_trip_strips_secrets() -> None:
    config = AuditConfig(
        anonymizer="ner-mask",
        anonymizer_options={"numbered": True, "api_key": "sk-SECRET"},
        adversary_options={"access_token": "tok-SECRET", "max_tokens": 100},
    )
    data = config.to_dict()
    assert "sk-SECRET" not in json.dumps(data) and "tok-SECRET" not in json.dumps(data)
    assert data["adversary_options"] == {"max_tokens": 100}
    assert AuditConfig.from_dict(data).anonymizer_options == {"numbered": True}
    with pytest.raises(ValueError, match="unknown audit configuration keys"):
        AuditConfig.from_dict({"anonymiser": "none"})


def test_published_results() -> None:
    rows = published_results()
    assert sum(r["table"] == "table4" for r in rows) == 38
    assert sum(r["table"] == "table9" for r in rows) == 22
    tab = closest_published("TAB-144", "ner-mask")
    assert tab["method"] == "Longformer" and tab["cpr"] == pytest.approx(0.330)
    assert closest_published("PANORAMA-151", "deid-gpt", "GPT-4.1")["cpr"] == pytest.approx(0.799)
    assert closest_published("TAB", "none") == {}
