"""Masked post headers and listings, and partner lists: what is not a name, sex, job or firm."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


def _author(adv: LocalAdversary, text: str) -> Subject:
    for s in adv.infer(text).subjects:
        if "author of the text" in s.description:
            return s
    raise AssertionError("no author subject")


def _values(s: Subject) -> dict[str, tuple[str, int]]:
    return {p.tag: (p.keyword, p.certainty) for p in s.piis if p.keyword}


@pytest.mark.parametrize(
    "text",
    [
        "Username: [ORG]: [DATETIME]\nHad lunch at a noodle bar with my [DEM]. Overall, 4 stars.",
        "[PERSON] Name: [ORG]\nContact: [CODE]\nItem: Oak bookshelf\nPrice: [QUANTITY]",
    ],
)
def test_masked_header_name_is_no_name(adv: LocalAdversary, text: str) -> None:
    author = _author(adv, text)
    assert author.description.startswith("The author - ")
    assert "NAME" not in _values(author)


def test_listing_item_description_names_the_item(adv: LocalAdversary) -> None:
    text = (
        "Seller Name: [ORG]\nLocation: [LOC]\nItem Description: Selling a small collection of "
        "woodworking chisels and planes that served me well. Pickup only."
    )
    assert "seller of small collection of woodworking chisels" in _author(adv, text).description


def test_audience_job_word_is_a_weak_hint(adv: LocalAdversary) -> None:
    text = (
        "Name: [ORG]\nItem: Circuit kits\nDescription: Kits I used for early designs at [ORG]. "
        "Perfect for students and hobbyists."
    )
    got = _values(_author(adv, text))
    # Who the item suits says nothing of the seller (the item itself may: occupation.activity).
    assert got.get("OCCUPATION", ("", 0))[0] not in {"Student", "Hobbyist"}
    assert "POSITION" not in got


def test_stated_job_keeps_its_certainty(adv: LocalAdversary) -> None:
    got = _values(_author(adv, "I am a nurse and I sell my old textbooks. Ideal for nurses."))
    assert got["OCCUPATION"] == ("Nurse", 4)


def test_code_holder_described_by_its_clause(adv: LocalAdversary) -> None:
    text = (
        "[PERSON] : Merging records failed. One record even showed an inconsistent passport "
        "number [CODE] for a [DEM]. Any idea?"
    )
    holder = next(s for s in adv.infer(text).subjects if "passport number" in s.description)
    assert "inconsistent passport number" in holder.description


def test_friends_listed_after_with_are_no_firm(adv: LocalAdversary) -> None:
    got = _values(_author(adv, "Dinner with Anna, Marco and Lisa tonight, my oldest friends!"))
    assert "AFFILIATION" not in got


def test_partners_firm_is_the_affiliation(adv: LocalAdversary) -> None:
    text = "I work with Pryce, Okonkwo and Lindahl as a sales assistant."
    assert _values(_author(adv, text))["AFFILIATION"][0] == "Pryce, Okonkwo and Lindahl"


@pytest.mark.parametrize(
    "text, label",
    [
        ("Ward round. [PATIENT] (aged 61) slept well and asked for her glasses.", "[PATIENT]"),
        ("[CLIENT_2] says the landlord kept his deposit after he moved out.", "[CLIENT_2]"),
        ("The statement of [WITNESS] was read aloud; she saw the van at dusk.", "[WITNESS]"),
    ],
)
def test_role_word_placeholder_is_a_person(adv: LocalAdversary, text: str, label: str) -> None:
    """Redaction tools often write a role in place of a name: that placeholder is a person."""
    subjects = adv.infer(text).subjects
    assert any(s.description.startswith(label) for s in subjects), [s.description for s in subjects]


def test_non_person_placeholder_is_not_a_person(adv: LocalAdversary) -> None:
    text = "The parcel left [LOC] on [DATE] and reached [ORG] two days later."
    assert adv.infer(text).subjects == []


@pytest.mark.parametrize(
    "text, name",
    [
        ("We drove to the coast with my wife Kavita and the dog.", "Kavita"),
        ("My colleague Aroha and I share a desk by the window.", "Aroha"),
        ("Proud of my nephew Tiago, who finished his first marathon.", "Tiago"),
    ],
)
def test_given_name_after_a_kin_word_is_a_name(adv: LocalAdversary, text: str, name: str) -> None:
    """A given name from any country's records names the relative or colleague before it."""
    names = {p.keyword for s in adv.infer(text).subjects for p in s.piis if p.tag == "NAME"}
    assert name in names


def test_place_after_a_kin_word_is_not_taken_for_a_given_name(adv: LocalAdversary) -> None:
    names = {
        p.keyword
        for s in adv.infer("Off to see my cousin Manila style: noodles and a long chat.").subjects
        for p in s.piis
        if p.tag == "NAME"
    }
    assert "Manila" not in names


@pytest.mark.parametrize(
    "text, name",
    [
        ("Review by Mirela K. - 3/5 stars\nThe room was clean but loud.", "Mirela"),
        ("Comment from tall_oak77: my sister and I loved this recipe.", "Tall Oak"),
        ("Posted by Hendrik Vos: I sold my old van last week.", "Hendrik Vos"),
    ],
)
def test_by_line_header_names_the_author(adv: LocalAdversary, text: str, name: str) -> None:
    assert _values(_author(adv, text))["NAME"][0].startswith(name)


def test_by_line_with_a_description_is_no_name(adv: LocalAdversary) -> None:
    author = _author(adv, "Comment from the moderator: I will lock this thread tonight.")
    assert "NAME" not in _values(author)


def test_definite_role_is_not_the_relative_named_before(adv: LocalAdversary) -> None:
    text = "We spent a week there with my husband Dario. The receptionist, sadly, was rude to us."
    described = [s.description for s in adv.infer(text).subjects]
    husband = next(d for d in described if d.startswith("Dario"))
    assert "receptionist" not in husband.lower()


def test_her_son_is_not_the_son_of_a_first_person_writer(adv: LocalAdversary) -> None:
    text = "Laura and I swam at the pool again today. Her son swims faster than I ever did."
    described = [s.description for s in adv.infer(text).subjects]
    assert "Son of Laura" in described, described


def test_given_name_after_a_possessed_noun_is_a_person(adv: LocalAdversary) -> None:
    text = "Our driver Chidi waited two hours in the rain for us, bless him."
    names = {p.keyword for s in adv.infer(text).subjects for p in s.piis if p.tag == "NAME"}
    assert "Chidi" in names


def test_name_after_a_possessed_thing_is_no_person(adv: LocalAdversary) -> None:
    subjects = adv.infer("Our team Rovers lost again on Saturday, sigh.").subjects
    assert [s.description.split(" - ")[0] for s in subjects] == ["The author"]  # 'our': a writer


def test_addressed_name_is_a_person(adv: LocalAdversary) -> None:
    text = "Adaeze, you taught me to swim when I was six and I never said thanks."
    names = {p.keyword for s in adv.infer(text).subjects for p in s.piis if p.tag == "NAME"}
    assert "Adaeze" in names


def test_praised_relative_is_the_writers(adv: LocalAdversary) -> None:
    described = [s.description for s in adv.infer("Cheers to the best grandma ever!").subjects]
    assert "Grandmother of the author" in described, described
