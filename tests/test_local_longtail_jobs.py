"""Long-tail jobs implied by the work (issue 16, session 14): trade words of taxonomy jobs that had
no row, restaurant kitchen work read as Chef, and a past job that ended. Invented sentences only."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


def _job(post: str, who: int = 0) -> str:
    person = LocalAdversary().infer(post).subjects[who]
    return next((p.keyword for p in person.piis if p.tag == "OCCUPATION" and p.keyword), "")


@pytest.mark.parametrize(
    ("post", "job"),
    [  # taxonomy jobs that had no trade words
        (
            "I was on civil enforcement all morning, issuing tickets along the high street.",
            "Parking attendant",
        ),
        (
            "Ten hours on the pot wash today and I swear the dish pit smells of grease.",
            "Kitchen porter",
        ),
        (
            "I had the knee kicker, gripper rods and a roll of underlay in the van by seven.",
            "Carpet fitter",
        ),
        ("I spent the afternoon at the bench peg doing stone setting under the loupe.", "Jeweller"),
        ("I trued three wheels and swapped two derailleurs before lunch.", "Bike mechanic"),
        (
            "I worked through sixty discharge summaries and cleared the coding queries.",
            "Medical coder",
        ),
        (
            "I spent twelve hours on the dispatch desk, routing drivers over the radio channel.",
            "Dispatcher",
        ),
        (
            "I did three resoling jobs this morning and there was a queue at the heel bar.",
            "Shoemaker",
        ),
    ],
)
def test_trade_words_of_jobs_that_had_no_row(post: str, job: str) -> None:
    assert _job(post) == job


@pytest.mark.parametrize(
    ("post", "job"),
    [  # a job that ended with its workplace, or given up to care for a parent: not held now
        (
            "I was a welder for twenty years until the yard closed, and I walk the dog a lot.",
            "Unemployed",
        ),
        ("We both worked at the mill before the mill shut down in 2009.", "Unemployed"),
        ("I packed in my job at the council last spring to look after my mum.", "Unemployed"),
        ("I quit my job at the bank to care for my dad after his stroke.", "Unemployed"),
        # ... but a job held now still wins, and a relative's choice is not the writer's
        ("I was a welder until the yard closed. Now I'm a postman and I love it.", "Postman"),
        ("My sister quit her job to care for our dad, and I'm a paramedic.", "Paramedic"),
    ],
)
def test_a_job_that_ended_is_not_held_now(post: str, job: str) -> None:
    assert _job(post) == job


def test_restaurant_line_work_reads_as_chef() -> None:
    # annotators write "Chef" for restaurant kitchen work, not the SOC "Cook"
    assert _job("Burnt my wrist on the fryer again, and the grill station was chaos.") == "Chef"
