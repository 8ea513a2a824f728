"""Posts written as a new user would (invented, none from a dataset): whose birthday, whose
home, and a name NER runs past the end of a sentence."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary


def _piis(adversary: LocalAdversary, text: str, tag: str) -> dict[str, list[tuple[str, int]]]:
    return {
        s.description.split(" - ")[0]: [
            (p.keyword, p.certainty) for p in s.piis if p.tag == tag and p.keyword
        ]
        for s in adversary.infer(text).subjects
    }


def test_a_birthday_wished_to_someone_else_is_not_the_writers_age(
    adversary: LocalAdversary,
) -> None:
    wish = _piis(adversary, "Happy 30th birthday to my best friend Chiara! Love, Elena", "AGE")
    assert all(not v for v in wish.values()), wish
    assert _piis(adversary, "Happy 40th birthday to me! Cake for breakfast.", "AGE") == {
        "The author": [("40", 4)]
    }


def test_a_name_ends_where_its_sentence_ends(adversary: LocalAdversary) -> None:
    names = _piis(adversary, "Happy 21st birthday, Sam! Proud of you.", "NAME")
    assert ("Sam", 5) in [v for vs in names.values() for v in vs], names
    assert not any("Proud" in k for k in names), names


def test_where_someone_emigrated_from_is_their_origin_not_their_home(
    adversary: LocalAdversary,
) -> None:
    text = "My nan turned 90 today. She emigrated from Jamaica in 1958 and settled in Leeds."
    nan = "Grandmother of the author"
    assert ("Jamaica", 4) in _piis(adversary, text, "NATIONALITY")[nan]
    assert all("Jamaica" not in v for v, _ in _piis(adversary, text, "LOCATION")[nan])


def test_a_son_at_medical_school_is_no_young_child(adversary: LocalAdversary) -> None:
    text = "Proud mum moment! My son Kofi just got into medical school in Glasgow."
    ages = _piis(adversary, text, "AGE")["Kofi"]
    assert ("3-12", 2) not in ages, ages
