"""Job titles of the widened SOC-based taxonomy and the field-of-work reading (issue 16 item 3).
Invented sentences only."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary, lexicons


def _author(post: str, tag: str) -> str:
    author = LocalAdversary().infer(post).subjects[0]
    return next((p.keyword for p in author.piis if p.tag == tag and p.keyword), "")


@pytest.mark.parametrize(
    ("post", "job"),
    [
        ("I've spent eleven years as a proofreader and I still love a clean page.", "Proofreader"),
        ("I work as a tree surgeon, so storms keep me busy.", "Tree surgeon"),
        ("I am a supply teacher in two schools this term.", "Supply teacher"),
        ("I'm a loss adjuster, and floods are my busy season.", "Loss adjuster"),
        ("I have been a panel beater for most of my life.", "Panel beater"),
    ],
)
def test_titles_of_the_second_taxonomy_part_are_jobs(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


def test_a_rank_before_a_new_title_is_the_position() -> None:
    post = "These days I'm the lead proofreader for a team of four."
    assert _author(post, "OCCUPATION") == "Proofreader"
    assert _author(post, "POSITION") == "Lead proofreader"


@pytest.mark.parametrize(
    ("post", "job"),
    [
        (
            "Structural engineering is what pays the bills, but I'd rather be sailing.",
            "Structural engineer",
        ),
        ("I have worked in engineering since I left school.", "Engineer"),
        ("After a long career in archaeology I now volunteer at a museum.", "Archaeologist"),
        ("I have spent twenty years in dentistry and still love it.", "Dentist"),
        ("Ten years in carpentry and my back knows it.", "Carpenter"),
        ("I've done years of proofreading for small presses.", "Proofreader"),
        ("Ten years of gardening taught me patience.", ""),  # a pastime as often as a job
        ("Three years of nursing school nearly broke me.", ""),  # a student's
    ],
)
def test_a_field_of_work_names_its_worker(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


@pytest.mark.parametrize(
    ("post", "job", "position"),
    [  # a rank is no part of the job, it is the POSITION
        (
            "Last month I was appointed Senior Lecturer in a history department.",
            "Lecturer",
            "Senior Lecturer",
        ),
        ("I work as a freelance sound engineer for two studios.", "Sound engineer", ""),
    ],
)
def test_a_rank_is_the_position_not_the_job(post: str, job: str, position: str) -> None:
    assert _author(post, "OCCUPATION") == job
    assert not position or _author(post, "POSITION") == position


@pytest.mark.parametrize(
    ("post", "job"),
    [  # annotators write the past job of a retired person as "Retired <job>"
        (
            "Thirty-one years as a bus driver, and I retired in May. Now I fix bicycles.",
            "Retired bus driver",
        ),
        ("I'm retired now. My wife is a teacher and still works.", "Retired"),
        ("I have been a plumber since 2004 and I love it.", "Plumber"),
    ],
)
def test_a_retired_person_s_job_is_retired(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


def test_activity_rows_name_taxonomy_codes() -> None:
    codes = {row[0] for row in lexicons._read_tsv("occupation_taxonomy.tsv")}
    rows = lexicons._read_tsv("occupation_activities.tsv")
    assert [r[0] for r in rows if r[0] not in codes] == []


@pytest.mark.parametrize(
    ("post", "job"),
    [
        ("@chef_marta : New menu goes live tonight, wish me luck!", "Chef"),
        ("Seller Name: DataAnalystKim | Location: Leeds\nSelling my old desk.", "Data analyst"),
        ("Long week, but I made it to Friday #ProudTeacher", "Teacher"),
        ("Twelve hours on my feet and I'd do it again tomorrow. #nurselife", "Nurse"),
        ("Fitted the last cupboard door of the week! #proudcarpenter", "Carpenter"),
        ("Four call-outs before lunch and my van is a mess #electricianproblems", "Electrician"),
        ("Sunday roast with my whole family #cookingwithkids", ""),
        ("Update: I sold the desk, thanks all.", ""),
    ],
)
def test_a_job_in_the_author_s_handle_or_hashtag(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


def _person(text: str, who: str, tag: str) -> list[tuple[str, int]]:
    subject = next(s for s in LocalAdversary().infer(text).subjects if who in s.description)
    return [(p.keyword, p.certainty) for p in subject.piis if p.tag == tag and p.keyword]


def test_a_job_title_before_a_name_and_an_award_after_it() -> None:
    text = "Local florist Dana Whitfield, 52, was named Trader of the Year at the market awards."
    assert [k for k, _ in _person(text, "Dana", "OCCUPATION")] == ["Florist"]


def test_a_post_in_brackets_in_minutes_is_no_job() -> None:
    text = (
        "Present: Alan Reeve (chair), Joy Okoro (treasurer), Lin Wu (secretary).\nApologies: none."
    )
    assert _person(text, "Joy", "OCCUPATION") == []
    assert [k for k, _ in _person(text, "Joy", "POSITION")] == ["Treasurer"]


@pytest.mark.parametrize(
    ("post", "tag", "value", "certainty"),
    [
        ("I teach year 6 at a village school near Hull.", "OCCUPATION", "Teacher", 3),
        (
            "I'm in my third year of a physics degree and tutor on Saturdays.",
            "OCCUPATION",
            "Student",
            3,
        ),
        (
            "I'm in my third year of a physics degree and tutor on Saturdays.",
            "EDUCATION",
            "In College",
            3,
        ),
        (
            "Twenty years of fitting radiators and boilers, and my knees show it.",
            "OCCUPATION",
            "Plumber",
            1,
        ),
    ],
)
def test_work_described_not_named(post: str, tag: str, value: str, certainty: int) -> None:
    author = LocalAdversary().infer(post).subjects[0]
    found = [(p.keyword, p.certainty) for p in author.piis if p.tag == tag and p.keyword]
    assert found and found[0][0] == value and found[0][1] >= certainty, found


def test_managing_is_a_post_unless_the_object_names_the_job() -> None:
    assert _author("I manage three rental houses on the coast.", "OCCUPATION") == ""
    assert _author("I manage a small hotel by the harbour.", "OCCUPATION") == "Hotel manager"


def test_work_roles_rows_have_six_columns() -> None:
    assert [r for r in lexicons._read_tsv("work_roles.tsv") if len(r) < 6] == []


def test_someone_else_s_job_in_a_named_person_s_text() -> None:
    text = (
        "Dear Dr Okafor, thank you for seeing this 68-year-old retired baker. "
        "Mr Tom Reilly has had a cough since May."
    )
    assert _person(text, "Okafor", "OCCUPATION") == []


def test_starting_a_phd_is_no_phd_yet() -> None:
    assert (
        _author("Next month I start a PhD in Leeds, wish me luck.", "EDUCATION") == "College Degree"
    )


def test_no_activity_cue_is_another_trade_s_job_title() -> None:
    table, _ = lexicons.occupations()
    rows = lexicons._read_tsv("occupation_activities.tsv")
    cues = [(r[0], c.strip().lower()) for r in rows for c in r[1].split(",") if c.strip()]
    assert [(code, c) for code, c in cues if c in table and table[c].code != code] == []


@pytest.mark.parametrize(
    "post",
    [  # a user's trouble, a sale listing's item, a counterpart's job: no trade of the author
        "Anyone troubleshooting the booking app? The database screen freezes with an error code.",
        "Item: Heavy-duty mop set, barely used. I am moving house next week, so it must go!",
        "@maya : Our maths teacher was off sick so we had a free afternoon!",
        "I suspect the new update broke something. Any ideas before my deadline on Friday?",
    ],
)
def test_words_anyone_says_are_no_trade(post: str) -> None:
    assert _author(post, "OCCUPATION") == ""


@pytest.mark.parametrize(
    ("text", "who", "job"),
    [
        (
            "My uncle spent his whole career in the police before moving to Cork.",
            "Uncle",
            "Police officer",
        ),
        ("My sister works in retail and hates the Christmas rush.", "Sister", "Retail worker"),
        (
            "Our neighbour has worked in construction since he left school.",
            "neighbour",
            "Construction worker",
        ),
    ],
)
def test_another_person_s_field_of_work(text: str, who: str, job: str) -> None:
    assert [k for k, _ in _person(text, who, "OCCUPATION")] == [job]
    assert _author(text, "OCCUPATION") == ""  # the writer's sentence is about someone else


def test_the_writer_s_field_is_not_their_children_s() -> None:
    text = (
        "With two lovely kids and twenty years of nursing behind me, I know how tiring nights are."
    )
    people = LocalAdversary().infer(text).subjects
    jobs = {
        s.description.split(" - ")[0]: [p.keyword for p in s.piis if p.tag == "OCCUPATION"]
        for s in people
    }
    assert jobs.pop("The author") == ["Nurse"]
    assert jobs and all("Nurse" not in j for j in jobs.values())


@pytest.mark.parametrize(
    ("text", "who", "job"),
    [
        (
            "My wife spends her days debugging the checkout code and deploying fixes.",
            "Wife",
            "Software developer",
        ),
        (
            "My cousin Ana works long nights on the ward, charting vitals before the handover.",
            "Ana",
            "Nurse",
        ),
    ],
)
def test_another_person_s_trade_words(text: str, who: str, job: str) -> None:
    assert _person(text, who, "OCCUPATION") == [(job, 1)]
    assert _author(text, "OCCUPATION") == ""


def test_trade_words_in_a_text_with_no_writer_are_the_case_s() -> None:
    text = "Mr Dale spent the morning charting vitals on the ward before the handover."
    assert _person(text, "Dale", "OCCUPATION") == []


@pytest.mark.parametrize(
    ("post", "job"),
    [
        ("After a decade of nursing I finally took a week off.", "Nurse"),
        ("Eighteen years teaching and I still get nervous on the first day.", "Teacher"),
        ("Six years bookkeeping for small firms has made me love a tidy ledger.", "Bookkeeper"),
    ],
)
def test_years_in_a_field_without_of(post: str, job: str) -> None:
    author = LocalAdversary().infer(post).subjects[0]
    found = [(p.keyword, p.explanation.rule) for p in author.piis if p.tag == "OCCUPATION"]
    assert found == [(job, "occupation.workplace")]


@pytest.mark.parametrize(
    ("text", "who", "job"),
    [  # a past work verb with how long it lasted (or "for a living") is a job, for anyone
        (
            "My grandad drove a bus for thirty years and never missed a shift.",
            "Grand",
            "Bus driver",
        ),
        ("I welded ship hulls for eight years before my back gave out.", "author", "Welder"),
        ("My husband builds kitchens for a living.", "Husband", "Builder"),
        ("These days I install drywall, mostly in new builds.", "author", "Drywall installer"),
    ],
)
def test_what_someone_did_for_years_is_their_job(text: str, who: str, job: str) -> None:
    assert [k for k, _ in _person(text, who, "OCCUPATION")] == [job]


@pytest.mark.parametrize(
    "post",
    [  # one deed in the past, or a pastime: no job
        "I baked a cake for my sister's birthday.",
        "I drove a van to Leeds on Saturday.",
        "I baked bread for years before the shop opened nearby.",
    ],
)
def test_a_past_deed_is_no_job(post: str) -> None:
    assert _author(post, "OCCUPATION") == ""


@pytest.mark.parametrize(
    ("post", "job"),
    [  # the job held now outranks the one held before
        (
            "I was a postman for 12 years; these days I'm a driving instructor.",
            "Driving instructor",
        ),
        ("After twenty years in the army I retrained as an electrician.", "Electrician"),
        ("I left teaching in 2019 and became a dog groomer.", "Dog groomer"),
        ("I used to be a chef, but now I'm a paramedic.", "Paramedic"),
        ("Was a bank clerk for 15 years, retrained as a plumber at 41.", "Plumber"),
        ("Been a locksmith for twelve years and I still enjoy it.", "Locksmith"),
    ],
)
def test_the_job_held_now_wins(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


@pytest.mark.parametrize(
    ("post", "job"),
    [  # a signature's title line; a firm's name is no trade
        (
            "Kind regards,\nMarta Sokol\nHR Business Partner\nGreyfield Logistics",
            "HR Business Partner",
        ),
        ("Regards,\nHana Ostrova\nClinical Coordinator\nLarkfield Hospice", "Clinical Coordinator"),
        ("Thanks to the team at Brightwater Dental for sorting my tooth out so fast.", ""),
    ],
)
def test_a_signature_title_and_a_firm_s_name(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


def test_a_child_at_work_is_not_unemployed() -> None:
    text = "Our daughter is 17 and works at the garden centre on Saturdays."
    assert _person(text, "Daughter", "OCCUPATION") == []


@pytest.mark.parametrize(
    ("post", "job"),
    [
        ("Postie here, fourteen miles on foot today and every gate on the round stuck.", "Postal"),
        ("I'm a sparky by trade and this consumer unit is a disgrace.", "Electrician"),
    ],
)
def test_an_informal_title_is_written_as_the_taxonomy_label(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION").startswith(job)


def test_a_job_in_a_sentence_about_years_ago_ranks_below_the_job_held_now() -> None:
    post = (
        "Eight years ago I began my first week as a hotel porter. "
        "Now I'm a florist with my own shop and I still carry heavy boxes."
    )
    assert _author(post, "OCCUPATION") == "Florist"


def test_an_acronym_in_a_stated_title_keeps_its_capitals() -> None:
    assert _author("Since March I'm a senior IT manager at a bank.", "OCCUPATION") == "IT manager"
