"""Parents named in news items, a writer who opens with 'Mum of two', and chores or errands that
are no job (invented sentences)."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary


def _tags(subject, tag: str) -> list[tuple[str, int]]:
    return [(p.keyword, p.certainty) for p in subject.piis if p.tag == tag and p.keyword]


def test_a_named_parent_in_a_news_item_is_no_parent_writer(adversary: LocalAdversary) -> None:
    for text in (
        "Local mother of three Dana Whitfield said the crossing was unsafe.",
        "The father of two, Owen Gale, spoke to reporters outside the court.",
        "Dana Whitfield, a mother of three from Hull, said the crossing was unsafe.",
    ):
        subjects = adversary.infer(text).subjects
        named = [
            s for s in subjects if any(k.startswith(("Dana", "Owen")) for k, _ in _tags(s, "NAME"))
        ]
        assert len(named) == 1 and "child" not in named[0].description.lower(), text
        assert not any("of the author" in s.description for s in subjects), text
        writer = [s for s in subjects if "author of the text" in s.description]
        assert not writer or not any(c >= 3 for _, c in _tags(writer[0], "SEX")), text


def test_the_writer_named_before_a_parent_phrase_keeps_the_children(
    adversary: LocalAdversary,
) -> None:
    subjects = adversary.infer("Hi, I'm Dana Whitfield, a mother of three from Hull.").subjects
    assert sum("of the author" in s.description for s in subjects) == 3


def test_a_post_that_opens_with_mum_of_two_is_a_womans(adversary: LocalAdversary) -> None:
    for text in ("Priya here, 41, mum of two from Derby.", "Mum of two and part-time baker."):
        author = adversary.infer(text).subjects[0]
        assert ("Female", 5) in _tags(author, "SEX"), text
    author = adversary.infer("Dad of three, keen cyclist, Swansea.").subjects[0]
    assert ("Male", 5) in _tags(author, "SEX")


def test_a_capitalised_my_before_an_age_tag_is_the_writers(adversary: LocalAdversary) -> None:
    author = adversary.infer("my (27F) boyfriend (29M) wants a dog.").subjects[0]
    assert ("Female", 5) in _tags(author, "SEX")


def test_errands_and_weekly_chores_are_no_job(adversary: LocalAdversary) -> None:
    for text in (
        "I buy bread at Fenwick Bakery every morning before work.",
        "I wait at the bus stop for ages every day.",
        "I clean the bathroom every Sunday and then collapse.",
        "I bake on Saturdays for the church stall.",
    ):
        author = adversary.infer(text).subjects[0]
        assert not any(c >= 2 for _, c in _tags(author, "OCCUPATION")), text
        assert not any(c >= 3 for _, c in _tags(author, "AFFILIATION")), text


def test_the_same_verbs_still_state_a_job(adversary: LocalAdversary) -> None:
    for text, job in (
        ("I wait tables at Marlow's Diner.", "Waiter"),
        ("I clean offices at weekends for a living.", "Cleaner"),
        ("I clean offices for a living.", "Cleaner"),
    ):
        author = adversary.infer(text).subjects[0]
        assert any(k == job and c >= 3 for k, c in _tags(author, "OCCUPATION")), text


def test_a_things_age_is_nobodys(adversary: LocalAdversary) -> None:
    for text in (
        "Our little shop turns 10 today! My partner and I still can't believe it.",
        "If anyone in Truro has a spare rugby shirt, age 9, I'll collect.",
    ):
        author = adversary.infer(text).subjects[0]
        assert _tags(author, "AGE") == [], text
    author = adversary.infer("The podcast turns 3 today and I turn 41 tomorrow.").subjects[0]
    assert _tags(author, "AGE") == [("41", 4)]


def test_a_job_held_in_a_town_and_a_return_home_place_the_writer(
    adversary: LocalAdversary,
) -> None:
    for text, town in (
        ("I've been a district nurse in Swindon for eleven years.", "Swindon"),
        ("Now living back in Carlisle to save for a deposit.", "Carlisle"),
    ):
        author = adversary.infer(text).subjects[0]
        assert any(k.startswith(town) and c >= 3 for k, c in _tags(author, "LOCATION")), text


def test_a_job_word_in_the_name_of_a_subject_is_no_job(adversary: LocalAdversary) -> None:
    author = adversary.infer("Two weeks left of my MSc in Marine Biology and I'm shattered.")
    assert "Marine" not in [k for k, _ in _tags(author.subjects[0], "OCCUPATION")]


def test_a_job_trained_for_is_not_yet_held(adversary: LocalAdversary) -> None:
    text = "I quit the bank. After nine years as a bank teller I am off to train as a midwife."
    jobs = _tags(adversary.infer(text).subjects[0], "OCCUPATION")
    assert jobs[0] == ("Bank teller", 4) and all(c <= 2 for k, c in jobs if k == "Midwife")
    jobs = _tags(adversary.infer("One day I hope to train as a pilot.").subjects[0], "OCCUPATION")
    assert all(c <= 2 for _, c in jobs)


def test_a_masked_duration_before_as_a_still_states_the_job(adversary: LocalAdversary) -> None:
    text = "After [DATETIME] as a dental hygienist in [LOC] I have finally retired."
    jobs = _tags(adversary.infer(text).subjects[0], "OCCUPATION")
    assert any("hygienist" in k.lower() and c >= 3 for k, c in jobs)


def test_every_single_customer_says_nothing_of_the_writers_status(
    adversary: LocalAdversary,
) -> None:
    for text in (
        "Thanks to every single customer who came today.",
        "Not a single bus came, so I walked.",
    ):
        assert _tags(adversary.infer(text).subjects[0], "RELATIONSHIP") == [], text
    for text in ("Still single at 40 and loving it.", "As a single dad I never sleep."):
        assert _tags(adversary.infer(text).subjects[0], "RELATIONSHIP")[0][0] == "No relation"


def test_refusing_is_no_refuse_collection(adversary: LocalAdversary) -> None:
    text = "My patients keep refusing their jabs and the clinic is packed."
    jobs = [k for k, _ in _tags(adversary.infer(text).subjects[0], "OCCUPATION")]
    assert "Refuse collector" not in jobs


def test_a_masked_job_in_a_town_still_places_the_writer(adversary: LocalAdversary) -> None:
    text = "I've been a school [DEM] in Wrexham for years and never seen a winter like it."
    author = adversary.infer(text).subjects[0]
    assert any(k.startswith("Wrexham") and c >= 3 for k, c in _tags(author, "LOCATION"))


def test_a_profile_line_gives_age_sex_and_a_job_held_for_years(adversary: LocalAdversary) -> None:
    text = "Long-time reader, first post. 47M, crane operator for 20 years, based near Hull."
    author = adversary.infer(text).subjects[0]
    assert ("Male", 5) in _tags(author, "SEX") and ("47", 4) in _tags(author, "AGE")
    assert _tags(author, "OCCUPATION")[0] == ("Crane operator", 4)
    author = adversary.infer("Budget was 52M, the report said, and I agree.").subjects[0]
    assert _tags(author, "AGE") == []


def test_a_relatives_job_held_for_years_stays_theirs(adversary: LocalAdversary) -> None:
    text = "My uncle, a plasterer for 30 years, finally retired in May."
    author = adversary.infer(text).subjects[0]
    assert "author of the text" in author.description
    assert _tags(author, "OCCUPATION") == []


def test_a_registered_carer_is_no_cashier(adversary: LocalAdversary) -> None:
    text = (
        "My mother, Mrs Edna Pryce (aged 88), was left alone on the ward for hours. "
        "She was frightened. I am her daughter and her registered carer."
    )
    for subject in adversary.infer(text).subjects:
        assert "Cashier" not in [k for k, _ in _tags(subject, "OCCUPATION")]


def test_years_spent_in_a_job_in_a_town_place_the_writer(adversary: LocalAdversary) -> None:
    author = adversary.infer("Twenty years a ferryman in Oban, and today was my last crossing.")
    assert any(k.startswith("Oban") and c >= 3 for k, c in _tags(author.subjects[0], "LOCATION"))


def test_unpaid_work_is_no_job(adversary: LocalAdversary) -> None:
    author = adversary.infer("Volunteer lifeguard, full-time architect, weekend baker.").subjects[0]
    assert _tags(author, "OCCUPATION")[0][0] == "Architect"
    author = adversary.infer("As a volunteer paramedic I carry a radio everywhere.").subjects[0]
    assert all(c <= 1 for k, c in _tags(author, "OCCUPATION") if k == "Paramedic")


def test_a_bio_that_says_now_a_job_in_a_town_places_the_writer(adversary: LocalAdversary) -> None:
    text = "Grew up on a farm near Tralee, now a data analyst in Utrecht."
    author = adversary.infer(text).subjects[0]
    assert any(k.startswith("Utrecht") and c >= 3 for k, c in _tags(author, "LOCATION"))


def test_back_in_a_town_after_a_trip_is_home(adversary: LocalAdversary) -> None:
    author = adversary.infer("Back in Winnipeg after two weeks seeing my aunt in Lima.").subjects[0]
    assert any(k.startswith("Winnipeg") and c >= 3 for k, c in _tags(author, "LOCATION"))


def test_now_a_job_in_a_bio_is_the_writers_not_a_new_person(adversary: LocalAdversary) -> None:
    text = "Been with Asda since I was sixteen, now a store manager in Hull."
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1
    assert any(k.startswith("Hull") for k, _ in _tags(subjects[0], "LOCATION"))


def test_a_graduate_with_a_first_has_a_degree(adversary: LocalAdversary) -> None:
    for text in (
        "Graduated from Oxford Brookes with a first in Geography.",
        "Left uni with a 2:1.",
    ):
        author = adversary.infer(text).subjects[0]
        assert ("College Degree", 3) in _tags(author, "EDUCATION"), text


def test_part_of_an_organisation_is_an_affiliation(adversary: LocalAdversary) -> None:
    author = adversary.infer("So proud to be part of the RNLI, even on cold nights.").subjects[0]
    assert ("RNLI", 3) in _tags(author, "AFFILIATION")


def test_an_estate_agents_day_implies_the_job(adversary: LocalAdversary) -> None:
    author = adversary.infer("Nine viewings and three valuations today, and my feet are done.")
    assert _tags(author.subjects[0], "OCCUPATION")[0][0] == "Real estate agent"


def test_years_in_a_city_now_is_home(adversary: LocalAdversary) -> None:
    author = adversary.infer("Three years in Doha now and the summers still shock me.").subjects[0]
    assert any(k.startswith("Doha") and c >= 3 for k, c in _tags(author, "LOCATION"))
    author = adversary.infer("I spent two years in Doha when I was younger.").subjects[0]
    assert not any(c >= 3 for _, c in _tags(author, "LOCATION"))


def test_more_ways_to_say_ones_age(adversary: LocalAdversary) -> None:
    for text, age in (
        ("Celebrated my 50th with a curry and an early night.", "50"),
        ("Fifty-something and only now learning to drive.", "50-59"),
        ("My 40s have been kinder than my 30s.", "40-49"),
        ("Happy 70th to me! Cake for breakfast.", "70"),
        ("Being 18 and paying rent in Bristol is a joke.", "18"),
    ):
        author = adversary.infer(text).subjects[0]
        assert _tags(author, "AGE")[:1] == [(age, 4)], text
    author = adversary.infer("We celebrated my 30th wedding anniversary in Rome.").subjects[0]
    assert ("30", 4) not in _tags(author, "AGE")


def test_the_missus_is_the_writers_wife(adversary: LocalAdversary) -> None:
    subjects = adversary.infer("Me and the missus are off to Crete on Friday.").subjects
    assert any(s.description.startswith("Wife of the author") for s in subjects)
    subjects = adversary.infer("The wife of the farmer sold eggs at the gate.").subjects
    assert not any("of the author" in s.description for s in subjects)


def test_mourning_a_spouse_is_widowed(adversary: LocalAdversary) -> None:
    texts = ("Still grieving my husband, three winters on.", "My first Easter without my wife.")
    for text in texts:
        author = adversary.infer(text).subjects[0]
        assert _tags(author, "RELATIONSHIP")[0] == ("Widowed", 5), text
    author = adversary.infer("A whole weekend without my wife means pizza.").subjects[0]
    assert _tags(author, "RELATIONSHIP")[0][0] == "Married"
