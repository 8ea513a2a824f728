"""A post with no 'I' and no name still has a writer when something is said of them; a text
that says nothing of anyone has no subject (invented sentences)."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary


def test_a_post_with_an_elided_subject_has_a_writer(adversary: LocalAdversary) -> None:
    subjects = adversary.infer("Proud Glaswegian, living in Cardiff for six years now.").subjects
    assert len(subjects) == 1
    assert next(p.keyword for p in subjects[0].piis if p.tag == "LOCATION").startswith("Cardiff")


def test_a_text_about_nobody_has_no_subject(adversary: LocalAdversary) -> None:
    for text in ("Free parking behind the station after six.", "Tickets are £5 at the door."):
        assert adversary.infer(text).subjects == []


def test_a_thing_that_moved_gives_nobody_a_home(adversary: LocalAdversary) -> None:
    text = "The farmers' market has moved to Sheffield, and I love the new square."
    author = adversary.infer(text).subjects[0]
    assert not any(p.certainty >= 3 for p in author.piis if p.tag == "LOCATION")
