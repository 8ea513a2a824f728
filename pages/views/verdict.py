"""The verdict box and the audit's notices (typed: the page branches on kind and severity)."""

from __future__ import annotations

import streamlit as st

from pages.components.text import md
from pages.views.audit_run import current_verdict
from spia_core.model import AuditReport, Notice, NoticeKind, Severity
from spia_core.verdict import (
    CANNOT_JUDGE,
    MEETS_TARGET,
    NO_EXPOSURE_FOUND,
    UNSAFE,
    Verdict,
)

#: Box per status: never green unless the target is met by a complete audit.
BOXES = {
    UNSAFE: st.error,
    CANNOT_JUDGE: st.warning,
    NO_EXPOSURE_FOUND: st.info,
    MEETS_TARGET: st.success,
}


def verdict_text(v: Verdict) -> str:
    """Bold headline, then the reasons (the blocking reason first), every document-derived
    word escaped."""
    lines = [f"**Verdict: {md(v.headline)}**"]
    lines += [f"- {md(r)}" for r in v.reasons if r not in v.headline]  # not twice
    return "\n".join(lines)


def verdict_box(report: AuditReport) -> Verdict:
    v = current_verdict(report)
    BOXES.get(v.status, st.info)(verdict_text(v))
    return v


def lower_bound_notice(report: AuditReport) -> Notice | None:
    return next((n for n in report.notices if n.kind == NoticeKind.LOWER_BOUND), None)


def other_notices(report: AuditReport, shown: set[str]) -> None:
    """Notices not already in the verdict's reasons or the local-adversary caveat: warnings
    as boxes, information as captions."""
    for n in report.notices:
        if n.message in shown or n.kind == NoticeKind.LOWER_BOUND:
            continue
        if n.severity == Severity.ERROR:
            st.error(f"{md(n.stage)}: {md(n.message)}")
        elif n.severity == Severity.WARNING:
            st.warning(md(n.message))
        elif n.kind != NoticeKind.NO_GROUND_TRUTH:  # the page says it in its own words
            st.caption(md(n.message))
