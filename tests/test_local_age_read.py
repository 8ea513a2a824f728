"""AGE read the ways people write it, attached to the right person (issue 16 item 3). Invented
sentences only."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


def _age(text: str, who: str) -> str:
    subjects = LocalAdversary().infer(text).subjects
    subject = next(s for s in subjects if who in s.description)
    return next((p.keyword for p in subject.piis if p.tag == "AGE" and p.keyword), "")


@pytest.mark.parametrize(
    ("text", "who", "age"),
    [
        ("Born in 1988 in a small town, I still love the sea.", "author", "36-37"),
        ("Shout out to my son Dev, who won the race. He is only 14!", "Dev", "14"),
        ("Our kids (14 and 11) are off school this week.", "child 1", "14"),
        ("Our kids (14 and 11) are off school this week.", "child 2", "11"),
        ("We have two daughters, aged 9 and 6, and a patient dog.", "aughter 2", "6"),
        ("I was born in '88 and I still love the sea.", "author", "36-37"),
    ],
)
def test_ages_as_people_write_them(text: str, who: str, age: str) -> None:
    assert _age(text, who) == age


def test_an_age_before_a_name_and_its_apposition_is_that_person_s() -> None:
    """A referral's 'this 74-year-old retired fisherman, Mr X' is the patient, not the doctor."""
    text = (
        "Dear Dr Okafor,\n\nThank you for seeing this 74-year-old retired fisherman, Mr Tomas "
        "Reilly, who has had a cough since May.\n\nYours sincerely,\nDr Aoife Brennan"
    )
    assert _age(text, "Reilly") == "74"
    assert _age(text, "Okafor") == ""
    assert (
        _age("A 45-year-old teacher, Ms Jane Otieno, was named head of science.", "Otieno") == "45"
    )


def test_a_reference_number_year_does_not_date_a_stated_age():
    from spia_core.adversary.local import LocalAdversary

    text = (
        "INCIDENT REPORT - Ref ***/2026/114\n\nAt 21:40 a member of staff, Ms Dana Pike, "
        "a 27-year-old care assistant, found a resident on the floor."
    )
    ages = [
        p.keyword
        for s in LocalAdversary().infer(text).subjects
        for p in s.piis
        if p.tag == "AGE" and p.keyword
    ]
    assert ages == ["27"]
