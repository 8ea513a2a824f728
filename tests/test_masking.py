"""Masked-offset methods: reported spans, difflib alignment, span search, offset comparison."""

from __future__ import annotations

import json
import random
import time

import pytest

from spia_core.evaluation.masking import (
    alignment_spans,
    auto_method,
    masked_offsets,
    spans_from_offsets,
    validate_spans,
)
from spia_core.model import EntityMention

ORIGINAL = "Mr John Smith lives in Stockholm."


def _chars(text: str, offsets: set[int]) -> str:
    return "".join(text[i] for i in sorted(offsets))


def _mention(text: str, sub: str, eid: str = "e1", itype: str = "QUASI") -> EntityMention:
    start = text.index(sub)
    return EntityMention(sub, "MISC", start, start + len(sub), eid, itype)


def test_auto_method() -> None:
    assert auto_method(True) == "spans"
    assert auto_method(False) == "alignment"


def test_spans_union_and_overlap() -> None:
    got = masked_offsets(ORIGINAL, "", method="spans", spans=[[3, 7], [5, 13], [3, 4]])
    assert got == set(range(3, 13))
    assert spans_from_offsets(got | {20, 21, 23}) == [(3, 13), (20, 22), (23, 24)]


@pytest.mark.parametrize("bad", [[[5, 3]], [[-1, 2]], [[0, 999]], [[1, 2, 3]], [[1.0, 2]]])
def test_spans_rejects_bad_spans(bad: list[list[float]]) -> None:
    with pytest.raises(ValueError, match="masked span #0"):
        validate_spans(bad, len(ORIGINAL))


def test_missing_inputs_and_unknown_method() -> None:
    with pytest.raises(ValueError, match="needs the masked spans"):
        masked_offsets(ORIGINAL, "", method="spans")
    with pytest.raises(ValueError, match="needs the ground-truth mentions"):
        masked_offsets(ORIGINAL, "", method="span_search")
    with pytest.raises(ValueError, match="unknown masking method"):
        masked_offsets(ORIGINAL, "", method="diff")


def test_alignment_replacements() -> None:
    anon = "Mr [redacted] lives in [redacted]."
    got = masked_offsets(ORIGINAL, anon, method="alignment")
    assert got == set(range(3, 13)) | set(range(23, 32))
    assert _chars(ORIGINAL, got) == "John SmithStockholm"


def test_alignment_identity_deletion_and_auto() -> None:
    assert masked_offsets(ORIGINAL, ORIGINAL, method="alignment") == set()
    got = masked_offsets(ORIGINAL, "Mr John Smith lives.", method="auto")
    assert _chars(ORIGINAL, got) == "in Stockholm"


def test_alignment_keeps_only_real_char_runs() -> None:
    # 'c', 't' of "Stockholm" also occur in "[redacted]": coincidences, not kept
    got = masked_offsets("in Stockholm now", "in [redacted] now", method="alignment")
    assert _chars("in Stockholm now", got) == "Stockholm"
    # "Smith" survives inside "Smithson"; "John" -> "J***" is masked whole
    text = "Mr John Smith lives."
    got = masked_offsets(text, "Mr J*** Smithson lives.", method="alignment")
    assert _chars(text, got) == "John"


def test_alignment_is_fast_on_long_texts() -> None:
    rng = random.Random(7)
    words = [f"w{rng.randrange(3000)}" for _ in range(3500)]
    original = " ".join(words)
    assert len(original) > 18_000
    anon = " ".join(w if rng.random() > 0.2 else "[X]" for w in words)
    started = time.perf_counter()
    spans = alignment_spans(original, anon)
    assert time.perf_counter() - started < 2.0
    assert spans


def test_alignment_covers_gt_replaced_by_placeholders(tab_entity_path) -> None:
    row = json.loads(tab_entity_path.open(encoding="utf-8").readline())
    text = row["text"]
    must = sorted(
        {(e["start_offset"], e["end_offset"]) for e in row["entities"]},
    )
    anon, cursor, parts = text, 0, []
    for start, end in must:
        if start < cursor:
            continue
        parts += [text[cursor:start], "[MASK]"]
        cursor = end
    anon = "".join([*parts, text[cursor:]])
    got = masked_offsets(text, anon, method="alignment")
    wanted = {i for s, e in must for i in range(s, e) if not text[i].isspace()}
    missing = {i for i in wanted - got if text[i].isalnum()}
    assert not missing, _chars(text, missing)


def test_span_search_is_a_global_substring_test() -> None:
    text = "Ali lives in Turkey. Turkey is large."
    first = EntityMention("Turkey", "LOC", 13, 19, "e1", "QUASI")
    name = _mention(text, "Ali", "e2", "DIRECT")
    anon = "[X] lives in [X]. Turkey is large."
    got = masked_offsets(text, anon, method="span_search", mentions=[first, name])
    assert got == set(range(0, 3))  # "Turkey" still occurs elsewhere: not masked


def test_offset_comparison() -> None:
    text = "Ali lives in Turkey."
    mentions = [_mention(text, "Ali", "e1", "DIRECT"), _mention(text, "Turkey")]
    got = masked_offsets(
        text, "*** lives in Turkey.", method="offset_comparison", mentions=mentions
    )
    assert got == {0, 1, 2}
