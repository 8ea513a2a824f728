"""Subject precision/recall on the written-for-purpose set (issue 14, item 3)."""

from __future__ import annotations

from spia_core.evaluation.subject_quality import (
    TARGETS,
    load_written,
    score_document,
    subject_view,
)
from spia_core.model import PII, Subject


def _subj(description: str, name: str = "") -> Subject:
    return Subject(id=0, description=description, piis=[PII(tag="NAME", keyword=name)])


DOC = {
    "id": "t",
    "split": "dev",
    "subjects": [
        {"who": "the nurse", "cues": ["nurse", "Ada Mole"], "required": True},
        {"who": "her kids", "cues": ["child"], "required": False, "count": 2},
    ],
    "not_subjects": ["Mole Street"],
}


def test_written_set_is_large_and_has_a_heldout_part() -> None:
    docs = load_written()
    assert len(docs) >= 40
    assert sum(d["split"] == "heldout" for d in docs) >= 10
    assert {d["lang"] for d in docs} >= {"en", "de"}
    for d in docs:
        assert d["text"].strip() and d["subjects"] is not None
        for e in d["subjects"]:
            assert e["cues"] and isinstance(e["required"], bool)


def test_scoring_counts_splits_places_and_optional_people() -> None:
    preds = [
        _subj("Ada Mole - nurse", "Ada Mole"),
        _subj("The nurse - works nights"),  # a split of the same person: false positive
        _subj("Mole Street - lives in X", "Mole Street"),  # a street: false positive
        _subj("Child 1 of the author"),
        _subj("Child 2 of the author"),  # a counted group: both optional, neither way
    ]
    s = score_document(DOC, preds)
    assert (s.tp, s.fp, s.fn, s.optional_found) == (1, 2, 0, 2)
    assert s.not_person == ["Mole Street - lives in X | Mole Street"] or s.not_person == [
        "Mole Street | Mole Street"
    ]


def test_missing_required_person_is_a_miss() -> None:
    s = score_document(DOC, [_subj("Child 1 of the author")])
    assert (s.tp, s.fp, s.fn) == (0, 0, 1) and s.missed == ["the nurse"]


def test_view_reads_label_name_and_mention_context() -> None:
    d = "[REDACTED] - individual mentioned in “joined the team as a clerk”"
    assert subject_view(_subj(d)) == "[REDACTED] | joined the team as a clerk"
    assert TARGETS == {"precision": 0.90, "recall": 0.85}
