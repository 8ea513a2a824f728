"""Long-tail jobs implied by the work (issue 16, session 14): trade words of taxonomy jobs that had
no row, a trade verb said with no object ("I've been bricklaying for twenty years"), cues of three
words, and a past job that ended. Invented sentences only."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


def _job(post: str, who: int = 0) -> str:
    person = LocalAdversary().infer(post).subjects[who]
    return next((p.keyword for p in person.piis if p.tag == "OCCUPATION" and p.keyword), "")


@pytest.mark.parametrize(
    ("post", "job"),
    [  # a trade verb with no object, said with how long or for a living, is the job
        ("I've been bricklaying for twenty years and my back knows it.", "Bricklayer"),
        ("I've been nursing for eighteen years, mostly on nights.", "Nurse"),
        ("I taught for thirty-one years and I still dream about it.", "Teacher"),
        ("She has been plastering for a living since she left school.", "Plasterer"),
    ],
)
def test_a_trade_verb_without_an_object_is_the_job(post: str, job: str) -> None:
    assert _job(post) == job


def test_a_relative_farmed_for_decades() -> None:  # (read before, from the trade word)
    assert _job("My uncle farmed for forty years up on the moor.", who=1) == "Farmer"


@pytest.mark.parametrize(
    "post",
    [  # a pastime, a plain deed or a future said the same way is no job
        "I've been cooking for years, mostly curries on a Sunday.",
        "I've been driving for thirty years without a single accident.",
        "I've been fishing for years off the harbour wall.",
        "I've been working for ten years at the same place.",
    ],
)
def test_a_pastime_or_everyday_verb_is_no_job(post: str) -> None:
    assert _job(post) not in {"Cook", "Driver", "Fisher", "Worker"}


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


@pytest.mark.parametrize(
    ("post", "job"),
    [  # a cue of three words, or one hyphenated word (spaCy splits it into three tokens)
        (
            "Her range of motion is better every week since I started her on the new plan.",
            "Physiotherapist",
        ),
        ("I recorded two self-tapes tonight and sent them off before midnight.", "Actor"),
    ],
)
def test_cues_of_three_tokens(post: str, job: str) -> None:
    assert _job(post) == job
