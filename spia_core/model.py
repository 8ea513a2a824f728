"""Typed data model shared by every stage: documents, subjects, PII, scores and metrics.

All classes are plain dataclasses. ``to_dict`` / ``from_dict`` give a JSON-safe round trip
(``from_dict(to_dict(x)) == x``) used by the store, the exports and the CLI.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


# --------------------------------------------------------------------------- inputs


@dataclass
class Evidence:
    """A character span of the analysed text that supports an inference."""

    start: int
    end: int
    text: str = ""


@dataclass
class Explanation:
    """Why an adversary inferred a value: the rule (or model reasoning) and its evidence.

    ``rule`` is a registered rule id of the local adversary (e.g. ``work.activity``) or
    ``llm`` for a model's own reasoning; ``text`` is one sentence a person can read.
    """

    rule: str
    text: str
    evidence: list[Evidence] = field(default_factory=list)


@dataclass
class PII:
    """One piece of personal information about a subject, in SPIA format."""

    tag: str
    keyword: str = ""
    certainty: int = 0
    hardness: int = 0
    evidence: list[Evidence] = field(default_factory=list)
    #: Why the value was inferred (None for ground truth and for adversaries that give none).
    explanation: Explanation | None = None

    @property
    def is_empty(self) -> bool:
        """True when the tag does not apply (empty keyword)."""
        return not self.keyword.strip()


@dataclass
class Subject:
    """A person in a document, with the PII known (GT) or inferred about them."""

    id: int
    description: str = ""
    piis: list[PII] = field(default_factory=list)

    def values(self, tag: str) -> list[PII]:
        """Non-empty PIIs of one tag."""
        return [p for p in self.piis if p.tag == tag and not p.is_empty]

    @property
    def name(self) -> str:
        """Most complete name known, else ''."""
        names = self.values("NAME")
        return max((p.keyword.strip() for p in names), key=len, default="")


@dataclass
class EntityMention:
    """A TAB-style span annotation (offsets into the document's original text)."""

    span_text: str
    entity_type: str
    start: int
    end: int
    entity_id: str
    identifier_type: str  # DIRECT | QUASI | NO_MASK
    span_id: str = ""


@dataclass
class Document:
    """A document with optional ground-truth subjects and span annotations."""

    data_id: str
    text: str
    subjects: list[Subject] = field(default_factory=list)
    entities: list[EntityMention] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    #: Quirks met while reading (recorded, never fatal).
    warnings: list[str] = field(default_factory=list)

    def subject(self, subject_id: int) -> Subject | None:
        """The subject with this id, or None."""
        return next((s for s in self.subjects if s.id == subject_id), None)


# --------------------------------------------------------------------------- scoring


@dataclass
class Decision:
    """Outcome of comparing one GT keyword with one predicted keyword.

    ``score`` is 1.0, 0.5 or 0.0; None means *unscorable* (the reference scorer would
    crash on this pair) and ``reason`` says why.
    """

    score: float | None
    rule: str
    reason: str = ""

    @property
    def unscorable(self) -> bool:
        return self.score is None


@dataclass
class Override:
    """A human adjudication that replaces an automatic score."""

    score: float
    reason: str
    author: str = ""


@dataclass(frozen=True)
class ScoreOverride:
    """One human decision on one GT PII: the one record the dashboard, the CLI and exports use.

    It names the document (``data_id``; "" = the one report it is applied to), the GT subject
    and the tag; ``gt_keyword`` narrows it to one value when a subject has several of that tag
    (None = every PII of that tag). Applied by
    :func:`spia_core.evaluation.adjudication.apply_overrides`, it becomes the
    :class:`Override` of the matching :class:`PIIScore` (the automatic score is kept).
    """

    gt_subject_id: int
    tag: str
    score: float  # 0.0, 0.5 or 1.0
    reason: str
    author: str = ""
    data_id: str = ""
    gt_keyword: str | None = None


@dataclass
class PIIScore:
    """The score of one GT PII of one subject against the adversary's best prediction."""

    gt_subject_id: int
    tag: str
    gt_keyword: str
    certainty: int
    hardness: int
    pred_subject_id: int | None
    pred_keyword: str
    pred_certainty: int
    score: float | None  # None = unscorable (counted in coverage, never as protected)
    rule: str
    reason: str = ""
    override: Override | None = None
    pred_evidence: list[Evidence] = field(default_factory=list)

    @property
    def effective_score(self) -> float | None:
        """The human override when present, else the automatic score."""
        return self.override.score if self.override is not None else self.score


@dataclass
class SubjectResult:
    """Scores of one GT subject against the inferred subject it was matched to."""

    gt_subject_id: int
    description: str
    pred_subject_id: int | None  # None = unmatched (fully protected, as in the paper)
    match_similarity: float = 0.0
    match_reason: str = ""
    scores: list[PIIScore] = field(default_factory=list)
    is_target: bool = False


class Severity:
    """How much a :class:`Notice` weighs on a verdict."""

    INFO = "info"  # context for the reader; the result stands
    WARNING = "warning"  # the result stands but is weaker than it looks (a lower bound, ...)
    ERROR = "error"  # the result is incomplete or wrong: no verdict may be given


class NoticeKind:
    """The kinds of :class:`Notice`; the UI and the verdict branch on these, never on text."""

    STAGE_FAILED = "stage_failed"  # a stage raised; its output is missing
    INFERENCE_INCOMPLETE = "inference_incomplete"  # an LLM call of the adversary failed
    ANONYMIZER_REFUSED = "anonymizer_refused"  # refusal / empty / not a rewrite of the input
    UNSUPPORTED_LANGUAGE = "unsupported_language"  # the engine cannot read this language
    NO_SUBJECTS_FOUND = "no_subjects_found"  # no person found where the text speaks of people
    DEGRADED_MODEL = "degraded_model"  # no trained spaCy model: patterns only
    LOWER_BOUND = "lower_bound"  # the local adversary infers less than an LLM would
    NO_GROUND_TRUTH = "no_ground_truth"  # GT inferred from the original, or no original at all
    PARTIAL_FAILURE = "partial_failure"  # a part of a stage failed (a subject, a call)
    INPUT_QUIRK = "input_quirk"  # something odd in the input that was repaired or noted
    CAVEAT = "caveat"  # any other caveat worth reading


@dataclass
class Notice:
    """A typed failure, degradation or caveat raised by a stage (never parsed from text).

    ``severity`` is a :class:`Severity` value; any ``error`` notice means the audit is
    incomplete and no verdict (safe or not) may be given from it.
    """

    kind: str
    stage: str
    message: str
    severity: str = Severity.WARNING
    data_id: str = ""
    #: Machine-readable details (counts, the language detected, the failing call ...).
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def blocks_verdict(self) -> bool:
        return self.severity == Severity.ERROR


@dataclass
class Failure:
    """Something that could not be computed; it is reported, never scored as protected."""

    data_id: str
    stage: str
    reason: str
    subject_id: int | None = None


@dataclass
class Coverage:
    """How much of the input was actually scored."""

    n_docs: int = 0
    n_docs_scored: int = 0
    n_subjects: int = 0
    n_subjects_scored: int = 0
    n_pii: int = 0
    n_pii_scored: int = 0
    failures: list[Failure] = field(default_factory=list)

    @property
    def n_docs_failed(self) -> int:
        return self.n_docs - self.n_docs_scored


@dataclass
class GroupMetric:
    """Protection over one group of PII (a tag, CODE vs NON-CODE, a hardness, ...)."""

    n_pii: int
    sum_score: float

    @property
    def protection(self) -> float | None:
        """1 - inferred share; None for an empty group."""
        return None if self.n_pii == 0 else 1.0 - self.sum_score / self.n_pii


@dataclass
class SubjectProtection:
    """Protection rate of one subject (P_i in the paper)."""

    data_id: str
    gt_subject_id: int
    description: str
    matched: bool
    n_pii: int
    sum_score: float
    is_target: bool = False

    @property
    def protection(self) -> float:
        return 1.0 - self.sum_score / self.n_pii if self.n_pii else 1.0


@dataclass
class Metrics:
    """CPR, IPR, 1-AAC and their breakdowns for one document or a whole run."""

    cpr: float | None
    ipr: float | None
    one_minus_aac: float | None
    n_subjects: int
    n_pii: int
    sum_score: float
    per_tag: dict[str, GroupMetric] = field(default_factory=dict)
    per_group: dict[str, GroupMetric] = field(default_factory=dict)  # CODE/NON-CODE/DIRECT/QUASI
    per_hardness: dict[str, GroupMetric] = field(default_factory=dict)
    per_certainty: dict[str, GroupMetric] = field(default_factory=dict)
    per_subject: list[SubjectProtection] = field(default_factory=list)
    n_extra_subjects: int = 0
    coverage: Coverage = field(default_factory=Coverage)

    @property
    def worst_subject(self) -> SubjectProtection | None:
        """The least-protected subject (ties: first in order)."""
        return min(self.per_subject, key=lambda s: s.protection, default=None)


# --------------------------------------------------------------------------- (de)serialisation


def to_dict(obj: Any) -> Any:
    """JSON-safe dict of a dataclass tree (properties are not included)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_dict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_dict(v) for v in obj]
    return obj


def from_dict(cls: type[T], data: Any) -> T:
    """Rebuild a dataclass (recursively) from :func:`to_dict` output."""
    return _build(cls, data)


def _build(tp: Any, data: Any) -> Any:
    if data is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return _build(args[0], data) if len(args) == 1 else data
    if origin is list:
        (arg,) = typing.get_args(tp) or (Any,)
        return [_build(arg, v) for v in data]
    if origin is dict:
        _, varg = typing.get_args(tp) or (Any, Any)
        return {k: _build(varg, v) for k, v in data.items()}
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        kwargs = {
            f.name: _build(hints[f.name], data[f.name])
            for f in dataclasses.fields(tp)
            if f.init and f.name in data
        }
        return tp(**kwargs)
    return data


# --------------------------------------------------------------------------- matching


@dataclass
class MatchPair:
    """One GT subject and the inferred subject assigned to it (None = unmatched)."""

    gt_subject_id: int
    pred_subject_id: int | None
    similarity: float = 0.0
    reason: str = ""


@dataclass
class Assignment:
    """A one-to-one assignment of GT subjects to inferred subjects."""

    pairs: list[MatchPair] = field(default_factory=list)
    #: Inferred subjects with no GT counterpart (reported as extra subjects).
    extra_pred_subject_ids: list[int] = field(default_factory=list)
    matcher: str = ""

    def pred_for(self, gt_subject_id: int) -> int | None:
        pair = next((p for p in self.pairs if p.gt_subject_id == gt_subject_id), None)
        return None if pair is None else pair.pred_subject_id


# --------------------------------------------------------------------------- span metrics, utility


@dataclass
class SpanMetrics:
    """TAB span metrics (notes section 10) for one document or a corpus."""

    token_recall: float | None  # R_di+qi
    mention_recall: float | None
    er_di: float | None
    er_qi: float | None
    token_precision: float | None  # None unless masked offsets are known
    #: How masked offsets were obtained: "spans" | "alignment" | "span_search" | "offset_comparison"
    method: str
    #: spaCy model used for the POS ignore rule; "blank" = no tagger (degraded)
    tagger: str
    #: GT spans from the entity file ("dataset") or from NER on the original ("automatic")
    gt_source: str = "dataset"
    n_tokens: int = 0
    n_mentions: int = 0
    n_direct_entities: int = 0
    n_quasi_entities: int = 0
    per_entity_type: dict[str, float] = field(default_factory=dict)  # token recall by type
    warnings: list[str] = field(default_factory=list)


@dataclass
class UtilityScores:
    """Utility of the anonymized text: ROUGE-L F1 and, when an LLM judged it, more."""

    rouge_l: float
    readability: float | None = None  # 1-10
    meaning: float | None = None  # 1-10
    hallucination: int | None = None  # 0/1
    mean_utility: float | None = None  # ((r/10 + m/10 + ROUGE-L)/3), or None without LLM scores


# --------------------------------------------------------------------------- one audit


@dataclass
class StageUsage:
    """LLM usage of one stage (anonymize, adversary, matcher, judge, utility)."""

    calls: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0


@dataclass
class PlaceholderReading:
    """A masking placeholder of the analysed text and what the adversary read through it.

    ``seen_through`` is True when an inferred value (certainty >= the exposure threshold)
    rests on evidence that covers the placeholder: the mask hid the words, not the fact.
    """

    start: int
    end: int
    text: str
    label: str = ""  # PERSON, LOCATION, ... ('' for a generic mask such as [REDACTED] or ***)
    seen_through: bool = False
    #: "subject id:TAG" of every inference whose evidence covers this placeholder.
    inferred: list[str] = field(default_factory=list)


@dataclass
class SubjectExposure:
    """Exposure of one inferred subject (see docs/exposure.md)."""

    subject_id: int
    label: str
    #: Direct-identifier tags (NAME, codes) recovered with certainty >= the threshold.
    direct: list[str] = field(default_factory=list)
    #: Quasi-identifier tags inferred with certainty >= the threshold.
    quasi: list[str] = field(default_factory=list)

    @property
    def score(self) -> int:
        """Exposed tags, each weighing 1 as in the scorer's CPR."""
        return len(self.direct) + len(self.quasi)


@dataclass
class DocumentExposure:
    """Per-subject and per-document exposure of one analysed text (docs/exposure.md)."""

    min_certainty: int
    subjects: list[SubjectExposure] = field(default_factory=list)
    placeholders: list[PlaceholderReading] = field(default_factory=list)

    @property
    def score(self) -> int:
        """Sum of the subjects' exposure scores."""
        return sum(s.score for s in self.subjects)

    @property
    def n_exposed_subjects(self) -> int:
        return sum(1 for s in self.subjects if s.score > 0)

    @property
    def n_seen_through(self) -> int:
        return sum(1 for p in self.placeholders if p.seen_through)


@dataclass
class AuditReport:
    """Everything one audit computed; the dashboard renders it, the store saves it."""

    data_id: str
    config: dict[str, Any]
    original_text: str
    anonymized_text: str
    #: [start, end) offsets into the original text, when known
    masked_spans: list[tuple[int, int]] | None
    anonymizer: str
    adversary: str
    adversary_is_local: bool
    gt_subjects: list[Subject]
    #: "dataset" (human GT) or "automatic" (the adversary run on the original text)
    gt_source: str
    inferred_subjects: list[Subject]
    assignment: Assignment
    subject_results: list[SubjectResult]
    metrics: Metrics
    span_metrics: SpanMetrics | None = None
    utility: UtilityScores | None = None
    timings: dict[str, float] = field(default_factory=dict)
    usage: dict[str, StageUsage] = field(default_factory=dict)
    degraded: bool = False
    warnings: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    anonymizer_trace: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    created_at: str = ""
    #: Typed failures, degradations and caveats of every stage (see :class:`Notice`).
    notices: list[Notice] = field(default_factory=list)
    #: "with_original" (the original text was given) or "redacted_only" (no original, no CPR).
    mode: str = "with_original"
    #: What the adversary exposes in the analysed text (set by the exposure stage).
    exposure: DocumentExposure | None = None


def report_to_dict(report: AuditReport) -> dict[str, Any]:
    """JSON-safe dict of a report (see :func:`report_from_dict`)."""
    return to_dict(report)


def report_from_dict(data: dict[str, Any]) -> AuditReport:
    """Rebuild a report from :func:`report_to_dict` output (masked spans back to tuples)."""
    report = from_dict(AuditReport, data)
    if report.masked_spans is not None:
        report.masked_spans = [(int(s), int(e)) for s, e in report.masked_spans]
    return report
