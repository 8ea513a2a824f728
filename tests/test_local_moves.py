"""Moves and job changes in posts (invented texts): the place moved to is the home, the job
started now outranks the one joined years ago, and a small town's other name does not pull
the document to another country."""

from __future__ import annotations

import pytest
from _local_helpers import value as _value

from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


def _author(adversary: LocalAdversary, text: str) -> Subject:
    return adversary.infer(text).subjects[0]


@pytest.mark.parametrize(
    ("text", "home"),
    [
        ("We moved from Leeds to Bristol last spring and the dog loves the park.", "Bristol"),
        ("Two years ago I relocated from New York to Denver for work.", "Denver"),
    ],
)
def test_moved_from_one_place_to_another_lives_in_the_second(
    adversary: LocalAdversary, text: str, home: str
) -> None:
    assert _value(_author(adversary, text), "LOCATION").startswith(home)


def test_a_study_place_is_no_stated_home(adversary: LocalAdversary) -> None:
    text = "Funny to think I did my MSc in Leeds twelve years ago. Anyway, new kitchen pics below."
    loc = next(p for p in _author(adversary, text).piis if p.tag == "LOCATION")
    assert loc.explanation is None or loc.explanation.rule != "location.residence"


def test_the_new_post_outranks_the_first_job(adversary: LocalAdversary) -> None:
    text = (
        "After five years at Corvel Systems, I'm starting a new role as Director of Platform "
        "Operations at Brannock Freight next week. I joined Corvel straight after college "
        "as a trainee support technician."
    )
    author = _author(adversary, text)
    assert _value(author, "OCCUPATION") == "Director of Platform Operations"
    assert _value(author, "AFFILIATION") == "Brannock Freight"


def test_a_job_joined_as_ranks_below_one_held_now(adversary: LocalAdversary) -> None:
    text = "I joined the company as a junior clerk in 2009. These days I am a payroll manager."
    assert _value(_author(adversary, text), "OCCUPATION") == "Payroll manager"


def test_a_small_towns_other_name_does_not_move_the_document(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Starting a new job in Bristol on Monday, nervous but excited. "
        "My parents still live in Somerset and can't wait to see more of us."
    )
    result = adversary.infer(text)
    assert result.trace["document_country"] == "United Kingdom"
    parent = result.subjects[1]
    assert _value(parent, "LOCATION").endswith("United Kingdom")


def test_a_home_left_is_not_the_home_city(adversary: LocalAdversary) -> None:
    text = "We relocated from Aberdeen last year. The new flat is lovely."
    assert not _value(_author(adversary, text), "LOCATION").startswith("Aberdeen")
