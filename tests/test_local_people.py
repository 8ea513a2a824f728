"""Jobs, employers and ages of the writer and of the other people of a text (issue 16, session
13): letters whose greeting names the addressee, employers named by 'been at', 'her team at',
'X's HR', 'since joining the X's office', a shop's possessive name; school years and grades; an
age after 'still ... at'; a relative's job kept from the pronoun of the person before. Every
sentence is invented for these tests."""

from __future__ import annotations

import pytest
from _local_helpers import value as _value

from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


def _subject(adversary: LocalAdversary, text: str, start: str) -> Subject:
    return next(s for s in adversary.infer(text).subjects if s.description.startswith(start))


def _writer(adversary: LocalAdversary, text: str) -> Subject:
    return next(s for s in adversary.infer(text).subjects if "author of the text" in s.description)


def test_a_greeted_addressee_owns_only_the_greeting(adversary: LocalAdversary) -> None:
    text = (
        "Dear Mr Lindqvist,\n\nAfter twelve years as a plumber I have taken a post at Tolland "
        "Water and will leave the co-op in May.\n\nBest wishes,\nArun Mehta"
    )
    writer = _writer(adversary, text)
    assert _value(writer, "OCCUPATION") == "Plumber"
    assert _value(writer, "AFFILIATION") == "Tolland Water"
    assert _value(_subject(adversary, text, "Mr Lindqvist"), "OCCUPATION") == ""
    text = "Hey Priti,\n\nGuess who is a 52-year-old student again!\n\nLove, Moira"
    assert _value(_writer(adversary, text), "AGE") == "52"
    assert _value(_subject(adversary, text, "Priti"), "AGE") == ""


def test_someone_else_has_been_at_an_employer(adversary: LocalAdversary) -> None:
    text = "My friend Lotte Brandsma has been at the Kingfisher Inn for nine years."
    lotte = _subject(adversary, text, "Lotte Brandsma")
    assert _value(lotte, "AFFILIATION") == "Kingfisher Inn"
    assert _value(_writer(adversary, text), "AFFILIATION") == ""


def test_a_pronoun_subject_in_a_later_clause_joins_the_employer(adversary: LocalAdversary) -> None:
    text = (
        "My husband, born in 1971, farmed goats for twenty years before he joined the grounds "
        "team at Ashby Park Hospital, and he loves it."
    )
    assert _value(_writer(adversary, text), "AFFILIATION") == ""
    husband = _subject(adversary, text, "Husband")
    assert _value(husband, "AFFILIATION") == "Ashby Park Hospital"


def test_her_or_his_team_at_an_employer(adversary: LocalAdversary) -> None:
    text = "My aunt is retiring soon; she says her team at Corran Insurance will throw a party."
    assert _value(_subject(adversary, text, "Aunt"), "AFFILIATION") == "Corran Insurance"


def test_the_firms_hr_department_names_the_employer(adversary: LocalAdversary) -> None:
    text = "Vexley Systems' HR department keeps losing my sick notes. Is this normal?"
    result = adversary.infer(text)
    assert len(result.subjects) == 1  # "Vexley Systems' HR" is no person
    assert _value(result.subjects[0], "AFFILIATION") == "Vexley Systems"


def test_a_shops_possessive_name_and_an_office_of_a_named_body(adversary: LocalAdversary) -> None:
    text = "Big news: I'm starting at Whitcombe's in Exeter on Monday, on the deli counter."
    assert _value(_writer(adversary, text), "AFFILIATION") == "Whitcombe's"
    text = "It's been four years since I joined the Halden Trust's fundraising team and I love it."
    assert _value(_writer(adversary, text), "AFFILIATION") == "Halden Trust"
    text = "Ten years since joining the Halden Trust's fundraising team, I still love it."
    assert _value(_writer(adversary, text), "OCCUPATION") != "Since joiner"  # no 'joining' trade


def test_training_as_a_job_and_a_relatives_age_after_his(adversary: LocalAdversary) -> None:
    text = (
        "I am writing about my tenant, Mr Ivo Brandt, who has found a job at the Kelso depot "
        "and is training as a forklift driver. His brother, who turns 30 soon and is training "
        "as a plumber, drives him in."
    )
    ivo = _subject(adversary, text, "Mr Ivo Brandt")
    assert _value(ivo, "OCCUPATION") == "Forklift driver"
    assert _value(ivo, "AGE") == ""  # 30 is the brother's
    assert _value(_subject(adversary, text, "Brother"), "AGE") == "30"


def test_a_job_after_a_participle_is_the_clause_subjects(adversary: LocalAdversary) -> None:
    text = "My cousin Rafe has been at Dunmore Print for years, working as a bookbinder. - Ilse"
    assert _value(_writer(adversary, text), "OCCUPATION") == ""
    assert _value(_subject(adversary, text, "Rafe"), "OCCUPATION") == "Bookbinder"


def test_a_verb_that_tells_is_no_job(adversary: LocalAdversary) -> None:
    text = "My uncle Ned tells everyone about his allotment."
    assert _value(_subject(adversary, text, "Ned"), "OCCUPATION") == ""


@pytest.mark.parametrize(
    ("text", "start", "age"),
    [
        ("My stepson is in Year 8 and suddenly taller than me.", "Stepson", "12-13"),
        ("Our girl starts 4th grade next week and she is nervous.", "Daughter", "9-10"),
        ("My nephew, a high-school sophomore, beat me at chess.", "Nephew", "15-16"),
        ("Our lad is in fifth grade and obsessed with volcanoes.", "Son", "10-11"),
    ],
)
def test_a_school_year_gives_the_childs_age(
    adversary: LocalAdversary, text: str, start: str, age: str
) -> None:
    assert _value(_subject(adversary, text, start), "AGE") == age


def test_no_school_age_for_a_teacher_or_an_apprentice(adversary: LocalAdversary) -> None:
    for text in ("I teach in Year 6 at a village school.", "I'm in Year 3 of my apprenticeship."):
        assert "-" not in _value(_writer(adversary, text), "AGE")


def test_an_age_after_still_and_a_sentence_opening_at(adversary: LocalAdversary) -> None:
    text = "My granddad Walter, still swimming in the sea at 88, laughs at us."
    assert _value(_subject(adversary, text, "Walter"), "AGE") == "88"
    text = "Nan grew up on a farm; at 93 she still bakes every Sunday."
    assert _value(_subject(adversary, text, "Grandmother"), "AGE") == "93"
    text = "Still refereeing Sunday league at 57 and my knees know it."
    assert _value(_writer(adversary, text), "AGE") == "57"
    assert _value(_writer(adversary, "Still waiting at 10 for the bus."), "AGE") == ""


def test_here_at_an_employer_we(adversary: LocalAdversary) -> None:
    text = "Here at Brampton Print we take pride in every order. Ask me anything."
    assert _value(_writer(adversary, text), "AFFILIATION") == "Brampton Print"


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("My neighbour, a retired milkman, still wakes at four.", "milkman"),
        ("Uncle Bertie, a sparky for forty years, rewired our loft.", "electrician"),
        ("My cousin Maeve works as a district nurse in Fife.", "district nurse"),
    ],
)
def test_everyday_british_job_words(adversary: LocalAdversary, text: str, job: str) -> None:
    jobs = [_value(s, "OCCUPATION").lower() for s in adversary.infer(text).subjects]
    assert any(job in j for j in jobs)


def test_a_clause_with_no_parsed_subject_and_a_third_person_verb(adversary: LocalAdversary) -> None:
    """Session 14: with no subject parsed, a verb in the third person ('is training', 'works'
    read as a noun) belongs to the person whose stretch holds it, never to the writer."""
    text = (
        "Could you also thank my neighbour Tamsin, who lent us her ladder in March, is "
        "training as a plumber, and fixed our tap?"
    )
    assert _value(_writer(adversary, text), "OCCUPATION") == ""
    assert _value(_subject(adversary, text, "Tamsin"), "OCCUPATION") == "Plumber"
    text = "My uncle works at Corwen Dairies. I drive a forklift most nights."
    assert _value(_writer(adversary, text), "AFFILIATION") == ""
    assert _value(_subject(adversary, text, "Uncle"), "AFFILIATION") == "Corwen Dairies"


def test_an_age_opening_the_pronouns_sentence(adversary: LocalAdversary) -> None:
    text = "I rang my granddad Alfie on Sunday. At 88 he still drives to the allotment."
    assert _value(_subject(adversary, text, "Alfie"), "AGE") == "88"


def test_a_college_year_gives_an_age_and_a_student(adversary: LocalAdversary) -> None:
    text = "Our nephew Callum is a college sophomore in Ohio and loves it."
    callum = _subject(adversary, text, "Callum")
    assert (_value(callum, "AGE"), _value(callum, "OCCUPATION")) == ("19-20", "Student")


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("One of my patients, a plumber, brought me a cake on Friday.", "Plumber"),
        ("Our Morag has just qualified as a dentist, we are so proud.", "Dentist"),
    ],
)
def test_one_of_my_clients_and_our_with_a_name(adversary: LocalAdversary, text: str, job: str):
    others = [
        s for s in adversary.infer(text).subjects if "author of the text" not in s.description
    ]
    assert [_value(s, "OCCUPATION") for s in others] == [job]
    assert not others[0].description.startswith("My patients")  # one of them: "My patient"


def test_a_business_named_with_a_possessive_is_no_person(adversary: LocalAdversary) -> None:
    text = "I get our bread from Hendry's Bakeries on the corner, and it is always fresh."
    assert [s for s in adversary.infer(text).subjects if "Hendry" in s.description] == []
