"""Documents written for a trial run, round 17 of the trials (invented texts): a post signed
with a bare name on its last line or after its last sentence ("... Cheers, Pete", "- Ana, 61,
from Hull"), "it's X from ...", "I'm X, Y's brother" and "call me, X, on ..." name the writer;
a pet named after its kind is no person; parents who divorced are Divorced; a firm's managing
partner is no spouse; "About me: 42M" gives the age; an ID number labelled after a name and a
date of birth is that person's."""

from __future__ import annotations

from _local_helpers import by_name as _by_name
from _local_helpers import value as _value

from spia_core.adversary.local import LocalAdversary


def test_a_full_name_on_the_last_line_signs_the_post(adversary: LocalAdversary) -> None:
    text = (
        "Three coats of varnish on the garden bench and it finally looks right. My back "
        "disagrees. Early night for me.\nGlenys Harcourt\n"
    )
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1
    assert _value(subjects[0], "NAME") == "Glenys Harcourt"


def test_a_dash_signature_with_an_age_and_a_home_town(adversary: LocalAdversary) -> None:
    text = (
        "Lovely week at the lodge. The staff looked after my wife when she twisted her ankle "
        "on the first day. - Desmond, 72, from Grimsby"
    )
    author = adversary.infer(text).subjects[0]
    assert _value(author, "NAME") == "Desmond"
    assert _value(author, "AGE") == "72"
    assert _value(author, "LOCATION").startswith("Grimsby")


def test_cheers_and_a_name_after_the_last_sentence(adversary: LocalAdversary) -> None:
    text = (
        "The bins on our road were missed again this week. I have phoned the depot twice and my "
        "husband Colin has emailed them. Cheers, Marjorie"
    )
    people = _by_name(adversary, text)
    assert "author of the text" in people["Marjorie"].description
    assert "husband of the author" in people["Colin"].description
    text = "The bins were missed again, so I phoned the depot. Kind regards, Arthur Pennock"
    assert "author of the text" in _by_name(adversary, text)["Arthur Pennock"].description


def test_its_a_name_from_a_place_is_the_writer(adversary: LocalAdversary) -> None:
    text = "Evening all, it's Bronwen from the corner house. My son Idris found a set of keys."
    people = _by_name(adversary, text)
    assert "son of the author" in people["Idris"].description
    assert "author of the text" in people["Bronwen"].description


def test_i_am_a_name_and_someones_brother(adversary: LocalAdversary) -> None:
    text = "Hello all, I'm Lachlan, Fergus's younger brother. Fergus and I grew up in Dundee."
    people = _by_name(adversary, text)
    assert "author of the text" in people["Lachlan"].description
    assert len(adversary.infer(text).subjects) == 2


def test_call_me_then_a_name_names_the_writer(adversary: LocalAdversary) -> None:
    text = (
        "Found: a set of car keys by the swings on Tuesday. If they are yours please call me, "
        "Rhiannon, on 07700 900418 or text Owain on 07700 900552."
    )
    people = _by_name(adversary, text)
    assert "author of the text" in people["Rhiannon"].description
    assert _value(people["Rhiannon"], "PHONE_NUMBER") == "07700 900418"


def test_a_pet_named_after_its_kind_is_no_person(adversary: LocalAdversary) -> None:
    text = (
        "Our spaniel Biscuit slipped his lead in the park this morning. He is 4 years old and "
        "nervous of men. My daughter Nia is in tears. Please ring me on 07700 900733."
    )
    subjects = adversary.infer(text).subjects
    assert "Biscuit" not in {_value(s, "NAME") for s in subjects}
    assert all(_value(s, "AGE") != "4" for s in subjects)
    text = "We took our dog Rufus to the beach with my sister Carys. Rufus is 3 and loved it."
    assert "Rufus" not in _by_name(adversary, text)


def test_parents_who_divorced_are_divorced(adversary: LocalAdversary) -> None:
    text = "I grew up in Wigan. My parents split up when I was nine and I lived with my gran."
    parents = [s for s in adversary.infer(text).subjects if "of the author" in s.description]
    parents = [s for s in parents if "ather" in s.description or "arent" in s.description]
    assert parents and all(_value(s, "RELATIONSHIP") == "Divorced" for s in parents)


def test_a_managing_partner_of_a_firm_is_no_spouse(adversary: LocalAdversary) -> None:
    text = (
        "After 28 years with Pemberton Lowe, our managing partner Judith Okafor leaves us on "
        "Friday. Please sign her card in reception."
    )
    author = adversary.infer(text).subjects[0]
    assert _value(author, "RELATIONSHIP") == ""


def test_a_profile_age_after_a_colon(adversary: LocalAdversary) -> None:
    text = "About me: 38F, nurse, living in Exeter. Looking for a walking buddy."
    assert _value(adversary.infer(text).subjects[0], "AGE") == "38"


def test_an_id_labelled_after_a_name_and_a_birth_date(adversary: LocalAdversary) -> None:
    text = "Re: Mrs Gwendolyn Ashby, DOB 02/03/1949, NHS number 943 476 5919\nSeen today."
    gwen = _by_name(adversary, text)["Gwendolyn Ashby"]
    assert _value(gwen, "IDENTIFICATION_NUMBER") == "943 476 5919"


def test_an_organisation_name_stops_before_i(adversary: LocalAdversary) -> None:
    text = "Second month of my MSc at the University of Stirling and I've joined the rowing club."
    assert _value(adversary.infer(text).subjects[0], "AFFILIATION") == "University of Stirling"


def test_a_devoted_wife_to_the_late_is_a_widow(adversary: LocalAdversary) -> None:
    text = "Edna Pike died at home on Sunday. She was a devoted wife to the late Harold."
    assert _value(_by_name(adversary, text)["Edna Pike"], "RELATIONSHIP") == "Widowed"


def test_a_funeral_mass_is_no_person(adversary: LocalAdversary) -> None:
    text = (
        "Please pray for Eamon Tierney, who died on Monday. His funeral Mass is on Thursday; "
        "speak to Nuala Brophy after Mass if you can help with teas."
    )
    assert "Mass" not in _by_name(adversary, text)


def test_a_club_post_after_a_name_on_one_line_is_no_job(adversary: LocalAdversary) -> None:
    text = "Subs for the year are due by the end of April.\n\nMorag Dunlop, Club Secretary\n"
    morag = _by_name(adversary, text)["Morag Dunlop"]
    assert _value(morag, "OCCUPATION") == ""
    assert _value(morag, "POSITION") == "Club Secretary"


def test_a_city_known_by_a_short_name_in_the_documents_country(adversary: LocalAdversary) -> None:
    text = (
        "My GP referred me to the NHS memory clinic last month and the wait was only a week. I "
        "live in Newcastle with my son."
    )
    assert _value(adversary.infer(text).subjects[0], "LOCATION") == "Newcastle / United Kingdom"
