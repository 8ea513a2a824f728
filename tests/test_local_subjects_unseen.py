"""Subject finding on everyday texts written for this test (invented, none from a dataset):
writers who never say "I", relatives named twice, and firms, inns, ships and brands named
after people."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


@pytest.fixture(scope="module")
def adversary() -> LocalAdversary:
    return LocalAdversary()


def _labels(adversary: LocalAdversary, text: str) -> list[str]:
    return [s.description for s in adversary.infer(text).subjects]


@pytest.mark.parametrize(
    "text",
    [
        "We finally repainted the hallway. Two coats and it still looks patchy.",
        "Tomatoes are turning red at last. Our allotment neighbours are jealous.",
    ],
)
def test_a_post_without_i_has_a_writer(adversary: LocalAdversary, text: str) -> None:
    assert [d.split(" - ")[0] for d in _labels(adversary, text)] == ["The author"]


@pytest.mark.parametrize(
    "text",
    [
        "Denies chest pain. Reports poor sleep for two weeks. Started on a low dose.",
        'Flooding closed the ring road on Friday. "We had no warning," a driver said.',
        "Preheat the oven, then fold the berries into the batter and bake for an hour.",
    ],
)
def test_notes_news_and_recipes_have_no_writer_subject(
    adversary: LocalAdversary, text: str
) -> None:
    assert not any(d.startswith("The author") for d in _labels(adversary, text))


def test_appositive_kin_and_an_addressed_relative_are_one_person(
    adversary: LocalAdversary,
) -> None:
    one = _labels(adversary, "His godmother, my aunt Odile, sent a parcel from Rouen.")
    assert sum("Odile" in d for d in one) == 1 and len(one) == 2
    two = _labels(adversary, "My stepmother stayed for the weekend. Ines, you spoil us all!")
    others = [d for d in two if not d.startswith("The author")]
    assert len(others) == 1 and others[0].startswith("Ines - stepmother of the author")


@pytest.mark.parametrize(
    ("text", "people"),
    [
        ("The Uncle Sam costume from the party is still on the sofa.", []),
        ("Stayed two nights at the Lord Halden Inn. Breakfast was great.", []),
        ("Picked up dessert from Marks & Spencer and a drill from Jensen Hardware.", []),
        ("Coach Amara kept our under-tens going all season. Proud of them!", ["Coach Amara"]),
        ("Yours sincerely,\nK. L. Osei", ["K. L. Osei"]),
        ("Remember to call Dervla about the boiler before Friday.", ["Dervla"]),
        ("Lunch with Chinedu and Abebe after the market. Too much food!", ["Chinedu", "Abebe"]),
        ("Congrats Tendai on the new job, well deserved.", ["Tendai"]),
        ("Pickup from Mohan Vihar only, cash on collection.", []),
        (
            "Selling my uncle's Morris Minor, restored in the 80s. Message me.",
            ["Uncle of the author"],
        ),
    ],
)
def test_named_things_are_no_people_and_real_people_stay(
    adversary: LocalAdversary, text: str, people: list[str]
) -> None:
    named = [d.split(" - ")[0] for d in _labels(adversary, text)]
    assert [n for n in named if n != "The author"] == people


def test_informal_kin_words_make_relatives(adversary: LocalAdversary) -> None:
    labels = _labels(adversary, "Update on my nan: she is 94 and still gardening. My bro visits.")
    assert {d.split(" - ")[0] for d in labels} >= {
        "Grandmother of the author",
        "Brother of the author",
    }


def test_a_sign_off_with_age_and_town_names_the_writer_not_the_town(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Booked a boiler service and the engineer came the same afternoon. I'm a night-shift "
        "porter so that mattered. Would use again. - Amara, 33, Dundee"
    )
    (writer,) = [s for s in adversary.infer(text).subjects if s.description.startswith("The")]
    found = {p.tag: p.keyword for p in writer.piis if p.keyword}
    assert found["NAME"] == "Amara"


def test_a_name_addressed_at_the_end_is_not_the_writer(adversary: LocalAdversary) -> None:
    text = "I watched the whole graduation from the back row and cried. So proud of you, Thandi."
    names = {
        s.description.split(" - ")[0]: {p.keyword for p in s.piis if p.tag == "NAME"}
        for s in adversary.infer(text).subjects
    }
    assert "Thandi" not in names.get("The author", set())


@pytest.mark.parametrize(
    ("text", "writer", "others"),
    [
        ("Dear Mr Osei,\nThe quote for the new fence is attached.\nRegards, Tom\n", "Tom", 1),
        ("Fixed my boiler in an hour and cleaned up after. Cheers, Gareth", "Gareth", 0),
    ],
)
def test_a_closing_and_a_name_on_one_line_is_the_writer(
    adversary: LocalAdversary, text: str, writer: str, others: int
) -> None:
    """'Regards, Tom' names the writer (one subject, not a second 'Tom')."""
    subjects = adversary.infer(text).subjects
    author = [s for s in subjects if "author of the text" in s.description]
    assert len(author) == 1
    assert {p.keyword for p in author[0].piis if p.tag == "NAME" and p.certainty >= 1} == (
        {writer} if writer else set()
    )
    assert len(subjects) - 1 == others


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("My [DEM] [PERSON] surprised me with dinner. He remembered I hate coriander.", "Husband"),
        ("My [DEM] started school this week and she already loves her new class.", "Daughter"),
        ("My [DEM] retired last spring and he now goes fishing every day.", "Father"),
        ("He and his [DEM] [LOC] met at university and married young.", "Wife"),
    ],
)
def test_a_masked_kin_word_in_a_person_slot_is_a_relative(
    adversary: LocalAdversary, text: str, label: str
) -> None:
    assert any(d.startswith(label) for d in _labels(adversary, text))


def test_masked_kin_words_that_are_no_person_make_no_relative(adversary: LocalAdversary) -> None:
    for text in ("My [DEM] were glued to the bird cam.", "His [DEM] career began in [LOC]."):
        assert not any(" of " in d.split(" - ")[0] for d in _labels(adversary, text))


def test_minutes_keep_a_masked_member_and_the_new_officer_apart(
    adversary: LocalAdversary,
) -> None:
    text = (
        "Present: [PERSON_1] (chair), [PERSON_2] (treasurer), the new secretary, and Mrs "
        "[PERSON_3]. The secretary, who teaches maths, will draft a letter."
    )
    labels = [d.split(" - ")[0] for d in _labels(adversary, text)]
    assert labels == ["[PERSON_1]", "[PERSON_2]", "New secretary", "Mrs [PERSON_3]"]


def test_demonyms_and_addressees(adversary: LocalAdversary) -> None:
    labels = _labels(adversary, "Proud Glaswegian here, born and bred. Love this city.")
    assert [d.split(" - ")[0] for d in labels] == ["The author"]
    labels = _labels(adversary, "Thanks for the lift, Marco! I owe you a coffee.")
    assert [d.split(" - ")[0] for d in labels] == ["The author", "Marco"]


@pytest.mark.parametrize(
    "text",
    [
        "Just moved to Porto. Still unpacking boxes.",
        "Twelve years as a paramedic and still nervous on night shifts.",
        "Lovely walk along the cliffs, the gorse in flower. - Priya, 41, Leicester",
    ],
)
def test_a_writer_who_drops_the_subject_or_signs_with_an_age(
    adversary: LocalAdversary, text: str
) -> None:
    assert any("author of the text" in d for d in _labels(adversary, text))


def test_owners_tenants_partners_and_class_years(adversary: LocalAdversary) -> None:
    text = "Dear Ms Okafor, thank you. Our tenant, a nursing student, is happy with the ladder."
    assert [d.split(" - ")[0] for d in _labels(adversary, text)][1:] == ["Ms Okafor", "Our tenant"]
    text = "The hedge was planted by the previous owner, a retired vet, after his wife died."
    assert any(d.startswith("Wife of the previous owner") for d in _labels(adversary, text))
    for text in ("Her lab partner dropped the flask.", "I teach year 5 and the kids are wild."):
        assert not any(" of " in d.split(" - ")[0] for d in _labels(adversary, text))
    assert _labels(adversary, "Check Ambrose's age before sending.") == ["Ambrose"]


def test_a_named_or_masked_person_of_the_writers_life_says_who_it_is(
    adversary: LocalAdversary,
) -> None:
    labels = _labels(adversary, "Shoutout to my colleague [LOC] who covered my shift.")
    assert any(d.startswith("[LOC] - colleague of the author") for d in labels)
    labels = _labels(adversary, "Lunch with my old friend Priya today, she just got engaged!")
    assert any(d.startswith("Priya - friend of the author") for d in labels)


def test_a_masked_name_in_brackets_after_a_role_is_that_person(adversary: LocalAdversary) -> None:
    """'Her son ([NAME]) is 19': one person, the son, aged 19 (not a son and a '[NAME]')."""
    text = "I rang the school again. Her son ([NAME]) is 19 and works at the bakery."
    others = [s for s in adversary.infer(text).subjects if "author" not in s.description]
    assert len(others) == 1 and others[0].description.startswith("Son")
    assert {(p.tag, p.keyword) for p in others[0].piis if p.certainty >= 3} >= {("AGE", "19")}
