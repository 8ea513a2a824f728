"""Letters, minutes, clinic notes and posts written for a trial run (invented texts): cities
named in several countries, bracketed offices in minutes, appositions that name someone else's
job or the same person, bare role nouns in notes, and what a stated sex or job rules out."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


@pytest.fixture(scope="module")
def adversary() -> LocalAdversary:
    return LocalAdversary()


def _value(s: Subject, tag: str) -> str:
    return next((p.keyword for p in s.piis if p.tag == tag and p.keyword), "")


def _described(subjects: list[Subject], start: str) -> Subject:
    return next(s for s in subjects if s.description.startswith(start))


def _named(adversary: LocalAdversary, text: str) -> list[str]:
    """The NAME value of every subject found in ``text``, in order ('' for the unnamed)."""
    return [_value(s, "NAME") for s in adversary.infer(text).subjects]


def test_a_city_named_in_two_countries_follows_the_other_places(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Ten years cleaning windows around Glasgow and today my last round. "
        "My son starts at Durham in October, so proud."
    )
    result = adversary.infer(text)
    assert result.trace["document_country"] == "United Kingdom"


def test_a_city_alone_keeps_its_largest_namesake(adversary: LocalAdversary) -> None:
    result = adversary.infer("We moved to Durham last spring and the kids love it.")
    assert result.trace["document_country"] == "United States"


def test_an_office_in_brackets_after_a_name_makes_a_person(adversary: LocalAdversary) -> None:
    text = (
        "Bowls club committee, 4 May\nPresent: Hattie Brook (chair), Olu Bankole (treasurer)\n"
        "1. Accounts were approved."
    )
    names = _named(adversary, text)
    assert "Hattie Brook" in names
    assert "Olu Bankole" in names


def test_a_job_in_apposition_to_someone_else_is_not_the_subjects(
    adversary: LocalAdversary,
) -> None:
    text = "My father fell in the garden and was helped up by a neighbour, a retired midwife."
    father = _described(adversary.infer(text).subjects, "Father of the author")
    assert "midwife" not in _value(father, "OCCUPATION").lower()


def test_a_named_previous_owner_is_one_person(adversary: LocalAdversary) -> None:
    text = "The shed was built by the previous owner, a Mr Quigley, who kept bees."
    subjects = [s for s in adversary.infer(text).subjects if "author" not in s.description]
    assert len(subjects) == 1
    assert _value(subjects[0], "NAME") == "Quigley"


def test_a_relative_with_a_job_title_before_the_name_is_one_person(
    adversary: LocalAdversary,
) -> None:
    text = (
        "[PERSON] teaches the cello. She lives in [LOCATION] with her husband, the sculptor "
        "[PERSON]."
    )
    subjects = adversary.infer(text).subjects
    husband = _described(subjects, "Husband of")
    assert _value(husband, "OCCUPATION") == "Sculptor"
    assert len(subjects) == 2


def test_a_bare_role_noun_opening_a_note_is_the_patient(adversary: LocalAdversary) -> None:
    text = (
        "Ward round 14/02. Pt is a 63 y/o male, retired joiner, lives with his wife. Plan: bloods."
    )
    patient = _described(adversary.infer(text).subjects, "Pt")
    assert _value(patient, "SEX") == "Male"
    assert _value(patient, "AGE") == "63"


def test_a_gendered_noun_said_of_a_person_gives_the_sex(adversary: LocalAdversary) -> None:
    tenant = _described(
        adversary.infer("The tenant is a cheerful woman who pays on time.").subjects, "Tenant"
    )
    assert _value(tenant, "SEX") == "Female"


def test_an_initial_and_a_surname_give_no_sex(adversary: LocalAdversary) -> None:
    text = "Referred by Dr K. Mensah after a fall at home."
    doctor = _described(adversary.infer(text).subjects, "Dr K. Mensah")
    assert _value(doctor, "NAME") == "K. Mensah" and _value(doctor, "SEX") == ""


def test_a_grown_child_with_a_job_gets_no_young_childs_age(adversary: LocalAdversary) -> None:
    text = "Our daughter Imke, a civil engineer with a rail firm, looked at the cracks for us."
    daughter = _described(adversary.infer(text).subjects, "Imke")
    assert _value(daughter, "OCCUPATION") == "Civil engineer"
    assert _value(daughter, "AGE") == ""


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("I grew up in Accra but moved to Glasgow for my nursing degree.", "Ghana"),
        ("Originally from Porto, I have taught maths in Leeds since 2012.", "Portugal"),
        ("My husband was born in Osaka and now runs a noodle bar in Vancouver.", "Japan"),
    ],
)
def test_where_a_person_grew_up_gives_the_nationality(
    adversary: LocalAdversary, text: str, country: str
) -> None:
    subjects = adversary.infer(text).subjects
    assert country in {_value(s, "NATIONALITY") for s in subjects}


def test_a_title_at_a_line_end_takes_the_name_on_the_next_line(
    adversary: LocalAdversary,
) -> None:
    text = "I had a letter from a Mr\nOkonjo at the housing office about the damp."
    names = _named(adversary, text)
    assert "Okonjo" in names
    assert "Mr" not in names


def test_a_demonym_before_the_job_in_a_bio_is_the_nationality(adversary: LocalAdversary) -> None:
    text = "Anna Jansen (born 1971) is a Belgian-born Dutch glass artist. She grew up in Ghent."
    artist = _described(adversary.infer(text).subjects, "Anna Jansen")
    assert _value(artist, "NATIONALITY") == "Netherlands"


def test_a_heading_in_capitals_is_no_writers_name(adversary: LocalAdversary) -> None:
    text = "LOST CAT: grey tabby, answers to Biscuit, last seen near the library on Friday."
    assert "LOST CAT" not in _named(adversary, text)


def test_a_masked_relative_before_our_children_is_the_other_parent(
    adversary: LocalAdversary,
) -> None:
    text = "Now settled in [LOC] with my [DEM] [PERSON] and our baby girl [PERSON]."
    kins = [s.description for s in adversary.infer(text).subjects]
    assert any(d.startswith("Spouse of the author") for d in kins)


def test_married_to_in_a_bio_with_no_writer_is_the_bios_subject(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Marta Lindqvist (born 1968) is a Swedish architect. She founded a studio in Malmo. "
        "Lindqvist is married to the composer Piet Aalders."
    )
    spouse = _described(adversary.infer(text).subjects, "Piet Aalders")
    assert "spouse of Marta Lindqvist" in spouse.description


def test_a_redacted_reference_keeps_its_subject_and_its_writer(
    adversary: LocalAdversary,
) -> None:
    text = (
        "To whom it may concern,\n\nI have known █████ for four years as his team leader at "
        "█████ Ltd, where he works as a warehouse operative. He is punctual and careful.\n\n"
        "███ █████\nOperations Manager"
    )
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 2
    worker = next(s for s in subjects if "author" not in s.description)
    assert _value(worker, "SEX") == "Male"
    assert "warehouse" in _value(worker, "OCCUPATION").lower()


def test_a_generic_handle_is_no_name(adversary: LocalAdversary) -> None:
    text = "@user4471: finally passed my driving test at the third attempt!"
    assert _named(adversary, text) == [""]


@pytest.mark.parametrize(
    "text",
    ["Our two boys are teenagers now and eat everything.", "My daughter is a teenager now."],
)
def test_a_teenage_child_is_thirteen_to_nineteen(adversary: LocalAdversary, text: str) -> None:
    kids = [s for s in adversary.infer(text).subjects if not s.description.startswith("The author")]
    assert kids and all(_value(s, "AGE") == "13-19" for s in kids)
