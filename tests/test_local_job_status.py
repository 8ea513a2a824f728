"""A work status that holds now (studying, in training, retired, out of work, at home with the
children) and a trade learnt or left (issue 16). Invented sentences only."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


def _author(post: str, tag: str) -> str:
    author = LocalAdversary().infer(post).subjects[0]
    return next((p.keyword for p in author.piis if p.tag == tag and p.keyword), "")


@pytest.mark.parametrize(
    ("post", "job"),
    [  # a status held now outranks the job the text also states or implies
        ("I'm a pastry chef without a job since the hotel closed its restaurant.", "Unemployed"),
        (
            "I was a pipe fitter for fifteen years, but I'm currently out of work and bored.",
            "Unemployed",
        ),
        ("The print works let me go in June after nine years on the presses.", "Unemployed"),
        (
            "Sixteen years of payroll and bookkeeping, and now I'm applying for anything going.",
            "Unemployed",
        ),
        (
            "I was at the jobcentre again today, and I do miss plastering ceilings.",
            "Unemployed",
        ),
        (
            "Took the bloods and did the obs round on my placement today, still buzzing.",
            "Student",
        ),
        ("I have to resit the contract law paper in August, so no holiday for me.", "Student"),
        (
            "I stayed at home with the kids after the twins arrived, and I never went back.",
            "Homemaker",
        ),
        ("I'm a stay-at-home [DEM] and today we baked bread together.", "Homemaker"),
    ],
)
def test_a_status_held_now_outranks_a_past_or_studied_job(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


@pytest.mark.parametrize(
    ("post", "job"),
    [  # ... but not a job the writer holds now, nor a job kept while on leave
        ("I was laid off in 2019, but now I work as a courier and love it.", "Courier"),
        ("I'm a paramedic on parental leave until the spring.", "Paramedic"),
    ],
)
def test_a_job_held_now_stays(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


@pytest.mark.parametrize(
    ("post", "first"),
    [  # work given up for good: retired, with the old trade when the text tells it
        ("I hung up my spanners last year after three decades of servicing engines.", "Retired"),
        ("Retired from nursing at sixty, and the allotment is my ward now.", "Retired"),
    ],
)
def test_work_given_up_is_retired(post: str, first: str) -> None:
    assert _author(post, "OCCUPATION").split()[0] == first


def test_a_retired_role_here_is_the_writer() -> None:
    post = "Retired pathologist here, and she asked me whether the lab scenes were right."
    subjects = LocalAdversary().infer(post).subjects
    assert _author(post, "OCCUPATION") == "Retired pathologist"
    assert not any("pathologist" in s.description.lower() for s in subjects[1:])


@pytest.mark.parametrize(
    ("post", "job"),
    [  # a trade being learnt: the stage before the job, as annotators write it
        (
            "Second year of my apprenticeship, and today I wired a consumer unit and a fuse board.",
            "Apprentice electrician",
        ),
        ("I'm a trainee dental nurse at a practice near the station.", "Trainee dental nurse"),
    ],
)
def test_a_trade_being_learnt_is_the_trainee_job(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


@pytest.mark.parametrize(
    "post",
    [
        "I'm an accounting student in my final year and the audit paper was brutal.",
        "My dissertation on river pollution is due in May and I have not started.",
    ],
)
def test_a_student_of_a_subject_is_in_college(post: str) -> None:
    assert _author(post, "EDUCATION") == "In College"


def test_the_writers_status_is_not_the_relatives() -> None:
    post = "Since my uncle's garage laid me off, I spend my days at the library."
    uncle = next(s for s in LocalAdversary().infer(post).subjects if "ncle" in s.description)
    assert not any(p.tag == "OCCUPATION" and p.keyword for p in uncle.piis)


@pytest.mark.parametrize(
    ("post", "job"),
    [
        # "the trade" is any trade: the job word the writer opens with wins
        ("Glazier here, fifteen years in the trade and still no fear of heights.", "Glazier"),
        # a past job ended ("until ...") and a job hunt now: out of work
        (
            "I taught chemistry for eight years until the academy closed, and now I apply for "
            "anything going.",
            "Unemployed",
        ),
    ],
)
def test_the_job_said_now_wins(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


@pytest.mark.parametrize(
    ("post", "job"),
    [  # more ways of saying the status holds now
        (
            "I was a roofer for twenty years before my knees went, and I've been on jobseeker's "
            "allowance since the spring.",
            "Unemployed",
        ),
        (
            "Made redundant from the print firm in May, so if you hear of proofreading, tell me.",
            "Unemployed",
        ),
        (
            "I'm in my final year of physiotherapy and the hospital placements are brutal.",
            "Student",
        ),
        ("I'm doing a carpentry course at college, three days a week.", "Student"),
        (
            "I worked as a florist for ten years until the shop shut; now I'm at home with the "
            "twins.",
            "Homemaker",
        ),
    ],
)
def test_more_statuses_held_now(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


def test_a_final_year_of_a_subject_is_in_college() -> None:
    assert _author("I'm in my final year of geography and loving the fieldwork.", "EDUCATION") == (
        "In College"
    )
