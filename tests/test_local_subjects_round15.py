"""Subject finding, round 15 (session 4): counted children ('our twins', 'our kids (9 and 6)'), a
partner named by @handle, a classmate 'partner', organisations named like people, and a
letter's 'your' relatives. Every text is invented for this test."""

from __future__ import annotations

import pytest
from _local_helpers import labels as _labels

from spia_core.adversary.local import LocalAdversary


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("Our twins turn five on Sunday!", ["Twin 1", "Twin 2"]),
        ("Our kids (9 and 6) loved the aquarium.", ["Child 1", "Child 2"]),
    ],
)
def test_counted_children_of_the_writer(adversary: LocalAdversary, text: str, labels) -> None:
    found = _labels(adversary, text)
    for label in labels:
        assert f"{label} of the author" in found, found


@pytest.mark.parametrize(
    "text",
    [
        "Three girls from the choir sang at the fair.",
        "Drinks with my girls tonight, finally!",
        "The midwife delivered twins at dawn.",
    ],
)
def test_uncounted_or_unowned_boys_and_girls_are_no_children(
    adversary: LocalAdversary, text: str
) -> None:
    found = _labels(adversary, text)
    assert not any(x.startswith(("Daughter", "Son", "Twin")) for x in found), found


def test_a_twin_brother_is_one_brother(adversary: LocalAdversary) -> None:
    found = _labels(adversary, "My twin brother Ravi flies in tomorrow.")
    assert not any("brother 2" in x.lower() for x in found), found


def test_life_with_a_handle_is_the_spouse(adversary: LocalAdversary) -> None:
    text = "@milo_b : Married life with @ines is going great!"
    described = [s.description for s in adversary.infer(text).subjects]
    assert any(d.startswith("Ines - spouse of the author") for d in described), described
    assert not any(d.startswith("Spouse of the author") for d in described), described


def test_a_partner_one_works_with_is_no_romantic_partner(adversary: LocalAdversary) -> None:
    text = "Dear Mrs Oyelaran,\n\nIn science Tomi works well with his partner, Kofi, and reads."
    described = [s.description for s in adversary.infer(text).subjects]
    assert not any("partner of" in d for d in described), described


def test_an_organisation_named_like_a_person_is_no_person(adversary: LocalAdversary) -> None:
    text = "Mr Dube was a caseworker for Justice Alliance, Accra, until 2019."
    assert not any(x.startswith("Justice") for x in _labels(adversary, text))


def test_your_relative_in_a_letter_is_the_addressees(adversary: LocalAdversary) -> None:
    text = (
        "Dear Lucia,\n\nI was glad to hear your father, who is 91, is home again. "
        "Please thank your son Pietro for the photos.\n\nWarm regards,\nHelen"
    )
    described = [s.description for s in adversary.infer(text).subjects]
    assert any(d.startswith("Father of Lucia") for d in described), described
    assert any(d.startswith("Pietro - son of Lucia") for d in described), described
    unnamed = (
        "Dear Sir or Madam,\n\nI hope your mother is well again.\n\nYours faithfully,\nJo Bell"
    )
    assert "Mother of the addressee" in _labels(adversary, unnamed)
