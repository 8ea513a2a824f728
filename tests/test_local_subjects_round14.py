"""Subject finding, round 14 (session 3): people named once with names from any country, people
listed with the writer, the writer's unnamed contacts, possessive pronouns that point to a
relative, and notes whose writer never says "I". Every text is invented for this test."""

from __future__ import annotations

import pytest
from _local_helpers import labels as _labels

from spia_core.adversary.local import LocalAdversary


def _names(adversary: LocalAdversary, text: str) -> set[str]:
    subjects = adversary.infer(text).subjects
    return {p.keyword for s in subjects for p in s.piis if p.tag == "NAME" and p.keyword}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Shoutout to Oluwaseun for fixing my laptop yesterday, what a star.", "Oluwaseun"),
        ("Emre and his wife Zeynep run the bakery on our street.", "Emre"),
        ("My wife Ngozi is a pharmacist. Our son Emeka just started school.", "Ngozi"),
        ("Priya and I finally finished the kitchen after six months.", "Priya"),
        ("Last summer Tom, Ana and I drove from Lyon to Porto.", "Ana"),
    ],
)
def test_people_named_once_are_subjects(adversary: LocalAdversary, text: str, name: str) -> None:
    assert name in _names(adversary, text)


def test_a_name_closing_a_post_stays_the_writers(adversary: LocalAdversary) -> None:
    text = "I have sent the translated forms and will start on the annex tomorrow.\n\nRabi"
    assert _labels(adversary, text) == ["The author"]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("So my manager told me that I am not getting the raise.", "My manager"),
        ("Today my coworker and I finally finished the audit.", "My coworker"),
    ],
)
def test_the_writers_unnamed_contact_is_a_subject(
    adversary: LocalAdversary, text: str, label: str
) -> None:
    assert label in _labels(adversary, text)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("My sister and her wife just adopted a puppy! I am so happy.", "Wife of the sister"),
        ("So proud of my daughter Mia, who passed her test. Her boyfriend Kai", "Kai"),
    ],
)
def test_her_can_point_to_a_relative(adversary: LocalAdversary, text: str, label: str) -> None:
    described = [s.description for s in adversary.infer(text + ".").subjects]
    assert any(d.startswith(label) for d in described), described
    assert not any("another subject" in d for d in described), described


def test_a_relative_named_twice_is_one_relative(adversary: LocalAdversary) -> None:
    text = (
        "I am writing about number 9, where Mr Hale lives with his adult son. "
        "His son also parks a van across our drive."
    )
    assert not any("son of the son" in d.lower() for d in _labels(adversary, text))


def test_their_after_a_couple_is_the_named_partner(adversary: LocalAdversary) -> None:
    text = "Present: Ann Moss (HR). Tom Reed said his wife works days and their two children"
    labels = _labels(adversary, text + " are at school.")
    assert "Child 1 of Tom Reed" in labels, labels


@pytest.mark.parametrize(
    "text",
    [
        "Grievance meeting - 3 March\n\nPresent: Ann Moss (HR), Tom Reed (employee).\n\n"
        "Tom said the rota was changed twice. Ann will reply by Friday.",
        "Return-to-work note\n\nTom Reed returned on Monday after surgery at Hill Hospital. "
        "He has worked in our Derby warehouse since 2011.",
    ],
)
def test_notes_without_a_first_person_have_no_writer(adversary: LocalAdversary, text: str) -> None:
    assert "The author" not in _labels(adversary, text)


def test_a_relative_of_an_unnamed_subject_names_it(adversary: LocalAdversary) -> None:
    text = "Attendees: employee [REDACTED].\n\n[REDACTED] returned today. She is 40. Her husband"
    described = [s.description for s in adversary.infer(text + " drives her in.").subjects]
    # named by the slot's role ('employee [REDACTED]'), as a reader would: "the employee"
    assert any(d.startswith("Husband of the employee") for d in described), described
