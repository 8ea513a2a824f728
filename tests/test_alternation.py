"""WordAlternation finds exactly what the one big ``\\b(w1|w2|...)\\b`` regex finds."""

from __future__ import annotations

import random
import re

from spia_core.adversary.local import lexicons
from spia_core.text.alternation import WordAlternation

WORDS = ["night nurse", "nurse", "nurses", "care worker", "care", "baker", "Ba", "x-ray tech"]
TEXTS = [
    "The night nurse and two nurses met a care worker; careful bakers baked. NURSE! Ba ba.",
    "ſtudent Nurſe KELVIN-x-ray tech, x-ray technician, care-worker, nurse\n\nnurse,",
    "",
    "no match here at all",
]


def _spans(pattern, text: str, *args: int) -> list[tuple[tuple[int, int], str]]:
    return [(m.span(), m.group(1)) for m in pattern.finditer(text, *args)]


def test_same_matches_as_the_regex_on_written_text_and_random_slices() -> None:
    for flags in (re.IGNORECASE, 0):
        rx = re.compile(r"\b(" + "|".join(map(re.escape, WORDS)) + r")\b", flags)
        fast = WordAlternation(WORDS, flags)
        assert fast.pattern == rx.pattern and fast.flags == rx.flags
        rng = random.Random(3)
        for text in TEXTS:
            assert _spans(fast, text) == _spans(rx, text)
            for _ in range(200):
                a = rng.randrange(len(text) + 1)
                b = rng.randrange(a, len(text) + 1)
                assert _spans(fast, text[a:b]) == _spans(rx, text[a:b])
                assert _spans(fast, text, a, b) == _spans(rx, text, a, b)


def test_the_job_taxonomy_pattern_is_unchanged() -> None:
    table, jobs = lexicons.occupations()
    words = sorted(table, key=len, reverse=True)
    rx = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)
    text = "She was a retired school nurse, then a Police Officer and later a sous-chef."
    assert jobs.pattern == rx.pattern
    assert _spans(jobs, text) == _spans(rx, text) != []
