"""Forms, notes and letters (invented texts): form keys are no names, a clipped NER name is
completed, a note's unnamed 'she' is a person, codes go to the person they are labelled on, and
a letter's 'you' is its addressee."""

from __future__ import annotations

import pytest
from _local_helpers import value as _value

from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


def _subjects(adversary: LocalAdversary, text: str) -> list[Subject]:
    return adversary.infer(text).subjects


def _named(subjects: list[Subject], name: str) -> Subject:
    return next(s for s in subjects if _value(s, "NAME") == name)


def test_a_form_key_is_no_name_and_its_value_is_the_person(adversary: LocalAdversary) -> None:
    text = "Patient Name: Aoife Brennan\nDOB: 12/03/1961\nSeen today for a sprained wrist."
    subjects = _subjects(adversary, text)
    names = [_value(s, "NAME") for s in subjects]
    assert "Patient Name" not in names
    assert "Aoife Brennan" in names


def test_a_given_name_before_a_clipped_ner_name_completes_it(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "Aoife Brennan was seen today for a sprained wrist.")
    assert _value(_named(subjects, "Aoife Brennan"), "SEX") == "Female"


def test_an_unnamed_she_in_a_note_is_a_person_with_her_husband(
    adversary: LocalAdversary,
) -> None:
    text = "Seen today for a sprained wrist. She was in pain and her husband drove her in."
    subjects = _subjects(adversary, text)
    woman = next(s for s in subjects if "woman" in s.description.lower())
    husband = next(s for s in subjects if s.description.startswith("Husband of the woman"))
    assert _value(woman, "SEX") == "Female"
    assert _value(husband, "SEX") == "Male"
    assert len(subjects) == 2


def test_a_he_after_a_named_relative_is_no_new_person(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "My brother called tonight. He sounded tired.")
    assert not any("called 'he'" in s.description for s in subjects)


def test_a_code_labelled_onto_a_name_is_that_persons(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "Applicant: Tomas Reyes, SSN 123-45-6789, applied on 3 May.")
    assert len(subjects) == 1
    assert _value(subjects[0], "IDENTIFICATION_NUMBER") == "123-45-6789"


def test_my_holder_id_is_the_writers_own(adversary: LocalAdversary) -> None:
    mine = _subjects(adversary, "My student ID is S1938475 and the portal keeps rejecting it.")
    assert len(mine) == 1 and _value(mine[0], "IDENTIFICATION_NUMBER") == "S1938475"
    theirs = _subjects(adversary, "My student's ID is S1938475 and the portal rejects it.")
    holder = [s for s in theirs if _value(s, "IDENTIFICATION_NUMBER")]
    assert len(theirs) == 2 and "author" not in holder[0].description


def test_a_patient_id_in_a_note_goes_to_its_she(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "Patient ID: 4471-882-19\nSeen today. She was in pain.")
    woman = next(s for s in subjects if "woman" in s.description.lower())
    assert _value(woman, "IDENTIFICATION_NUMBER") == "4471-882-19"
    assert sum(bool(_value(s, "IDENTIFICATION_NUMBER")) for s in subjects) == 1


def test_a_letters_you_statement_gives_the_addressee_a_job(adversary: LocalAdversary) -> None:
    text = (
        "Dear Mr Okafor,\nThank you for your letter. As you are a registered nurse, you may "
        "claim the allowance.\nYours sincerely,\nHelen Marsh"
    )
    subjects = _subjects(adversary, text)
    assert _value(_named(subjects, "Okafor"), "OCCUPATION") == "Registered nurse"


def test_a_redacted_letters_addressee_gets_the_you_job(adversary: LocalAdversary) -> None:
    text = (
        "Dear [NAME],\n\nHaving heard your explanation, and noting that you have been a forklift "
        "driver with the company for eleven years, I have decided to issue a warning.\n\n"
        "Yours sincerely,\n[NAME]\nOperations Manager"
    )
    subjects = _subjects(adversary, text)
    recipient = next(s for s in subjects if s.description.startswith("Recipient"))
    assert _value(recipient, "OCCUPATION") == "Forklift driver"


def test_a_letters_our_says_nothing_of_marriage(adversary: LocalAdversary) -> None:
    letter = (
        "Dear [NAME],\n\nFollowing our meeting on [DATE], I am writing to confirm the result "
        "of the review.\n\nYours sincerely,\n[NAME]"
    )
    author = next(s for s in _subjects(adversary, letter) if "author" in s.description)
    assert _value(author, "RELATIONSHIP") == ""
    post = "Back from our weekend in [LOCATION] with the dog, best trip in years."
    assert _value(_subjects(adversary, post)[0], "RELATIONSHIP") == "Married"


def test_a_dashed_sign_off_names_the_writer_and_their_town(adversary: LocalAdversary) -> None:
    text = "Anyone else's toddler refuse to nap? Tips welcome, I'm desperate. — Sinead, Galway"
    author = _subjects(adversary, text)[0]
    assert _value(author, "NAME") == "Sinead"
    assert _value(author, "LOCATION").startswith("Galway")
    news = _subjects(adversary, "Prices rose again this month. - Reuters")
    assert all(_value(s, "NAME") != "Reuters" for s in news)


def test_a_short_stay_or_a_visitors_origin_sets_no_country(adversary: LocalAdversary) -> None:
    text = (
        "Last shift at the bakery today! My husband has booked us a week in Lisbon, and our son "
        "flies in from Toronto on Sunday."
    )
    author = _subjects(adversary, text)[0]
    assert _value(author, "NATIONALITY") == ""
    assert _value(author, "LOCATION") == ""


def test_a_titled_redacted_doctor_is_not_the_redacted_patient(adversary: LocalAdversary) -> None:
    text = (
        "Patient: [REDACTED]\nConsultant: Dr [REDACTED], Cardiology\n\n[REDACTED] is a "
        "67-year-old retired teacher. His daughter visits daily. Follow-up with his GP, "
        "Dr [REDACTED], in two weeks."
    )
    described = [s.description for s in _subjects(adversary, text)]
    assert described[0].startswith("Patient - aged 67"), described
    assert any(d.startswith("Consultant") for d in described), described
    assert any(d.startswith("Daughter of the patient") for d in described), described
    assert len(described) == 4, described  # patient, consultant, GP, daughter


def test_a_city_after_a_move_verb_is_no_person(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "Just moved to Austin with my husband. Loving the heat!")
    assert "Austin" not in [_value(s, "NAME") for s in subjects]
    author = next(s for s in subjects if "author" in s.description.lower())
    assert _value(author, "LOCATION").startswith("Austin")


@pytest.mark.parametrize(
    ("text", "sex", "count"),
    [
        ("Our twin girls start school next week and I am a wreck.", "Female", 2),
        ("Took our three little boys to the beach today.", "Male", 3),
    ],
)
def test_counted_boys_and_girls_are_the_writers_children(
    adversary: LocalAdversary, text: str, sex: str, count: int
) -> None:
    kids = [s for s in _subjects(adversary, text) if " of the author" in s.description]
    assert len(kids) == count
    assert {_value(k, "SEX") for k in kids} == {sex}
    assert not any(s.description.startswith("Twin") for s in kids)


def test_uncounted_girls_may_be_friends(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "Drinks with my girls tonight, then home to bed.")
    assert not any(" of the author" in s.description for s in subjects)


def test_a_given_name_after_a_verb_of_address_is_a_person(adversary: LocalAdversary) -> None:
    text = "The chair thanked Tomasz for running the plant sale while his wife was in hospital."
    subjects = _subjects(adversary, text)
    tomasz = _named(subjects, "Tomasz")
    wife = next(s for s in subjects if s.description.startswith("Wife of"))
    assert "Tomasz" in wife.description
    assert _value(tomasz, "RELATIONSHIP") == "Married"


def test_a_married_child_or_a_grandparents_child_is_grown_up(adversary: LocalAdversary) -> None:
    text = "Retired now. I mind my grandson Theo on Mondays while my daughter and her husband work."
    daughter = next(s for s in _subjects(adversary, text) if s.description.startswith("Daughter"))
    assert _value(daughter, "AGE") == ""
    assert _value(daughter, "OCCUPATION") == ""


def test_a_young_child_keeps_the_child_guess(adversary: LocalAdversary) -> None:
    son = next(
        s for s in _subjects(adversary, "My son starts school on Monday.") if "Son" in s.description
    )
    assert _value(son, "AGE") == "3-12"


@pytest.mark.parametrize(
    "text",
    [
        "Eleven years at the depot and I'm thinking of retraining as an electrician.",
        "Long shifts at the call centre, but I still want to be a paramedic one day.",
    ],
)
def test_a_job_hoped_for_is_not_the_writers_job(adversary: LocalAdversary, text: str) -> None:
    author = next(s for s in _subjects(adversary, text) if "author" in s.description.lower())
    assert _value(author, "OCCUPATION") not in {"Electrician", "Paramedic"}


def test_a_kin_word_closing_a_post_is_no_signed_name(adversary: LocalAdversary) -> None:
    text = "Exams in May and then I qualify. That is not how any of this works, Mam."
    author = next(s for s in _subjects(adversary, text) if "author" in s.description.lower())
    assert _value(author, "NAME") == ""


def test_our_youngest_is_a_child_and_their_city_is_theirs(adversary: LocalAdversary) -> None:
    text = "Twelve years at the depot. Our youngest starts uni in Bristol in the autumn."
    subjects = _subjects(adversary, text)
    child = next(s for s in subjects if s.description.startswith("Child of the author"))
    author = next(s for s in subjects if s.description.startswith("The author"))
    assert _value(child, "LOCATION").startswith("Bristol")
    assert not _value(author, "LOCATION").startswith("Bristol")


def test_our_eldest_is_one_of_the_counted_children(adversary: LocalAdversary) -> None:
    text = "We moved here with our three kids. Our eldest is mad about chess."
    kids = [s for s in _subjects(adversary, text) if "of the author" in s.description]
    assert len(kids) == 3


def test_my_oldest_friend_is_no_child(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "My oldest friend visits in June.")
    assert not any(s.description.startswith("Child") for s in subjects)


def test_a_new_chapter_as_a_post_is_the_writers_position(adversary: LocalAdversary) -> None:
    text = "After eight years in retail I'm starting a new chapter as Head of Buying at a bakery!"
    author = next(s for s in _subjects(adversary, text) if "author" in s.description.lower())
    assert _value(author, "POSITION") == "Head of Buying"


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("Spent twelve years as a bus mechanic before moving into sales.", "Bus mechanic"),
        ("Retired dental hygienist here (thirty years of scaling). Floss, people.", "hygienist"),
    ],
)
def test_a_post_with_no_i_still_has_a_writer_with_a_job(
    adversary: LocalAdversary, text: str, job: str
) -> None:
    """An irregular past verb opening a post ('Spent', 'Took') and a long 'X here' intro make
    the writer a subject, with no 'I' in the text."""
    author = next(s for s in _subjects(adversary, text) if "author" in s.description.lower())
    assert job.lower() in _value(author, "OCCUPATION").lower()


def test_a_post_opening_with_an_irregular_past_verb_has_a_writer(
    adversary: LocalAdversary,
) -> None:
    subjects = _subjects(adversary, "Took the dog up the fell at dawn. Worth the cold.")
    assert [s for s in subjects if "author" in s.description.lower()]


def test_a_firm_named_by_a_plural_trade_under_a_signature_is_no_job(
    adversary: LocalAdversary,
) -> None:
    text = "Hi all, the boiler service is booked for Tuesday.\n\nThanks,\nRuth\nHale Surveyors"
    author = next(s for s in _subjects(adversary, text) if "author" in s.description.lower())
    assert "Hale" not in _value(author, "OCCUPATION")


def test_a_verb_of_work_at_a_workplace_gives_a_job_not_a_pastime(
    adversary: LocalAdversary,
) -> None:
    """'who teaches at the infant school' in minutes: a job; swimming at a pool, banking at a
    branch or shopping at a named shop are no jobs."""
    text = "Present: Dana Whitfield, Hal Brook.\nDana, who teaches at the infant school, spoke."
    assert _value(_named(_subjects(adversary, text), "Dana Whitfield"), "OCCUPATION") == "Teacher"
    for text in ("I swim at the lido most days.", "I bank at the branch on Quay Street."):
        author = _subjects(adversary, text)[0]
        assert _value(author, "OCCUPATION") == "", text


def test_everyday_words_point_to_no_country(adversary: LocalAdversary) -> None:
    """'village', 'treasury', 'land registry', 'police custody' are said in every country."""
    text = "I walked to the village shop, then rang the Land Registry about our deeds."
    for s in _subjects(adversary, text):
        assert _value(s, "NATIONALITY") != "Türkiye"


def test_a_child_at_university_is_no_young_child(adversary: LocalAdversary) -> None:
    """A child starting university gets no 3-12 age and no 'Unemployed'; a sibling in Year 4
    is 8-9 (the school year, rule age.school_year)."""
    text = "Our son starts uni in Leeds next month and our daughter is in Year 4."
    subjects = _subjects(adversary, text)
    son = next(s for s in subjects if s.description.startswith("Son of"))
    daughter = next(s for s in subjects if s.description.startswith("Daughter of"))
    assert _value(son, "AGE") != "3-12" and _value(son, "OCCUPATION") != "Unemployed"
    assert _value(daughter, "AGE") == "8-9"


def _author(subjects: list[Subject]) -> Subject:
    return next(s for s in subjects if "author of the text" in s.description)


def test_a_dash_after_a_signed_name_starts_the_role(adversary: LocalAdversary) -> None:
    text = "Hi all,\n\nThe shop shuts early on Friday for stocktaking.\n\nThanks, Jo - Senior Buyer"
    subjects = _subjects(adversary, text)
    assert [_value(s, "NAME") for s in subjects if _value(s, "NAME")] == ["Jo"]
    assert _value(_named(subjects, "Jo"), "POSITION") == "Senior Buyer"


def test_us_in_capitals_of_a_sentence_start_is_no_country(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "Us porters never get a proper break on nights.")
    assert _value(_author(subjects), "LOCATION") == ""
    assert _value(_author(subjects), "NATIONALITY") == ""


def test_someone_who_used_to_be_a_cook_is_not_the_writer(adversary: LocalAdversary) -> None:
    text = "We stayed two nights. The owner, a cheerful man, used to be a ship's cook."
    assert _value(_author(_subjects(adversary, text)), "OCCUPATION") == ""


def test_a_client_who_is_a_mother_of_two_has_the_children(adversary: LocalAdversary) -> None:
    text = (
        "I act for my client, Rhona Vale. My client is a single mother of two and works as a "
        "cleaner. Her heating has been broken since March.\n\nYours faithfully,\nPiet Amsel"
    )
    subjects = _subjects(adversary, text)
    writer = _author(subjects)
    assert _value(writer, "RELATIONSHIP") == ""
    assert not any(s.description.endswith("of the author") for s in subjects)
    assert not any(
        _value(s, "OCCUPATION") == "Cleaner" for s in subjects if "Child" in s.description
    )


def test_a_job_after_a_count_of_children_is_the_parents(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "Mum of two here, and a welder by trade. Long week.")
    assert not any(s.description.startswith("Mother of the author") for s in subjects)
    assert not any(
        _value(s, "OCCUPATION") == "Welder" for s in subjects if "Child" in s.description
    )


def test_a_job_in_the_next_clause_is_not_the_writers(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "I am a single dad and my brother is a roofer.")
    assert _value(_author(subjects), "OCCUPATION") == ""


def test_a_post_in_brackets_is_only_the_name_before_it(adversary: LocalAdversary) -> None:
    text = "Present: Ines Roper (chair), Colm Ahern, Beata Lisowska (treasurer)\nNo apologies."
    subjects = _subjects(adversary, text)
    assert _value(_named(subjects, "Colm Ahern"), "POSITION") == ""
    assert _value(_named(subjects, "Beata Lisowska"), "POSITION") == "Treasurer"


def test_a_role_then_a_man_called_name_is_one_person(adversary: LocalAdversary) -> None:
    text = "We stayed at a farm in Kerry. The owner, a quiet man called Fintan, keeps bees."
    subjects = _subjects(adversary, text)
    assert "owner" in _named(subjects, "Fintan").description.lower()
    assert not any(s.description.lower().startswith("owner") for s in subjects)


def test_counted_children_after_his_wife_are_his(adversary: LocalAdversary) -> None:
    text = "My uncle Teodor died on Monday. He leaves his wife Nadia, two sons and a dog."
    subjects = _subjects(adversary, text)
    sons = [s for s in subjects if s.description.startswith("Son")]
    assert len(sons) == 2
    assert all("of Teodor" in s.description or "of the uncle" in s.description for s in sons)


def test_joined_a_firm_as_a_head_of_states_the_post(adversary: LocalAdversary) -> None:
    text = "Thrilled to say I joined Harlow Mills as Head of Quality Assurance this week!"
    assert _value(_author(_subjects(adversary, text)), "POSITION") == "Head of Quality Assurance"


def test_a_he_and_then_a_she_with_no_names_are_two_people(adversary: LocalAdversary) -> None:
    text = "Same with the flat below us. He drives a night bus and she sings in a choir."
    descriptions = [s.description.lower() for s in _subjects(adversary, text)]
    assert any("man called 'he'" in d for d in descriptions)
    assert any("woman called 'she'" in d for d in descriptions)


def test_someone_who_ran_a_shop_kept_a_business(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "My grandmother ran a hardware shop in Cobh for years.")
    gran = next(s for s in subjects if s.description.startswith("Grandmother"))
    assert _value(gran, "OCCUPATION") == "Shop owner"
    text = "We run a guesthouse by the harbour, so summers are busy."
    assert _value(_author(_subjects(adversary, text)), "OCCUPATION") == "Guesthouse owner"
    assert (
        _value(_author(_subjects(adversary, "I ran a half marathon in May.")), "OCCUPATION") == ""
    )


def test_a_clinic_note_with_no_i_is_about_its_header_person(adversary: LocalAdversary) -> None:
    text = (
        "Patient: Oona Brannagh\nReviewed on the ward. 72-year-old retired librarian with a "
        "chest infection. Discharged home with antibiotics."
    )
    patient = _named(_subjects(adversary, text), "Oona Brannagh")
    assert _value(patient, "AGE") == "72"
    assert "librarian" in _value(patient, "OCCUPATION").lower()


def test_a_masked_doctor_is_no_name_and_a_job_title_is_no_person(
    adversary: LocalAdversary,
) -> None:
    text = "Seen today with knee pain.\nDr XXXXX, Consultant Rheumatologist"
    subjects = _subjects(adversary, text)
    names = [_value(s, "NAME") for s in subjects]
    assert "XXXXX" not in names
    assert "Consultant Rheumatologist" not in names


def test_a_colleague_of_mine_is_a_person(adversary: LocalAdversary) -> None:
    text = "A coworker of mine got promoted to area manager today. Honestly she earned it."
    subjects = _subjects(adversary, text)
    colleague = next(s for s in subjects if "coworker" in s.description.lower())
    assert _value(colleague, "SEX") == "Female"


def test_an_opening_past_verb_before_a_semicolon_is_the_writers(
    adversary: LocalAdversary,
) -> None:
    text = "Had lunch with an old school friend today; she now flies planes for a living."
    assert any("author of the text" in s.description for s in _subjects(adversary, text))


def test_a_baby_brother_is_a_brother_not_a_child(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "My baby brother Cormac is getting married in June!")
    assert "brother of the author" in _named(subjects, "Cormac").description
    assert not any(s.description.startswith("Child") for s in subjects)


def test_a_closing_word_of_praise_is_no_signature(adversary: LocalAdversary) -> None:
    text = "Thanks to my cousin Aoife for driving me to the airport at 4am. Legend."
    assert _value(_author(_subjects(adversary, text)), "NAME") == ""


def test_a_statement_i_am_the_manager_and_a_man_who_acted(adversary: LocalAdversary) -> None:
    text = (
        "I am the night supervisor at the depot on Quay Road. At ten a man in a red cap, aged "
        "about forty, climbed the fence while I was on my rounds."
    )
    subjects = _subjects(adversary, text)
    writer = _author(subjects)
    assert "supervisor" in writer.description.lower()
    assert any(s.description.lower().startswith("man") for s in subjects)
    assert len([s for s in subjects if "supervisor" in s.description.lower()]) == 1


def test_when_a_man_came_in_says_nothing_of_the_writers_sex(adversary: LocalAdversary) -> None:
    text = "I was serving when a man came in and asked for the manager."
    sex = next(p for p in _author(_subjects(adversary, text)).piis if p.tag == "SEX")
    assert sex.certainty <= 1


def test_a_phrasal_verb_is_no_trade(adversary: LocalAdversary) -> None:
    subjects = _subjects(adversary, "My ex picks the twins up from school on Fridays.")
    assert not any(_value(s, "OCCUPATION") == "Picker" for s in subjects)


@pytest.mark.parametrize("name", ["█████ ██████", "[NAME] [NAME]", "XXXX XXXXXXX"])
def test_a_name_masked_word_by_word_signs_as_one_writer(
    adversary: LocalAdversary, name: str
) -> None:
    text = (
        "Dear Mrs Achterberg,\n\nI write to confirm that your lease ends on 1 April and that "
        f"the deposit will be returned in full.\n\nKind regards,\n{name}\nLettings Manager"
    )
    subjects = _subjects(adversary, text)
    assert len(subjects) == 2  # the writer and the addressee, no third person
    assert "manager" in _value(_author(subjects), "OCCUPATION").lower()


def test_a_patient_masked_word_by_word_is_one_person(adversary: LocalAdversary) -> None:
    text = "Patient: XXXXX XXXXXXXX\nSeen in clinic today. 64-year-old retired postman."
    subjects = _subjects(adversary, text)
    assert len(subjects) == 1
    assert _value(subjects[0], "AGE") == "64"


@pytest.mark.parametrize(
    "text",
    [
        "We have two girls, Ella and Rose, and a very old cat.",
        "We have two girls, Ella (7) and Rose (4), and a very old cat.",
        "Our kids, Ella (7) and Rose (4), love the beach.",
    ],
)
def test_children_listed_by_name_are_the_writers_children(
    adversary: LocalAdversary, text: str
) -> None:
    subjects = _subjects(adversary, text)
    assert len(subjects) == 3  # the writer and two children, each named
    children = [s for s in subjects if "of the author" in s.description and _value(s, "NAME")]
    assert sorted(_value(s, "NAME") for s in children) == ["Ella", "Rose"]
    if "(7)" in text:
        assert sorted(_value(s, "AGE") for s in children) == ["4", "7"]


def test_masked_children_listed_with_ages_keep_their_ages(adversary: LocalAdversary) -> None:
    text = "My husband [NAME] and I have two girls, [NAME] (7) and [NAME] (4). We love it here."
    subjects = _subjects(adversary, text)
    daughters = [s for s in subjects if s.description.startswith("Daughter")]
    assert sorted(_value(s, "AGE") for s in daughters) == ["4", "7"]
    assert len(subjects) == 4  # writer, husband, two daughters


def test_a_name_ner_found_once_is_the_same_person_where_it_missed_it(
    adversary: LocalAdversary,
) -> None:
    text = (
        "The chair welcomed Tomás, who moved into flat 12 in August with his partner. "
        "Tomás works nights as a porter at the General Hospital."
    )
    tomas = _named(_subjects(adversary, text), "Tomás")
    assert _value(tomas, "OCCUPATION") == "Porter"


def test_our_eldest_of_counted_children_is_the_first_and_keeps_her_age(
    adversary: LocalAdversary,
) -> None:
    for text in (
        "We came here with the two kids. Our eldest (14) wants to train as a baker like me.",
        "We came here with the two kids. Our eldest\n(14) wants to train as a baker like me.",
    ):
        kids = [s for s in _subjects(adversary, text) if "of the author" in s.description]
        assert len(kids) == 2
        assert [_value(s, "AGE") for s in kids if s.description.startswith("Child 1")] == ["14"]


def test_our_youngest_of_counted_children_is_the_last(adversary: LocalAdversary) -> None:
    text = "We have three kids. Our youngest, 4, still naps after lunch."
    kids = [s for s in _subjects(adversary, text) if "of the author" in s.description]
    assert len(kids) == 3
    assert [_value(s, "AGE") for s in kids if s.description.startswith("Child 3")] == ["4"]
