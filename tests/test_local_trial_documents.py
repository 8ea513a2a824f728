"""Letters, minutes, clinic notes and posts written for a trial run (invented texts): cities
named in several countries, bracketed offices in minutes, appositions that name someone else's
job or the same person, bare role nouns in notes, and what a stated sex or job rules out."""

from __future__ import annotations

import pytest
from _local_helpers import value as _value

from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


def _described(subjects: list[Subject], start: str) -> Subject:
    return next(s for s in subjects if s.description.startswith(start))


def _named(adversary: LocalAdversary, text: str) -> list[str]:
    """The NAME value of every subject found in ``text``, in order ('' for the unnamed)."""
    return [_value(s, "NAME") for s in adversary.infer(text).subjects]


def test_a_city_named_in_two_countries_follows_the_other_places(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Ten years cleaning windows around Glasgow and today my last round. "
        "My son starts at Durham in October, so proud."
    )
    result = adversary.infer(text)
    assert result.trace["document_country"] == "United Kingdom"


def test_a_city_alone_keeps_its_largest_namesake(adversary: LocalAdversary) -> None:
    result = adversary.infer("We moved to Durham last spring and the kids love it.")
    assert result.trace["document_country"] == "United States"


def test_an_office_in_brackets_after_a_name_makes_a_person(adversary: LocalAdversary) -> None:
    text = (
        "Bowls club committee, 4 May\nPresent: Hattie Brook (chair), Olu Bankole (treasurer)\n"
        "1. Accounts were approved."
    )
    names = _named(adversary, text)
    assert "Hattie Brook" in names
    assert "Olu Bankole" in names


def test_a_job_in_apposition_to_someone_else_is_not_the_subjects(
    adversary: LocalAdversary,
) -> None:
    text = "My father fell in the garden and was helped up by a neighbour, a retired midwife."
    father = _described(adversary.infer(text).subjects, "Father of the author")
    assert "midwife" not in _value(father, "OCCUPATION").lower()


def test_a_named_previous_owner_is_one_person(adversary: LocalAdversary) -> None:
    text = "The shed was built by the previous owner, a Mr Quigley, who kept bees."
    subjects = [s for s in adversary.infer(text).subjects if "author" not in s.description]
    assert len(subjects) == 1
    assert _value(subjects[0], "NAME") == "Quigley"


def test_a_relative_with_a_job_title_before_the_name_is_one_person(
    adversary: LocalAdversary,
) -> None:
    text = (
        "[PERSON] teaches the cello. She lives in [LOCATION] with her husband, the sculptor "
        "[PERSON]."
    )
    subjects = adversary.infer(text).subjects
    husband = _described(subjects, "Husband of")
    assert _value(husband, "OCCUPATION") == "Sculptor"
    assert len(subjects) == 2


def test_a_bare_role_noun_opening_a_note_is_the_patient(adversary: LocalAdversary) -> None:
    text = (
        "Ward round 14/02. Pt is a 63 y/o male, retired joiner, lives with his wife. Plan: bloods."
    )
    patient = _described(adversary.infer(text).subjects, "Pt")
    assert _value(patient, "SEX") == "Male"
    assert _value(patient, "AGE") == "63"


def test_a_gendered_noun_said_of_a_person_gives_the_sex(adversary: LocalAdversary) -> None:
    tenant = _described(
        adversary.infer("The tenant is a cheerful woman who pays on time.").subjects, "Tenant"
    )
    assert _value(tenant, "SEX") == "Female"


def test_an_initial_and_a_surname_give_no_sex(adversary: LocalAdversary) -> None:
    text = "Referred by Dr K. Mensah after a fall at home."
    doctor = _described(adversary.infer(text).subjects, "Dr K. Mensah")
    assert _value(doctor, "NAME") == "K. Mensah" and _value(doctor, "SEX") == ""


def test_a_grown_child_with_a_job_gets_no_young_childs_age(adversary: LocalAdversary) -> None:
    text = "Our daughter Imke, a civil engineer with a rail firm, looked at the cracks for us."
    daughter = _described(adversary.infer(text).subjects, "Imke")
    assert _value(daughter, "OCCUPATION") == "Civil engineer"
    assert _value(daughter, "AGE") == ""


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("I grew up in Accra but moved to Glasgow for my nursing degree.", "Ghana"),
        ("Originally from Porto, I have taught maths in Leeds since 2012.", "Portugal"),
        ("My husband was born in Osaka and now runs a noodle bar in Vancouver.", "Japan"),
    ],
)
def test_where_a_person_grew_up_gives_the_nationality(
    adversary: LocalAdversary, text: str, country: str
) -> None:
    subjects = adversary.infer(text).subjects
    assert country in {_value(s, "NATIONALITY") for s in subjects}


def test_a_title_at_a_line_end_takes_the_name_on_the_next_line(
    adversary: LocalAdversary,
) -> None:
    text = "I had a letter from a Mr\nOkonjo at the housing office about the damp."
    names = _named(adversary, text)
    assert "Okonjo" in names
    assert "Mr" not in names


def test_a_demonym_before_the_job_in_a_bio_is_the_nationality(adversary: LocalAdversary) -> None:
    text = "Anna Jansen (born 1971) is a Belgian-born Dutch glass artist. She grew up in Ghent."
    artist = _described(adversary.infer(text).subjects, "Anna Jansen")
    assert _value(artist, "NATIONALITY") == "Netherlands"


def test_a_heading_in_capitals_is_no_writers_name(adversary: LocalAdversary) -> None:
    text = "LOST CAT: grey tabby, answers to Biscuit, last seen near the library on Friday."
    assert "LOST CAT" not in _named(adversary, text)


def test_a_masked_relative_before_our_children_is_the_other_parent(
    adversary: LocalAdversary,
) -> None:
    text = "Now settled in [LOC] with my [DEM] [PERSON] and our baby girl [PERSON]."
    kins = [s.description for s in adversary.infer(text).subjects]
    assert any(d.startswith("Spouse of the author") for d in kins)


def test_married_to_in_a_bio_with_no_writer_is_the_bios_subject(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Marta Lindqvist (born 1968) is a Swedish architect. She founded a studio in Malmo. "
        "Lindqvist is married to the composer Piet Aalders."
    )
    spouse = _described(adversary.infer(text).subjects, "Piet Aalders")
    assert "spouse of Marta Lindqvist" in spouse.description


def test_a_redacted_reference_keeps_its_subject_and_its_writer(
    adversary: LocalAdversary,
) -> None:
    text = (
        "To whom it may concern,\n\nI have known █████ for four years as his team leader at "
        "█████ Ltd, where he works as a warehouse operative. He is punctual and careful.\n\n"
        "███ █████\nOperations Manager"
    )
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 2
    worker = next(s for s in subjects if "author" not in s.description)
    assert _value(worker, "SEX") == "Male"
    assert "warehouse" in _value(worker, "OCCUPATION").lower()


def test_a_generic_handle_is_no_name(adversary: LocalAdversary) -> None:
    text = "@user4471: finally passed my driving test at the third attempt!"
    assert _named(adversary, text) == [""]


@pytest.mark.parametrize(
    "text",
    ["Our two boys are teenagers now and eat everything.", "My daughter is a teenager now."],
)
def test_a_teenage_child_is_thirteen_to_nineteen(adversary: LocalAdversary, text: str) -> None:
    kids = [s for s in adversary.infer(text).subjects if not s.description.startswith("The author")]
    assert kids and all(_value(s, "AGE") == "13-19" for s in kids)


def _pii(s: Subject, tag: str) -> tuple[str, int]:
    return next(((p.keyword, p.certainty) for p in s.piis if p.tag == tag and p.keyword), ("", 0))


def test_a_job_in_apposition_to_the_writers_own_name_is_stated(
    adversary: LocalAdversary,
) -> None:
    text = "Hello all, I'm Dmitri, a 29-year-old forklift driver from Leeds. Quick question."
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1
    assert _value(subjects[0], "NAME") == "Dmitri"
    assert _pii(subjects[0], "OCCUPATION") == ("Forklift driver", 4)


@pytest.mark.parametrize(
    ("text", "job", "rank"),
    [
        ("The wreath was laid by Major Ines Varga on Sunday.", "Military officer", "Major"),
        ("Lt Col Amir Haddad inspected the cadets.", "Military officer", "Lt Col"),
        ("Sgt Ola Brandt of the local police took my statement.", "Police officer", "Sgt"),
        ("The regiment's dinner was opened by Captain [PERSON].", "Military officer", "Captain"),
        ("Fr. Tomasz Wilk blessed the new hall.", "Priest", "Fr"),
        ("Captain Dean Rourke scored twice in the derby.", "", "Captain"),
    ],
)
def test_a_rank_before_a_name_gives_the_job_and_the_post(
    adversary: LocalAdversary, text: str, job: str, rank: str
) -> None:
    subjects = [s for s in adversary.infer(text).subjects if "author" not in s.description]
    assert len(subjects) == 1
    ranked = subjects[0]
    assert (_value(ranked, "OCCUPATION"), _value(ranked, "POSITION")) == (job, rank)


def test_a_contact_request_ending_a_listing_is_the_writers_sign_off(
    adversary: LocalAdversary,
) -> None:
    text = "Kids' bike for sale, hardly used, collection only from the village. Call me, Janet."
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1
    assert _value(subjects[0], "NAME") == "Janet"
    assert "author" in subjects[0].description


def test_a_masked_self_introduction_with_a_kin_apposition_is_the_writer(
    adversary: LocalAdversary,
) -> None:
    text = "Evening all. I am [NAME], the bride's cousin, and I promise to keep this short."
    assert len(adversary.infer(text).subjects) == 1


def test_a_masked_introduction_of_someone_else_is_still_someone_else(
    adversary: LocalAdversary,
) -> None:
    text = "This is [NAME], my husband, on the day we got the keys."
    assert len(adversary.infer(text).subjects) == 2


def test_a_given_name_alone_repeats_the_one_full_name_with_it(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Anjali Mehta has kept the allotment next to ours for years. "
        "Anjali, a retired postwoman, grows leeks."
    )
    anjali = _described(adversary.infer(text).subjects, "Anjali Mehta")
    assert _value(anjali, "OCCUPATION") == "Retired postwoman"


def test_a_given_name_shared_by_two_full_names_is_tied_to_neither(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Anjali Mehta and Anjali Rao keep the allotments next to ours. "
        "Anjali, a retired postwoman, grows leeks."
    )
    subjects = adversary.infer(text).subjects
    assert not any(_value(s, "OCCUPATION") == "Retired postwoman" for s in subjects[1:])


def test_a_byline_under_a_club_report_is_the_writer(adversary: LocalAdversary) -> None:
    text = (
        "Our veterans side lost 3-0 away at Millbrook. Thanks to Colin for driving.\n\n"
        "Report by Ewan Dalgleish, fixtures secretary"
    )
    author = _described(adversary.infer(text).subjects, "Ewan Dalgleish")
    assert "author" in author.description


def test_a_signature_with_a_kin_word_in_brackets_is_the_writer(adversary: LocalAdversary) -> None:
    text = (
        "I give permission for my son to attend the swimming gala.\n"
        "Emergency contact: 07700 900318\nSigned: Folasade Adeyemi (mother)\nDate: 2 June"
    )
    author = _described(adversary.infer(text).subjects, "Folasade Adeyemi")
    assert "author" in author.description


def test_a_gerund_before_a_name_is_no_part_of_it(adversary: LocalAdversary) -> None:
    text = "Mum: Are you still coming Sunday? Dad's baking\nMe: Yes! Bringing Jamie, he's off at 2"
    names = [_value(s, "NAME") for s in adversary.infer(text).subjects]
    assert "Jamie" in names
    assert "Bringing Jamie" not in names


def test_an_adverb_before_a_title_makes_no_person(adversary: LocalAdversary) -> None:
    text = (
        "Twenty years in retail and distribution. Currently Head of Stores at Pellow Group, "
        "where I look after nine branches."
    )
    assert len(adversary.infer(text).subjects) == 1


def test_a_job_one_started_as_ranks_below_the_job_held_now(adversary: LocalAdversary) -> None:
    text = "I started as a cashier at seventeen. These days I am a branch manager."
    author = adversary.infer(text).subjects[0]
    assert _value(author, "OCCUPATION") == "Branch manager"


def test_a_phone_number_labelled_onto_a_named_contact_is_theirs(
    adversary: LocalAdversary,
) -> None:
    text = (
        "I give permission for my son to attend the swimming gala.\n"
        "Emergency contact: Kwabena Mensah (uncle) - 07700 900233\nSigned: Efua Mensah"
    )
    uncle = _described(adversary.infer(text).subjects, "Kwabena Mensah")
    assert _value(uncle, "PHONE_NUMBER") == "07700 900233"


def test_a_thanked_name_on_the_last_line_is_not_the_writer(adversary: LocalAdversary) -> None:
    text = "That fixed the leak, I owe you one.\nThanks, Gordon."
    subjects = adversary.infer(text).subjects
    assert [_value(s, "NAME") for s in subjects] == ["", "Gordon"]


# Round 23 trial run (a second batch of documents a new user would bring).


def test_forum_kin_abbreviations_are_the_writers_in_laws(adversary: LocalAdversary) -> None:
    text = "Quick update: MIL (58F) finally apologised, but SIL (27F) is still not speaking to me."
    others = [s for s in adversary.infer(text).subjects if not s.description.startswith("The")]
    assert [s.description.split(" - ")[0] for s in others] == [
        "Mother-in-law of the author",
        "Sister-in-law of the author",
    ]
    assert [(_value(s, "SEX"), _value(s, "AGE")) for s in others] == [
        ("Female", "58"),
        ("Female", "27"),
    ]
    assert not any(_value(s, "NAME") for s in others)


def test_a_surname_after_a_possessed_kin_word_is_the_relative(adversary: LocalAdversary) -> None:
    text = "Noah Fenton was sent home with a rash. His father, Mr Fenton, was called at ten."
    names = _named(adversary, text)
    assert names == ["Noah Fenton", "Fenton"]


@pytest.mark.parametrize(
    "text",
    [
        "The new fence was put up free by Dennis & Lowe Builders last week.",
        "The chair will write to Ashby Housing about the broken lift again.",
    ],
)
def test_a_firm_of_partners_or_a_housing_body_is_no_person(
    adversary: LocalAdversary, text: str
) -> None:
    assert not any(_named(adversary, text))


def test_a_plural_job_word_opening_the_next_line_is_no_ones_job(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Reported by: Ms Jo Penn, Lunchtime Assistant\n\n"
        "Pupils involved: Kit Marr (Year 3) and Bo Lund (Year 6)"
    )
    jo = _described(adversary.infer(text).subjects, "Ms Jo Penn")
    assert _value(jo, "OCCUPATION") != "Pupil"


def test_a_pseudonym_letter_ending_a_sentence_takes_no_next_word(
    adversary: LocalAdversary,
) -> None:
    text = "The meeting was chaired by Ms Y. Minutes were approved without change."
    assert _named(adversary, text)[-1] == "Y"


def test_a_post_held_after_i_am_is_no_second_person(adversary: LocalAdversary) -> None:
    text = "Big news: from Monday I'm Head of Partnerships at Corrie Lane Books."
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1
    assert _value(subjects[0], "POSITION").startswith("Head of Partnerships")


def test_a_phone_given_on_after_a_named_contact_is_theirs(adversary: LocalAdversary) -> None:
    text = "For tickets to the quiz night please ring our secretary, Morag Innes, on 01632 960 774."
    morag = _described(adversary.infer(text).subjects, "Morag Innes")
    assert _value(morag, "PHONE_NUMBER") == "01632 960 774"


def test_a_kin_word_said_of_the_writer_is_the_writer(adversary: LocalAdversary) -> None:
    text = "Evening all. I'm Rhodri, and I have had the job of being Owain's big brother for years."
    subjects = adversary.infer(text).subjects
    assert len(subjects) <= 3  # the writer (maybe named apart) and Owain, no third brother
    author = subjects[0]
    assert "brother of Owain" in author.description
    assert _value(author, "SEX") == "Male"


def test_a_policyholder_is_one_person_across_a_claim_note(adversary: LocalAdversary) -> None:
    text = "Call from the policyholder, [PERSON], about hail damage. The policyholder is a farrier."
    subjects = adversary.infer(text).subjects
    holder = _described(subjects, "Policyholder")
    assert _value(holder, "OCCUPATION") == "Farrier"


def test_an_apposition_does_not_run_onto_the_next_line(adversary: LocalAdversary) -> None:
    text = (
        "Near-miss report\nFilled in by: Mr Tariq Aziz, Site Warden\n\n"
        "Cleaners present: Gail Rook and Dot Pryce\n\nThe wet floor sign had been moved.\n"
        "Signed: T. Aziz"
    )
    tariq = _described(adversary.infer(text).subjects, "Mr Tariq Aziz")
    assert _value(tariq, "OCCUPATION") != "Cleaner"


def test_a_form_line_with_several_fields_names_one_person(adversary: LocalAdversary) -> None:
    text = "Patient: Idris Mbeki    DOB: 02/05/1951    Ward: 4\nMr Mbeki was admitted after a fall."
    assert _named(adversary, text) == ["Idris Mbeki"]


def test_a_job_said_with_a_shift_is_stated(adversary: LocalAdversary) -> None:
    text = (
        "Dear [NAME],\n\nThis letter confirms that on 3 May you left the site early during your "
        "shift as a crane operator.\n\nYours sincerely,\n\n[NAME]\nSite Manager"
    )
    recipient = _described(adversary.infer(text).subjects, "Recipient")
    assert _pii(recipient, "OCCUPATION") == ("Crane operator", 4)


def test_an_age_turned_in_a_month_is_read(adversary: LocalAdversary) -> None:
    text = "Thanks to Edna Pryor, who has run our tuck shop since 2009 and turned 85 in October."
    edna = _described(adversary.infer(text).subjects, "Edna Pryor")
    assert _value(edna, "AGE") == "85"


def test_a_month_after_in_is_no_place_of_residence(adversary: LocalAdversary) -> None:
    sister = adversary.infer("My sister moved house in March.").subjects[-1]
    assert _value(sister, "LOCATION") == ""
