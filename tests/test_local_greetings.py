"""One greeting word list (word class ``greeting``) for every rule that reads a letter's
addressee: "Hi" and "Hey" greet as "Dear" does (invented texts)."""

from __future__ import annotations

from spia_core.adversary.local import LocalAdversary
from spia_core.adversary.local.patterns import GREETED


def test_one_greeting_pattern_reads_every_greeting_word() -> None:
    for before in ("Dear Ms ", "Hi ", "Hiya ", "Hey ", "Good afternoon ", "Thanks,\nHello "):
        assert GREETED.search(before), before
    assert not GREETED.search("I said hi to ")


def test_a_you_after_hi_is_the_greeted_person(adversary: LocalAdversary) -> None:
    text = (
        "Hi Maria,\n\nYou have been a wonderful nurse on our ward for ten years. "
        "We will miss you.\n\nBest wishes,\nTom"
    )
    maria = next(s for s in adversary.infer(text).subjects if s.description.startswith("Maria"))
    assert "nurse" in next(p.keyword for p in maria.piis if p.tag == "OCCUPATION").lower()


def test_your_son_after_hey_is_the_greeted_persons(adversary: LocalAdversary) -> None:
    text = "Hey Priya,\nI hope your son enjoyed the trip. He is a keen swimmer now.\nCheers, Dan"
    described = [s.description for s in adversary.infer(text).subjects]
    assert any(d.startswith("Son of Priya") for d in described), described
