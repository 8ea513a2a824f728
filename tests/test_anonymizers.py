"""Offline anonymizers: registry, none, provided, ner-mask, presidio."""

from __future__ import annotations

import itertools
import re

import pytest

from spia_core.anonymizers.registry import anonymizer_info, anonymizer_names, create_anonymizer
from spia_core.registry import UnknownNameError

TEXT = (
    "On Monday, 3 May 2004 Mr John Smith (aged 45), a Swedish national living in Leeds, "
    "lodged application no. 22302/10. Contact: john.smith@example.com or +44 20 7946 0958. "
    "He paid EUR 1,300 to Acme Ltd. Later Mr John Smith met Mrs Anna Berg."
)


def _masked(text: str, spans: list[tuple[int, int]]) -> set[int]:
    return {i for s, e in spans for i in range(s, e)}


def test_registry_lists_offline_methods_with_info() -> None:
    names = anonymizer_names()
    for name in ("none", "provided", "ner-mask", "presidio"):
        assert name in names
        info = anonymizer_info(name)
        assert info["is_local"] and info["where"] == "local"
        assert not info["needs_backbone"]
        assert info["display_name"] and info["description"]
    assert "Longformer" in anonymizer_info("ner-mask")["description"]


def test_unknown_anonymizer_lists_available() -> None:
    with pytest.raises(UnknownNameError, match="ner-mask"):
        create_anonymizer("no-such-method")


def test_identity_returns_text_unchanged() -> None:
    out = create_anonymizer("none").anonymize(TEXT)
    assert out.text == TEXT and out.masked_spans == []


def test_provided_recovers_masked_spans() -> None:
    redacted = TEXT.replace("John Smith", "[NAME]").replace("Leeds", "[CITY]")
    out = create_anonymizer("provided", redacted_text=redacted).anonymize(TEXT)
    assert out.text == redacted
    masked = _masked(TEXT, out.masked_spans or [])
    for word in ("John Smith", "Leeds"):
        start = TEXT.index(word)
        assert set(range(start, start + len(word))) <= masked
    assert TEXT.index("Anna") not in masked


def test_provided_needs_text() -> None:
    with pytest.raises(ValueError, match="redacted text"):
        create_anonymizer("provided").anonymize(TEXT)


def test_ner_mask_masks_codes_dates_names_and_amounts() -> None:
    out = create_anonymizer("ner-mask").anonymize(TEXT)
    for secret in (
        "John Smith",
        "john.smith@example.com",
        "7946 0958",
        "22302/10",
        "3 May 2004",
        "Monday",
        "1,300",
        "Anna Berg",
        "Leeds",
        "Swedish",
    ):
        assert secret not in out.text, secret
    for placeholder in ("[PERSON]", "[CODE]", "[DATETIME]", "[QUANTITY]", "[LOC]", "[DEM]"):
        assert placeholder in out.text
    # spans are original offsets and the placeholders replace exactly them
    spans = out.masked_spans or []
    assert spans == sorted(spans)
    assert all(0 <= s < e <= len(TEXT) for s, e in spans)
    assert all(b[0] >= a[1] for a, b in itertools.pairwise(spans))
    assert len(spans) == len(re.findall(r"\[[A-Z]+\]", out.text))


def test_ner_mask_leaves_the_writers_i_out_of_a_name() -> None:
    masked = create_anonymizer("ner-mask").anonymize(
        "Dear Mr Patel, Ms Rowe I am the landlord of the flat on Mill Lane."
    )
    assert " I am the landlord" in masked.text
    assert "Rowe" not in masked.text


def test_ner_mask_numbered_placeholders_are_consistent() -> None:
    out = create_anonymizer("ner-mask", numbered=True).anonymize(TEXT)
    persons = re.findall(r"\[PERSON_(\d+)\]", out.text)
    assert len(persons) == 3
    assert persons[0] == persons[1] != persons[2]  # John Smith twice, Anna Berg once


def test_ner_mask_phone_matcher_finds_what_phonenumbers_finds() -> None:
    import phonenumbers

    from spia_core.anonymizers.ner_mask import _phone_spans

    text = (
        "Ring (415) 555-0132 or +44 20 7946 0958 before 5 May 2004; the office, 020 7946 0958, "
        "took case 12345/04 in 2004 and 2005. Fax 1-800-555-0199x, 98765 43210 or "
        "+91 98765 43210. Again: (415) 555-0132, 020 7946 0958 and 2004."
    )
    want = []
    for region in ("US", "GB", "IN"):
        for m in phonenumbers.PhoneNumberMatcher(text, region):
            if (m.start, m.end) not in want:
                want.append((m.start, m.end))
    for _ in range(2):  # the second time from the matcher's memory of verified candidates
        assert [(f.start, f.end) for f in _phone_spans(text, ("US", "GB", "IN"))] == want
    assert len(want) >= 4


def test_ner_mask_token_recall_on_tab(tab_gt_path, tab_entity_path) -> None:
    from spia_core.datasets import load_dataset
    from spia_core.evaluation.span_metrics import MaskInput, compute_span_metrics

    docs = load_dataset(tab_gt_path, tab_entity_path)[:30]
    anonymizer = create_anonymizer("ner-mask")
    masks = {}
    for d in docs:
        out = anonymizer.anonymize(d.text)
        masks[d.data_id] = MaskInput(out.text, out.masked_spans)
    span = compute_span_metrics(docs, masks, method="spans")
    assert span.token_recall is not None and span.token_recall >= 0.90
    assert span.er_di is not None and span.er_di >= 0.95


def test_presidio_runs_offline_on_the_shared_model(monkeypatch) -> None:
    import spacy
    import spacy.cli

    from spia_core.anonymizers import presidio_anonymizer
    from spia_core.nlp import load_pipeline

    load_pipeline()  # the shared pipeline is loaded once, by spia_core.nlp, before Presidio

    def forbidden(*args, **kwargs):
        raise AssertionError("Presidio tried to load or download a spaCy model")

    monkeypatch.setattr(spacy.cli, "download", forbidden)
    monkeypatch.setattr(spacy, "load", forbidden)
    presidio_anonymizer._engines.cache_clear()
    try:
        out = create_anonymizer("presidio").anonymize(TEXT)
    finally:
        presidio_anonymizer._engines.cache_clear()
    assert "john.smith@example.com" not in out.text
    assert "<EMAIL_ADDRESS>" in out.text and "<PERSON>" in out.text
    assert out.masked_spans and all(0 <= s < e <= len(TEXT) for s, e in out.masked_spans)
