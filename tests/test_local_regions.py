"""Regions, counties and states outside the US are places of their country (invented sentences)."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary, lexicons


@pytest.fixture(scope="module")
def adversary() -> LocalAdversary:
    return LocalAdversary()


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
