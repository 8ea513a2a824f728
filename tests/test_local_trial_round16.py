"""Documents written for a trial run, round 16 of the trials (invented texts): a post in a club
or society is a POSITION, not a job; "we rent a flat in X" places the writer; "Mr and Mrs X" are
two married people; a maiden name after "née" is the same person; "wife of the late X" is a
widow; a job word before a name and a comma is that person's job; "is moving to X" gives X."""

from __future__ import annotations

from _local_helpers import by_name as _by_name
from _local_helpers import value as _value

from spia_core.adversary.local import LocalAdversary


def test_a_club_post_is_a_position_not_a_job(adversary: LocalAdversary) -> None:
    text = (
        "Thanks to all who came to the spring bake sale.\n\nOur chairman Wilfred Ames thanked "
        "the volunteers. Wilfred, a retired postman, baked forty scones.\n\nDelia Marchetti\n"
        "Society Treasurer\n"
    )
    people = _by_name(adversary, text)
    assert _value(people["Wilfred Ames"], "OCCUPATION") == "Retired postman"
    assert "chairman" in _value(people["Wilfred Ames"], "POSITION").lower()
    assert _value(people["Delia Marchetti"], "OCCUPATION") == ""
    assert _value(people["Delia Marchetti"], "POSITION").endswith("Treasurer")


def test_renting_a_home_in_a_town_places_the_writer(adversary: LocalAdversary) -> None:
    text = "I work as a welder in Sheffield. We rent a one-bed in Rotherham for now."
    author = adversary.infer(text).subjects[0]
    assert _value(author, "LOCATION").startswith("Rotherham")


def test_mr_and_mrs_are_two_married_people(adversary: LocalAdversary) -> None:
    text = "Mr and Mrs Okafor run the corner shop. She is a pharmacist by training."
    people = {s.description.split(" - ")[0]: s for s in adversary.infer(text).subjects}
    assert {"Mr Okafor", "Mrs Okafor"} <= people.keys()
    assert _value(people["Mr Okafor"], "SEX") == "Male"
    assert _value(people["Mrs Okafor"], "SEX") == "Female"
    assert _value(people["Mr Okafor"], "RELATIONSHIP") == "Married"


def test_a_maiden_name_is_the_same_person(adversary: LocalAdversary) -> None:
    text = "Dorothy Hale (née Collins) died peacefully at home on 3 March, aged 87."
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1
    assert _value(subjects[0], "AGE") == "87"


def test_wife_of_the_late_is_a_widow(adversary: LocalAdversary) -> None:
    text = "Edith Lowe died on 3 March. She was the loving wife of the late Harold and a nurse."
    assert _value(_by_name(adversary, text)["Edith Lowe"], "RELATIONSHIP") == "Widowed"


def test_a_job_before_a_name_and_a_comma(adversary: LocalAdversary) -> None:
    text = (
        "This week we thank our school librarian, Moira Kettle, who retires in July. Moira is "
        "moving to Inverness to be near her grandchildren."
    )
    moira = _by_name(adversary, text)["Moira Kettle"]
    assert _value(moira, "OCCUPATION").endswith("librarian")
    assert _value(moira, "LOCATION").startswith("Inverness")


def test_at_inside_a_shop_name_is_no_workplace(adversary: LocalAdversary) -> None:
    text = (
        "Our rabbit Pickle escaped on Friday. I picked up a new hutch from Homes at Sea last "
        "month, so she may be near the shed. Call Bethan on 07700 900456."
    )
    author = next(s for s in adversary.infer(text).subjects if _value(s, "NAME") == "Bethan")
    assert _value(author, "AFFILIATION") == ""


def test_the_landlord_of_a_house_is_a_part_not_a_job(adversary: LocalAdversary) -> None:
    text = (
        "I am the landlord of 9 Quarry Lane, Frome, where Nils rented a room for two years. He "
        "was a quiet tenant.\n\nYours faithfully,\n\nGwen Adeyemi\nRetired optician\n"
    )
    gwen = _by_name(adversary, text)["Gwen Adeyemi"]
    assert "optician" in _value(gwen, "OCCUPATION").lower()


def test_a_masked_post_after_a_workplace_word_is_no_relative(adversary: LocalAdversary) -> None:
    text = "We wave goodbye to our school [DEM], [PERSON], who leaves in [DATETIME]. Good luck!"
    descriptions = [s.description for s in adversary.infer(text).subjects]
    assert not any(d.startswith(("Daughter", "Son", "Child")) for d in descriptions)


def test_masked_chat_speaker_lines_keep_their_own_i(adversary: LocalAdversary) -> None:
    text = (
        "[PERSON]  [DATETIME]\nI'm stuck in traffic, start without me\n\n[PERSON]  [DATETIME]\n"
        "no worries. my husband can open up, I'll be there by ten\n"
    )
    subjects = adversary.infer(text).subjects
    assert not any(s.description.startswith("The author") for s in subjects)
    assert any(s.description.startswith("Husband of [PERSON]") for s in subjects)


def test_minutes_of_time_are_no_office_work(adversary: LocalAdversary) -> None:
    text = "I took four minutes off my best time at the river run today. So happy!"
    author = adversary.infer(text).subjects[0]
    assert _value(author, "OCCUPATION") != "Administrative assistant"


def test_renting_in_a_town_places_the_writer(adversary: LocalAdversary) -> None:
    text = "Been renting in Derby for six years now and the landlord has never fixed the damp."
    author = adversary.infer(text).subjects[0]
    assert _value(author, "LOCATION").startswith("Derby")
