"""Subject passes of the local adversary: only people become subjects (invented sentences)."""

from __future__ import annotations

import pytest
from _local_helpers import labels as _labels

from spia_core.adversary.local.subjects import PASSES
from spia_core.adversary.local.subjects.masked import slot
from spia_core.adversary.local.subjects.people import looks_english
from spia_core.evaluation.subject_quality import TARGETS, local_subjects, subject_quality


def test_passes_are_named_and_unique() -> None:
    ids = [p.id for p in PASSES]
    assert len(ids) == len(set(ids)) and all(i.startswith("subject.") for i in ids)
    assert ids[0] == "subject.not_a_person"


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("The parcel was left at 9 Corbin Street before noon. Nobody was home.", "Corbin"),
        ("We walked to the top of Lydia Hill and back before lunch.", "Lydia"),
        ("Ivo Marsh said the crew parked outside Halbrook Logistics on Friday.", "Halbrook"),
        ("The lease on Amelia Hall was signed by the trustees last week.", "Amelia"),
        ("Our cousin drove up from Carlisle and stayed the night.", "Carlisle"),
        ("I finally bought the Fenton Maddox speaker and it sounds great.", "Fenton"),
    ],
)
def test_places_firms_and_products_are_no_subjects(adv, text, place) -> None:
    labels = _labels(adv, text)
    assert not any(place in label for label in labels), labels


def test_header_keys_are_no_subjects(adv) -> None:
    text = "Attendees: Rosa Kemp, Idris Vale\nStatus: open\nRosa Kemp will send the figures."
    labels = _labels(adv, text)
    assert not any(k in " ".join(labels) for k in ("Attendees", "Status")), labels
    assert any("Rosa Kemp" in label for label in labels)


def test_a_name_never_spans_a_line_break(adv) -> None:
    text = "Please call me about the order.\n\nKind regards,\nTessa Morrow\nAccounts Director"
    labels = _labels(adv, text)
    assert "Tessa Morrow" in labels, labels
    assert not any("Director" in label for label in labels)


@pytest.mark.parametrize(
    ("text", "marker", "expected"),
    [
        ("Dear [REDACTED],\nThank you for your letter.", "[REDACTED]", "addressee"),
        ("My wife XXX works nights.", "XXX", "named"),
        ("[REDACTED] joined the team in 2015 as a clerk.", "[REDACTED]", "person"),
        ("The witness was born on [REDACTED] in Leeds.", "[REDACTED]", "value"),
        ("Address: *** Quarry Road", "***", "value"),
        ("NHS number: ***", "***", "value"),
        ("Yours sincerely,\n█████", "█████", "author"),
        ("Patient: [REDACTED]\nSeen today.", "[REDACTED]", "person"),
    ],
)
def test_generic_placeholders_are_read_by_slot(text, marker, expected) -> None:
    start = text.index(marker)
    assert slot(text, start, start + len(marker)) == expected


def test_one_masked_employee_is_one_subject(adv) -> None:
    text = (
        "Reference for [REDACTED]\n\n[REDACTED] was employed by us from 2016 to 2023 as a "
        "stock controller, born on [REDACTED]. She was reliable. The employee left on good "
        "terms and we would hire her again."
    )
    subjects = [s for s in adv.infer(text).subjects if not s.description.startswith("The author")]
    assert len(subjects) == 1, [s.description for s in subjects]  # and the writer ('us', 'we')


def test_a_role_noun_and_pronouns_are_one_person(adv) -> None:
    text = (
        "The patient is a 52-year-old man with a cough. He works as a roofer. "
        "The patient was given antibiotics and will return next week."
    )
    labels = _labels(adv, text)
    assert labels == ["Patient"], labels


def test_office_holders_of_minutes_and_notes_are_subjects(adv) -> None:
    """Everyday office roles name one person each (invented minutes and notes); a piece of
    furniture is no person."""
    minutes = (
        "Minutes of the allotment society, 3 May. The treasurer reported a small surplus; "
        "the secretary will circulate the accounts. Our new intern starts on Monday."
    )
    descriptions = " ".join(s.description for s in adv.infer(minutes).subjects).lower()
    for role in ("treasurer", "secretary", "intern"):
        assert role in descriptions, descriptions
    assert len(adv.infer("I sat on the chair by the window and read.").subjects) <= 1


def test_a_possessed_relative_of_a_role_is_a_subject(adv) -> None:
    text = "The claimant was dismissed in May. The claimant's brother gave evidence for him."
    labels = [label.lower() for label in _labels(adv, text)]
    assert "claimant" in labels and any("brother" in label for label in labels), labels


@pytest.mark.parametrize(
    "text",
    [
        "Mein Name ist Anton Keller und ich wohne seit vielen Jahren mit meiner Frau in Bremen.",
        "Je m'appelle Lucie Moreau et je travaille depuis dix ans dans une boulangerie à Nantes.",
    ],
)
def test_non_english_text_yields_no_fake_subjects(adv, text) -> None:
    assert not looks_english(text)
    labels = _labels(adv, text)
    assert all(label.split()[0] in {"Anton", "Lucie"} for label in labels), labels


def test_english_with_placeholders_is_english() -> None:
    assert looks_english("[PERSON] : Some years were hard, [DEM], a new job. Onward!")


def test_written_set_meets_the_issue_targets() -> None:
    """Issue 14: subject precision >= 0.90 and recall >= 0.85 offline on the written set."""
    rep = subject_quality(local_subjects)
    assert rep["all"]["precision"] >= TARGETS["precision"], rep["all"]
    assert rep["all"]["recall"] >= TARGETS["recall"], rep["all"]


def test_a_title_under_the_writers_name_in_a_signature_is_the_writers(adv) -> None:
    text = (
        "From: Ingrid Salo <i.salo@lakeside-vets.example>\nTo: bookings@harbourhotel.example\n\n"
        "Could you hold two rooms for our team on the 12th? Please call me to confirm.\n\n"
        "Kind regards,\nIngrid\n\nIngrid Salo\nFinance Director\nLakeside Vets\n"
    )
    assert len(adv.infer(text).subjects) == 1
