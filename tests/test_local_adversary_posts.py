"""Post authors' work attributes: stated jobs, job hashtags, activities, tech-post guess."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary


def _author(adv: LocalAdversary, text: str) -> dict[str, tuple[str, int]]:
    result = adv.infer(text)
    for s in result.subjects:
        if "author" in s.description:
            return {p.tag: (p.keyword, p.certainty) for p in s.piis if p.keyword}
    raise AssertionError("no author subject")


def test_job_later_in_the_frame_clause(adv: LocalAdversary) -> None:
    text = "@olu_7 : Juggling my life as a dad of three and a part-time lecturer is tough!"
    assert _author(adv, text)["OCCUPATION"][0] == "Lecturer"


def test_job_hashtag_and_fellow(adv: LocalAdversary) -> None:
    got = _author(adv, "@okafor_e : Testing a new gearbox today. #Precision #EngineerForLife")
    assert got["OCCUPATION"][0] == "Engineer"
    assert got["EDUCATION"] == ("College Degree", 2)
    got = _author(
        adv, "@r : Our new booking tool keeps freezing. Fellow office managers, any fixes?"
    )
    assert got["OCCUPATION"][0] == "Office manager"


def test_another_persons_job_is_not_the_authors(adv: LocalAdversary) -> None:
    text = "Name: Fiona | Location: Melbourne\nDinner was great. My husband Ray is a writer."
    got = _author(adv, text)
    assert got.get("OCCUPATION", ("",))[0] != "Writer"


def test_no_work_guess_for_a_family_post(adv: LocalAdversary) -> None:
    got = _author(adv, "@m : Sunday picnic with my two kids and the dog. Love this weather!")
    assert "OCCUPATION" not in got


def test_degree_and_workplace(adv: LocalAdversary) -> None:
    got = _author(adv, "@t_w : Still proud of the Bachelor's degree I earned at night school.")
    assert got["EDUCATION"] == ("College Degree", 3)
    got = _author(adv, "@r : Any tips for a PhD-level assay? The error log is long.")
    assert got.get("EDUCATION", ("",))[0] != "PhD"
