"""Redacted-only audit: the adversary reads the redacted text alone (no original, no CPR).

Stages: validate (text, language) -> infer (the adversary on the redacted text) -> exposure
(per-subject and document exposure, placeholders seen through; docs/exposure.md). Every
failure, degradation and caveat is a typed :class:`Notice`; a blocking one (severity error)
means :func:`spia_core.verdict.assess` answers "cannot judge".
"""

from __future__ import annotations

import datetime as _dt
import threading
import time
from typing import Any

from spia_core.adversary.base import InferenceResult
from spia_core.model import (
    Assignment,
    AuditReport,
    Failure,
    Notice,
    NoticeKind,
    Severity,
    Subject,
)
from spia_core.progress import notify, reporting

#: Stages of a redacted-only audit, in order.
REDACTED_STAGES: tuple[str, ...] = ("validate", "infer", "exposure")

NO_CPR_MESSAGE = (
    "Redacted-only audit: without the original text there is no ground truth, so there is no "
    "CPR, IPR or 1-AAC; the exposure score counts what the adversary gets from the redacted "
    "text. Give the original (--original FILE) to measure CPR."
)


def _notice_of(failure: Failure) -> Notice:
    kind = (
        NoticeKind.INFERENCE_INCOMPLETE
        if "inference" in failure.stage or "inference" in failure.reason
        else NoticeKind.STAGE_FAILED
    )
    return Notice(
        kind=kind,
        stage=failure.stage,
        message=f"{failure.stage} failed: {failure.reason}",
        severity=Severity.ERROR,
        data_id=failure.data_id,
    )


def _infer(run: Any, adversary: Any, text: str) -> tuple[list[Subject], bool, bool]:
    """(subjects, complete, degraded) of the adversary on ``text``; failures go to ``run``."""
    try:
        result: InferenceResult = adversary.infer(text)
    except Exception as exc:  # recorded: the audit then cannot judge
        run.fail("infer", exc)
        return [], False, False
    complete = run.record_inference("infer", result)
    return list(result.subjects), complete, bool(result.degraded)


def _caveats(
    run: Any, *, is_local: bool, degraded: bool, config: Any, data_id: str
) -> list[Notice]:
    from spia_core.audit.caveats import lower_bound_warning

    notices = [
        Notice(NoticeKind.NO_GROUND_TRUTH, "exposure", NO_CPR_MESSAGE, Severity.INFO, data_id)
    ]
    if degraded:
        notices.append(
            Notice(
                NoticeKind.DEGRADED_MODEL,
                "infer",
                "No trained spaCy model is installed: names, places and parts of speech come "
                "from patterns only, so the audit cannot judge this text.",
                Severity.ERROR,
                data_id,
            )
        )
    if is_local:
        notices.append(
            Notice(
                NoticeKind.LOWER_BOUND,
                "infer",
                "Offline result, a lower bound: the local rule-and-lexicon adversary infers "
                "less than an LLM adversary. A stronger check is an LLM adversary "
                "(--adversary llm). " + lower_bound_warning(config.dataset, "provided"),
                Severity.WARNING,
                data_id,
            )
        )
    notices.extend(
        Notice(NoticeKind.CAVEAT, "infer", w, Severity.WARNING, data_id) for w in run.warnings
    )
    return notices


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
    """Audit a redacted text alone (see :func:`spia_core.pipeline.audit_redacted`)."""
    from spia_core.audit.caveats import adversary_is_local
    from spia_core.audit.config import build_components
    from spia_core.audit.report import empty_metrics
    from spia_core.audit.stages import doc_id
    from spia_core.audit.state import AuditState
    from spia_core.exposure import document_exposure
    from spia_core.nlp import load_pipeline
    from spia_core.readability import language_notice, no_subjects_notice
    from spia_core.textio import validate_text

    run = AuditState(config, data_id=data_id or "text")
    progress = _Progress(on_stage, cancel)
    t0 = progress.start(run, "validate")
    text = validate_text(text, "redacted text")
    run.data_id = data_id or doc_id(text)
    built = components or build_components(config, api_keys=api_keys, cache=cache)
    adversary = built.adversary
    is_local = adversary_is_local(adversary, config.adversary)
    notices: list[Notice] = []
    lang = language_notice(text, adversary_is_local=is_local, data_id=run.data_id)
    if lang is not None:
        notices.append(lang)
    progress.done(run, "validate", t0)

    t0 = progress.start(run, "infer")
    with reporting(progress.within("infer")):
        subjects, complete, degraded = _infer(run, adversary, text)
    progress.done(run, "infer", t0)

    t0 = progress.start(run, "exposure")
    exposure = document_exposure(text, subjects if complete else [], config.min_certainty)
    if complete:
        empty = no_subjects_notice(text, subjects, data_id=run.data_id)
        if empty is not None:
            notices.append(empty)
    progress.done(run, "exposure", t0)

    degraded |= load_pipeline().degraded
    notices = [*notices, *(_notice_of(f) for f in run.failures)]
    notices += _caveats(
        run, is_local=is_local, degraded=degraded, config=config, data_id=run.data_id
    )
    if on_stage is not None:
        on_stage("done", 1.0)
    return AuditReport(
        data_id=run.data_id,
        config={**config.to_dict(), "anonymizer": "provided"},  # the text came redacted
        original_text="",
        anonymized_text=text,
        masked_spans=None,
        anonymizer="provided",
        adversary=getattr(adversary, "name", config.adversary),
        adversary_is_local=is_local,
        gt_subjects=[],
        gt_source="none",
        inferred_subjects=subjects,
        assignment=Assignment(matcher=""),
        subject_results=[],
        metrics=empty_metrics(),
        timings=run.timings,
        usage=run.usage,
        degraded=degraded,
        warnings=list(dict.fromkeys(run.warnings)),
        failures=run.failures,
        versions={"spia_core": _version(), "spacy_model": load_pipeline().model_name},
        created_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        notices=notices,
        mode="redacted_only",
        exposure=exposure,
    )


class _Progress:
    """Reports (stage, fraction) over the redacted-only stages; checks ``cancel`` in between."""

    def __init__(self, on_stage: Any, cancel: threading.Event | None) -> None:
        self.on_stage = on_stage
        self.cancel = cancel

    def done(self, run: Any, stage: str, t0: float) -> None:
        run.timings[stage] = run.timings.get(stage, 0.0) + time.perf_counter() - t0

    def within(self, stage: str) -> Any:
        """A receiver for counts inside ``stage`` ("people 120 of 450"): the fraction moves
        through the stage's share of the bar and the counts go to a callback that takes them."""
        if self.on_stage is None:
            return None
        base = REDACTED_STAGES.index(stage) / len(REDACTED_STAGES)
        width = 1 / len(REDACTED_STAGES)

        def receive(done: int, total: int, unit: str) -> None:
            share = done / total if total else 0.0
            counts = {"done": done, "total": total, "unit": unit}
            notify(self.on_stage, stage, base + width * 0.999 * share, counts)

        return receive

    def start(self, run: Any, stage: str) -> float:
        if self.cancel is not None and self.cancel.is_set():
            from spia_core.audit.state import AuditCancelled

            raise AuditCancelled(f"audit of {run.data_id!r} cancelled before stage {stage!r}")
        if self.on_stage is not None:
            self.on_stage(stage, REDACTED_STAGES.index(stage) / len(REDACTED_STAGES))
        return time.perf_counter()


def _version() -> str:
    from spia_core import __version__

    return __version__
