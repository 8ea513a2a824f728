"""A refusal or junk reply from an LLM anonymizer is never protection (issue 15, defect 1).

Unit checks of ``check_rewrite`` in several languages, then the pipeline and the CLI: a
DeID-GPT whose model refuses fails the document with a typed ``anonymizer_refused`` notice
instead of scoring CPR 1.0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from llm_test_server import Reply, ScriptedServer

from spia_core.anonymizers.adversarial import AdversarialAnonymizer
from spia_core.anonymizers.deid_gpt import DeIDGPTAnonymizer
from spia_core.anonymizers.validation import check_rewrite
from spia_core.cli import main
from spia_core.llm.fake import FakeLLM
from spia_core.model import PII, Document, NoticeKind, Severity, Subject
from spia_core.pipeline import AuditConfig, Components, audit, build_adversary, build_matcher

ORIGINAL = (
    "Last spring my sister Marguerite moved from Lyon to a small flat near the harbour in "
    "Brest, where she now teaches chemistry at the lycée and sails on weekends."
)
REWRITE = (
    "Last spring my [redacted] moved from [redacted] to a small flat near the harbour in "
    "[redacted], where she now teaches [redacted] at the [redacted] and sails on weekends."
)


@pytest.mark.parametrize(
    "reply",
    [
        "I'm sorry, but I can't help with that.",
        "I’m sorry — I cannot assist with anonymizing this text.",
        "As an AI language model, I must decline.",
        "Je suis désolé, je ne peux pas traiter ce document.",
        "Es tut mir leid, ich kann Ihnen dabei nicht helfen.",
        "Lo siento, no puedo ayudar con esa solicitud.",
        "Mi dispiace, non posso elaborare questo testo.",
        "Desculpe, não posso ajudar com isso.",
        "Het spijt me, ik kan u daar niet mee helpen.",
    ],
)
def test_refusals_in_several_languages_are_rejected(reply: str) -> None:
    notice = check_rewrite(ORIGINAL, reply, anonymizer="deid-gpt")
    assert notice is not None
    assert notice.kind == NoticeKind.ANONYMIZER_REFUSED and notice.severity == Severity.ERROR
    assert notice.stage == "anonymize" and notice.blocks_verdict
    assert notice.detail["check"] in ("refusal", "length_ratio")


@pytest.mark.parametrize(
    ("reply", "check"),
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("yes", "length_ratio"),
        ("[redacted]", "length_ratio"),
        (ORIGINAL * 6, "length_ratio"),
        (
            "Here is a summary of the main points of the passage about a relative relocating "
            "to another coastal town for work and leisure activities.",
            "overlap",
        ),
    ],
)
def test_empty_short_long_and_unrelated_outputs_are_rejected(reply: str, check: str) -> None:
    notice = check_rewrite(ORIGINAL, reply, anonymizer="dp-prompt")
    assert notice is not None and notice.detail["check"] == check


def test_real_rewrites_pass() -> None:
    assert check_rewrite(ORIGINAL, REWRITE, anonymizer="deid-gpt") is None
    paraphrase = (
        "Last spring a relative moved from a French city to a small flat near the harbour of "
        "a coastal town, where she now teaches a science at the school and sails on weekends."
    )
    assert check_rewrite(ORIGINAL, paraphrase, anonymizer="dp-prompt") is None
    # an apology that the input itself contains is part of the text, not a refusal
    apology = "I'm sorry I missed your call, Tomasz; I was at the clinic in Gdansk all day."
    kept = "I'm sorry I missed your call, [redacted]; I was at the [redacted] all day."
    assert check_rewrite(apology, kept, anonymizer="deid-gpt") is None


def _document() -> Document:
    subject = Subject(
        0,
        "the author's sister",
        [PII("NAME", "Marguerite", 5, 1), PII("LOCATION", "Brest, France", 4, 2)],
    )
    return Document("doc-refusal", ORIGINAL, subjects=[subject])


def test_pipeline_fails_a_refused_document_with_a_typed_notice() -> None:
    config = AuditConfig(anonymizer="deid-gpt", compute_span_metrics=False)
    components = Components(
        anonymizer=DeIDGPTAnonymizer(FakeLLM(["I'm sorry, but I can't help with that."])),
        adversary=build_adversary(config),
        matcher=build_matcher(config),
    )
    report = audit(_document(), config, components=components)
    assert report.metrics.coverage.n_docs_scored == 0
    assert report.metrics.cpr is None  # never 1.0
    errors = [n for n in report.notices if n.blocks_verdict]
    assert [n.kind for n in errors] == [NoticeKind.ANONYMIZER_REFUSED]
    assert errors[0].data_id == "doc-refusal"
    assert any(f.stage == "anonymize" and "anonymizer_refused" in f.reason for f in report.failures)
    assert report.anonymized_text.startswith("I'm sorry")  # shown, not scored


def test_adversarial_keeps_the_last_good_round_when_a_later_round_refuses() -> None:
    attributes = {"attributes": []}
    good = f"<anonymized>\n{REWRITE}\n</anonymized>"
    fake = FakeLLM([attributes, good, attributes, "I'm sorry, I can't help with that."])
    out = AdversarialAnonymizer(fake, rounds=3).anonymize(ORIGINAL)
    assert out.text == REWRITE
    assert out.trace["failures"][0]["check"] == "refusal"
    assert check_rewrite(ORIGINAL, out.text, anonymizer="adversarial") is None


def test_cli_counts_refused_documents_as_failed(
    local_catalog: Any, tmp_path: Path, capsys: Any
) -> None:
    """Before the fix: 5 of 5 documents ok, CPR 1.000, exit 0."""
    local_catalog("refuser")
    with ScriptedServer() as server:
        server.responder = lambda body: Reply(content="I'm sorry, but I can't help with that.")
        code = main(
            [
                "evaluate", "--dataset", "PANORAMA-151", "--limit", "5",
                "--anonymizer", "deid-gpt", "--backbone", "refuser",
                "--base-url", server.base_url, "--out", str(tmp_path / "out"),
                "--data-dir", str(tmp_path / "store"), "--quiet", "--workers", "1",
            ]
        )  # fmt: skip
    out = capsys.readouterr().out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert code == 1
    assert summary["n_failed"] == 5 and summary["n_anonymizer_refused"] == 5
    assert summary["cpr"] is None
    assert "5 document(s) failed because the anonymizer refused" in out
    rows = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert all(r["status"] == "failed" and "anonymizer_refused" in r["error"] for r in rows)
