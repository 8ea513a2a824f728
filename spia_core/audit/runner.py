"""Run a plan (a sequence of registered stage names) over an :class:`AuditState`."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from spia_core.audit.stages import AUDIT_STAGES, STANDARD_PLAN, Stage
from spia_core.audit.state import AuditState, Progress
from spia_core.progress import reporting

if TYPE_CHECKING:
    from spia_core.audit.state import StageCallback
    from spia_core.model import AuditReport

#: Fields a caller sets before the first stage runs.
INPUTS: frozenset[str] = frozenset({"config", "source", "components", "notices"})


def stages_of(plan: Sequence[str]) -> list[Stage]:
    """The stages of ``plan``, in order (raises on an unknown name)."""
    return [AUDIT_STAGES.create(name) for name in plan]


def check_plan(plan: Sequence[str], inputs: frozenset[str] = INPUTS) -> None:
    """Raise ValueError when a stage names a field the state lacks, or reads a field that
    neither the caller nor an earlier stage provides."""
    fields = {f.name for f in dataclasses.fields(AuditState)}
    given = set(inputs)
    for stage in stages_of(plan):
        unknown = sorted((set(stage.reads) | set(stage.writes)) - fields)
        if unknown:
            raise ValueError(f"stage {stage.name!r} names unknown state fields: {unknown}")
        missing = sorted(set(stage.reads) - given)
        if missing:
            raise ValueError(f"stage {stage.name!r} reads {missing} before any stage writes it")
        given |= set(stage.writes)


def run_stages(
    state: AuditState, plan: Sequence[str] = STANDARD_PLAN, progress: Progress | None = None
) -> AuditState:
    """Run every stage of ``plan`` on ``state``: progress and cancel first, then the stage.

    A stage that raises is recorded as a failed stage (a notice) and the next one runs,
    unless it declares ``records_failures = False``; :class:`AuditCancelled` always stops.
    """
    progress = progress or Progress()
    stages = stages_of(plan)
    for index, stage in enumerate(stages):
        progress.start(state, stage.name, index, len(stages))
        t0 = time.perf_counter()
        try:
            with reporting(progress.within(stage.name, index, len(stages))):
                stage.run(state)
        except Exception as exc:
            if not stage.records_failures:
                raise
            state.fail(stage.name, exc, severity=stage.failure_severity)
        state.timings[stage.name] = state.timings.get(stage.name, 0.0) + time.perf_counter() - t0
    return state


def run_plan(
    state: AuditState,
    plan: Sequence[str],
    caveats: Callable[[AuditState], None],
    *,
    on_stage: StageCallback | None = None,
    cancel: threading.Event | None = None,
    mode: str = "with_original",
) -> AuditReport:
    """One audit: ``plan`` on ``state`` (progress, cancel), then ``caveats(state)``, then its
    report (``mode``: "with_original" or "redacted_only")."""
    from spia_core.audit.report import build_report

    progress = Progress(on_stage, cancel)
    run_stages(state, plan, progress)
    caveats(state)
    progress.finish()
    return build_report(state, mode=mode)
