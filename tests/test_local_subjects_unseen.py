"""Subject finding on everyday texts written for this test (invented, none from a dataset):
writers who never say "I", relatives named twice, and firms, inns, ships and brands named
after people."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


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
    for text in (
        "Proud Glaswegian here, born and bred. Love this city.",
        "Proud Yorkshireman, forty years on the same allotment.",
        "Proud Welshwoman, still learning to surf at 60.",
    ):
        assert not any(d.startswith("Proud") for d in _labels(adversary, text)), text
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


def _names(adversary: LocalAdversary, text: str) -> list[tuple[str, str]]:
    """(label head, NAME value) of each subject."""
    return [
        (
            s.description.split(" - ")[0],
            next((p.keyword for p in s.piis if p.tag == "NAME" and p.keyword), ""),
        )
        for s in adversary.infer(text).subjects
    ]


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("Thanks for the ride home after the concert, Lorenzo!", "Lorenzo"),
        ("Loved the pictures you sent from the lake. So proud of you, Ifeoma!", "Ifeoma"),
        ("Loved my birthday cake. Thanks for baking it, Priyanka!", "Priyanka"),
    ],
)
def test_a_person_addressed_at_the_end_is_not_the_writer(
    adversary: LocalAdversary, text: str, other: str
) -> None:
    names = _names(adversary, text)
    assert (other, other) in names and [n[1] for n in names].count(other) == 1, names


def test_a_name_in_brackets_after_a_kin_word_is_that_relative(adversary: LocalAdversary) -> None:
    names = _names(
        adversary, "My nephew (Kojo) begins his apprenticeship in June and I am thrilled."
    )
    assert [n for n in names if n[1] == "Kojo"] == [("Kojo", "Kojo")] and len(names) == 2, names
    labels = _labels(adversary, "My nephew (Kojo) begins his apprenticeship in June.")
    assert any("nephew of the author" in d for d in labels), labels


def test_a_role_with_a_place_phrase_and_a_masked_name_is_one_person(
    adversary: LocalAdversary,
) -> None:
    text = "I keep reporting the owner of unit 12, [Name removed], who dumps oil in the lane."
    assert len(_labels(adversary, text)) == 2, _labels(adversary, text)  # the writer and the owner


@pytest.mark.parametrize(
    "text",
    [
        "Good evening all, I am [NAME] and I keep bees on my roof.",
        "My name is [REDACTED] and I have driven buses for twenty years.",
        "Hello, it's [PERSON] here, I sold you the bike last week.",
    ],
)
def test_a_masked_self_introduction_is_the_writer(adversary: LocalAdversary, text: str) -> None:
    assert [d.split(" - ")[0] for d in _labels(adversary, text)] == ["The author"]


def test_a_self_introduction_names_the_writer(adversary: LocalAdversary) -> None:
    assert _names(adversary, "Evening! It is Morwenna here, the parcel is on your porch.") == [
        ("Morwenna", "Morwenna")
    ]
    names = _names(adversary, "My name is Adaeze and I repair clocks in my garage.")
    assert names == [("Adaeze", "Adaeze")], names


def test_a_name_alone_on_the_first_line_heads_a_cv(adversary: LocalAdversary) -> None:
    text = (
        "Tomasz Wierzbicki\n5 Quarry Lane, Halifax | 07700 900123\n\n"
        "I am a qualified electrician looking for site work. References from my last foreman."
    )
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1 and "author" in subjects[0].description
    assert _names(adversary, text)[0][1] == "Tomasz Wierzbicki"


def test_a_signature_with_a_job_after_the_name_is_the_writer(adversary: LocalAdversary) -> None:
    for text in (
        "Ate a full breakfast. Walked to the day room.\n\nSigned: T. Okwu, night carer",
        "Thank you to every family who came to the fair.\n\nMrs L. Varga, Headteacher",
    ):
        subjects = adversary.infer(text).subjects
        assert len(subjects) == 1 and "author" in subjects[0].description, text


def test_a_greeting_names_the_recipient_and_a_closing_word_the_writer(
    adversary: LocalAdversary,
) -> None:
    names = _names(adversary, "Hi Tunde,\n\nThe hall is booked for Saturday.\n\nCheers,\nOyelade")
    assert sorted(names) == [("Oyelade", "Oyelade"), ("Tunde", "Tunde")], names
    assert _names(adversary, "Dear Sir,\n\nI enclose my form.\n\nYours faithfully,\nA. Brook") == [
        ("A. Brook", "A. Brook")
    ]


def test_relatives_of_relatives_are_people_of_their_own(adversary: LocalAdversary) -> None:
    labels = _labels(
        adversary, "My cousin's wife teaches yoga and her mother's partner grows leeks."
    )
    heads = [d.split(" - ")[0] for d in labels]
    assert "Wife of the cousin of the author" in heads, heads
    labels = _labels(adversary, "Big thanks to Tariq's aunt, who lent us her van.")
    heads = [d.split(" - ")[0] for d in labels]
    assert "Tariq" in heads and "Aunt of Tariq" in heads, heads


def test_languages_holidays_and_other_parents_are_no_people(adversary: LocalAdversary) -> None:
    text = "I speak Polish and English. After Easter I hope to meet other parents at the gate."
    assert [d.split(" - ")[0] for d in _labels(adversary, text)] == ["The author"]


def test_masked_spouse_and_children_behind_adjectives(adversary: LocalAdversary) -> None:
    """ner-mask hides 'married' and the partner's name ('[DEM] to the wonderful [ORG]') and a
    'mum of three' ('a tired [DEM] and [DEM] of [QUANTITY]')."""
    heads = [
        d.split(" - ")[0]
        for d in _labels(adversary, "[PERSON] : Ten years [DEM] to the wonderful [ORG] today!")
    ]
    assert "Spouse of the author" in heads, heads
    text = "[PERSON] : Slow week. As a tired [DEM] and [DEM] of [QUANTITY], I live on coffee."
    heads = [d.split(" - ")[0] for d in _labels(adversary, text)]
    assert sum(h.startswith("Child") for h in heads) >= 2, heads


def test_little_ones_counted_and_a_spouse_with_a_world_name(adversary: LocalAdversary) -> None:
    text = "Camping again with my wife and our four little rascals. I forgot the tent pegs."
    heads = [d.split(" - ")[0] for d in _labels(adversary, text)]
    assert sum(h.startswith("Child") for h in heads) == 4, heads
    names = _names(adversary, "I have been married to Oyindamola for six years and I still laugh.")
    assert ("Oyindamola", "Oyindamola") in names or any(n[1] == "Oyindamola" for n in names), names
    assert any(
        "spouse of the author" in d for d in _labels(adversary, "I am married to Oyindamola.")
    )


def _heads(adversary: LocalAdversary, text: str) -> list[str]:
    return [d.split(" - ")[0] for d in _labels(adversary, text)]


def test_person_tagged_as_a_firm_and_the_firm_of_a_signature(adversary: LocalAdversary) -> None:
    """A referee's e-mail: the person NER reads as a firm is a person, the signature's firm
    and the title under the writer's name are no people of their own."""
    text = (
        "From: Rahul Mehta <r.mehta@example.org>\n\nHi,\n\nI am happy to give a reference for "
        "Grace Adeyemi, who worked under me in the lab for three years. She left us in June to "
        "start a PhD.\n\nBest,\nRahul\nHead of Quality Control, Northfield Labs\n"
    )
    heads = _heads(adversary, text)
    assert any("Adeyemi" in h for h in heads), heads
    assert len(heads) == 2 and not any("Northfield" in h or "Quality" in h for h in heads), heads


def test_a_greeting_word_is_no_person(adversary: LocalAdversary) -> None:
    assert _heads(adversary, "Hey, I'm a plumber at a small firm in Derby.") == ["The author"]


def test_third_person_news_with_a_press_address_has_no_writer(adversary: LocalAdversary) -> None:
    text = (
        "Kestrel Boatworks has appointed Oluwaseun Adebanjo as head of sales. Oluwaseun joins "
        "from a rival yard. Press enquiries: media@example.com"
    )
    heads = _heads(adversary, text)
    assert not any("author" in h.lower() for h in heads) and any("Adebanjo" in h for h in heads)


def test_saints_pavilions_and_great_grandchildren(adversary: LocalAdversary) -> None:
    text = (
        "The fete at St Aldhelm's Junior School raised £300 and the Herbert Cole Pavilion was "
        "full. Mrs Pryce said her great-granddaughter won the cake raffle."
    )
    heads = _heads(adversary, text)
    assert not any("Aldhelm" in h or "Pavilion" in h for h in heads), heads
    assert any("Great-granddaughter" in h for h in heads), heads


def test_a_relative_clause_role_is_the_relatives(adversary: LocalAdversary) -> None:
    text = "My cousin, who's a lawyer in Leeds, says I should wait. I booked it anyway."
    assert _heads(adversary, text) == ["The author", "Cousin of the author"]


def test_her_husband_hangs_on_a_woman_not_the_man_named_last(adversary: LocalAdversary) -> None:
    text = (
        "Attendees: Priya Shah (HR), Desmond Kerr (line manager), employee [REDACTED].\n\n"
        "[REDACTED] is back after surgery. She is 52 and has worked in our depot since 2011. "
        "Desmond agreed she will do light duties. "
        "Her husband drives her in."
    )
    labels = _labels(adversary, text)
    assert not any("of Desmond" in lab for lab in labels), labels
    assert any(lab.startswith("Husband of") for lab in labels), labels


def test_a_role_before_a_colon_names_the_person_after_it(adversary: LocalAdversary) -> None:
    text = (
        "Term report for Leo Hartley, Year 5.\n\nLeo has worked hard this term and his "
        "spelling has improved.\n\nClass teacher: Mrs D. Okonjo\nDeputy head: Mr T. Varga\n"
    )
    heads = _heads(adversary, text)
    assert not any(h.lower().startswith(("class teacher", "deputy head")) for h in heads), heads
    assert any("Okonjo" in h for h in heads) and any("Varga" in h for h in heads), heads


def test_a_role_that_is_a_named_person_is_that_person(adversary: LocalAdversary) -> None:
    text = (
        "The new tenant is Mr Ruben Diaz. He moves in on Friday, and I told him about the boiler."
    )
    assert _heads(adversary, text) == ["The author", "Mr Ruben Diaz"]


def test_every_given_name_of_a_list_is_a_person(adversary: LocalAdversary) -> None:
    text = "I work with Tom, Ana and Leo at the depot. My friends Kemi, Rosa and Joe came over."
    names = [d.split(" - ")[0] for d in _labels(adversary, text)]
    assert {"Ana", "Rosa", "Kemi", "Joe"} <= set(names), names
    firm = _labels(adversary, "I'm a rep with Pollard, Ngata and Vance.")
    assert [d.split(" - ")[0] for d in firm] == ["The author"], firm


def test_cities_listed_are_no_people_and_a_couple_sharing_a_surname_is_two(
    adversary: LocalAdversary,
) -> None:
    trip = _labels(adversary, "We toured Rome, Florence and Venice last spring.")
    assert [d.split(" - ")[0] for d in trip] == ["The author"], trip
    couple = _labels(adversary, "Anna and Lee Hill came to the party.")
    assert [d.split(" - ")[0] for d in couple] == ["Anna Hill", "Lee Hill"], couple


def test_an_age_band_is_no_count_of_children_and_twin_girls_are_two(
    adversary: LocalAdversary,
) -> None:
    coach = _labels(adversary, "I've coached the under-12 girls at our club for six seasons.")
    assert [d.split(" - ")[0] for d in coach] == ["The author"], coach
    twins = _labels(adversary, "Off to the coast with my husband and our twin girls!")
    assert sum(d.startswith("Daughter") for d in twins) == 2, twins


def _status(adversary: LocalAdversary, text: str) -> list[str]:
    author = adversary.infer(text).subjects[0]
    return [p.keyword for p in author.piis if p.tag == "RELATIONSHIP" and p.keyword]


def test_a_wedding_is_the_writers_unless_it_is_someone_elses(adversary: LocalAdversary) -> None:
    assert _status(adversary, "Our wedding was in June and we honeymooned in Crete.") == ["Married"]
    assert _status(adversary, "Packing for my cousin's wedding in Lisbon next week.") == []
    assert _status(adversary, "My divorced neighbour waters the plants.") == []


def _jobs(adversary: LocalAdversary, text: str) -> dict[str, list[tuple[str, int]]]:
    return {
        s.description.split(" - ")[0]: [
            (p.keyword, p.certainty) for p in s.piis if p.tag == "OCCUPATION"
        ]
        for s in adversary.infer(text).subjects
    }


def test_a_job_said_with_a_pronoun_is_the_pronouns_person(adversary: LocalAdversary) -> None:
    text = "My nan is 88 now. She left Kingston in 1957 and worked as a bus conductor for years."
    assert [j for j, _ in _jobs(adversary, text)["Grandmother of the author"]] == ["Bus conductor"]


def test_a_plural_job_joined_to_a_name_is_other_people(adversary: LocalAdversary) -> None:
    jobs = _jobs(adversary, "Thanks to Dr. Adeyemi and the nurses on the night shift.")
    assert all(c < 3 for c in (c for v in jobs.values() for _, c in v)), jobs
