"""Documents written for a trial run, round 15 of the trials (invented texts): each speaker of a
chat export and each quoted writer of an e-mail thread speaks for themself ("I", "my"), a
sign-off with a role in brackets names the writer, a CV headed by a name in capitals and a
"Niamh, 41" profile header are the writer's, a pet's age is no person's, and "works at X" names
an employer, not a home."""

from __future__ import annotations

from _local_helpers import by_name as _by_name
from _local_helpers import value as _value

from spia_core.adversary.local import LocalAdversary


def test_each_chat_speaker_says_their_own_i(adversary: LocalAdversary) -> None:
    text = (
        "#rota, Monday\n\nPriya Raman  09:02\nmorning! I'm a pharmacist so I can cover the "
        "dispensary until noon.\n\nTomasz Nowak  09:05\nthanks Priya. my wife is unwell so I "
        "will be in late, I'm a plumber by trade so I'll look at the leak after lunch\n"
    )
    subjects = adversary.infer(text).subjects
    people = {_value(s, "NAME"): s for s in subjects}
    assert _value(people["Priya Raman"], "OCCUPATION") == "Pharmacist"
    assert _value(people["Tomasz Nowak"], "OCCUPATION") == "Plumber"
    assert not any(s.description.startswith("The author") for s in subjects)
    assert any(s.description.startswith("Wife of Tomasz Nowak") for s in subjects)


def test_a_quoted_reply_is_the_quoted_writers(adversary: LocalAdversary) -> None:
    text = (
        "Works for me, see you on Thursday.\n\nOn Tue, 4 Mar, Hannah Clarke wrote:\n"
        "> I'm a paediatric nurse at the Royal Infirmary and my husband Tom is a plumber.\n"
        "> I can bring the tea urn.\n"
    )
    subjects = adversary.infer(text).subjects
    people = {_value(s, "NAME"): s for s in subjects}
    assert _value(people["Hannah Clarke"], "OCCUPATION") == "Nurse"
    assert "husband of Hannah Clarke" in people["Tom"].description
    author = next(s for s in subjects if "author of the text" in s.description)
    assert _value(author, "OCCUPATION") == ""


def test_a_sign_off_with_a_bracketed_role_names_the_writer(adversary: LocalAdversary) -> None:
    text = (
        "I can reproduce the crash on the nightly build, and I'll bisect it tonight.\n\n"
        "-- Wojciech (maintainer, doing this in my evenings)"
    )
    subjects = adversary.infer(text).subjects
    assert _value(subjects[0], "NAME") == "Wojciech"
    assert "author of the text" in subjects[0].description
    assert len(subjects) == 1


def test_a_signature_before_a_quoted_reply_names_the_writer(adversary: LocalAdversary) -> None:
    text = (
        "Hi all,\n\nFine by me, I'll update the rota tonight.\n\nGreg (Chair, Elm Park Bowls Club)"
        "\n\n> On 2 Feb, Lena Ortiz wrote:\n> I'm a midwife, so nights are hard for me.\n"
    )
    subjects = adversary.infer(text).subjects
    assert _value(subjects[0], "NAME") == "Greg"
    people = {_value(s, "NAME"): s for s in subjects}
    assert _value(people["Lena Ortiz"], "OCCUPATION") == "Midwife"


def test_a_cv_headed_by_a_name_in_capitals_is_its_writers(adversary: LocalAdversary) -> None:
    text = (
        "BEATRIZ HELENA SOUZA\nPorto Alegre, Brazil | +55 51 5550 1234 | bh.souza@example.com\n\n"
        "EXPERIENCE\nPharmacist, Central Pharmacy, Porto Alegre (2018 - present)\n"
    )
    subjects = adversary.infer(text).subjects
    writer = next(s for s in subjects if _value(s, "EMAIL_ADDRESS"))
    assert _value(writer, "NAME").lower() == "beatriz helena souza"
    assert _value(writer, "PHONE_NUMBER")
    assert "author of the text" in writer.description


def test_a_profile_header_gives_the_writer_a_name_and_age(adversary: LocalAdversary) -> None:
    text = (
        "Niamh, 41\nCork, Ireland\n\nAbout me: I'm a physiotherapist and mum of one (he's 9 "
        "and mad about hurling). Looking for someone who likes hill walks."
    )
    subjects = adversary.infer(text).subjects
    assert _value(subjects[0], "NAME") == "Niamh"
    assert _value(subjects[0], "AGE") == "41"
    assert len([s for s in subjects if _value(s, "NAME")]) == 1


def test_a_pets_age_is_no_persons(adversary: LocalAdversary) -> None:
    text = (
        "Pepper, our black spaniel, 6 years old, ran off in the park on Sunday. Please call me "
        "on 07700 900456 if you see her."
    )
    assert all(_value(s, "AGE") != "6" for s in adversary.infer(text).subjects)


def test_an_employer_after_works_at_is_no_home(adversary: LocalAdversary) -> None:
    text = "My sister Leanne works at Harvey Norman and loves it."
    people = _by_name(adversary, text)
    assert "Harvey" not in _value(people["Leanne"], "LOCATION")
