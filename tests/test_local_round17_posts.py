"""Posts signed with a bare name, 'As a ...' self-descriptions,
a former team, an engagement, listed children's ages and stints (invented sentences, session 16)."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary
from tests._local_helpers import value


def _writer(adversary: LocalAdversary, text: str):
    subjects = adversary.infer(text).subjects
    return subjects, next(s for s in subjects if "author of the text" in s.description)


def test_a_name_alone_after_the_last_sentence_is_the_writer(adversary: LocalAdversary) -> None:
    for text, name in (
        ("Long week on the ward but I loved it. Home to bed now. Marion Tate", "Marion Tate"),
        ("I finally fixed the boiler myself! Kwame Boateng", "Kwame Boateng"),
    ):
        subjects, writer = _writer(adversary, text)
        assert value(writer, "NAME") == name, text
        assert len(subjects) == 1, text


def test_a_name_named_earlier_or_in_a_text_without_i_is_no_signature(
    adversary: LocalAdversary,
) -> None:
    text = "I met Marion Tate at the fair. She sells jam. Marion Tate"
    subjects = adversary.infer(text).subjects
    writer = [s for s in subjects if "author of the text" in s.description]
    assert not writer or value(writer[0], "NAME") != "Marion Tate"
    subjects = adversary.infer("The bridge reopened on Monday. Marion Tate").subjects
    assert not any("author of the text" in s.description for s in subjects)


def test_as_a_role_opening_a_sentence_is_the_writer(adversary: LocalAdversary) -> None:
    for text in (
        "As a Polish nurse, I miss proper bread.",
        "As a vet in Cork, I see a lot of sheep.",
        "As a retired Irish plumber I still fix everything I touch.",
    ):
        subjects = adversary.infer(text).subjects
        assert len(subjects) == 1, text
    _, writer = _writer(adversary, "As a Polish nurse, I miss proper bread.")
    assert ("Poland", 4) in [(p.keyword, p.certainty) for p in writer.piis]
    _, writer = _writer(adversary, "As a retired Irish plumber I still fix everything I touch.")
    assert ("Ireland", 4) in [(p.keyword, p.certainty) for p in writer.piis]
    _, writer = _writer(adversary, "As a vet in Cork, I see a lot of sheep.")
    assert value(writer, "LOCATION").startswith("Cork") and any(
        p.tag == "LOCATION" and p.certainty >= 3 for p in writer.piis
    )


def test_a_language_teacher_names_no_nationality(adversary: LocalAdversary) -> None:
    _, writer = _writer(adversary, "I'm a qualified Spanish tutor in Hull.")
    assert value(writer, "NATIONALITY") != "Spain"


def test_a_former_team_is_no_affiliation_and_and_i_is_no_part_of_a_name(
    adversary: LocalAdversary,
) -> None:
    _, writer = _writer(adversary, "New job, new desk. I miss my old team at Corvell though.")
    assert value(writer, "AFFILIATION") != "Corvell"
    _, writer = _writer(adversary, "Our support team at Corvell is hiring, message me.")
    assert value(writer, "AFFILIATION") == "Corvell"
    _, writer = _writer(adversary, "I have worked at Corvell and I love it.")
    assert value(writer, "AFFILIATION") == "Corvell"


def test_a_writer_with_a_fiance_is_not_married_yet(adversary: LocalAdversary) -> None:
    text = "Booked the honeymoon at last! My fiancée Ines is thrilled. The wedding is in May."
    _, writer = _writer(adversary, text)
    assert value(writer, "RELATIONSHIP") == "In Relation"
    _, writer = _writer(adversary, "Our wedding was lovely and my husband cried.")
    assert value(writer, "RELATIONSHIP") == "Married"


def test_ages_listed_after_counted_children_go_one_each(adversary: LocalAdversary) -> None:
    subjects = adversary.infer("We have two kids, 6 and 13, and a very old cat.").subjects
    ages = sorted(value(s, "AGE") for s in subjects if "of the author" in s.description)
    assert ages == ["13", "6"]


def test_an_age_opening_a_sentence_before_and_is_the_writers(adversary: LocalAdversary) -> None:
    _, writer = _writer(adversary, "Second round of physio done. 47 and never felt this stiff.")
    assert value(writer, "AGE") == "47"
    _, writer = _writer(adversary, "We lost again on Saturday. 85 and still no goal for us.")
    assert value(writer, "AGE") == ""


def test_a_first_week_as_a_job_states_it_but_a_week_at_a_place_is_no_workplace(
    adversary: LocalAdversary,
) -> None:
    _, writer = _writer(adversary, "My first week as a pharmacist at Dunmore Chemists is over.")
    assert ("Pharmacist", 4) in [(p.keyword, p.certainty) for p in writer.piis]
    assert value(writer, "AFFILIATION") == "Dunmore Chemists"
    _, writer = _writer(adversary, "My week at Sandy Pines Holiday Park was lovely.")
    assert value(writer, "AFFILIATION") == ""


def test_a_city_known_by_the_first_word_of_its_name_is_a_rival_reading(
    adversary: LocalAdversary,
) -> None:
    text = "Last exam done! Moving back home to Newcastle before my new job starts in London."
    _, writer = _writer(adversary, text)
    assert value(writer, "LOCATION") == "Newcastle / United Kingdom"
    _, writer = _writer(adversary, "I live in Newcastle and commute to Sydney.")
    assert value(writer, "LOCATION").endswith("Australia")


def test_an_adjective_before_a_name_word_is_no_name(adversary: LocalAdversary) -> None:
    subjects = adversary.infer("Proud Brummie here, born and bred.").subjects
    assert [value(s, "NAME") for s in subjects] == [""]
    names = {
        value(s, "NAME") for s in adversary.infer("Blessing Okafor and I met at church.").subjects
    }
    assert "Blessing Okafor" in names


def test_a_parent_saying_here_at_a_sentence_start_gives_the_writers_sex(
    adversary: LocalAdversary,
) -> None:
    _, writer = _writer(adversary, "Exhausted mum here, any tips for a teething baby?")
    assert ("Female", 5) in [(p.keyword, p.certainty) for p in writer.piis]
    _, writer = _writer(adversary, "Your mum here? Tell her I rang.")
    assert value(writer, "SEX") != "Female"
