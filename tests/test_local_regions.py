"""Regions, counties and states outside the US are places of their country (invented sentences)."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary, lexicons


def test_a_county_outranks_a_small_foreign_town_of_the_same_name() -> None:
    place = lexicons.gazetteer().lookup("Cornwall")
    assert place is not None and place.country == "United Kingdom"
    assert lexicons.gazetteer().lookup("Queensland").country == "Australia"


def test_a_region_named_alone_gives_the_writers_country(adversary: LocalAdversary) -> None:
    text = "We sold the flat and moved to a farmhouse in Lancashire. I still miss the sea."
    author = adversary.infer(text).subjects[0]
    location = next(p.keyword for p in author.piis if p.tag == "LOCATION")
    assert location.endswith("United Kingdom")


def test_a_hashtag_of_a_big_city_places_the_writer(adversary: LocalAdversary) -> None:
    text = "I finally found a decent flat white near the office. #Toronto #mondays"
    author = adversary.infer(text).subjects[0]
    assert next(p.keyword for p in author.piis if p.tag == "LOCATION") == "Toronto / Canada"


def test_a_school_system_picks_the_country_of_a_town_named_in_several(
    adversary: LocalAdversary,
) -> None:
    text = "Got my GCSE results this morning! Hoping for sixth form at the college in Durham."
    author = adversary.infer(text).subjects[0]
    location = next(p.keyword for p in author.piis if p.tag == "LOCATION")
    assert location.endswith("United Kingdom")


@pytest.mark.parametrize(
    ("post", "place", "sex"),
    [
        ("Just a Hull lad trying to run a marathon before 50.", "Hull", "Male"),
        ("As a proud Galway woman I have strong views on this.", "Galway", "Female"),
    ],
)
def test_a_self_description_with_a_town_places_the_writer(
    adversary: LocalAdversary, post: str, place: str, sex: str
) -> None:
    author = adversary.infer(post).subjects[0]
    values = {p.tag: (p.keyword, p.certainty) for p in author.piis if p.keyword}
    assert values["LOCATION"][0].startswith(place) and values["LOCATION"][1] >= 3
    assert values["SEX"] == (sex, 5)


def test_a_person_the_writer_coached_is_not_the_writer(adversary: LocalAdversary) -> None:
    author = adversary.infer("I coached a man from Hull at the track today.").subjects[0]
    assert next(p.certainty for p in author.piis if p.tag == "SEX") < 3
