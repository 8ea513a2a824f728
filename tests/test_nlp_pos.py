"""nlp.pos_of: the attribute ruler's POS around a few tokens equals its POS over the whole doc."""

from __future__ import annotations

from spia_core.nlp import clear_parse_cache, load_pipeline, parse, pos_in, pos_of, tag_pos_in

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


IGNORED = frozenset({"ADP", "PART", "CCONJ", "DET"})  # span metrics' ignored POS


def test_pos_in_on_a_doc_tagged_without_the_parser_equals_the_full_reading():
    pipe = load_pipeline()
    full = pipe.nlp(TEXT, disable=["lemmatizer", "ner"])
    for wanted in (IGNORED, frozenset({"PRON"}), frozenset({"AUX", "VERB"}), frozenset({"ADV"})):
        # not from the shared parse: a fallback parses the cached doc of the text, not this one
        doc = pipe.nlp(TEXT, disable=["lemmatizer", "ner", "parser", "attribute_ruler"])
        for i in range(len(doc)):
            assert pos_in(doc, i, i + 1, wanted, pipe) == [full[i].pos_ in wanted], (i, wanted)
        assert not doc.has_annotation("DEP")
        assert pos_in(doc, 0, len(doc), wanted, pipe) == [t.pos_ in wanted for t in full]


def test_pos_in_parses_only_when_a_dependency_label_could_change_the_answer():
    pipe = load_pipeline()
    text = TEXT + " (pos_in parser)"
    clear_parse_cache()
    full = pipe.nlp(text, disable=["lemmatizer", "ner"])
    doc = parse(text, pipe, syntax=False, tags=True, entities=False, ruler=False)
    assert not doc.has_annotation("DEP") and doc.has_annotation("TAG")
    noun = next(t.i for t in full if t.pos_ == "NOUN")
    assert pos_in(doc, noun, noun + 1, IGNORED, pipe) == [False]
    assert not doc.has_annotation("DEP")  # no label makes a noun one of these
    the = next(t.i for t in full if t.lower_ == "the")
    assert tag_pos_in(doc, the, the + 1, IGNORED, pipe) == [None]  # the parser decides
    assert not doc.has_annotation("DEP")
    assert pos_in(doc, the, the + 1, IGNORED, pipe) == [full[the].pos_ in IGNORED]
    assert doc.has_annotation("DEP")  # 'the' is DET unless its label says otherwise: parsed
    again = parse(text, pipe, tags=True, entities=False)
    assert [(t.tag_, t.pos_, t.dep_) for t in again] == [(t.tag_, t.pos_, t.dep_) for t in full]
