"""Documents written for a trial run, round 14 of the trials (invented texts): a job word or a
form key right before a name is that person's job ("our cook Bev", "GP: Dr Shah",
"Prosecuting: Ms Reid", "our van drivers Tom and Ana"), not the job of the person named before."""

from __future__ import annotations

from _local_helpers import by_name as _by_name
from _local_helpers import value as _value

from spia_core.adversary.local import LocalAdversary


def test_a_form_key_that_names_a_job_is_the_job_of_the_name_after_it(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Patient: Ruth Abara\nGP: Dr Fenwick, Carlow Road Surgery\n"
        "Consultant: Dr Imran Sethi\nSeen in clinic today."
    )
    people = _by_name(adversary, text)
    assert _value(people["Ruth Abara"], "OCCUPATION") == ""
    assert _value(people["Fenwick"], "OCCUPATION") == "Doctor"
    assert _value(people["Imran Sethi"], "OCCUPATION") == "Consultant"


def test_a_court_form_key_names_a_lawyer(adversary: LocalAdversary) -> None:
    text = "Case 12 listed for Tuesday.\nProsecuting: Ms Ashdown\nDefending: Mr Kelleher"
    people = _by_name(adversary, text)
    assert _value(people["Ashdown"], "OCCUPATION") == "Lawyer"
    assert _value(people["Kelleher"], "OCCUPATION") == "Lawyer"


def test_a_job_word_right_before_a_name_is_that_persons(adversary: LocalAdversary) -> None:
    text = (
        "Our van drivers Lewis and Mateusz did brilliantly during the snow week, and our "
        "cook Bev kept everyone fed."
    )
    people = _by_name(adversary, text)
    assert _value(people["Lewis"], "OCCUPATION") == "Van driver"
    assert _value(people["Mateusz"], "OCCUPATION") == "Van driver"
    assert _value(people["Bev"], "OCCUPATION") == "Cook"


def test_a_role_after_a_letters_greeting_is_someone_else(adversary: LocalAdversary) -> None:
    text = (
        "Dear Dr Okafor,\n\nYour patient, a 71-year-old retired plasterer, was seen in the "
        "fracture clinic today.\n\nKind regards,\nNina"
    )
    okafor = _by_name(adversary, text)["Okafor"]
    assert _value(okafor, "AGE") == ""
    assert "plasterer" not in _value(okafor, "OCCUPATION").lower()


def test_shops_named_like_people_are_no_people(adversary: LocalAdversary) -> None:
    text = (
        "I collected my inhaler from Boots after work, and my aunt sent a gift card from "
        "John Lewis for my thirtieth."
    )
    names = _by_name(adversary, text)
    assert "Boots" not in names
    assert "John Lewis" not in names


def test_a_person_who_shares_a_shops_name_is_still_a_person(adversary: LocalAdversary) -> None:
    assert "John Lewis" in _by_name(adversary, "John Lewis fixed our boiler on Friday.")


def test_the_contact_named_at_the_end_of_a_listing_is_its_writer(
    adversary: LocalAdversary,
) -> None:
    text = (
        "FOUND: set of car keys with a red fob near the library steps on Saturday.\n"
        "Describe the fob to claim them. Call or text Orla on 07700 900987, evenings only."
    )
    writer = next(s for s in adversary.infer(text).subjects if "author" in s.description)
    assert _value(writer, "NAME") == "Orla"
    assert _value(writer, "PHONE_NUMBER") == "07700 900987"


def test_a_tradesman_praised_before_his_number_is_not_the_writer(
    adversary: LocalAdversary,
) -> None:
    text = "Kofi rewired our kitchen in two days, tidy and fair. Ring Kofi on 07700 900654."
    writer = next(s for s in adversary.infer(text).subjects if "author" in s.description)
    assert _value(writer, "NAME") == ""


def test_a_titled_sender_with_an_address_is_one_writer(adversary: LocalAdversary) -> None:
    text = (
        "From: Mrs Dorothy Quayle, 7 Jacaranda Close, Ashgrove QLD 4060\n\n"
        "Dear Sir or Madam,\nI write about the broken streetlight outside my house."
    )
    result = adversary.infer(text)
    named = [_value(s, "NAME") for s in result.subjects]
    assert named.count("Dorothy Quayle") == 1
    assert "author" in result.subjects[named.index("Dorothy Quayle")].description
    assert result.trace["document_country"] == "Australia"


def test_rang_is_no_ranger(adversary: LocalAdversary) -> None:
    text = "I rang the surgery twice this morning about my repeat prescription."
    writer = next(s for s in adversary.infer(text).subjects if "author" in s.description)
    assert _value(writer, "OCCUPATION") == ""


def test_a_handle_that_is_one_given_name_is_not_split(adversary: LocalAdversary) -> None:
    text = "Reproduced on Windows too. Maybe @mateusz-k or @chiamaka could check the installer?"
    names = list(_by_name(adversary, text))
    assert "Mateusz" in names
    assert "Chiamaka" in names


def test_a_job_title_on_a_cv_line_is_no_person(adversary: LocalAdversary) -> None:
    text = (
        "EXPERIENCE\nCharge Nurse, Renal Unit, Royal Infirmary (2020 - present)\n"
        "Ward Nurse, Ward 12, City Hospital (2015 - 2020)"
    )
    names = _by_name(adversary, text)
    assert "Ward Nurse" not in names
    assert "Charge Nurse" not in names


def test_a_masked_sender_keeps_its_placeholder(adversary: LocalAdversary) -> None:
    text = "From: [PERSON], [QUANTITY] [LOC], [LOC]\n\nDear Sir,\nI write about the bins."
    writer = next(s for s in adversary.infer(text).subjects if "author" in s.description)
    assert writer.description.startswith("[PERSON] ")


def test_the_person_a_statement_is_of_is_its_writer(adversary: LocalAdversary) -> None:
    text = (
        "WITNESS STATEMENT\nStatement of: Gráinne Foley\nAge: over 18\n\n"
        "I was waiting at the bus stop on Capel Street when the van hit the cyclist."
    )
    writer = next(s for s in adversary.infer(text).subjects if "author" in s.description)
    assert _value(writer, "NAME") == "Gráinne Foley"
