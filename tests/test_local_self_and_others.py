"""What the writer says of someone else is not said of the writer (invented sentences)."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary


def _value(adversary: LocalAdversary, text: str, who: str, tag: str) -> str:
    subject = next(s for s in adversary.infer(text).subjects if who in s.description.lower())
    return next((p.keyword for p in subject.piis if p.tag == tag and p.keyword), "")


def test_a_description_in_apposition_to_someone_else_is_not_the_writers_sex(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Stayed two nights for my brother's wedding. The night porter, a lovely girl called Aine, "
        "sorted our taxi. I would book again. - Declan"
    )
    assert _value(adversary, text, "author", "SEX") == "Male"


def test_an_age_in_brackets_with_more_details_after_it(adversary: LocalAdversary) -> None:
    text = "My husband (34M, welder) and I (31F) are buying our first flat in Hull."
    assert _value(adversary, text, "husband", "AGE") == "34"


def test_kin_words_and_nicknames_in_a_handle_are_no_name(adversary: LocalAdversary) -> None:
    gran = "@garden_gran: Picked the first beans today while my husband fixed the shed."
    assert _value(adversary, gran, "author", "NAME") == ""
    kate = "@aussie_maddie: Just passed my driving test at 39!"
    assert _value(adversary, kate, "author", "SEX") == "Female"


def test_maternity_leave_says_the_writer_or_the_addressee_is_a_woman(
    adversary: LocalAdversary,
) -> None:
    letter = (
        "Dear [NAME],\n\nThank you for meeting me on [DATE]. Your phased return from maternity "
        "leave will start on a Monday, three days a week.\n\nKind regards,\n[NAME]\nPeople Team"
    )
    assert _value(adversary, letter, "recipient", "SEX") == "Female"
    post = "I'm on maternity leave until spring, so the book club moves to my flat. - Robin"
    assert _value(adversary, post, "author", "SEX") == "Female"
    partner = "My wife's pregnancy has been hard on us both this winter. - Declan"
    assert _value(adversary, partner, "author", "SEX") != "Female"


def test_a_status_said_after_she_is_not_the_writers(adversary: LocalAdversary) -> None:
    text = (
        "Asking for my aunt who has no account: she's 71, recently widowed and wants a "
        "small flat near the sea in Bangor. Thanks, Declan"
    )
    assert _value(adversary, text, "author", "RELATIONSHIP") != "Widowed"
    assert _value(adversary, "My husband and I are divorced now.", "author", "RELATIONSHIP") == (
        "Divorced"
    )


def test_a_grown_up_learner_is_no_pupil(adversary: LocalAdversary) -> None:
    text = "Passed my theory test at 52! My instructor says I'm his best pupil yet."
    assert _value(adversary, text, "author", "OCCUPATION") != "Pupil"
    assert _value(adversary, text, "author", "EDUCATION") != "In High School"
    teen = "I'm 15 and a pupil at Hillside Academy, exams in May."
    assert _value(adversary, teen, "author", "OCCUPATION") == "Pupil"


def test_a_name_mostly_male_worldwide_is_not_made_female_by_the_us_census(
    adversary: LocalAdversary,
) -> None:
    text = "Present: Karol Nowak (chair), Ruth Mensah (treasurer).\nKarol opened the meeting."
    assert _value(adversary, text, "karol", "SEX") != "Female"
    assert _value(adversary, text, "ruth", "SEX") == "Female"


def test_a_statement_opening_i_comma_name_names_the_writer(adversary: LocalAdversary) -> None:
    text = "I, Marta Quist, of 9 Pond Road, make this claim for storm damage to my garage roof."
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1 and _value(adversary, text, "author", "NAME") == "Marta Quist"
    masked = "I, [NAME], of [ADDRESS], make this claim for storm damage to my garage roof."
    assert len(adversary.infer(masked).subjects) == 1


def test_a_school_year_before_parents_is_a_label_not_a_count(adversary: LocalAdversary) -> None:
    text = "Many thanks to the Year 4 parents who baked for the spring fair. I sold the raffle."
    assert not any("parent" in s.description.lower() for s in adversary.infer(text).subjects)
    counted = "My 3 sisters and I baked for the spring fair."
    assert sum("sister" in s.description.lower() for s in adversary.infer(counted).subjects) == 3


def test_a_job_word_in_the_greeting_is_the_addressees(adversary: LocalAdversary) -> None:
    text = "Dear Store Manager,\nI bought a kettle from you last week and it leaks. Please refund."
    assert _value(adversary, text, "author", "OCCUPATION") == ""


def test_an_age_and_sex_after_my_in_a_post_title_are_the_writers(adversary: LocalAdversary) -> None:
    text = "My (33F) boyfriend (35M) forgot my birthday again. Should I say something?"
    assert _value(adversary, text, "author", "AGE") == "33"
    assert _value(adversary, text, "author", "SEX") == "Female"
    assert _value(adversary, text, "boyfriend", "AGE") == "35"


def test_children_of_a_mum_named_after_shes_are_hers(adversary: LocalAdversary) -> None:
    text = "My cousin borrowed my drill again. She's a busy mum of three, but still."
    kids = [s.description for s in adversary.infer(text).subjects if "Child" in s.description]
    assert len(kids) == 3 and not any("of the author" in k.lower() for k in kids)


def test_a_relative_in_a_quote_followed_by_she_said_is_the_speakers(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Retired baker Ada Moss, 81, has knitted 400 hats for the ward. "
        '"My granddaughter was born there," she said.'
    )
    descriptions = [s.description.lower() for s in adversary.infer(text).subjects]
    assert any("granddaughter of ada moss" in d for d in descriptions)
    assert not any("author" in d for d in descriptions)


def test_a_masked_count_of_someone_elses_children_is_not_the_writers(
    adversary: LocalAdversary,
) -> None:
    text = "My neighbour is lovely, but she's a busy [DEM] of [QUANTITY] and never home."
    subjects = adversary.infer(text).subjects
    assert not any("child" in s.description.lower() for s in subjects)


def test_the_writers_status_beside_the_spouses_name_is_the_writers_own(
    adversary: LocalAdversary,
) -> None:
    # family and occupation read the writer's own sentences with one function (session 16):
    # the writer's stretch of a post counts even with no "I" in the sentence
    text = (
        "@tomas.quill : Early starts at the bakery, married to a wonderful woman, Ines, and "
        "raising two dogs."
    )
    writer = next(s for s in adversary.infer(text).subjects if "author" in s.description)
    status = next(p for p in writer.piis if p.tag == "RELATIONSHIP")
    assert (status.keyword, status.certainty) == ("Married", 5)
    assert status.explanation.rule == "family.author_status"
    other = "Dana runs the bakery. She was married to a fisherman for years. I buy bread there."
    writer = next(s for s in adversary.infer(other).subjects if "author" in s.description)
    assert not any(p.tag == "RELATIONSHIP" and p.keyword for p in writer.piis)
