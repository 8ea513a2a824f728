"""Masked people the local adversary must find and describe so that a matcher can pair them:
form-field and apposition slots of generic placeholders, parents hidden as [PERSON] (invented
texts)."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary


def _descriptions(adv: LocalAdversary, text: str) -> list[str]:
    return [s.description for s in adv.infer(text).subjects]


FOI = (
    "Requester: XXXXX\n"
    "Officer handling: XXXXX, Records Compliance Lead\n\n"
    "Thank you for your request about the road closure near the allotments. The highways "
    "engineer, ██████, confirmed the inspection took place in spring."
)


def test_form_fields_with_a_role_are_distinct_people(adv: LocalAdversary) -> None:
    people = adv.infer(FOI).subjects
    descs = [s.description for s in people]
    assert "Requester" in descs
    assert any(d.startswith("Officer handling") for d in descs)
    assert "Highways engineer" in descs


def test_second_field_of_the_same_token_is_another_person(adv: LocalAdversary) -> None:
    text = "Tenant: ***\nCaseworker: ***\n\nThe boiler in the flat has failed twice this winter."
    descs = _descriptions(adv, text)
    assert len(descs) == 2
    assert descs[0].startswith("Tenant") and descs[1].startswith("Caseworker")


def test_a_name_field_gives_no_role_and_one_person(adv: LocalAdversary) -> None:
    text = "Name: ***\nDate of birth: ***\n\n*** was seen in the fracture clinic today."
    assert _descriptions(adv, text) == ["***"]


def test_a_role_in_apposition_is_not_taken_by_another_role_noun(adv: LocalAdversary) -> None:
    text = "Our caseworker, [REDACTED], visited on Monday. The tenant said the heating was off."
    descs = _descriptions(adv, text)
    assert "Caseworker" in descs
    assert any(d.startswith("Tenant") for d in descs)


def test_my_two_masked_people_next_to_a_parent_cue_are_parents(adv: LocalAdversary) -> None:
    text = "Lena : Huge thanks to my [PERSON] and [PERSON] for every lesson on the farm."
    descs = _descriptions(adv, text)
    assert "Parent 1 of the author" in " ".join(descs)
    assert "Parent 2 of the author" in " ".join(descs)


def test_my_two_masked_people_without_a_cue_stay_unknown(adv: LocalAdversary) -> None:
    text = "Lena : Had lunch with my [PERSON] and [PERSON] at the new noodle bar."
    assert not any("Parent" in d for d in _descriptions(adv, text))


def test_a_field_role_and_the_same_role_noun_later_are_one_person(adv: LocalAdversary) -> None:
    text = (
        "Patient: ***\n\nThis 58-year-old joiner was seen after a fall at work. "
        "The patient's son, XXX, will collect him on Friday."
    )
    descs = _descriptions(adv, text)
    assert sum(d.startswith("Patient") for d in descs) == 1, descs
    assert any(d.startswith("Son of the patient") for d in descs), descs


def test_a_greeting_placeholder_is_the_recipient(adv: LocalAdversary) -> None:
    for text in (
        "Hi [PERSON],\n\nCould you bring the tent poles on Saturday?\n\nCheers,\n[PERSON]",
        "Dear XXXXX,\n\nYour parking permit has been renewed.\n\nYours sincerely,\nXXXXX",
    ):
        assert "Recipient" in _descriptions(adv, text), text


def test_thanks_to_a_placeholder_is_a_person(adv: LocalAdversary) -> None:
    text = "I have just joined the choir. Thanks to [REDACTED] for adding me to the group!"
    assert "[REDACTED]" in _descriptions(adv, text)


def test_a_masked_bio_subject_is_one_person(adv: LocalAdversary) -> None:
    text = (
        "[PERSON] is a glass artist based in [LOC]. She opened [ORG] in [DATE] and teaches "
        "evening classes. [PERSON] lives with her partner and three cats."
    )
    people = adv.infer(text).subjects
    assert len([s for s in people if s.description.startswith("[PERSON]")]) == 1, people


def test_to_header_and_greeting_are_one_recipient(adv: LocalAdversary) -> None:
    text = (
        "From: [PERSON]\nTo: [PERSON]\nSubject: keys\n\nHi [PERSON], could you leave the spare "
        "keys with the porter?\nThanks,\n[PERSON]"
    )
    assert _descriptions(adv, text).count("Recipient") == 1


def test_a_role_in_apposition_labels_a_typed_placeholder(adv: LocalAdversary) -> None:
    text = (
        "Our night manager, [PERSON], told us on [DATE] that she is moving to [LOC]. "
        "I asked the lifeguard, [PERSON], for help and he was great."
    )
    descs = _descriptions(adv, text)
    assert any(d.startswith("Night manager") for d in descs) and "Lifeguard" in descs, descs


def test_one_token_with_another_role_is_another_person(adv: LocalAdversary) -> None:
    text = (
        "At 07:10 a porter, ***, a 31-year-old agency worker, found patient *** in the "
        "corridor. *** called the charge nurse, ***, who checked his pulse."
    )
    people = {s.description.split(" - ")[0]: s for s in adv.infer(text).subjects}
    assert {"Porter", "Patient", "Charge nurse"} <= people.keys(), list(people)
    assert [p.keyword for p in people["Porter"].piis if p.tag == "AGE"] == ["31"]


def test_a_dash_placeholder_ending_a_post_signs_it(adv: LocalAdversary) -> None:
    text = "Moving to the coast next month with my wife. Any advice on schools?\n— [PERSON]"
    assert not any(d.startswith("[PERSON]") for d in _descriptions(adv, text))
    text = "Guest list:\n- [PERSON]\n- [PERSON]\nPlease bring food and chairs."  # a list: people
    assert any(d.startswith("[PERSON]") for d in _descriptions(adv, text))
