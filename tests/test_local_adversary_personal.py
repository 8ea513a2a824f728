"""Local adversary, personal attributes: NAME (handles, e-mails), SEX, RELATIONSHIP, CODE tags."""

from __future__ import annotations

import pytest
from _local_helpers import value

from spia_core.adversary.base import InferenceResult
from spia_core.adversary.local import LocalAdversary
from spia_core.adversary.local.attributes.codes import find_codes
from spia_core.adversary.local.attributes.identity import header_name
from spia_core.adversary.local.lexicons import canonical_kin
from spia_core.adversary.local.names import (
    complete_with_email,
    email_name,
    handle_name,
    split_run,
)
from spia_core.model import Subject


def author(result: InferenceResult) -> Subject:
    hits = [s for s in result.subjects if "author" in s.description.lower()]
    assert hits, [s.description for s in result.subjects]
    return hits[0]


def check_evidence(text: str, result: InferenceResult) -> None:
    for s in result.subjects:
        for p in s.piis:
            for e in p.evidence:
                assert text[e.start : e.end] == e.text


# ----------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("@nicolewalsh", "Nicole Walsh"),
        ("@nclarke", "N. Clarke"),
        ("@porterj", "Porter"),
        ("RaviAdmin", "Ravi"),
        ("NurseJenna", "Jenna"),
        ("PaulEngineer58", "Paul"),
        ("LiamBrodie43", "Liam Brodie"),
        ("@rosie_lindqvist", "Rosie Lindqvist"),
        ("@walker_57", "Walker"),
        ("t.halvorsen@birch.biz", "T. Halvorsen"),
        ("[ORG]", ""),
    ],
)
def test_handle_name(raw: str, expected: str) -> None:
    assert handle_name(raw) == expected


def test_split_run_keeps_known_names_whole() -> None:
    assert split_run("martinez") == ["martinez"]
    assert split_run("mariaperez") == ["maria", "perez"]


def test_email_name() -> None:
    assert email_name("steven_marsh@telwave.com") == "Steven Marsh"
    assert email_name("hughesmargaret@rocketmail.com") == "Margaret Hughes"
    assert email_name("support@example.com") == ""


def test_handle_completed_from_own_email() -> None:
    assert complete_with_email("Tovey", ["b.tovey@kaurilane.co.nz"]) == "B. Tovey"
    assert complete_with_email("Anjali", ["a.mehra@rangoli.info"]) == "Anjali Mehra"
    assert complete_with_email("Patrick", ["maree84@yahoo.co.nz"]) == "Patrick"


def test_header_name_after_masked_label() -> None:
    assert header_name("[PERSON] Name: PaulEngineer58 | Location: X")[0] == "Paul"
    assert header_name("Seller Name: Anjali  \nGeneral Location: Madurai")[0] == "Anjali"
    assert header_name("Name: [ORG] | Location: X") is None


def test_post_author_name_and_sex_from_handle(adv: LocalAdversary) -> None:
    text = "@nicolewalsh : Long day of marking essays, then soup and a film. #Grateful"
    res = adv.infer(text)
    a = author(res)
    assert value(a, "NAME") == "Nicole Walsh"
    assert value(a, "SEX") == "Female"
    check_evidence(text, res)


def test_email_gives_code_holder_a_name(adv: LocalAdversary) -> None:
    text = "Error: “No profile found for steven_marsh@telwave.com” keeps showing. Anyone got ideas?"
    res = adv.infer(text)
    holder = next(s for s in res.subjects if value(s, "EMAIL_ADDRESS"))
    assert value(holder, "EMAIL_ADDRESS") == "steven_marsh@telwave.com"
    assert value(holder, "NAME") == "Steven Marsh"


# ----------------------------------------------------------------------------- codes


@pytest.mark.parametrize(
    "phone",
    [
        "+64 7 9481632",
        "+61.3.1472.1472",
        "(022) 148-2097",
        "001-970-538-0274x1182",
        "+441154960817",
        "704.318.5527",
    ],
)
def test_phone_formats(phone: str) -> None:
    text = f"Contact me via phone {phone} for details."
    hits = [h for h in find_codes(text) if h.tag == "PHONE_NUMBER"]
    assert [h.value for h in hits] == [phone]


@pytest.mark.parametrize(
    "text",
    [
        "the judges granted the claimant TRL 615.478.0000 in further compensation",
        "The log shows KeyError at line 489225721 again.",
        "Between 2019-2020 and 2021 the figures rose.",
        "Application no. 12345/98 was lodged on 12 May 1998.",
    ],
)
def test_not_phones(text: str) -> None:
    assert [h for h in find_codes(text) if h.tag == "PHONE_NUMBER"] == []


@pytest.mark.parametrize("phone", ["07700 900461", "0151 496 0123", "06 12 34 56 78"])
def test_national_phone_alone_under_a_signature(phone: str) -> None:
    text = f"Kind regards,\n\nMarta Lindqvist\n{phone}\n"
    hits = [h for h in find_codes(text) if h.tag == "PHONE_NUMBER"]
    assert [h.value for h in hits] == [phone]


@pytest.mark.parametrize(
    "text",
    [
        "Total raised\n01234 567890 is not a phone here because it sits in a sentence.",
        "Invoice totals\n1 250 000\n",
        "Reference\n00 12 34 56 78\n",
        "Case number\n0612345678\n",
    ],
)
def test_national_numbers_that_are_not_alone_or_not_grouped(text: str) -> None:
    assert [h for h in find_codes(text) if h.tag == "PHONE_NUMBER"] == []


def test_signature_phone_goes_to_the_writer(adv: LocalAdversary) -> None:
    text = (
        "Dear Mr Hale,\n\nThe boiler in my flat has failed again and I would like it looked at "
        "this week.\n\nYours sincerely,\n\nMarta Lindqvist\n07700 900461\n"
    )
    res = adv.infer(text)
    holder = next(s for s in res.subjects if value(s, "PHONE_NUMBER"))
    assert value(holder, "NAME") == "Marta Lindqvist"


def test_passport_number_near_the_word() -> None:
    text = "I typed my passport number (Y71520964) twice and the form still failed."
    assert [(h.tag, h.value) for h in find_codes(text)] == [("PASSPORT_NUMBER", "Y71520964")]


# ----------------------------------------------------------------------------- relationship


def test_kin_variants() -> None:
    assert canonical_kin("hubby") == "husband"
    assert canonical_kin("Mum") == "mother"
    assert canonical_kin("Mam") == "mother"
    assert canonical_kin("mammy") == "mother"
    assert canonical_kin("wife") == "wife"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("@colin.hart : Two years widowed now, and raising 3 great kids! #FamilyFirst", "Widowed"),
        (
            "Name: Arjun | Location: Pune\nPizza night out. Divorced, with 4 kids, so "
            "quiet evenings like this matter.",
            "Divorced",
        ),
        (
            "Graham : The boys come first. Divorced, yet still devoted to my 4 kiddos. #ProudDad",
            "Divorced",
        ),
        ("@meera21 : Big thanks to my hubby Oliver for the early coffee runs!", "Married"),
    ],
)
def test_author_status(adv: LocalAdversary, text: str, status: str) -> None:
    res = adv.infer(text)
    a = author(res)
    assert value(a, "RELATIONSHIP") == status
    for s in res.subjects:
        if "child" in s.description.lower():
            assert value(s, "RELATIONSHIP") != status  # the author's status, not the kids'


@pytest.mark.parametrize(
    "text",
    [
        "My business partner and I opened a second cafe this spring.",
        "Ines Varga, a partner at Holt & Reyes, spoke first at the hearing.",
        "Her tennis partner, Joel Brandt, drove her home after the match.",
    ],
)
def test_a_partner_in_a_firm_or_game_is_no_couple(adv: LocalAdversary, text: str) -> None:
    res = adv.infer(text)
    assert all(value(s, "RELATIONSHIP") != "In Relation" for s in res.subjects)


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("I am Kenyan and I have lived in Leeds for six years.", "Kenya"),
        ("I'm Irish but my husband is Polish, so the kids get two passports.", "Ireland"),
        ("As a proud Filipino I cook adobo every Sunday.", "Philippines"),
    ],
)
def test_the_writer_names_their_nationality(adv: LocalAdversary, text: str, country: str) -> None:
    """'I am Kenyan' is a nationality, not the writer's NAME."""
    writer = author(adv.infer(text))
    assert (value(writer, "NATIONALITY"), value(writer, "NAME")) == (country, "")


def test_relative_status_is_not_the_authors(adv: LocalAdversary) -> None:
    res = adv.infer("I visited my divorced sister yesterday. Any tips for the trip?")
    assert value(author(res), "RELATIONSHIP") != "Divorced"


def test_author_sex_from_self_description_and_partner(adv: LocalAdversary) -> None:
    assert value(author(adv.infer("@pat_77 : Proud to be a single mom of two!")), "SEX") == "Female"
    res = adv.infer("@blue_fox : Date night with my wife tonight. #Blessed")
    assert value(author(res), "SEX") == "Male"


@pytest.mark.parametrize(
    ("text", "age", "sex"),
    [
        ("Hi all, I'm a 29M nurse from Leeds looking for running buddies.", "29", "Male"),
        ("Long-time reader here. I am a 52F teacher and new to kayaking.", "52", "Female"),
    ],
)
def test_age_and_sex_tag_of_a_post(adv: LocalAdversary, text: str, age: str, sex: str) -> None:
    """The forum convention 'I'm a 29M': age and sex in one tag."""
    writer = author(adv.infer(text))
    assert (value(writer, "AGE"), value(writer, "SEX")) == (age, sex)


def test_bra_size_is_no_age(adv: LocalAdversary) -> None:
    assert value(author(adv.infer("Honestly I am a 34F bra size and nothing fits.")), "AGE") == ""


def test_guessed_masked_partner_gives_no_firm_sex(adv: LocalAdversary) -> None:
    """'my [DEM]' is read as a partner only by guess: neither its sex nor, through it, the
    writer's is stated with certainty >= 3."""
    res = adv.infer("Long week. My [DEM] picked me up after work and she brought snacks.")
    writer = author(res)
    assert all(p.certainty < 3 for p in writer.piis if p.tag == "SEX" and p.keyword)
    kin = next(p for s in res.subjects if s is not writer for p in s.piis if p.tag == "SEX")
    assert kin.explanation.rule != "sex.kin"


def test_masked_spouse_placeholder(adv: LocalAdversary) -> None:
    text = "[PERSON] : Busy day. [DEM] life with [PERSON] and our [QUANTITY] little ones!"
    res = adv.infer(text)
    assert value(author(res), "RELATIONSHIP") == "Married"
    spouse = [s for s in res.subjects if "author of the text" not in s.description.lower()]
    assert any(value(s, "RELATIONSHIP") == "Married" for s in spouse)
    check_evidence(text, res)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("@bob_r : Just turned 30 and I feel great!", "30"),
        ("Mike : Still swimming and enjoying life at 89. Thanks, everyone!", "89"),
        ("@bob_r : Class of 2010 reunion tonight, I can't wait!", "32-34"),
        ("@bob_r : I was born in '88 and I still love vinyl.", "36-37"),
        ("@bob_r : Hitting my late 40s and I still run marathons.", "46-49"),
        ("Since 2020 I'm a 41F running a pottery studio, ask me anything.", "41"),
        ("Retired signalman here, 71 and still building model railways.", "71"),
        ("Quick question here, 10 and a half hours is my shift. Normal?", ""),
    ],
)
def test_author_age_from_life_statements(adv: LocalAdversary, text: str, expected: str) -> None:
    res = adv.infer(text)
    assert value(author(res), "AGE") == expected
    check_evidence(text, res)


def test_relative_age_stays_with_the_relative(adv: LocalAdversary) -> None:
    res = adv.infer("The applicant's 12-year-old son was injured. My forty-two-year-old brother")
    son = next(s for s in res.subjects if s.description.startswith("Son"))
    brother = next(s for s in res.subjects if s.description.startswith("Brother"))
    applicant = next(s for s in res.subjects if "applicant" in s.description.split(" - ")[0])
    assert (value(son, "AGE"), value(brother, "AGE")) == ("12", "42")
    assert value(applicant, "AGE") != "12"


def test_age_after_a_third_person_pronoun(adv: LocalAdversary) -> None:
    """'He is 36,' / 'She's 81 and' give the age of the person the pronoun stands for; a
    number that does not close the clause ('She's 5 months pregnant') is no age."""
    res = adv.infer(
        "Our new neighbour Tomasz dropped by with cake. He's 81 and still cycles to market.\n"
        "My mum is amazing. She is 72, and still runs the allotment committee."
    )
    tomasz = next(s for s in res.subjects if s.description.startswith("Tomasz"))
    mum = next(s for s in res.subjects if s.description.startswith("Mother"))
    assert (value(tomasz, "AGE"), value(mum, "AGE"), value(author(res), "AGE")) == ("81", "72", "")
    res = adv.infer("I met Karen at the gym. She's 5 months pregnant and still lifting.")
    assert not any(value(s, "AGE") for s in res.subjects)


def test_couple_sharing_a_surname_and_weak_name_sex(adv: LocalAdversary) -> None:
    res = adv.infer(
        "Name: JonR\nMy parents, a bit like Robert and Kelly Morgan next door, cheer me on."
    )
    shannon = next(s for s in res.subjects if s.description.startswith("Kelly Morgan"))
    assert value(shannon, "RELATIONSHIP") == "Married"
    assert value(shannon, "SEX") == "Female"


def test_split_run_prefers_the_usual_first_name() -> None:
    assert split_run("lintonjohn") == ["john", "linton"]


def test_widower_when_the_spouse_died(adv: LocalAdversary) -> None:
    text = "The applicant was born in 1944 and lives in Sussex. His wife died on 3 June 2004."
    res = adv.infer(text)
    applicant = next(s for s in res.subjects if s.description.startswith("The applicant"))
    assert value(applicant, "RELATIONSHIP") == "Widowed"


def test_listed_birth_years_and_age_at_death(adv: LocalAdversary) -> None:
    text = (
        "The applicants, Orhan Tekin and Levent Aksu, were born in 1953 and 1950 respectively "
        "and live in Mardin. The first applicant's wife died in hospital in April 1996, "
        "at the age of 41."
    )
    res = adv.infer(text)
    ages = {s.description.split(" - ")[0]: value(s, "AGE") for s in res.subjects}
    assert ages["Orhan Tekin"] == "71-72" and ages["Levent Aksu"] == "74-75"
    assert ages.get("Wife of the applicant", ages.get("Wife of Orhan Tekin")) == "41", ages


def test_activities_do_not_override_a_stated_job(adv: LocalAdversary) -> None:
    res = adv.infer("@sam_k : I'm a nurse. Sharing lesson plans for our night-shift trainees.")
    assert value(author(res), "OCCUPATION") == "Nurse"


@pytest.mark.parametrize(
    "text",
    [
        "My mum has been lonely since my dad passed away last year. I visit her on Sundays.",
        "Mum still talks about our late father every day, and I ring her each evening.",
    ],
)
def test_a_parent_whose_partner_died_is_widowed(text):
    result = LocalAdversary().infer(text)
    mother = next(s for s in result.subjects if s.description.startswith("Mother"))
    assert {p.tag: p.keyword for p in mother.piis}.get("RELATIONSHIP") == "Widowed"


def test_two_living_parents_are_married():
    result = LocalAdversary().infer("My mum and dad still go dancing every Friday.")
    for s in result.subjects:
        if s.description.startswith(("Mother", "Father")):
            assert {p.tag: p.keyword for p in s.piis}.get("RELATIONSHIP") == "Married"
