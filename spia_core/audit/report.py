"""The :class:`AuditReport` of a finished :class:`AuditState`."""

from __future__ import annotations

import datetime as _dt

from spia_core.audit.caveats import adversary_is_local
from spia_core.audit.config import Components
from spia_core.audit.state import AuditState
from spia_core.llm.runtime import model_label, prompt_versions
from spia_core.model import Assignment, AuditReport, Metrics


def empty_metrics() -> Metrics:
    """The metrics of a document that was not scored."""
    return Metrics(cpr=None, ipr=None, one_minus_aac=None, n_subjects=0, n_pii=0, sum_score=0.0)


def versions(parts: Components | None) -> dict[str, str]:
    """Package, spaCy model, every prompt version and the model of every LLM stage."""
    from spia_core import __version__
    from spia_core.nlp import load_pipeline

    found = {"spia_core": __version__, "spacy_model": load_pipeline().model_name}
    if parts is None:
        return found
    stages = (
        ("anonymize", parts.anonymizer),
        ("adversary", parts.adversary),
        ("matcher", parts.matcher),
        ("judge", parts.judge),
        ("utility", parts.utility),
    )
    for stage, component in stages:
        if component is None:
            continue
        found.update({f"prompt:{k}": v for k, v in prompt_versions(component).items()})
        label = model_label(component)
        if label:
            found[f"model:{stage}"] = label
    return found


def build_report(state: AuditState, *, mode: str = "with_original") -> AuditReport:
    """One serialisable report; ``failures`` and ``warnings`` are derived from the notices."""
    config = state.config
    adversary = state.parts.adversary if state.parts else None
    shown = state.shown
    redacted_only = mode == "redacted_only"
    anonymizer = "provided" if redacted_only else config.anonymizer  # the text came redacted
    return AuditReport(
        data_id=state.data_id,
        config={**config.to_dict(), "anonymizer": anonymizer},
        original_text=state.original_text,
        anonymized_text=shown.text if shown is not None else "",
        masked_spans=None if shown is None else shown.masked_spans,
        anonymizer=anonymizer,
        adversary=getattr(adversary, "name", config.adversary),
        adversary_is_local=adversary_is_local(adversary, config.adversary),
        gt_subjects=state.gt_subjects or [],
        gt_source=state.gt_source,
        inferred_subjects=state.inferred.subjects if state.inferred is not None else [],
        assignment=state.assignment or Assignment(matcher="" if redacted_only else config.matcher),
        subject_results=state.subject_results,
        metrics=state.metrics if state.metrics is not None else empty_metrics(),
        span_metrics=state.span_metrics,
        utility=state.utility,
        timings=state.timings,
        usage=state.usage,
        degraded=state.degraded,
        warnings=state.warnings,
        failures=state.failures,
        anonymizer_trace={} if shown is None else dict(shown.trace),
        versions=versions(state.components),
        created_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        notices=list(state.notices),
        mode=mode,
        exposure=state.exposure,
    )
