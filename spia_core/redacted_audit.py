"""Redacted-only audit: the adversary reads the redacted text alone (no original, no CPR).

A plan of registered stages over the same :class:`~spia_core.audit.state.AuditState` as an
audit with the original: ``validate_redacted`` (text, language, components) -> ``infer`` (the
adversary on the redacted text; the standard stage) -> ``exposure`` (per-subject and document
exposure, placeholders seen through; docs/exposure.md). Every failure, degradation and caveat
is a typed :class:`Notice`; a blocking one (severity error) means
:func:`spia_core.verdict.assess` answers "cannot judge".
"""

from __future__ import annotations

import threading
from typing import Any

from spia_core.anonymizers.base import AnonymizedText
from spia_core.audit.stages import AUDIT_STAGES, _Stage, bind_components, doc_id
from spia_core.audit.state import AuditState
from spia_core.model import AuditReport, NoticeKind, Severity

#: Stages of a redacted-only audit, in order.
REDACTED_PLAN: tuple[str, ...] = ("validate_redacted", "infer", "exposure")
#: Older name of the plan.
REDACTED_STAGES = REDACTED_PLAN

NO_CPR_MESSAGE = (
    "Redacted-only audit: without the original text there is no ground truth, so there is no "
    "CPR, IPR or 1-AAC; the exposure score counts what the adversary gets from the redacted "
    "text. Give the original (--original FILE) to measure CPR."
)
DEGRADED_MESSAGE = (
    "No trained spaCy model is installed: names, places and parts of speech come from "
    "patterns only, so the audit cannot judge this text."
)


@AUDIT_STAGES.register("validate_redacted")
class ValidateRedacted(_Stage):
    """Check the redacted text and its language, then build and bind the components."""

    name = "validate"  # as shown in progress and timings (registered as validate_redacted)
    reads = ("source", "config", "components")
    writes = ("anonymized", "data_id", "components", "parts", "gt_source")
    records_failures = False

    def run(self, state: AuditState) -> None:
        from spia_core.audit.caveats import adversary_is_local
        from spia_core.readability import language_notice
        from spia_core.textio import validate_text

        text = validate_text(state.source, "redacted text")  # type: ignore[arg-type]
        if state.data_id == "text":
            state.data_id = doc_id(text)
        state.anonymized = AnonymizedText(text=text, masked_spans=None, method="provided")
        state.gt_source = "none"
        bind_components(state)
        local = adversary_is_local(state.parts.adversary, state.config.adversary)
        notice = language_notice(text, adversary_is_local=local, data_id=state.data_id)
        if notice is not None:
            state.notices.append(notice)


@AUDIT_STAGES.register("exposure")
class Exposure(_Stage):
    """What the adversary exposes per subject and in the document; nobody found in a text
    that speaks of people blocks the verdict."""

    name = "exposure"
    reads = ("anonymized", "inferred", "inference_complete", "config")
    writes = ("exposure",)

    def run(self, state: AuditState) -> None:
        from spia_core.exposure import document_exposure
        from spia_core.readability import no_subjects_notice

        text = state.anonymized_text
        subjects = state.inferred.subjects if state.inferred is not None else []
        complete = state.inference_complete
        state.exposure = document_exposure(
            text, subjects if complete else [], state.config.min_certainty
        )
        unreadable = any(n.kind == NoticeKind.UNSUPPORTED_LANGUAGE for n in state.notices)
        if complete and not unreadable:  # its person cues are English words
            notice = no_subjects_notice(text, subjects, data_id=state.data_id)
            if notice is not None:
                state.notices.append(notice)


def add_redacted_caveats(state: AuditState) -> None:
    """LLM usage, then: no ground truth (info), no trained model (blocks: the text cannot be
    judged) and the offline lower bound."""
    from spia_core.audit.caveats import adversary_is_local, lower_bound_warning
    from spia_core.nlp import load_pipeline

    for stage, usage in state.recorder.snapshot().items():
        state.usage[stage] = usage
    state.note(NoticeKind.NO_GROUND_TRUTH, "exposure", NO_CPR_MESSAGE, Severity.INFO)
    state.degraded |= load_pipeline().degraded
    if state.degraded:
        state.note(NoticeKind.DEGRADED_MODEL, "infer", DEGRADED_MESSAGE, Severity.ERROR)
    adversary = state.parts.adversary if state.parts else None
    if adversary_is_local(adversary, state.config.adversary):
        message = lower_bound_warning(state.config.dataset, "provided")
        state.note(NoticeKind.LOWER_BOUND, "infer", message)


def audit_redacted(
    text: str,
    config: Any,
    *,
    on_stage: Any = None,
    cancel: threading.Event | None = None,
    components: Any = None,
    api_keys: dict[str, str] | None = None,
    cache: Any = True,
    data_id: str | None = None,
) -> AuditReport:
    """Audit a redacted text alone: the adversary reads it without the original.

    The report has ``mode == "redacted_only"``, ``original_text == ""``, ``anonymized_text ==
    text``, no ground truth and no CPR (``metrics.cpr is None``), the inferred subjects with
    their evidence, and ``report.exposure`` (per-subject and document exposure, placeholders
    seen through; docs/exposure.md). Failures, an unreadable language, no subjects in a text
    about people and the lower-bound caveat are ``report.notices``. ``data_id`` names the
    document (default: a hash of the text). Public as :func:`spia_core.pipeline.audit_redacted`.
    """
    from spia_core.audit.runner import run_plan

    state = AuditState(
        config,
        source=text,
        data_id=data_id or "text",
        components=components,
        api_keys=api_keys,
        cache=cache,
    )
    return run_plan(
        state,
        REDACTED_PLAN,
        add_redacted_caveats,
        on_stage=on_stage,
        cancel=cancel,
        mode="redacted_only",
    )
