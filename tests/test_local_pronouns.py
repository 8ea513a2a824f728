"""Which person a he or she refers to (invented sentences)."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary
from spia_core.model import Subject


def _sex(subjects: list[Subject], start: str) -> tuple[str, int]:
    s = next(s for s in subjects if s.description.lower().startswith(start))
    return next(((p.keyword, p.certainty) for p in s.piis if p.tag == "SEX" and p.keyword), ("", 0))


def test_a_pronoun_goes_to_the_near_person_known_to_be_of_its_sex(
    adversary: LocalAdversary,
) -> None:
    text = (
        "My wife Sara repainted the neighbour's gate on Sunday. "
        "She still has green paint in her hair."
    )
    subjects = adversary.infer(text).subjects
    assert _sex(subjects, "sara") == ("Female", 5)
    assert _sex(subjects, "neighbour")[1] <= 1  # no pronoun evidence: only a prior, if anything


def test_a_pronoun_still_goes_to_the_only_person_it_can_mean(adversary: LocalAdversary) -> None:
    text = "I finally met our new landlord. She said the boiler will be fixed on Monday."
    subjects = adversary.infer(text).subjects
    assert _sex(subjects, "our new landlord") == ("Female", 4)


@pytest.mark.parametrize(
    "text",
    [
        "My brother finally hired a plumber for the new bathroom.",
        "My aunt married a fisherman from Galway in 1998.",
        "My aunt is married to a dentist these days.",
        "My cousin complained to a paramedic about the wait.",
    ],
)
def test_a_job_noun_that_is_the_object_of_a_verb_is_someone_elses(
    adversary: LocalAdversary, text: str
) -> None:
    relative = adversary.infer(text).subjects[1]
    assert not any(p.keyword for p in relative.piis if p.tag == "OCCUPATION" and p.certainty > 1)


def test_a_job_after_as_or_a_copula_is_still_the_persons(adversary: LocalAdversary) -> None:
    for text in ("My aunt trained as a midwife in Cork.", "My aunt became a midwife in 1990."):
        relative = adversary.infer(text).subjects[1]
        assert [p.keyword for p in relative.piis if p.tag == "OCCUPATION" and p.keyword] == [
            "Midwife"
        ]


def test_our_contact_is_one_person_as_my_contact_is(adversary: LocalAdversary) -> None:
    text = "We finally met our new landlady on Friday. She wants the rent by bank transfer."
    subjects = adversary.infer(text).subjects
    assert _sex(subjects, "our new landlady")[0] == "Female"
    assert len(subjects) == 2  # the writer and the landlady, no 'woman called she'
