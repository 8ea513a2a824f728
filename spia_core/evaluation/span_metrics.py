"""TAB span metrics (token/mention recall, ER_di, ER_qi, token precision), exactly as the TAB
evaluation script defines them (notes section 10, commit c5246a2), micro-averaged over a corpus.

Differences from TAB, all deliberate and documented in docs/span_metrics.md:
- a ratio with an empty denominator is None (TAB returns 0);
- system masks in a document without any GT entity count as false positives (TAB ignores
  them, because its per-document annotator count is 0 there);
- ``char_span`` returning None is tolerated (TAB would raise).
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spia_core.evaluation.masking import (
    METHODS,
    alignment_spans,
    auto_method,
    masked_offsets,
    validate_spans,
)
from spia_core.model import Document, EntityMention, SpanMetrics
from spia_core.nlp import Pipeline, load_pipeline, parse, parse_many, pos_in, tag_pos_in

if TYPE_CHECKING:
    from spacy.tokens import Doc

POS_TO_IGNORE = frozenset({"ADP", "PART", "CCONJ", "DET"})
TOKENS_TO_IGNORE = frozenset({"mr", "mrs", "ms", "no", "nr", "about"})
CHARACTERS_TO_IGNORE = frozenset(" ,.-;:/&()[]–'\" ’“”")
MASKING_TYPES = frozenset({"DIRECT", "QUASI"})
IDENTIFIER_TYPES = frozenset({"DIRECT", "QUASI", "NO_MASK"})

#: spaCy NER label -> (TAB entity_type, identifier_type) for automatic ground truth.
NER_TO_TAB: dict[str, tuple[str, str]] = {
    "PERSON": ("PERSON", "DIRECT"),
    "GPE": ("LOC", "QUASI"),
    "LOC": ("LOC", "QUASI"),
    "FAC": ("LOC", "QUASI"),
    "ORG": ("ORG", "QUASI"),
    "DATE": ("DATETIME", "QUASI"),
    "TIME": ("DATETIME", "QUASI"),
    "NORP": ("DEM", "QUASI"),
    "CARDINAL": ("QUANTITY", "QUASI"),
    "QUANTITY": ("QUANTITY", "QUASI"),
    "MONEY": ("QUANTITY", "QUASI"),
    "PERCENT": ("QUANTITY", "QUASI"),
}
_NER_DEFAULT = ("MISC", "QUASI")
# POS: the shared parse's tags (tagger), then the attribute ruler around the tokens read
# (nlp.pos_in; the parser only for a document where its labels could change an answer).


@dataclass
class MaskInput:
    """One anonymized document: its text and, when known, masked spans in original offsets."""

    anonymized_text: str
    masked_spans: list[tuple[int, int]] | None = None


@dataclass
class Entity:
    """Mentions sharing an ``entity_id`` within one document (TAB ``AnnotatedEntity``)."""

    entity_id: str
    entity_type: str
    is_direct: bool  # from the FIRST mention only, as in TAB
    need_masking: bool  # True if any mention is DIRECT or QUASI
    mentions: list[tuple[int, int]] = field(default_factory=list)
    mention_masking: list[bool] = field(default_factory=list)


def group_entities(mentions: Iterable[EntityMention]) -> list[Entity]:
    """Group one document's mentions by ``entity_id`` with TAB's rules (notes 10.1)."""
    entities: dict[str, Entity] = {}
    for m in mentions:
        if m.identifier_type not in IDENTIFIER_TYPES:
            raise ValueError(
                f"mention {m.entity_id!r}: invalid identifier_type {m.identifier_type!r}"
            )
        need = m.identifier_type in MASKING_TYPES
        ent = entities.get(m.entity_id)
        if ent is None:
            ent = Entity(m.entity_id, m.entity_type, m.identifier_type == "DIRECT", need)
            entities[m.entity_id] = ent
        ent.mentions.append((m.start, m.end))
        ent.mention_masking.append(need)
    for ent in entities.values():
        ent.need_masking = any(ent.mention_masking)
    return list(entities.values())


def split_by_tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``\\w+`` runs of ``text[start:end]`` as absolute offsets (TAB ``split_by_tokens``)."""
    return [(start + m.start(), start + m.end()) for m in re.finditer(r"\w+", text[start:end])]


# --------------------------------------------------------------------------- spaCy


def tagger_name(pipeline: Pipeline) -> str:
    """The model used for POS, or "blank" when the pipeline has no tagger."""
    return pipeline.model_name if pipeline.has_tagger else "blank"


def pos_docs(texts: Sequence[str], pipeline: Pipeline | None = None) -> list[Doc]:
    """Tagged docs for ``texts``: the shared parse (``spia_core.nlp.parse_many``), without the
    attribute ruler and the parser: :class:`_DocEval` asks ``nlp.pos_in`` whether the few
    tokens of unmasked mentions have an ignored POS, which runs the ruler around them only,
    and the parser only where a dependency label could change that answer."""
    return parse_many(texts, pipeline or load_pipeline(), ruler=False, syntax=False)


def automatic_gt_mentions(text: str, pipeline: Pipeline | None = None) -> list[EntityMention]:
    """GT mentions from spaCy NER mapped to TAB types (``[]`` when the pipeline has no NER).

    Mentions with the same label and lower-cased text form one entity.
    """
    pipeline = pipeline or load_pipeline()
    if not pipeline.has_ner:
        return []
    doc = parse(text, pipeline)  # the full pipeline's reading (NER after the parser)
    out = []
    for i, ent in enumerate(doc.ents):
        etype, itype = NER_TO_TAB.get(ent.label_, _NER_DEFAULT)
        eid = f"auto:{ent.label_}:{ent.text.lower()}"
        out.append(
            EntityMention(ent.text, etype, ent.start_char, ent.end_char, eid, itype, f"auto{i}")
        )
    return out


# --------------------------------------------------------------------------- one document


class _DocEval:
    """A document's text, POS doc, entities and one set of masked offsets."""

    def __init__(self, text: str, entities: list[Entity], masked: set[int]) -> None:
        self.text = text
        self.doc: Doc | None = None  # set by the caller when needs_pos()
        self.pipeline: Pipeline | None = None
        self.entities = entities
        self.masked = masked
        self._ignored: dict[int, bool | None] = {}

    def all_ignored(self, tokens: list[int]) -> bool:
        """Whether every token of ``self.doc`` at ``tokens`` has a POS of ``POS_TO_IGNORE``
        (remembered per token). The parser runs (``nlp.pos_in``) only when an answer depends on
        its labels (``nlp.tag_pos_in`` gives None) and no other token already says no."""
        known = self._ignored
        for i in tokens:
            if i not in known:
                known[i] = tag_pos_in(self.doc, i, i + 1, POS_TO_IGNORE, self.pipeline)[0]
        if any(known[i] is False for i in tokens):
            return False
        for i in tokens:
            if known[i] is None:
                known[i] = pos_in(self.doc, i, i + 1, POS_TO_IGNORE, self.pipeline)[0]
        return all(known[i] for i in tokens)

    def needs_pos(self) -> bool:
        """True if some must-mask entity has an unmasked, non-ignorable character.

        Otherwise every mention and token is masked whatever the POS tags are, so the
        (slow) tagger is skipped for this document; the results are unchanged.
        """
        return any(
            i not in self.masked and self.text[i] not in CHARACTERS_TO_IGNORE
            for ent in self.entities
            if ent.need_masking
            for s, e in ent.mentions
            for i in range(s, e)
        )

    def is_mention_masked(self, start: int, end: int) -> bool:
        """TAB ``is_mention_masked``: every char masked except ignorable tokens/characters.
        Only the tokens holding an unmasked character outside ``CHARACTERS_TO_IGNORE`` can
        change the answer, so only their POS is read."""
        bad = {
            i
            for i in range(start, end)
            if i not in self.masked and self.text[i] not in CHARACTERS_TO_IGNORE
        }
        if not bad or self.doc is None:
            return not bad
        span = self.doc.char_span(start, end, alignment_mode="expand")
        asked = []
        for tok in span if span is not None else ():
            held = bad.intersection(range(tok.idx, tok.idx + len(tok)))
            bad -= held
            if held and tok.lower_ not in TOKENS_TO_IGNORE:
                asked.append(tok.i)
        return not bad and self.all_ignored(asked)

    def is_entity_masked(self, ent: Entity) -> bool:
        """TAB ``is_masked``: all must-mask mentions of the entity are masked."""
        return all(
            not need or self.is_mention_masked(s, e)
            for (s, e), need in zip(ent.mentions, ent.mention_masking, strict=True)
        )

    def must_mask_mentions(self) -> list[tuple[int, int]]:
        return [
            m
            for ent in self.entities
            if ent.need_masking
            for m, need in zip(ent.mentions, ent.mention_masking, strict=True)
            if need
        ]


@dataclass
class _Counts:
    tokens: int = 0
    tokens_masked: int = 0
    mentions: int = 0
    mentions_masked: int = 0
    direct: int = 0
    direct_masked: int = 0
    quasi: int = 0
    quasi_masked: int = 0
    system_tokens: int = 0
    system_tp: int = 0
    by_type: Counter[str] = field(default_factory=Counter)
    by_type_masked: Counter[str] = field(default_factory=Counter)

    def add_recall(self, ev: _DocEval) -> None:
        for ent in ev.entities:
            if not ent.need_masking:
                continue
            for s, e in ent.mentions:  # ALL mentions, NO_MASK ones included (as TAB)
                self.mentions += 1
                self.mentions_masked += ev.is_mention_masked(s, e)
                for ts, te in split_by_tokens(ev.text, s, e):
                    hit = ev.is_mention_masked(ts, te)
                    self.tokens += 1
                    self.tokens_masked += hit
                    self.by_type[ent.entity_type] += 1
                    self.by_type_masked[ent.entity_type] += hit
            masked = ev.is_entity_masked(ent)
            if ent.is_direct:
                self.direct += 1
                self.direct_masked += masked
            else:
                self.quasi += 1
                self.quasi_masked += masked

    def add_precision(self, ev: _DocEval, system_spans: list[tuple[int, int]]) -> None:
        gold = ev.must_mask_mentions()
        for s, e in system_spans:
            for ts, te in split_by_tokens(ev.text, s, e):
                self.system_tokens += 1
                self.system_tp += any(ms <= ts and me >= te for ms, me in gold)


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


# --------------------------------------------------------------------------- public API


def compute_span_metrics(
    documents: Sequence[Document],
    masks: dict[str, MaskInput],
    *,
    method: str,
    pipeline: Pipeline | None = None,
) -> SpanMetrics:
    """Corpus-level TAB span metrics, micro-averaged over all documents (like TAB).

    ``method`` is one of ``auto``, ``spans``, ``alignment``, ``span_search``,
    ``offset_comparison``; ``auto`` picks per document (spans when known, else alignment).
    Documents without a mask entry are skipped and named in ``warnings``; documents without
    annotations (``entities is None``) get automatic GT from spaCy NER.
    """
    if method != "auto" and method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected auto or one of {', '.join(METHODS)}")
    pipeline = pipeline or load_pipeline()
    tagger = tagger_name(pipeline)
    warns: list[str] = []
    if tagger == "blank":
        msg = "no POS tagger installed: the ADP/PART/CCONJ/DET ignore rule is off (degraded)"
        warnings.warn(msg, stacklevel=2)
        warns.append(msg)

    todo = _documents_to_score(documents, masks, warns)
    counts = _Counts()
    used_methods: Counter[str] = Counter()
    n_auto = sum(1 for d in todo if d.entities is None)
    evals: list[tuple[_DocEval, list[tuple[int, int]] | None]] = []
    for document in todo:
        mask = masks[document.data_id]
        doc_method = auto_method(mask.masked_spans is not None) if method == "auto" else method
        used_methods[doc_method] += 1
        evals.append(_evaluate_document(document, mask, doc_method, pipeline, warns))
    precision_ok = bool(todo) and all(system is not None for _, system in evals)

    tagged = [ev for ev, _ in evals if ev.needs_pos()]
    for ev, doc in zip(tagged, pos_docs([ev.text for ev in tagged], pipeline), strict=True):
        ev.doc, ev.pipeline = doc, pipeline
    for ev, system in evals:
        counts.add_recall(ev)
        if system is not None:
            counts.add_precision(ev, system)

    if n_auto:
        warns.append(f"{n_auto} document(s) have no annotations: GT spans from spaCy NER")
        if pipeline.has_ner is False:
            warns.append("no NER model installed: automatic GT is empty")
    gt_source = "dataset" if n_auto == 0 else "automatic" if n_auto == len(todo) else "mixed"
    if len(used_methods) > 1:
        warns.append(f"masking methods differ per document: {dict(used_methods)}")
    if len(used_methods) == 1:
        resolved = next(iter(used_methods))
    else:
        resolved = "mixed" if used_methods else method
    return _span_metrics(counts, precision_ok, resolved, tagger, gt_source, warns)


def _documents_to_score(
    documents: Sequence[Document], masks: dict[str, MaskInput], warns: list[str]
) -> list[Document]:
    """The documents that have an anonymized text; the others (and strays) go to ``warns``."""
    todo = [d for d in documents if d.data_id in masks]
    missing = [d.data_id for d in documents if d.data_id not in masks]
    if missing:
        warns.append(f"{len(missing)} document(s) have no anonymized text: {', '.join(missing)}")
    known = {d.data_id for d in documents}
    extra = [k for k in masks if k not in known]
    if extra:
        warns.append(f"{len(extra)} anonymized document(s) not in the GT: {', '.join(extra)}")
    return todo


def _evaluate_document(
    document: Document,
    mask: MaskInput,
    method: str,
    pipeline: Pipeline,
    warns: list[str],
) -> tuple[_DocEval, list[tuple[int, int]] | None]:
    """One document's evaluation and its system mask spans (None: precision not measurable)."""
    mentions = document.entities
    if mentions is None:
        mentions = automatic_gt_mentions(document.text, pipeline)
    _check_mentions(document, mentions, warns)
    offsets = masked_offsets(
        document.text,
        mask.anonymized_text,
        method=method,
        spans=mask.masked_spans,
        mentions=mentions,
    )
    ev = _DocEval(document.text, group_entities(mentions), offsets)
    system: list[tuple[int, int]] | None = None
    if method == "spans":
        system = validate_spans(mask.masked_spans or [], len(document.text))
    elif method == "alignment":
        system = alignment_spans(document.text, mask.anonymized_text)
    if system is not None and not ev.must_mask_mentions():
        warns.append(
            f"{document.data_id}: no GT mention to mask; its masks count as false positives"
        )
    return ev, system


def _span_metrics(
    counts: _Counts,
    precision_ok: bool,
    method: str,
    tagger: str,
    gt_source: str,
    warns: list[str],
) -> SpanMetrics:
    return SpanMetrics(
        token_recall=_ratio(counts.tokens_masked, counts.tokens),
        mention_recall=_ratio(counts.mentions_masked, counts.mentions),
        er_di=_ratio(counts.direct_masked, counts.direct),
        er_qi=_ratio(counts.quasi_masked, counts.quasi),
        token_precision=_ratio(counts.system_tp, counts.system_tokens) if precision_ok else None,
        method=method,
        tagger=tagger,
        gt_source=gt_source,
        n_tokens=counts.tokens,
        n_mentions=counts.mentions,
        n_direct_entities=counts.direct,
        n_quasi_entities=counts.quasi,
        per_entity_type={
            t: counts.by_type_masked[t] / n for t, n in sorted(counts.by_type.items()) if n
        },
        warnings=warns,
    )


def document_span_metrics(
    document: Document,
    anonymized_text: str,
    *,
    masked_spans: list[tuple[int, int]] | None = None,
    method: str = "auto",
    pipeline: Pipeline | None = None,
) -> SpanMetrics:
    """Span metrics of one audited document (see :func:`compute_span_metrics`)."""
    masks = {document.data_id: MaskInput(anonymized_text, masked_spans)}
    return compute_span_metrics([document], masks, method=method, pipeline=pipeline)


def _check_mentions(
    document: Document, mentions: Sequence[EntityMention], warns: list[str]
) -> None:
    n = len(document.text)
    bad_text = 0
    for m in mentions:
        if not 0 <= m.start < m.end <= n:
            raise ValueError(
                f"{document.data_id}: mention {m.entity_id!r} has invalid offsets "
                f"[{m.start}, {m.end}) for a text of length {n}"
            )
        if m.span_text and document.text[m.start : m.end] != m.span_text:
            bad_text += 1
    if bad_text:
        warns.append(
            f"{document.data_id}: {bad_text} mention(s) whose span_text differs from "
            "text[start:end] (offsets are used, as in TAB)"
        )
