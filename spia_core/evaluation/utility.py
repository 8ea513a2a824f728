"""Utility of an anonymized text: ROUGE-L F1 (own implementation) and the combined score.

Tokenisation: lower-cased runs of Unicode letters/digits (``[^\\W_]+``), so "Türkiye" and
"Gülşen" stay one token; on ASCII this equals ``rouge_score``'s tokenizer (which keeps
``[a-z0-9]+`` and splits on everything else, "_" included). No stemming: ``rouge_score`` is
run with a Porter stemmer by the SPIA reference, which only exists for English and only
touches ASCII tokens; we keep surface forms, so "cats"/"cat" do not match here (documented in
docs/span_metrics.md). The notes' vectors (0.5455, 0.4444) are unaffected.

LCS uses the bit-parallel algorithm of Hyyrö (2004) on Python integers: O(n * m / 64) word
operations, a few milliseconds for a 4,000-word pair.
"""

from __future__ import annotations

import math
import re

from spia_core.model import UtilityScores

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Lower-cased Unicode letter/digit runs."""
    return _TOKEN.findall(text.lower())


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence of two token lists (bit-parallel)."""
    if len(a) < len(b):
        a, b = b, a  # bits over the longer sequence, iterate over the shorter
    if not b:
        return 0
    masks: dict[str, int] = {}
    for i, tok in enumerate(a):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for tok in b:
        u = v & masks.get(tok, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def rouge_l_f1(reference: str, candidate: str) -> float:
    """ROUGE-L F1 (beta = 1) of ``candidate`` against ``reference``; 0.0 if either is empty."""
    ref, cand = tokenize(reference), tokenize(candidate)
    if not ref or not cand:
        return 0.0
    lcs = lcs_length(ref, cand)
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(cand), lcs / len(ref)
    return 2 * precision * recall / (precision + recall)


def _clamp_score(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ValueError(f"{name} must be a number from 0 to 10, got {value!r}")
    return min(max(float(value), 0.0), 10.0)


def mean_utility(rouge_l: float, readability: float, meaning: float) -> float:
    """``(readability/10 + meaning/10 + rouge_l) / 3``, the LLM scores clamped to [0, 10]."""
    r = _clamp_score("readability", readability)
    m = _clamp_score("meaning", meaning)
    return (r / 10 + m / 10 + rouge_l) / 3


def utility_scores(
    original: str,
    anonymized: str,
    *,
    readability: float | None = None,
    meaning: float | None = None,
    hallucination: int | None = None,
) -> UtilityScores:
    """ROUGE-L and, when both LLM scores are given, the combined mean utility."""
    rouge = rouge_l_f1(original, anonymized)
    mean = None
    if readability is not None and meaning is not None:
        mean = mean_utility(rouge, readability, meaning)
    return UtilityScores(rouge, readability, meaning, hallucination, mean)
