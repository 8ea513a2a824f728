"""Local adversary on masked posts: family structures, gendered emoji and other people that
survive ner-mask masking (synthetic texts)."""

from __future__ import annotations

import pytest
from _local_helpers import value

from spia_core.model import Subject


def cert(s: Subject, tag: str) -> int:
    return next((p.certainty for p in s.piis if p.tag == tag and p.keyword), 0)


def evidence_ok(text: str, subjects: list[Subject]) -> None:
    for s in subjects:
        for p in s.piis:
            for e in p.evidence:
                assert text[e.start : e.end] == e.text


@pytest.mark.parametrize(
    "text",
    [
        "[PERSON] : Road trips and homework. [DEM] but committed to my [QUANTITY] [DEM] – always.",
        "Name: [PERSON] | Dinner out tonight. As a [DEM] [DEM] of [QUANTITY], nights off are rare.",
        "[PERSON] : Some years hit hard – [DEM], parenting [QUANTITY] [DEM], a new job. Onward!",
    ],
)
def test_masked_lone_parent_is_divorced(adv, text):
    subjects = adv.infer(text).subjects
    author = subjects[0]
    assert value(author, "RELATIONSHIP") == "Divorced"
    assert cert(author, "RELATIONSHIP") <= 2
    evidence_ok(text, subjects)


@pytest.mark.parametrize(
    "text",
    [
        "[PERSON] : Sunday hikes! [DEM] life with [PERSON] and our [QUANTITY] [DEM] is the best.",
        "Name: [PERSON] | Weekend away. Being [DEM] with [QUANTITY] [DEM] means planning ahead.",
    ],
)
def test_masked_married_structures_stay_married(adv, text):
    author = adv.infer(text).subjects[0]
    assert value(author, "RELATIONSHIP") == "Married"


@pytest.mark.parametrize(
    ("emoji", "sex"),
    [
        ("\U0001f469\u200d\U0001f52c", "Female"),  # woman scientist
        ("\U0001f468\u200d\U0001f373", "Male"),  # man cook
        ("\U0001f937\u200d\u2640\ufe0f", "Female"),  # woman shrugging
        ("\U0001f9d1\U0001f3fd\u200d\u2642\ufe0f", "Male"),  # gender sign after a skin tone
    ],
)
def test_gendered_emoji_gives_author_sex(adv, emoji, sex):
    text = f"[PERSON] : Long day at the lab but the results are in! {emoji}"
    author = adv.infer(text).subjects[0]
    assert value(author, "SEX") == sex
    assert cert(author, "SEX") == 2


def test_family_emoji_says_nothing_about_the_writer(adv):
    text = "[PERSON] : Picnic in the park \U0001f468\u200d\U0001f469\u200d\U0001f467 #Weekend"
    author = adv.infer(text).subjects[0]
    assert cert(author, "SEX") <= 1  # only the prior


def test_explicit_words_beat_the_emoji(adv):
    text = "[PERSON] : I'm a proud dad of two! \U0001f469\u200d\U0001f4bb"
    author = adv.infer(text).subjects[0]
    assert value(author, "SEX") == "Male"


def test_masked_spouse_gets_the_opposite_of_the_author_guess(adv):
    text = (
        "[PERSON] : Pizza night! [DEM] evenings with [PERSON] and our little one. "
        "\U0001f469\u200d\U0001f373"
    )
    subjects = adv.infer(text).subjects
    author = subjects[0]
    spouse = next(s for s in subjects if "spouse" in s.description.lower())
    assert value(author, "SEX") == "Female"
    assert value(spouse, "SEX") == "Male"
    assert cert(spouse, "SEX") == 1


@pytest.mark.parametrize(
    "text",
    [
        "[PERSON] : So thankful for all I learned from my [DEM], [ORG]. Their patience shaped me.",
        "[PERSON] : Huge thanks to my coach and my [DEM] [ORG] for the support this season!",
    ],
)
def test_masked_name_list_after_masked_kin_is_two_parents(adv, text):
    subjects = adv.infer(text).subjects
    parents = [s for s in subjects if "parent" in s.description.lower()]
    assert len(parents) == 2
    assert {value(p, "SEX") for p in parents} == {"Male", "Female"}
    assert all(cert(p, "SEX") == 1 for p in parents)
    assert all(value(p, "RELATIONSHIP") == "Married" for p in parents)
    evidence_ok(text, subjects)


def test_masked_kin_then_org_without_family_context_is_not_parents(adv):
    text = "[PERSON] : Meeting my [DEM] [ORG] tomorrow about the quarterly budget."
    subjects = adv.infer(text).subjects
    assert not any("parent" in s.description.lower() for s in subjects)


def test_legacy_passed_down_since_masked_names(adv):
    text = "[PERSON] : Proud of the orchard and the craft passed down since [ORG]. #Roots"
    subjects = adv.infer(text).subjects
    assert len([s for s in subjects if "parent" in s.description.lower()]) == 2


def test_plural_mentors_are_not_one_subject(adv):
    text = "[PERSON] : Huge thanks to my mentors for pushing me to apply. Got the offer today!"
    subjects = adv.infer(text).subjects
    assert not any("mentor" in s.description.lower() for s in subjects)
