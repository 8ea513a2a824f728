"""Masked multi-person posts (invented for this test, none from a dataset), written as the
ner-mask anonymizer leaves them: kin words hidden as [DEM], names mis-tagged [ORG]/[LOC]/[MISC].
The set these cases come from is tests/fixtures/written/masked_posts.jsonl (README)."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


def _subjects(adversary: LocalAdversary, text: str) -> list[tuple[str, dict[str, str]]]:
    out = adversary.infer(text).subjects
    return [(s.description, {p.tag: p.keyword for p in s.piis if p.certainty}) for s in out]


def _labels(adversary: LocalAdversary, text: str) -> list[str]:
    return [d.split(" - ")[0] for d, _ in _subjects(adversary, text)]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        # care words before the masked kin word: a parent, not a spouse
        ("Since his fall I have been caring for my [DEM]. He hates the new hoist.", "Father"),
        # 'our [DEM]' is no spouse: a child when nothing else is said
        ("Our [DEM] [PERSON] starts a new job in [LOC] next week. So proud of her!", "Daughter"),
        # engagement words: an unmarried partner
        ("We are engaged!! My [DEM] [PERSON] proposed on the pier at sunset.", "Partner"),
        # living apart from the writer: no spouse ('rang', 'came over', 'lives in')
        ("My [DEM] rang from her flat in [LOC] at midnight again.", "Mother"),
        # an age said of an unnamed relative: an old parent; of a named one: a child
        ("Nobody believes my [DEM] is [DATETIME]. He still swims daily.", "Father"),
        ("My [DEM] [PERSON] is [DATETIME] and obsessed with trains.", "Child"),
        # a masked kin word before '-in-law': most often a parent-in-law
        ("My [DEM]-in-law, [PERSON], moved in with us after her fall.", "Mother-in-law"),
        # a masked relative with a masked possessor: that person's
        ("[PERSON] chaired the meeting. [PERSON]'s [DEM] ran the tombola.", "Spouse"),
    ],
)
def test_a_masked_kin_word_is_read_from_its_sentence(
    adversary: LocalAdversary, text: str, label: str
) -> None:
    labels = _labels(adversary, text)
    if label == "Spouse":
        assert any(x.startswith("Spouse of [PERSON]") for x in labels), labels
        return
    assert f"{label} of the author" in labels, labels
    assert not any(x.startswith(("Husband", "Wife", "Spouse")) for x in labels), labels


def test_an_engaged_writer_is_not_married(adversary: LocalAdversary) -> None:
    text = "We are engaged!! My [DEM] [PERSON] proposed on the pier at sunset."
    author = next(v for d, v in _subjects(adversary, text) if d.startswith("The author"))
    assert author.get("RELATIONSHIP") != "Married"


def test_a_masked_name_after_a_social_noun_is_that_person_not_a_relative(
    adversary: LocalAdversary,
) -> None:
    labels = _labels(adversary, "My partner [DEM] keeps telling me to quit and he is right.")
    assert labels == ["The author", "[DEM]"] or labels == ["The author", "Partner of the author"]
    assert not any(x.startswith(("Husband", "Wife", "Spouse")) for x in labels), labels


def test_mis_tagged_names_listed_with_i_are_people(adversary: LocalAdversary) -> None:
    text = "Update: [ORG], [LOC] and I cycled the coast road. [LOC] fixed every puncture."
    labels = _labels(adversary, text)
    assert labels.count("The author") == 1 and len(labels) == 3, labels
    # after a preposition the placeholder is a place or a firm: 'at [ORG] and I ...'
    text = "I have worked at [ORG] and I still like the people there."
    assert _labels(adversary, text) == ["The author"]


def test_a_relative_after_a_mis_tagged_name_is_found(adversary: LocalAdversary) -> None:
    text = "Wedding chaos. His [DEM] [MISC] wants a church, my [DEM] [PERSON] wants a barn."
    labels = _labels(adversary, text)
    assert any(x.endswith("of another subject") for x in labels), labels


def test_a_relative_of_the_person_addressed_is_a_person(adversary: LocalAdversary) -> None:
    text = "Dear ████,\n\nI know your father, who is 91, still walks to the shops every day.\n"
    found = [(d, v) for d, v in _subjects(adversary, text) if d.startswith("Father")]
    assert found and found[0][1].get("AGE") == "91", _subjects(adversary, text)


@pytest.mark.parametrize(
    "text", ["My best mate [PERSON] fixed my bike.", "My pal Dev fixed my bike."]
)
def test_a_mate_or_pal_is_described_as_a_friend(adversary: LocalAdversary, text: str) -> None:
    labels = [d for d, _ in _subjects(adversary, text)]
    assert any("friend of the author" in d for d in labels), labels


def test_a_couple_guessed_from_a_masked_kin_word_is_only_a_weak_marriage(
    adversary: LocalAdversary,
) -> None:
    text = "My [DEM] [PERSON] and I finally repainted the hall. He did the ceiling."
    subjects = adversary.infer(text).subjects
    married = [p for s in subjects for p in s.piis if p.tag == "RELATIONSHIP" and p.keyword]
    assert married and all(p.certainty <= 2 for p in married), married


def test_a_masked_relative_before_a_preposition_is_a_person(adversary: LocalAdversary) -> None:
    labels = _labels(adversary, "Drove my [DEM] to the clinic at dawn. She was nervous.")
    assert any(x.endswith("of the author") for x in labels), labels


@pytest.mark.parametrize(
    "text",
    [
        "[PERSON] | Senior pharmacist | [ORG]\n\nThree new starters on the dispensary today.",
        "[PERSON] • Paramedic • [LOC] ambulance station\n\nNights again this week.",
        "[PERSON] community midwife | [ORG]\nDelivered twins at four this morning, both well.",
    ],
)
def test_a_masked_name_opening_a_profile_is_the_writer(
    adversary: LocalAdversary, text: str
) -> None:
    assert _labels(adversary, text) == ["The author"]


@pytest.mark.parametrize(
    "text",
    [
        "[PERSON], thank you for everything.\nWe will miss you at the office.",
        "[PERSON], [DATETIME], was fined for speeding on the bypass.",
    ],
)
def test_a_masked_name_opening_a_text_without_a_profile_line_is_not_the_writer(
    adversary: LocalAdversary, text: str
) -> None:
    assert "[PERSON]" in _labels(adversary, text)  # a person of their own, not the writer


def test_masked_names_listed_after_a_plural_social_noun_are_both_friends(
    adversary: LocalAdversary,
) -> None:
    text = "Sunday climb with my old friends [PERSON] and [PERSON]. Both beat me to the top."
    friends = [d for d, _ in _subjects(adversary, text) if "friend of the author" in d]
    assert len(friends) == 2, _subjects(adversary, text)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        # the names or ages listed after a masked count say how many
        ("Our [QUANTITY] girls, [PERSON] and [PERSON], baked us a cake.", 2),
        ("I have [QUANTITY] [DEM] ([DATETIME], [QUANTITY] and [QUANTITY]) and a dog.", 3),
        ("I have [QUANTITY] [DEM] and both of them want to be vets.", 2),
        # nothing said: four, the most such posts state (an extra guess hides nobody)
        ("Our [QUANTITY] [DEM] are the light of our lives.", 4),
        # a self-description opening a text with no 'I' makes its writer and the children
        ("Busy [DEM] of [QUANTITY] and part-time baker, always late.", 4),
    ],
)
def test_a_masked_count_of_children_reads_what_the_text_says(
    adversary: LocalAdversary, text: str, count: int
) -> None:
    labels = _labels(adversary, text)
    assert "The author" in labels, labels
    assert sum(x.startswith("Child") and x.endswith("of the author") for x in labels) == count


def test_children_named_after_a_masked_count_are_those_children(adversary: LocalAdversary) -> None:
    labels = [
        d for d, _ in _subjects(adversary, "We have [QUANTITY] [DEM]: [PERSON] and [PERSON].")
    ]
    assert labels[1:] and all(x.startswith("Child") for x in labels[1:]), labels


@pytest.mark.parametrize(
    "text", ["Took my [DEM] home after the operation.", "Brought my [DEM] along to the gig."]
)
def test_a_masked_relative_before_an_adverb_is_a_person(
    adversary: LocalAdversary, text: str
) -> None:
    labels = _labels(adversary, text)
    assert any(x.endswith("of the author") for x in labels), labels


@pytest.mark.parametrize(
    "text",
    [
        "My [DEM] and I just dropped the [DEM] off at school, finally some peace.",
        "My [DEM] [PERSON] and I love our quiet mornings now that we are both retired.",
    ],
)
def test_a_masked_relative_and_i_is_a_couple_whatever_else_is_said(
    adversary: LocalAdversary, text: str
) -> None:
    labels = _labels(adversary, text)
    assert any(x.startswith(("Spouse", "Husband", "Wife")) for x in labels), labels


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        # two masked kin words joined by 'and': a parent cue makes both parents
        (
            "Forever grateful to my [DEM] and [DEM] for every lift to practice.",
            ("Mother", "Father"),
        ),
        # no cue: a spouse and a child ('my wife and kids')
        ("My [DEM] and [DEM] woke me with pancakes.", ("Spouse", "Child")),
        ("Our [DEM] and [DEM] start at the new school on [DATETIME].", ("Son", "Daughter")),
    ],
)
def test_two_masked_kin_words_joined_by_and_are_two_relatives(
    adversary: LocalAdversary, text: str, pair: tuple[str, str]
) -> None:
    labels = _labels(adversary, text)
    assert all(f"{kin} of the author" in labels for kin in pair), labels


def test_a_writer_s_masked_relative_who_died_is_most_often_a_parent(
    adversary: LocalAdversary,
) -> None:
    text = "My [DEM] passed away on [DATETIME]. He fixed boats all his life."
    subjects = _subjects(adversary, text)
    assert "Father of the author" in [d.split(" - ")[0] for d, _ in subjects], subjects
    author = next(v for d, v in subjects if d.startswith("The author"))
    assert author.get("RELATIONSHIP") != "Widowed", author
    labels = _labels(adversary, "[PERSON] retired in [DATETIME]. His [DEM] died a year later.")
    assert any(x.startswith("Wife of") for x in labels), labels  # another's: still a spouse


def test_a_widow_from_a_guessed_spouse_is_only_a_guess(adversary: LocalAdversary) -> None:
    out = adversary.infer("[PERSON] retired in [DATETIME]. His [DEM] died a year later.").subjects
    widowed = [p.certainty for s in out for p in s.piis if p.keyword == "Widowed"]
    assert widowed and max(widowed) <= 2, widowed


def test_a_bio_s_masked_spouse_and_children_are_the_bio_person_s(
    adversary: LocalAdversary,
) -> None:
    text = "[PERSON] is a potter in [LOC]. She lives with her [DEM] and [QUANTITY] [DEM]."
    labels = _labels(adversary, text)
    assert "Husband of [PERSON]" in labels, labels
    assert any(x.startswith("Child") and x.endswith("of [PERSON]") for x in labels), labels


@pytest.mark.parametrize(
    "text",
    [
        "My [DEM] celebrated their anniversary [DATETIME], so I cooked.",
        "The couple next door threw their anniversary party and I baked the cake.",
        "I went to [PERSON]'s wedding on [DATETIME] and danced all night.",
    ],
)
def test_another_couple_s_anniversary_is_not_the_writer_s_marriage(
    adversary: LocalAdversary, text: str
) -> None:
    out = adversary.infer(text).subjects
    author = next(s for s in out if s.description.startswith("The author"))
    assert not [p for p in author.piis if p.keyword == "Married" and p.certainty > 2], author


@pytest.mark.parametrize(
    ("text", "label"),
    [
        # a death said before the masked kin word: the writer's parent, as 'passed away'
        ("Lost my [DEM] on [DATETIME]. She was my rock for [DATETIME].", "Mother"),
        ("We buried my [DEM] on [DATETIME]. He was a joiner all his life.", "Father"),
        # an irregular past verb after the masked kin word is a person slot
        ("My [DEM] built a shed for the twins and is now building a pond.", "Spouse"),
    ],
)
def test_a_masked_relative_before_lost_or_an_irregular_past_verb(
    adversary: LocalAdversary, text: str, label: str
) -> None:
    subjects = _subjects(adversary, text)
    assert f"{label} of the author" in [d.split(" - ")[0] for d, _ in subjects], subjects
    author = next(v for d, v in subjects if d.startswith("The author"))
    assert author.get("RELATIONSHIP") != "Widowed", author


@pytest.mark.parametrize(
    ("text", "label"),
    [
        # 'baby' or 'kid' before a sibling word is no child of the writer
        ("My baby brother Tomasz is starting university in October.", "Brother"),
        ("My kid sister just passed her driving test!", "Sister"),
    ],
)
def test_a_kin_word_before_a_sibling_word_is_an_adjective(
    adversary: LocalAdversary, text: str, label: str
) -> None:
    found = [d for d, _ in _subjects(adversary, text)]
    assert any(f"{label.lower()} of the author" in d.lower() for d in found), found
    assert not any(d.startswith("Child") for d in found), found


def test_a_masked_relative_before_a_present_tense_verb_is_a_person(
    adversary: LocalAdversary,
) -> None:
    labels = _labels(adversary, "Our [DEM] rings every evening from [LOC], which helps.")
    assert any(x.endswith("of the author") for x in labels), labels


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("My sister is divorced and lives in Hull with her two boys.", ""),
        ("My parents are divorced but still good friends.", ""),
        ("My baby brother Tomasz is getting married in May!", ""),
        ("Went to my grandparents' anniversary party on Sunday.", ""),
        # the writer's own status is still read
        ("My husband and I are divorced now, amicably.", "Divorced"),
        ("We are getting married in June!", "Married"),
    ],
)
def test_a_status_said_of_someone_else_is_not_the_writer_s(
    adversary: LocalAdversary, text: str, status: str
) -> None:
    out = adversary.infer(text).subjects
    author = next(s for s in out if s.description.startswith("The author"))
    said = [
        p.keyword
        for p in author.piis
        if p.explanation and p.explanation.rule == "family.author_status"
    ]
    assert said == ([status] if status else []), (said, author)


@pytest.mark.parametrize(
    "text", ["My ex-[DEM] [PERSON] has stopped paying child support.", "My ex has the kids today."]
)
def test_an_ex_is_described_with_a_role_word_the_matcher_reads(
    adversary: LocalAdversary, text: str
) -> None:
    from spia_core.evaluation.matching import primary_role

    found = [d for d, _ in _subjects(adversary, text) if d.lower().startswith("ex")]
    assert found and primary_role(found[0]) == "spouse", found  # was 'Ex of the author': author
