"""Names written with accented Latin letters are read as names (invented sentences)."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary


def _names(adversary: LocalAdversary, text: str) -> list[str]:
    found = adversary.infer(text).subjects
    return [next((p.keyword for p in s.piis if p.tag == "NAME" and p.keyword), "") for s in found]


def test_a_pair_of_given_names_keeps_the_accented_one(adversary: LocalAdversary) -> None:
    names = _names(adversary, "Big thanks to my housemates Niamh and Pádraig for the lift home.")
    assert "Niamh" in names and "Pádraig" in names


def test_a_list_of_accented_given_names_is_three_people(adversary: LocalAdversary) -> None:
    names = _names(adversary, "Coffee this morning with Inés, Łukasz and Søren before the exam.")
    assert {"Inés", "Łukasz", "Søren"} <= set(names)


def test_an_accented_name_under_a_closing_stays_whole(adversary: LocalAdversary) -> None:
    names = _names(adversary, "The bike is still for sale if anyone wants it.\nCheers,\nJosé")
    assert names[0] == "José"
