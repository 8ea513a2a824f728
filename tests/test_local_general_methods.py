"""General job, education, age, position, employer and name rules of the local adversary
(issue 16 item 3), on invented sentences: stated jobs resolved through the SOC-based taxonomy
(generic heads keep their modifiers), agent nouns of work verbs, degree and schooling phrases,
stated ages, posts held, employers after work words, and given names of many countries."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary
from spia_core.evaluation.rules_reference import reference_decision


def _author_value(adv: LocalAdversary, text: str, tag: str) -> tuple[str, str]:
    subjects = adv.infer(text).subjects
    author = next(s for s in subjects if "author" in s.description)
    pii = next((p for p in author.piis if p.tag == tag and p.keyword), None)
    if pii is None:
        return "", ""
    assert pii.explanation is not None and pii.explanation.rule
    return pii.keyword, pii.explanation.rule


CASES = [
    ("I work as a claims adjuster for a car insurer.", "OCCUPATION", "Claims adjuster"),
    (
        "I am a freelance sound engineer; most of my gigs are weddings.",
        "OCCUPATION",
        "Sound engineer",
    ),
    ("I'm a community health worker in three villages.", "OCCUPATION", "Community health worker"),
    ("I am a County Council housing officer and I love my job.", "OCCUPATION", "Housing officer"),
    (
        "After nine years as a dental hygienist I opened my own practice.",
        "OCCUPATION",
        "Dental hygienist",
    ),
    ("I teach chemistry to teenagers and mark homework every night.", "OCCUPATION", "Teacher"),
    ("Most weekdays I translate contracts from Portuguese.", "OCCUPATION", "Translator"),
    ("I'm 34 and just started running.", "AGE", "34"),
    ("At 27, I finally bought my own car.", "AGE", "27"),
    ("My 60th birthday is next month and I am planning a party.", "AGE", "60"),
    ("I turn 43 next spring and would like to move to day shifts.", "AGE", "43"),
    ("Happy 35th birthday to me! Cake for breakfast.", "AGE", "35"),
    ("I turned forty last week and took up rowing.", "AGE", "40"),
    ("I am 52 years young and still learning the guitar.", "AGE", "52"),
    ("I graduated from Makerere University in 2012.", "EDUCATION", "College Degree"),
    ("My BA in history is useless, I joke.", "EDUCATION", "College Degree"),
    ("I finished my PhD in chemistry last year.", "EDUCATION", "PhD"),
    ("I left school at sixteen without any qualifications.", "EDUCATION", "No High School Diploma"),
    ("I'm in my final year at university, studying law.", "EDUCATION", "In College"),
    (
        "I finished high school last year and now I work at a cafe.",
        "EDUCATION",
        "High School Diploma",
    ),
    ("I was promoted to team leader in March.", "POSITION", "Team leader"),
    ("I am the head of marketing at a paint maker.", "POSITION", "Head of marketing"),
    ("I work as a nurse at St Luke's Hospital.", "AFFILIATION", "St Luke's Hospital"),
    (
        "I have been with Kestrel Analytics for five years as a data engineer.",
        "AFFILIATION",
        "Kestrel Analytics",
    ),
    ("I teach maths at Greenhill Academy.", "AFFILIATION", "Greenhill Academy"),
    ("My colleagues at Amber Valley Bank threw me a party.", "AFFILIATION", "Amber Valley Bank"),
    ("I'm a glassblower by trade and sell vases at markets.", "OCCUPATION", "Glassblower"),
    (
        "Tiring week caring for patients; dinner with my family tonight.",
        "OCCUPATION",
        "Healthcare worker",
    ),
    (
        "My pull request fixed the null pointer bug we deployed on Friday.",
        "OCCUPATION",
        "Software developer",
    ),
    ("Long week of lambing, and my tractor broke down in the top field.", "OCCUPATION", "Farmer"),
    (
        "I spent the morning tuning the mixing desk for a recording session. #AudioLife",
        "OCCUPATION",
        "Sound engineer",
    ),
    (
        "I am thankful to everyone at Harrow Dental Clinic for a warm welcome.",
        "AFFILIATION",
        "Harrow Dental Clinic",
    ),
    ("My name is Oluwaseun and I restore old radios.", "NAME", "Oluwaseun"),
    ("I restore old radios in my garage. Thanks for reading, Chidinma", "SEX", "Female"),
]


@pytest.mark.parametrize(("text", "tag", "expected"), CASES)
def test_general_rule_reads_the_value(
    adv: LocalAdversary, text: str, tag: str, expected: str
) -> None:
    value, _ = _author_value(adv, text, tag)
    assert reference_decision(expected, value, tag).score == 1.0, (value, expected)


@pytest.mark.parametrize(
    "text",
    [
        "I drive my kids to school and I cook dinner.",
        "I found the bug in the script last night.",
        "Our server crashed again and I lost my notes.",
    ],
)
def test_everyday_verbs_and_words_are_no_job(adv: LocalAdversary, text: str) -> None:
    value, rule_id = _author_value(adv, text, "OCCUPATION")
    # The weak meaning-based guess (occupation.activity) may still say something.
    assert value.lower() not in {"driver", "cook", "founder", "waiter"}, (value, rule_id)


def test_who_clause_job_is_the_noun_s(adv: LocalAdversary) -> None:
    subjects = adv.infer("My wife, who teaches physics at a sixth-form college, loves it.").subjects
    wife = next(s for s in subjects if "wife" in s.description.lower())
    assert [p.keyword for p in wife.piis if p.tag == "OCCUPATION"] == ["Teacher"]


def test_a_retired_trade_is_the_trade(adv: LocalAdversary) -> None:
    subjects = adv.infer("My husband, a retired firefighter, grows tomatoes now.").subjects
    husband = next(s for s in subjects if "husband" in s.description.lower())
    assert [p.keyword for p in husband.piis if p.tag == "OCCUPATION"] == ["Retired firefighter"]


def test_a_turn_of_degrees_is_no_age(adv: LocalAdversary) -> None:
    value, _ = _author_value(adv, "At the mill, turn 90 degrees left and I will meet you.", "AGE")
    assert value != "90", value


UNSEEN_CASES = [  # round 8: invented posts and bios, one general pattern each
    ("Hi all, I'm Tamsin, 27, and new to bouldering.", "AGE", "27"),
    ("I'm a junior surveyor in Porto and the rents are mad.", "LOCATION", "Porto / Portugal"),
    ("I have been between jobs since May and send out CVs daily.", "OCCUPATION", "Unemployed"),
    ("I lead a team of six testers at a games studio.", "POSITION", "Team lead"),
    (
        "After a decade of lesson plans I finally got the deputy head job!",
        "POSITION",
        "Deputy head",
    ),
]

ROUND9_CASES = [  # round 9: invented posts, one general pattern each
    ("Nine years in retail and I still dread the tills.", "OCCUPATION", "Retail worker"),
    ("I've worked in logistics since uni, mostly nights.", "OCCUPATION", "Logistics worker"),
    ("My shift at the bakery ends at noon, then I nap.", "OCCUPATION", "Baker"),
    ("I drive a taxi around the ring road most nights.", "OCCUPATION", "Taxi driver"),
    ("I plaster ceilings for a living, so my arms ache.", "OCCUPATION", "Plasterer"),
    ("Lovely pasta and kind staff, I'd go back. - Marek, 63, Swansea", "AGE", "63"),
    (
        "Lovely pasta and kind staff, I'd go back. - Marek, 63, Swansea",
        "LOCATION",
        "Swansea / United Kingdom",
    ),
    ("As a 30-something runner I was slow but happy.", "AGE", "30-39"),
    ("27M here, my landlord keeps the deposit. Any advice?", "AGE", "27"),
    ("For my 60th I finally learnt to swim.", "AGE", "60"),
    ("I'm a Galway native and I miss the sea.", "LOCATION", "Galway / Ireland"),
    ("We're in Dundee if anyone wants the pram.", "LOCATION", "Dundee / United Kingdom"),
    ("We relocated to Utrecht in May and love the bikes.", "LOCATION", "Utrecht / The Netherlands"),
    ("I'm a Bristol-based potter and my kiln just died.", "LOCATION", "Bristol / United Kingdom"),
    (
        "Anyone else in Leeds without power? My freezer is thawing.",
        "LOCATION",
        "Leeds / United Kingdom",
    ),
    ("Hello from snowy Oslo, my first winter here!", "LOCATION", "Oslo / Norway"),
    ("We run a little pub near the station and Saturdays are wild.", "OCCUPATION", "Pub owner"),
    (
        "My coworkers at the factory signed a card for my leaving do.",
        "OCCUPATION",
        "Factory worker",
    ),
]


def test_a_relative_s_stated_age_is_the_relative_s(adv: LocalAdversary) -> None:
    for text, kin, age in [
        ("My gran turned 91 yesterday and still beats me at cards.", "grandmother", "91"),
        ("My brother is 19 and has just passed his test.", "brother", "19"),
        ("My nephew, who is 6, lost his first tooth.", "nephew", "6"),
    ]:
        subjects = adv.infer(text).subjects
        ages = {s.description.split(" - ")[0]: p.keyword for s in subjects for p in s.piis}
        rel = next(s for s in subjects if kin in s.description.lower())
        assert [p.keyword for p in rel.piis if p.tag == "AGE"] == [age], text
        assert _author_value(adv, text, "AGE")[0] == "", (text, ages)


def test_a_clause_s_or_a_relative_s_facts_are_not_the_writer_s(adv: LocalAdversary) -> None:
    text = "Our gate was fixed by the old tenant, a retired plumber who moved to Galway in May."
    assert _author_value(adv, text, "LOCATION")[0] == ""
    assert _author_value(adv, text, "OCCUPATION")[0] != "Plumber"
    text = "Staff member: [NAME], 47, porter. Later his wife, a dental nurse, drove him home."
    named = next(s for s in adv.infer(text).subjects if "NAME" in s.description)
    assert not any(p.tag == "OCCUPATION" and "nurse" in p.keyword.lower() for p in named.piis)
    subjects = adv.infer("My neighbour [PERSON], a retired bus driver, feeds our cat.").subjects
    values = {p.keyword for s in subjects if "neighbour" in s.description.lower() for p in s.piis}
    assert "Bus driver" in values


def test_a_job_before_a_bracketed_name_is_that_person_s(adv: LocalAdversary) -> None:
    text = "Attending: Cllr [PERSON_1], Cllr [PERSON_2], and the Treasurer ([PERSON_3])."
    for s in adv.infer(text).subjects:
        if "Cllr" in s.description:
            assert not any(p.tag == "OCCUPATION" and p.keyword for p in s.piis), s.description


def test_a_firm_that_served_the_writer_is_no_employer(adv: LocalAdversary) -> None:
    text = "Many thanks to everyone at Quillon Opticians for replacing my lenses so fast."
    assert _author_value(adv, text, "AFFILIATION")[0] == ""
    text = "I am thankful to everyone at Quillon Opticians for a lovely first month."
    assert _author_value(adv, text, "AFFILIATION")[0] == "Quillon Opticians"


def test_ages_after_an_achievement_and_a_relative_s_birthday(adv: LocalAdversary) -> None:
    assert _author_value(adv, "Got my motorbike licence at 61! Never too late.", "AGE")[0] == "61"
    assert _author_value(adv, "The bus left at 10! We ran.", "AGE")[0] == ""
    subjects = adv.infer("Ordered a cake for my son's 18th and he loved it.").subjects
    son = next(s for s in subjects if "son" in s.description.lower())
    assert [p.keyword for p in son.piis if p.tag == "AGE"] == ["18"]


def test_a_pupil_s_years_at_school_and_a_night_at_the_pub_are_no_job(adv: LocalAdversary) -> None:
    for text in ("I spent seven years in school and I hated it.", "My night at the pub was fun."):
        assert _author_value(adv, text, "OCCUPATION")[1] != "occupation.workplace", text


@pytest.mark.parametrize(("text", "tag", "value"), [*UNSEEN_CASES, *ROUND9_CASES])
def test_unseen_patterns(adv: LocalAdversary, text: str, tag: str, value: str) -> None:
    assert _author_value(adv, text, tag)[0] == value


def test_relatives_own_facts_stay_theirs(adv: LocalAdversary) -> None:
    text = "My aunt defended her thesis in marine biology, and I drove her home afterwards."
    subjects = adv.infer(text).subjects
    values = {(s.description.split(" - ")[0], p.tag, p.keyword) for s in subjects for p in s.piis}
    assert ("Aunt of the author", "EDUCATION", "PhD") in values
    assert ("Aunt of the author", "OCCUPATION", "Marine") not in values  # it modifies 'biology'
    daughter = adv.infer("My daughter (16) passed her driving test today!").subjects
    assert any(p.tag == "AGE" and p.keyword == "16" for s in daughter for p in s.piis)


def test_signature_title_is_no_relationship(adv: LocalAdversary) -> None:
    subjects = adv.infer("Thanks,\nDaniel Okafor\nPartner, Okafor Brandt LLP").subjects
    assert not any(p.tag == "RELATIONSHIP" and p.keyword for s in subjects for p in s.piis)
