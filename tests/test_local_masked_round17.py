"""Posts masked by ner-mask (invented texts, written as the masker leaves them): a masked
sign-off is the writer, a place the masker typed as a person is nobody, children counted by a
masked word are as many as the names listed with their ages, and a guessed kin word said of the
writer ('I was his [DEM]') stays a guess."""

from __future__ import annotations

from _local_helpers import labels, value

from spia_core.adversary.local import LocalAdversary


def _people(adversary: LocalAdversary, text: str) -> list[str]:
    return [s for s in labels(adversary, text) if s != "The author"]


def test_a_masked_name_after_a_dash_ending_the_post_is_the_writer(
    adversary: LocalAdversary,
) -> None:
    text = "Finished the allotment shed at last, only took three weekends. - [PERSON]"
    assert _people(adversary, text) == []
    aged = "Back from a week of walking in the hills. - [PERSON], [DATETIME], [LOC]"
    assert labels(adversary, aged) == ["The author"]


def test_a_masked_name_after_a_closing_ending_the_post_is_the_writer(
    adversary: LocalAdversary,
) -> None:
    text = "Parents evening went well and we celebrated with chips. Love, [PERSON]"
    assert _people(adversary, text) == []
    assert _people(adversary, "Happy anniversary to my wonderful [DEM]! Love, [PERSON] xx") == [
        "Spouse of the author"
    ]
    thanked = "The quiz night raised a lot for the hospice. Thanks, [PERSON]."
    assert len(_people(adversary, thanked)) == 1  # thanked, not signed


def test_a_person_placeholder_after_a_move_or_in_is_a_place(adversary: LocalAdversary) -> None:
    text = "Moving to [PERSON] with my [DEM] [PERSON] in the spring. Nervous but excited."
    assert len(_people(adversary, text)) == 1
    text = "Our [DEM] live in [PERSON] now and I drive up every other weekend."
    assert _people(adversary, text) == []
    owned = "We stayed in [PERSON]'s flat for a week while the boiler was fixed."
    assert len(_people(adversary, owned)) == 1


def test_masked_children_are_as_many_as_the_names_listed_with_ages(
    adversary: LocalAdversary,
) -> None:
    text = (
        "I'm a [DEM] of [QUANTITY] girls, [PERSON] ([QUANTITY]) and [PERSON] ([QUANTITY]). Chaos!"
    )
    assert len(_people(adversary, text)) == 2
    ages = "We have [QUANTITY] [DEM] ([DATETIME], [QUANTITY]) and a very old dog."
    assert len(_people(adversary, ages)) == 2


def test_a_masked_kin_word_the_writer_is_said_to_be_is_no_relation(
    adversary: LocalAdversary,
) -> None:
    text = "My old landlord spotted me in town, who thought I was his [DEM]. Very odd."
    writer = adversary.infer(text).subjects[0]
    assert writer.description.split(" - ")[1].startswith("author of the text")
    assert all(p.certainty <= 2 for p in writer.piis if p.tag in {"SEX", "RELATIONSHIP"})


def test_their_wedding_anniversary_is_not_the_writers(adversary: LocalAdversary) -> None:
    text = "My [DEM] [PERSON] and [DEM] [ORG] marked their 40th wedding anniversary in [LOC]."
    writer = adversary.infer(text).subjects[0]
    assert value(writer, "RELATIONSHIP") != "Married"
    assert value(adversary.infer("It's our 12th anniversary today!").subjects[0], "RELATIONSHIP")


def test_a_job_after_a_preposition_in_a_coordinated_clause_is_not_stated(
    adversary: LocalAdversary,
) -> None:
    writer = adversary.infer("I'm 52 and fed up with plumbers who never turn up.").subjects[0]
    assert value(writer, "OCCUPATION") != "Plumber"
    welder = adversary.infer("I'm a dad of three and a welder by trade.").subjects[0]
    assert value(welder, "OCCUPATION") == "Welder"


def test_a_masked_madam_after_dear_sir_or_is_nobody(adversary: LocalAdversary) -> None:
    text = "Dear Sir or [PERSON], I write about the broken streetlight outside my house."
    assert labels(adversary, text) == ["The author"]


def test_a_role_noun_takes_the_name_after_its_who_clause(adversary: LocalAdversary) -> None:
    text = (
        "Since [PERSON] died I look after the house alone. "
        "The carer who comes on Mondays, [PERSON], is a great help."
    )
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 3
    unnamed = [s.description for s in subjects if s.description.startswith("[PERSON]")]
    assert len(unnamed) == 1 and "Since" in unnamed[0]  # the carer is the one in apposition


def test_a_pets_name_is_nobody(adversary: LocalAdversary) -> None:
    text = "Our cat [PERSON] turned [QUANTITY] today and got extra tuna. My [DEM] laughed."
    assert all("[PERSON]" not in s for s in labels(adversary, text))
    named = "Took the puppy, Biscuit, to the vet with my sister Jo."
    assert "Biscuit" not in [value(s, "NAME") for s in adversary.infer(named).subjects]


def test_a_person_placeholder_after_moving_from_is_a_place(adversary: LocalAdversary) -> None:
    text = "My [DEM] [PERSON] and I are moving from [PERSON] to [LOC] in the summer."
    assert len(_people(adversary, text)) == 1


def test_a_job_word_that_rings_or_says_is_someone_else(adversary: LocalAdversary) -> None:
    text = "Long week of nights. Headteacher rang this morning about my [DEM]'s school trip."
    assert value(adversary.infer(text).subjects[0], "OCCUPATION") != "Headteacher"


def test_a_pronoun_after_a_named_pet_is_the_pets(adversary: LocalAdversary) -> None:
    text = "Said goodbye to our old dog [PERSON] this morning. She was [DATETIME]. So quiet now."
    assert labels(adversary, text) == ["The author"]


def test_our_eldest_after_a_masked_count_is_one_of_the_children(
    adversary: LocalAdversary,
) -> None:
    text = "We moved to [LOC] with our [QUANTITY] [DEM] in May. Our eldest is very into rugby."
    assert len(_people(adversary, text)) == 4  # the masked count's guess, no fifth child
