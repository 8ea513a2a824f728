"""Local (offline) adversary: Stage A subjects and Stage B inference families on short texts."""

from __future__ import annotations

import pytest
from _local_helpers import value

from spia_core.adversary.base import InferenceResult
from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


def check_evidence(text: str, result: InferenceResult) -> None:
    for s in result.subjects:
        for p in s.piis:
            for e in p.evidence:
                assert 0 <= e.start <= e.end <= len(text)
                assert text[e.start : e.end] == e.text


def cert(s: Subject, tag: str) -> int:
    return next((p.certainty for p in s.piis if p.tag == tag and p.keyword), 0)


def find(result: InferenceResult, word: str) -> Subject:
    hits = [s for s in result.subjects if word.lower() in s.description.lower()]
    assert hits, f"no subject described with {word!r}: {[s.description for s in result.subjects]}"
    return hits[0]


ECHR = (
    "The case originated in an application against the Kingdom of Norway lodged by a Norwegian "
    "national, Mr Ivar Haldorsen (“the applicant”), on 4 June 2011. The applicant was represented "
    "by Mr P. Eklund, a lawyer practising in Bergen. The Norwegian Government (“the Government”) "
    "were represented by their Agent, Mr T. Vikan, Ministry for Foreign Affairs.\n\n"
    "The applicant was born in 1968 and lives in Bergen. He is self-employed. Haldorsen later "
    "complained to the Court."
)


def test_echr_subjects_and_tags(adv: LocalAdversary) -> None:
    r = adv.infer(ECHR)
    check_evidence(ECHR, r)
    assert r.adversary == "local"
    names = [value(s, "NAME") for s in r.subjects]
    assert names[0] == "Ivar Haldorsen"  # the applicant first, merged with "Haldorsen"
    assert names.count("Ivar Haldorsen") == 1 and "P. Eklund" in names and "T. Vikan" in names
    assert [s.id for s in r.subjects] == list(range(len(r.subjects)))
    app = r.subjects[0]
    assert value(app, "SEX") == "Male" and cert(app, "SEX") == 5
    assert value(app, "AGE") == "56-57"
    assert value(app, "LOCATION") == "Bergen / Norway"
    assert value(app, "NATIONALITY") == "Norway" and cert(app, "NATIONALITY") == 5
    assert "applicant" in app.description
    lawyer = next(s for s in r.subjects if value(s, "NAME") == "P. Eklund")
    assert value(lawyer, "OCCUPATION") == "Lawyer"
    assert value(lawyer, "EDUCATION") == "College Degree"
    assert value(lawyer, "LOCATION") == "Bergen / Norway"
    agent = next(s for s in r.subjects if value(s, "NAME") == "T. Vikan")
    assert value(agent, "POSITION") == "Agent"
    assert value(agent, "AFFILIATION") == "Ministry for Foreign Affairs"
    assert value(agent, "NATIONALITY") == "Norway"


MASKED = (
    "The case originated in an application against the Republic of [LOC] lodged by a [DEM] "
    "national, [PERSON] (“the applicant”), on [DATETIME]. The applicant was represented by "
    "[PERSON_2], a lawyer practising in [LOC]. The Turkish Government were represented by their "
    "Agent.\n\nThe applicant was born in [DATETIME] and lives in [LOC]. In 1995 his wife died. "
    "The State Security Court ordered him to pay 500 Turkish liras."
)


def test_masked_text_contextual_inference(adv: LocalAdversary) -> None:
    r = adv.infer(MASKED)
    check_evidence(MASKED, r)
    app = r.subjects[0]
    assert "applicant" in app.description
    assert value(app, "NAME") == ""  # masked names are never recovered
    assert value(app, "NATIONALITY") == "Türkiye" and 1 <= cert(app, "NATIONALITY") <= 3
    assert value(app, "LOCATION") == "Türkiye"
    assert value(app, "SEX") == "Male"
    assert value(app, "RELATIONSHIP") in {"Married", "Widowed"}
    lawyer = find(r, "lawyer")
    assert (
        value(lawyer, "OCCUPATION") == "Lawyer" and value(lawyer, "EDUCATION") == "College Degree"
    )
    agent = find(r, "Agent")
    assert value(agent, "POSITION") == "Agent"
    assert r.trace["document_country"] == "Türkiye"
    wife = find(r, "wife")
    assert value(wife, "SEX") == "Female"


def test_consistent_placeholders_are_one_subject(adv: LocalAdversary) -> None:
    text = "[PERSON_1] met [PERSON_2] in Paris. Later [PERSON_1] wrote to [PERSON_2] again."
    r = adv.infer(text)
    assert len(r.subjects) == 2


def test_first_person_post(adv: LocalAdversary) -> None:
    text = (
        "@nora_whitfield : Quiet Sunday at home with my husband and our little one. "
        "I work as a nurse in Dublin. #FamilyFirst"
    )
    r = adv.infer(text)
    check_evidence(text, r)
    author = r.subjects[0]
    assert value(author, "NAME") == "Nora Whitfield"
    assert value(author, "SEX") == "Female"
    assert value(author, "RELATIONSHIP") == "Married"
    assert value(author, "OCCUPATION") == "Nurse"
    assert value(author, "LOCATION") == "Dublin / Ireland"
    husband = find(r, "husband")
    assert value(husband, "SEX") == "Male" and value(husband, "RELATIONSHIP") == "Married"
    child = find(r, "child")
    assert value(child, "AGE") == "0-5"


def test_counted_collectives(adv: LocalAdversary) -> None:
    r = adv.infer("I am a teacher and a proud father of two sons. The neighbours are loud.")
    sons = [s for s in r.subjects if "son" in s.description.lower()]
    assert len(sons) == 2
    assert all(value(s, "SEX") == "Male" for s in sons)
    r2 = adv.infer("I love my children and the citizens of this town.")
    assert not [s for s in r2.subjects if "child" in s.description.lower()]


def test_no_person_gives_no_subject(adv: LocalAdversary) -> None:
    r = adv.infer("The river flooded the valley in spring. Crops were lost across the region.")
    assert r.subjects == []


def test_codes_are_attributed(adv: LocalAdversary) -> None:
    text = (
        "Rebecca : our upload fails for the client with National ID IE-ID-7318264. "
        "Reach me at my work phone 657.284.3390 or kim.b@example.com."
    )
    r = adv.infer(text)
    check_evidence(text, r)
    author = r.subjects[0]
    assert value(author, "NAME") == "Rebecca" and value(author, "SEX") == "Female"
    assert value(author, "PHONE_NUMBER") == "657.284.3390"
    assert value(author, "EMAIL_ADDRESS") == "kim.b@example.com"
    holder = next(s for s in r.subjects if value(s, "IDENTIFICATION_NUMBER"))
    assert holder is not author
    assert value(holder, "IDENTIFICATION_NUMBER") == "IE-ID-7318264"
    assert value(holder, "NATIONALITY") == "Ireland"


def test_age_and_relationship_families(adv: LocalAdversary) -> None:
    text = (
        "Mrs Anna Kowalska was born on 12 May 1970 in Warsaw. She is a widow and a retired "
        "engineer. Her son, Mr Piotr Kowalski, is a 28-year-old doctor."
    )
    r = adv.infer(text)
    check_evidence(text, r)
    anna = next(s for s in r.subjects if value(s, "NAME") == "Anna Kowalska")
    assert value(anna, "AGE") == "55"
    assert value(anna, "SEX") == "Female"
    assert value(anna, "RELATIONSHIP") == "Widowed"
    piotr = next(s for s in r.subjects if value(s, "NAME") == "Piotr Kowalski")
    assert value(piotr, "AGE") == "28"
    assert value(piotr, "OCCUPATION") == "Doctor"
    assert value(piotr, "SEX") == "Male"


def test_script_text_is_data(adv: LocalAdversary) -> None:
    text = "<script>alert('x')</script> Ms Jane Doe, a journalist, lives in <b>London</b>."
    r = adv.infer(text)
    check_evidence(text, r)
    jane = next(s for s in r.subjects if value(s, "NAME") == "Jane Doe")
    assert value(jane, "SEX") == "Female"


def test_bad_input(adv: LocalAdversary) -> None:
    with pytest.raises(ValueError, match="empty"):
        adv.infer("")
    with pytest.raises(ValueError, match="empty"):
        adv.infer("   \n ")
    with pytest.raises(TypeError, match="expects str"):
        adv.infer(None)  # type: ignore[arg-type]


def test_determinism(adv: LocalAdversary) -> None:
    a, b = adv.infer(MASKED), adv.infer(MASKED)
    assert a.subjects == b.subjects


def test_registry_lists_local() -> None:
    from spia_core.adversary.registry import ADVERSARIES

    assert "local" in ADVERSARIES
    assert ADVERSARIES.create("local").name == "local"


def test_degraded_blank_pipeline_and_long_text() -> None:
    import spacy

    from spia_core.nlp import Pipeline

    nlp = spacy.blank("en")
    nlp.max_length = 2_000_000
    adv = LocalAdversary(pipeline=Pipeline(nlp=nlp, model_name="blank", degraded=True))
    text = ("Mr John Smith, a British national, lives in Leeds. " * 4000)[:200_000]
    r = adv.infer(text)
    assert r.degraded and r.warnings
    assert value(r.subjects[0], "NAME") == "John Smith"
    assert value(r.subjects[0], "NATIONALITY") == "United Kingdom"
    with pytest.raises(ValueError, match="limit"):
        adv.infer("x" * 1_000_001)
