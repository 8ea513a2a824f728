"""audit(): one document end to end -> :class:`AuditReport` (the stable public entry point).

The work is done by the staged pipeline in :mod:`spia_core.audit`: a plan of registered
stages (validate -> anonymize -> ground truth -> infer -> match -> score -> metrics ->
span metrics -> utility) runs over one :class:`~spia_core.audit.state.AuditState`. A stage
that fails is recorded as a typed :class:`~spia_core.model.Notice` in ``report.notices`` (and,
for older readers, in ``report.failures``); the metrics then say the document was not scored,
never that it was protected. ``on_stage(name, fraction)`` reports progress (with a third
argument, counts inside a stage as well: :mod:`spia_core.progress`); ``cancel`` aborts between
stages.
"""

from __future__ import annotations

import threading
from typing import Any

from spia_core.audit.caveats import add_caveats, adversary_is_local, lower_bound_warning
from spia_core.audit.config import (
    AuditConfig,
    Components,
    build_adversary,
    build_anonymizer,
    build_components,
    build_judge,
    build_matcher,
    build_utility,
    is_local_config,
    llm_destinations,
)
from spia_core.audit.report import empty_metrics
from spia_core.audit.runner import run_plan
from spia_core.audit.stages import STANDARD_PLAN
from spia_core.audit.state import (
    AuditCancelled,
    AuditState,
    StageCallback,
)
from spia_core.model import AuditReport, Document, report_from_dict, report_to_dict
from spia_core.redacted_audit import audit_redacted

#: Stages in order, with the progress fraction reached when each one starts.
STAGES: tuple[str, ...] = STANDARD_PLAN

__all__ = [
    "STAGES",
    "AuditCancelled",
    "AuditConfig",
    "AuditState",
    "Components",
    "StageCallback",
    "adversary_is_local",
    "audit",
    "audit_redacted",
    "build_adversary",
    "build_anonymizer",
    "build_components",
    "build_judge",
    "build_matcher",
    "build_utility",
    "empty_metrics",
    "is_local_config",
    "llm_destinations",
    "lower_bound_warning",
    "report_from_dict",
    "report_to_dict",
]


def audit(
    document: Document | str,
    config: AuditConfig,
    *,
    on_stage: StageCallback | None = None,
    cancel: threading.Event | None = None,
    components: Components | None = None,
    api_keys: dict[str, str] | None = None,
    cache: Any = True,
) -> AuditReport:
    """Audit one document: anonymize, infer, match, score, span metrics, utility.

    Raises :class:`spia_core.textio.InputError` on unusable input (empty, whitespace only,
    too long), :class:`AuditCancelled` when ``cancel`` is set, and a registry error on an
    unknown stage name. Every other stage failure (an LLM error included) is recorded in the
    report, and the document is then not scored. ``api_keys`` and ``cache`` are used only
    when ``components`` is not given (see :func:`build_components`); ``report.usage`` has the
    LLM usage per stage (anonymize, adversary_original, adversary, matcher, judge, utility).
    """
    state = AuditState(
        config,
        source=document,
        data_id=getattr(document, "data_id", "text"),
        components=components,
        api_keys=api_keys,
        cache=cache,
    )
    return run_plan(state, STAGES, add_caveats, on_stage=on_stage, cancel=cancel)
