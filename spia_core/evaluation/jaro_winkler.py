"""Jaro-Winkler similarity: the SPIA reference variant and the standard (jellyfish) one.

The reference scorer (notes 3.3) ships its own Jaro-Winkler that differs from the standard
definition in two ways:

1. half-transpositions are divided as a float (``t / 2``), not floored (``t // 2``);
2. the Winkler prefix bonus (p = 0.1, up to 4 common leading characters) is applied whatever
   the Jaro score, not only when Jaro > 0.7.

Everything else (match window ``max(len) // 2 - 1``, greedy left-to-right matching) is standard.
"""

from __future__ import annotations

import jellyfish

__all__ = [
    "jaro_counts",
    "reference_jaro_winkler",
    "standard_jaro_winkler",
]

PREFIX_SCALE = 0.1
MAX_PREFIX = 4


def jaro_counts(a: str, b: str) -> tuple[int, int]:
    """(matching characters m, half-transpositions t) of the standard Jaro matching.

    ``t`` is the number of matched positions whose characters differ when the matched
    characters of ``a`` and ``b`` are read in order (not yet divided by 2).
    """
    len_a, len_b = len(a), len(b)
    if not len_a or not len_b:
        return 0, 0
    window = max(max(len_a, len_b) // 2 - 1, 0)
    used_b = [False] * len_b
    matched_a: list[str] = []
    for i, ch in enumerate(a):
        for j in range(max(0, i - window), min(len_b, i + window + 1)):
            if not used_b[j] and b[j] == ch:
                used_b[j] = True
                matched_a.append(ch)
                break
    matched_b = [ch for ch, used in zip(b, used_b, strict=True) if used]
    half_transpositions = sum(x != y for x, y in zip(matched_a, matched_b, strict=True))
    return len(matched_a), half_transpositions


def _prefix_length(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a[:MAX_PREFIX], b[:MAX_PREFIX], strict=False):
        if x != y:
            break
        n += 1
    return n


def reference_jaro_winkler(a: str, b: str) -> float:
    """The SPIA reference variant (float ``t/2``, prefix bonus always applied).

    Identical strings give 1.0; a pair with an empty string or no matching character gives 0.0.
    Callers lower-case and strip first, as the reference does.
    """
    if a == b:
        return 1.0
    m, t = jaro_counts(a, b)
    if m == 0:
        return 0.0
    jaro = (m / len(a) + m / len(b) + (m - t / 2) / m) / 3
    return jaro + _prefix_length(a, b) * PREFIX_SCALE * (1 - jaro)


def standard_jaro_winkler(a: str, b: str) -> float:
    """Standard Jaro-Winkler (jellyfish): integer ``t//2``, bonus only when Jaro > 0.7.

    Unlike jellyfish, two empty strings give 1.0 (they are equal).
    """
    if a == b:
        return 1.0
    return float(jellyfish.jaro_winkler_similarity(a, b))
