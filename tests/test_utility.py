"""ROUGE-L F1 (own bit-parallel LCS) and the combined utility score."""

from __future__ import annotations

import random
import time

import pytest

from spia_core.evaluation.utility import (
    lcs_length,
    mean_utility,
    rouge_l_f1,
    tokenize,
    utility_scores,
)


def _lcs_dp(a: list[str], b: list[str]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def test_notes_vectors() -> None:
    # notes section 5: rouge_score(use_stemmer=True) gives 0.5455 and 0.4444
    assert rouge_l_f1(
        "Mr John Smith lives in Stockholm.", "Mr [redacted] lives in [redacted]."
    ) == pytest.approx(6 / 11)
    assert rouge_l_f1(
        "I'm a 28-year-old engineer in San Francisco.", "I'm a professional in a major city."
    ) == pytest.approx(4 / 9)


def test_unicode_tokens_stay_whole() -> None:
    assert tokenize("Gülşen moved to Türkiye; [PERSON_1]") == [
        "gülşen",
        "moved",
        "to",
        "türkiye",
        "person",
        "1",
    ]
    assert rouge_l_f1("Gülşen lives in Türkiye", "Gülşen lives in Türkiye") == 1.0
    assert rouge_l_f1("Türkiye", "Turkiye") == 0.0


def test_no_stemming_documented_difference() -> None:
    # rouge_score with its Porter stemmer would give 1.0 here; we keep surface forms
    assert rouge_l_f1("the cats run", "the cat runs") == pytest.approx(1 / 3)


def test_edge_cases() -> None:
    assert rouge_l_f1("", "something") == 0.0
    assert rouge_l_f1("...", "!!!") == 0.0
    assert rouge_l_f1("a b c", "d e f") == 0.0
    assert rouge_l_f1("A, B; C", "a b c") == 1.0


def test_lcs_matches_dynamic_programming() -> None:
    rng = random.Random(3)
    for _ in range(500):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 25))]
        b = [rng.choice("abcde") for _ in range(rng.randint(0, 25))]
        assert lcs_length(a, b) == _lcs_dp(a, b)


def test_lcs_is_fast_for_4000_words() -> None:
    rng = random.Random(5)
    words = [f"w{rng.randrange(900)}" for _ in range(4000)]
    other = [w if rng.random() < 0.7 else "[X]" for w in words]
    started = time.perf_counter()
    score = rouge_l_f1(" ".join(words), " ".join(other))
    assert time.perf_counter() - started < 0.5
    assert 0.6 < score < 0.9


def test_mean_utility_and_clamping() -> None:
    assert mean_utility(6 / 11, 8, 7) == pytest.approx(0.6818, abs=1e-4)
    assert mean_utility(0.5, 12, -3) == pytest.approx((1.0 + 0.0 + 0.5) / 3)
    with pytest.raises(ValueError, match="readability"):
        mean_utility(0.5, "8", 7)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="meaning"):
        mean_utility(0.5, 8, float("nan"))


def test_utility_scores() -> None:
    plain = utility_scores(
        "Mr John Smith lives in Stockholm.", "Mr [redacted] lives in [redacted]."
    )
    assert plain.rouge_l == pytest.approx(6 / 11)
    assert plain.mean_utility is None
    full = utility_scores("a b", "a b", readability=10, meaning=10, hallucination=0)
    assert full.mean_utility == pytest.approx(1.0)
    assert full.hallucination == 0
