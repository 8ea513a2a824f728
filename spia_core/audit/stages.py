"""The stages of an audit: small classes that read and write declared fields of the state.

Each stage is registered by name in :data:`AUDIT_STAGES`; a plan is a sequence of names
(:data:`STANDARD_PLAN` for an audit with the original text). A stage that raises is recorded
as a ``stage_failed`` notice and the audit goes on (the document is then not scored), except a
stage with ``records_failures = False`` (validate: bad input and unknown names stop the audit).
Stages that need the original text skip cleanly when there is none (redacted-only audits).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import ClassVar, Protocol

from spia_core.audit.config import Components, build_components
from spia_core.audit.state import AuditState
from spia_core.llm.runtime import bind_usage
from spia_core.model import Document, NoticeKind, Severity, SpanMetrics, UtilityScores
from spia_core.registry import Registry


class Stage(Protocol):
    """One step of an audit: ``run(state)`` reads ``reads`` and writes ``writes``."""

    name: ClassVar[str]
    reads: ClassVar[tuple[str, ...]]
    writes: ClassVar[tuple[str, ...]]
    #: True: an exception is recorded as a failed stage and the audit goes on.
    records_failures: ClassVar[bool]
    #: Severity of that failure (error: the privacy result is incomplete; warning: it stands).
    failure_severity: ClassVar[str]

    def run(self, state: AuditState) -> None: ...


#: name -> stage class (``AUDIT_STAGES.create(name)`` gives a stage).
AUDIT_STAGES: Registry[Stage] = Registry[Stage]("audit stage")


class _Stage:
    name: ClassVar[str] = ""
    reads: ClassVar[tuple[str, ...]] = ()
    writes: ClassVar[tuple[str, ...]] = ()
    records_failures: ClassVar[bool] = True
    failure_severity: ClassVar[str] = Severity.ERROR


# --------------------------------------------------------------------------- validate


def doc_id(text: str) -> str:
    """A stable id for a pasted text (``doc-`` + 10 hex digits of its SHA-256)."""
    return "doc-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def as_document(document: Document | str) -> Document:
    """A validated :class:`Document` (raises :class:`~spia_core.textio.InputError`)."""
    from spia_core.textio import validate_text

    if not isinstance(document, Document):  # str; anything else is refused by validate_text
        text = validate_text(document)
        return Document(data_id=doc_id(text), text=text)
    text = validate_text(document.text, document.data_id)
    if text != document.text and not document.subjects and not document.entities:
        document = dataclasses.replace(document, text=text)  # newline normalisation only
    return document


def bind_components(state: AuditState) -> None:
    """Build the components if none were given; bind them to this audit's usage recorder."""
    built = state.components or build_components(
        state.config, api_keys=state.api_keys, cache=state.cache
    )
    state.api_keys = None
    state.components = built
    rec = state.recorder
    state.parts = Components(
        anonymizer=bind_usage(built.anonymizer, rec, "anonymize"),
        adversary=bind_usage(built.adversary, rec, "adversary"),
        matcher=bind_usage(built.matcher, rec, "matcher"),
        judge=bind_usage(built.judge, rec, "judge"),
        utility=bind_usage(built.utility, rec, "utility"),
    )
    state.gt_adversary = bind_usage(built.adversary, rec, "adversary_original")


@AUDIT_STAGES.register("validate")
class Validate(_Stage):
    """Check the input (and the user's redaction), then build and bind the components."""

    name = "validate"
    reads = ("source", "config", "components")
    writes = ("document", "data_id", "components", "parts", "gt_adversary")
    records_failures = False

    def run(self, state: AuditState) -> None:
        from spia_core.textio import validate_text

        state.document = as_document(state.source)  # type: ignore[arg-type]  # None: TypeError
        state.data_id = state.document.data_id
        if state.config.anonymizer == "provided":
            validate_text(state.config.provided_text or "", "redacted text")
        for warning in state.document.warnings:
            state.note(NoticeKind.INPUT_QUIRK, self.name, warning, Severity.INFO)
        bind_components(state)


# --------------------------------------------------------------------------- anonymize


@AUDIT_STAGES.register("anonymize")
class Anonymize(_Stage):
    """The configured anonymizer rewrites (or masks) the original text.

    A rewriting (LLM) anonymizer's output is checked first (``check_rewrite``): a refusal or
    junk is kept in ``rejected`` for the reader, never passed on to be scored as protection.
    """

    name = "anonymize"
    reads = ("document", "parts")
    writes = ("anonymized", "rejected")

    def run(self, state: AuditState) -> None:
        from spia_core.anonymizers.validation import check_rewrite

        anonymizer = state.parts.anonymizer if state.parts else None
        if anonymizer is None:
            raise ValueError(f"no anonymizer built for {state.config.anonymizer!r}")
        output = anonymizer.anonymize(state.original_text)
        for warning in output.warnings:
            state.note(NoticeKind.CAVEAT, self.name, warning)
        if rewrites(anonymizer, state.config.anonymizer):
            notice = check_rewrite(
                state.original_text, output.text, anonymizer=state.config.anonymizer
            )
            if notice is not None:  # a refusal or junk is never protection: not scored
                notice.data_id = state.data_id
                state.notices.append(notice)
                state.rejected = output
                return
        state.anonymized = output


def rewrites(anonymizer: object, name: str) -> bool:
    """True for an anonymizer whose output is a model's rewrite (validated before scoring)."""
    from spia_core.anonymizers.registry import anonymizer_info

    flag = getattr(anonymizer, "rewrites", None)
    if flag is not None:
        return bool(flag)
    try:
        return bool(anonymizer_info(name)["needs_backbone"]) and name != "provided"
    except Exception:  # an anonymizer given as a component, not registered
        return False


# --------------------------------------------------------------------------- inference


CAPITALS_MESSAGE = (
    "The text is written in capitals, which the offline adversary's language model reads "
    "badly: it read a sentence-case copy (common words in lower case; names, places and "
    "nationalities recognised from word lists). A name or place it did not recognise may "
    "still be missed, so what it infers is a weaker lower bound than usual."
)


def reading_view(state: AuditState, text: str, adversary: object) -> str:
    """The text the adversary reads: a local adversary reads the parts of a text written in
    capitals (all of it, or headings and form lines) in sentence case (same length and
    offsets; :mod:`spia_core.text.casing`), with a notice saying so."""
    from spia_core.audit.caveats import adversary_is_local
    from spia_core.text.casing import capital_spans, mostly_capitals
    from spia_core.text.casing import reading_view as sentence_case

    if not adversary_is_local(adversary, state.config.adversary):
        return text
    view = sentence_case(text)
    if view == text:
        return text
    if mostly_capitals(text):
        state.note(NoticeKind.INPUT_QUIRK, "infer", CAPITALS_MESSAGE, capitals=True)
    else:
        n = len(capital_spans(text))
        message = (
            f"{n} line(s) written in capitals (headings, form fields) were read in sentence "
            "case by the offline adversary, whose language model reads capitals badly."
        )
        state.note(NoticeKind.INPUT_QUIRK, "infer", message, Severity.INFO, capital_lines=n)
    return view


@AUDIT_STAGES.register("ground_truth")
class GroundTruth(_Stage):
    """The dataset's GT subjects, else the adversary's inference on the original text."""

    name = "ground_truth"
    reads = ("document", "gt_adversary")
    writes = ("gt_source", "gt_subjects", "original_inference", "degraded")

    def run(self, state: AuditState) -> None:
        doc = state.document
        if doc is None:
            state.gt_source = "none"
            return
        state.gt_source = "dataset" if doc.subjects else "automatic"
        if doc.subjects:
            state.gt_subjects = list(doc.subjects)
            return
        result = state.gt_adversary.infer(reading_view(state, doc.text, state.gt_adversary))
        state.original_inference = result
        complete = state.record_inference(self.name, result)
        state.degraded |= result.degraded
        state.gt_subjects = result.subjects if complete else None


@AUDIT_STAGES.register("infer")
class Infer(_Stage):
    """The adversary reads the anonymized text (the same inference when nothing changed)."""

    name = "infer"
    reads = ("anonymized", "original_inference", "parts")
    writes = ("inferred", "inference_complete", "degraded")

    def run(self, state: AuditState) -> None:
        if state.anonymized is None:
            return
        if state.original_inference is not None and state.anonymized_text == state.original_text:
            state.inferred = state.original_inference  # same text, same inference
            state.inference_complete = state.gt_subjects is not None
        else:
            text = reading_view(state, state.anonymized_text, state.parts.adversary)
            state.inferred = state.parts.adversary.infer(text)
            state.inference_complete = state.record_inference(self.name, state.inferred)
        state.degraded |= state.inferred.degraded


# --------------------------------------------------------------------------- scoring


@AUDIT_STAGES.register("match")
class Match(_Stage):
    """Pair GT subjects with inferred subjects, one-to-one (skipped without both sides)."""

    name = "match"
    reads = ("gt_subjects", "inferred", "inference_complete", "parts")
    writes = ("assignment",)

    def run(self, state: AuditState) -> None:
        if state.gt_subjects is None or state.inferred is None or not state.inference_complete:
            return
        matcher = state.parts.matcher
        state.assignment = matcher.match(
            state.gt_subjects,
            state.inferred.subjects,
            original_text=state.original_text,
            anonymized_text=state.anonymized_text,
        )
        for warning in getattr(matcher, "warnings", None) or []:
            state.note(NoticeKind.CAVEAT, self.name, warning)


@AUDIT_STAGES.register("score")
class Score(_Stage):
    """Score every GT PII against its matched subject (rules, then the judge); mark the target."""

    name = "score"
    reads = ("gt_subjects", "inferred", "assignment", "parts", "config")
    writes = ("subject_results", "scored")

    def run(self, state: AuditState) -> None:
        from spia_core.evaluation.scoring import score_document

        if state.assignment is None or state.gt_subjects is None:
            return
        config = state.config
        state.subject_results = score_document(
            state.gt_subjects,
            state.inferred.subjects if state.inferred is not None else [],
            state.assignment,
            mode=config.scoring_mode,
            min_certainty=config.min_certainty,
            aggregation=config.aggregation,
            judge=state.parts.judge,
        )
        mark_target(state)
        state.scored = True


def mark_target(state: AuditState) -> None:
    """Flag the subject result of the document's target subject (config or heuristic)."""
    from spia_core.evaluation.target import target_subject_id

    doc = state.document
    gt = state.gt_subjects or []
    probe = doc if state.gt_source == "dataset" else dataclasses.replace(doc, subjects=gt)
    target = target_subject_id(probe, state.config.target_subject)
    for result in state.subject_results:
        result.is_target = result.gt_subject_id == target


@AUDIT_STAGES.register("metrics")
class ComputeMetrics(_Stage):
    """CPR, IPR, 1-AAC, per tag, per subject and coverage (a failed document counts as such)."""

    name = "metrics"
    reads = ("subject_results", "assignment", "scored", "notices")
    writes = ("metrics",)

    def run(self, state: AuditState) -> None:
        from spia_core.evaluation.metrics import DocumentScores, compute_metrics

        if not state.has_original:
            return
        extra = len(state.assignment.extra_pred_subject_ids) if state.assignment else 0
        scores = DocumentScores(
            data_id=state.data_id,
            subject_results=state.subject_results,
            n_extra_subjects=extra,
            failures=state.failures,
            failed=not state.scored,
        )
        state.metrics = compute_metrics([scores])


# --------------------------------------------------------------------------- text measures


@AUDIT_STAGES.register("span_metrics")
class ComputeSpanMetrics(_Stage):
    """Token recall, ER_di and ER_qi of the anonymized text (TAB definitions)."""

    name = "span_metrics"
    reads = ("document", "anonymized", "config")
    writes = ("span_metrics", "degraded")
    failure_severity = Severity.WARNING  # the privacy figures stand without span metrics

    def run(self, state: AuditState) -> None:
        if not state.config.compute_span_metrics or state.anonymized is None:
            return
        if state.document is None:
            return
        state.span_metrics = span_metrics(state)
        state.degraded |= state.span_metrics.tagger == "blank"


def span_metrics(state: AuditState) -> SpanMetrics:
    """Span metrics against the dataset's mentions, else automatic ones (gt_source automatic)."""
    from spia_core.evaluation.span_metrics import automatic_gt_mentions, document_span_metrics

    doc, anonymized, method = state.document, state.anonymized, state.config.span_method
    if doc.entities:
        return document_span_metrics(
            doc, anonymized.text, masked_spans=anonymized.masked_spans, method=method
        )
    probe = dataclasses.replace(doc, entities=automatic_gt_mentions(doc.text))
    span = document_span_metrics(
        probe, anonymized.text, masked_spans=anonymized.masked_spans, method=method
    )
    span.gt_source = "automatic"
    return span


@AUDIT_STAGES.register("utility")
class Utility(_Stage):
    """ROUGE-L of the anonymized text; LLM readability and meaning when configured."""

    name = "utility"
    reads = ("document", "anonymized", "parts")
    writes = ("utility",)
    failure_severity = Severity.WARNING  # the privacy figures stand without utility

    def run(self, state: AuditState) -> None:
        from spia_core.evaluation.utility import rouge_l_f1

        if state.anonymized is None or state.document is None:
            return
        original, anonymized = state.original_text, state.anonymized_text
        state.utility = UtilityScores(rouge_l=rouge_l_f1(original, anonymized))
        judge = state.parts.utility
        if judge is None:
            return
        try:
            from spia_core.evaluation.llm_utility import with_llm_scores

            assessed = judge.assess(original, anonymized)
            for warning in assessed.warnings:
                state.note(NoticeKind.CAVEAT, self.name, f"utility: {warning}")
            state.utility = with_llm_scores(state.utility, assessed)
        except Exception as exc:  # privacy figures stand; the LLM utility is missing
            state.fail(self.name, exc, severity=self.failure_severity)


#: The stages of an audit with the original text, in order.
STANDARD_PLAN: tuple[str, ...] = (
    "validate",
    "anonymize",
    "ground_truth",
    "infer",
    "match",
    "score",
    "metrics",
    "span_metrics",
    "utility",
)
