"""Masked character offsets of an anonymized text, in ORIGINAL-text coordinates.

A redacted text carries no offsets back to the original, so span metrics need one of four
ways to decide which original characters were masked (notes section 10.7):

- ``spans``: the anonymizer reported the masked ``[start, end)`` spans (exact).
- ``alignment``: difflib alignment of original and anonymized text; original characters that
  were replaced or deleted are masked (faithful for replace-style redaction and paraphrase).
- ``span_search``: the SPIA reference rule; a GT mention is masked iff its ``span_text`` no
  longer occurs anywhere in the anonymized text (inflated/deflated by unrelated occurrences).
- ``offset_comparison``: a GT mention is masked iff ``anonymized[s:e] != span_text``
  (only meaningful for length-preserving masking such as ``****``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher

from spia_core.model import EntityMention

METHODS: tuple[str, ...] = ("spans", "alignment", "span_search", "offset_comparison")
#: Methods whose masked offsets describe what the system masked (token precision is defined).
SYSTEM_MASK_METHODS: frozenset[str] = frozenset({"spans", "alignment"})

#: Alignment units: word runs and single non-space characters (punctuation kept apart).
_UNIT = re.compile(r"\w+|[^\w\s]")
#: Inside a replaced block, a character run must be this long to count as kept in clear
#: (shorter runs are coincidences such as the 'c' of "Stockholm" and "[redacted]").
MIN_CHAR_RUN = 3


def auto_method(spans_known: bool) -> str:
    """The method ``auto`` resolves to: reported spans when known, else the alignment."""
    return "spans" if spans_known else "alignment"


def masked_offsets(
    original: str,
    anonymized: str,
    *,
    method: str,
    spans: Sequence[Sequence[int]] | None = None,
    mentions: Sequence[EntityMention] | None = None,
) -> set[int]:
    """Masked character offsets of ``original`` under ``method`` (see module docstring).

    ``spans`` is required for ``spans``; ``mentions`` (the GT) for ``span_search`` and
    ``offset_comparison``. Raises ValueError on an unknown method, missing input, or spans
    outside the original text.
    """
    if method == "auto":
        method = auto_method(spans is not None)
    if method == "spans":
        if spans is None:
            raise ValueError("method 'spans' needs the masked spans reported by the anonymizer")
        return _offsets(validate_spans(spans, len(original)))
    if method == "alignment":
        return _offsets(alignment_spans(original, anonymized))
    if method in ("span_search", "offset_comparison"):
        if mentions is None:
            raise ValueError(f"method {method!r} needs the ground-truth mentions")
        return _offsets(_mention_spans(anonymized, mentions, search=method == "span_search"))
    raise ValueError(f"unknown masking method {method!r}; expected one of {', '.join(METHODS)}")


def validate_spans(spans: Iterable[Sequence[int]], text_len: int) -> list[tuple[int, int]]:
    """Spans as int tuples; ValueError when one is malformed or outside ``[0, text_len]``."""
    out: list[tuple[int, int]] = []
    for i, span in enumerate(spans):
        if len(span) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in span):
            raise ValueError(f"masked span #{i} {list(span)!r} is not a pair of integers")
        start, end = int(span[0]), int(span[1])
        if not 0 <= start <= end <= text_len:
            raise ValueError(
                f"masked span #{i} [{start}, {end}) is outside the original text "
                f"(length {text_len})"
            )
        out.append((start, end))
    return out


def spans_from_offsets(offsets: Iterable[int]) -> list[tuple[int, int]]:
    """Compact sorted, disjoint ``[start, end)`` intervals covering ``offsets``."""
    out: list[tuple[int, int]] = []
    for i in sorted(set(offsets)):
        if out and out[-1][1] == i:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


def alignment_spans(original: str, anonymized: str) -> list[tuple[int, int]]:
    """Original ``[start, end)`` spans that the anonymized text replaced or deleted.

    Aligns word/punctuation units first (fast on 20k-char texts, autojunk off), then refines
    each replaced block at character level, keeping only runs of >= ``MIN_CHAR_RUN`` equal
    characters as "left in clear".
    """
    a = [(m.start(), m.end()) for m in _UNIT.finditer(original)]
    b = [(m.start(), m.end()) for m in _UNIT.finditer(anonymized)]
    a_units = [original[s:e] for s, e in a]
    b_units = [anonymized[s:e] for s, e in b]
    matcher = SequenceMatcher(None, a_units, b_units, autojunk=False)
    out: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("equal", "insert"):
            continue
        start, end = a[i1][0], a[i2 - 1][1]
        if tag == "delete":
            out.append((start, end))
            continue
        out.extend(_refine(original, start, end, anonymized[b[j1][0] : b[j2 - 1][1]]))
    return out


def _refine(original: str, start: int, end: int, replacement: str) -> list[tuple[int, int]]:
    """Masked sub-spans of ``original[start:end]`` replaced by ``replacement`` (char level)."""
    source = original[start:end]
    matcher = SequenceMatcher(None, source, replacement, autojunk=False)
    kept = [
        (blk.a, blk.a + blk.size)
        for blk in matcher.get_matching_blocks()
        if blk.size >= MIN_CHAR_RUN and source[blk.a : blk.a + blk.size].strip()
    ]
    out: list[tuple[int, int]] = []
    cursor = 0
    for k_start, k_end in kept:
        if k_start > cursor:
            out.append((start + cursor, start + k_start))
        cursor = k_end
    if cursor < len(source):
        out.append((start + cursor, end))
    return out


def _mention_spans(
    anonymized: str, mentions: Sequence[EntityMention], *, search: bool
) -> list[tuple[int, int]]:
    out = []
    for m in mentions:
        if search:
            masked = m.span_text not in anonymized
        else:
            masked = anonymized[m.start : m.end] != m.span_text
        if masked:
            out.append((m.start, m.end))
    return out


def _offsets(spans: Iterable[tuple[int, int]]) -> set[int]:
    return {i for start, end in spans for i in range(start, end)}
