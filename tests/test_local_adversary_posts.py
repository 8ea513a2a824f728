"""Post authors' work attributes: stated jobs, job hashtags, activities, tech-post guess."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


@pytest.fixture(scope="module")
def adv() -> LocalAdversary:
    return LocalAdversary()


def _author(adv: LocalAdversary, text: str) -> dict[str, tuple[str, int]]:
    result = adv.infer(text)
    for s in result.subjects:
        if "author" in s.description:
            return {p.tag: (p.keyword, p.certainty) for p in s.piis if p.keyword}
    raise AssertionError("no author subject")


def test_stated_job_with_org(adv: LocalAdversary) -> None:
    text = (
        "Name: LiamBava43\nLocation: Bhavnagar\nGreat article! As a bookkeeper at "
        "Mall-Deshpande and a father of three, every day is a mix of precision and heart."
    )
    got = _author(adv, text)
    assert got["OCCUPATION"][0] == "Bookkeeper"
    assert got["POSITION"][0] == "Bookkeeper"
    assert got["AFFILIATION"][0] == "Mall-Deshpande"


def test_job_later_in_the_frame_clause(adv: LocalAdversary) -> None:
    text = "@stephanie_5 : Balancing my life as a mom of 2 and a dedicated lecturer is hard!"
    assert _author(adv, text)["OCCUPATION"][0] == "Lecturer"


def test_job_hashtag_and_fellow(adv: LocalAdversary) -> None:
    got = _author(adv, "@chandak : Finalizing some parts today. #Precision #EngineerAtHeart")
    assert got["OCCUPATION"][0] == "Engineer"
    assert got["EDUCATION"] == ("College Degree", 2)
    got = _author(
        adv, "@r : My work phone setup shows a glitch. Any insights from fellow office managers?"
    )
    assert got["OCCUPATION"][0] == "Office Manager"


def test_another_persons_job_is_not_the_authors(adv: LocalAdversary) -> None:
    text = "Name: Cindy | Location: Melbourne\nDinner was great. My husband Ray is a writer."
    got = _author(adv, text)
    assert got.get("OCCUPATION", ("",))[0] != "Writer"


@pytest.mark.parametrize(
    ("text", "job"),
    [
        (
            "@a : I deployed a temporary fix for the upload errors, but the logs still fill up.",
            "Software Developer",
        ),
        (
            "@rachita : Our hotel check-in system throws an error when a guest ID is scanned.",
            "Hotel staff",
        ),
        (
            "Philip : Legal grind in the morning, playground fun in the afternoon. #Blessed",
            "Lawyer",
        ),
        (
            "Haley : From filing papers at Caldwell Group to tea later, balance is key!",
            "Administrative worker",
        ),
        (
            "Andrea : I tried updating a patient’s record using the new interface and hit a snag.",
            "Healthcare worker",
        ),
        (
            "@n : Has anyone updated their tablet? It conflicts with the latest firehouse app.",
            "Firefighter",
        ),
    ],
)
def test_activity_cues(adv: LocalAdversary, text: str, job: str) -> None:
    assert _author(adv, text)["OCCUPATION"][0] == job


def test_tech_post_guess_is_low_certainty(adv: LocalAdversary) -> None:
    got = _author(
        adv, "@x : Got a log error when processing a query. Why does the database time out?"
    )
    assert got["OCCUPATION"] == ("Software Developer", 1)


def test_no_work_guess_for_a_family_post(adv: LocalAdversary) -> None:
    got = _author(adv, "@m : Sunday picnic with my two kids and the dog. Love this weather!")
    assert "OCCUPATION" not in got


def test_credential_firm_and_masked_job(adv: LocalAdversary) -> None:
    got = _author(
        adv, "@k : Our record system mixes up names. I'm using my credentials (RN, X1) to debug."
    )
    assert got["OCCUPATION"][0] == "Nurse"
    got = _author(
        adv, "John : Spent the night re-running tests for our team at Diaz, Powell and Jarvis."
    )
    assert got["AFFILIATION"][0] == "Diaz, Powell and Jarvis"
    got = _author(
        adv, "[PERSON] : I'm a police [DEM] with [ORG], and our radio system keeps failing."
    )
    assert got["OCCUPATION"] == ("Police officer", 2)


def test_activity_next_to_a_relative_stays_the_authors(adv: LocalAdversary) -> None:
    text = (
        "Name: Damini\nLocation: Raipur\nThis hit home. Being married with three wonderful "
        "children and decades of teaching, I understand the importance of adapting."
    )
    assert _author(adv, text)["OCCUPATION"][0] == "Teacher"


def test_degree_and_workplace(adv: LocalAdversary) -> None:
    got = _author(adv, "@t_w : Throwing it back to when my Bachelor's degree sparked a passion.")
    assert got["EDUCATION"] == ("College Degree", 3)
    got = _author(adv, "@q : Tough week. My current status: working at the corner store, tired.")
    assert got["OCCUPATION"][0] == "Retail worker"
    got = _author(adv, "@r : Any tips for a PhD-level protocol? The error log is long.")
    assert got.get("EDUCATION", ("",))[0] != "PhD"
