"""nlp.pos_of: the attribute ruler's POS around a few tokens equals its POS over the whole doc."""

from __future__ import annotations

from spia_core.nlp import load_pipeline, parse, pos_of

TEXT = (
    "But she said that it was the one she wanted, and I asked him whether there were any left. "
    "Those who have done it do not regret it; that is all that matters, isn't it? "
    "He has had a dog since 2019 and does walk it daily, but not in the rain."
)


def test_pos_of_equals_the_ruler_over_the_whole_doc():
    pipe = load_pipeline()
    full = pipe.nlp(TEXT, disable=["lemmatizer", "ner"])
    want = [t.pos_ for t in full]
    raw = pipe.nlp(TEXT, disable=["lemmatizer", "ner", "attribute_ruler"])
    assert not raw.has_annotation("POS") and raw.has_annotation("DEP")
    assert pos_of(raw, 0, len(raw), pipe) == want
    for size in (1, 2, 3):
        for i in range(len(raw) - size + 1):
            assert pos_of(raw, i, i + size, pipe) == want[i : i + size], (i, size)
    # the ruler's dependency-reading rules change some of these (SCONJ, PRON, AUX, ADV)
    assert {"SCONJ", "PRON", "AUX"} <= set(want)
    assert pos_of(full, 3, 6, pipe) == want[3:6]  # a ruled doc is read as it is


def test_parse_without_ruler_then_with_it_gives_the_full_reading():
    pipe = load_pipeline()
    text = TEXT + " (pos_of layering)"
    doc = parse(text, pipe, tags=True, entities=False, ruler=False)
    assert not doc.has_annotation("POS")
    doc = parse(text, pipe, tags=True, entities=False)
    full = pipe.nlp(text, disable=["lemmatizer", "ner"])
    assert [(t.tag_, t.pos_, t.dep_) for t in doc] == [(t.tag_, t.pos_, t.dep_) for t in full]
