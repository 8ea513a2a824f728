"""An exam still to come says the writer studies; one passed 'on the first try' does not."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary


def _job(post: str) -> tuple[str, int]:
    author = LocalAdversary().infer(post).subjects[0]
    found = next((p for p in author.piis if p.tag == "OCCUPATION" and p.keyword), None)
    return (found.keyword, found.certainty) if found else ("", 0)


def test_an_exam_passed_on_the_first_try_is_no_studying_status() -> None:
    job, certainty = _job("Passed my actuarial exam on the first attempt after work each night!")
    assert not (job == "Student" and certainty >= 2)


def test_an_exam_on_a_weekday_still_says_student() -> None:
    assert _job("My geography exam is on Thursday and I have not revised at all.")[0] == "Student"


def test_a_doctor_of_philosophy_is_a_degree_not_a_job() -> None:
    post = "So proud to be a Doctor of Philosophy at last! Six years of soil samples, done."
    author = LocalAdversary().infer(post).subjects[0]
    values = {p.tag: p.keyword for p in author.piis if p.keyword}
    assert values.get("EDUCATION") == "PhD" and values.get("OCCUPATION") != "Doctor"
