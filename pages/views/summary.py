"""The head of the results: verdict (reason first), gap sentence, tiles, caveats, notices."""

from __future__ import annotations

import streamlit as st

from pages.components.text import md
from pages.components.tiles import fmt, metric_tiles
from pages.views.audit_run import target
from pages.views.verdict import lower_bound_notice, other_notices, verdict_box
from spia_core import charts
from spia_core.evaluation.local_calibration import gap_rows, gap_text
from spia_core.model import AuditReport
from spia_core.service import engines
from spia_core.verdict import CANNOT_JUDGE, gap_sentence

LOCAL_SERVER_TIP = (
    " For a stronger audit that keeps the text private, point the adversary at a local LLM "
    "server (Settings → Local OpenAI-compatible endpoint, then adversary `llm`)."
)


def local_caveat(report: AuditReport) -> str:
    """Protection is overestimated by the local adversary: the paper's closest figure and the
    local-LLM-server suggestion. Returns the caveat's text ('' when not local)."""
    if not report.adversary_is_local:
        return ""
    notice = lower_bound_notice(report)
    dataset = report.config.get("dataset") or report.data_id
    anonymizer = report.config.get("anonymizer") or report.anonymizer
    text = (
        notice.message if notice is not None else engines.lower_bound_warning(dataset, anonymizer)
    )
    head = "**Protection is overestimated.** " if report.mode != "redacted_only" else ""
    short = engines.lower_bound_warning(dataset, anonymizer, with_gap=False)
    st.warning(head + md(short) + LOCAL_SERVER_TIP)
    measured_gap(dataset)
    return text


def measured_gap(dataset: str) -> None:
    """How far the local adversary's CPR sits from the paper's LLM adversary, as measured
    in-sample, on the maintainers' unseen documents and on the held-out written posts."""
    rows = gap_rows(dataset)
    if not rows:
        return
    with st.expander("How much the offline adversary misses, measured (masked text)"):
        st.caption(md(gap_text(rows)))
        st.plotly_chart(charts.calibration_gap(rows), key="calibration_gap")


def legacy_warnings(report: AuditReport, shown: set[str]) -> None:
    """Warnings of stages that do not raise typed notices yet (captions, once each)."""
    for warning in dict.fromkeys(report.warnings):
        if warning not in shown:
            st.caption(f"Warning: {md(warning)}")


def worst(report: AuditReport, labels: dict[str, str]) -> None:
    w = report.metrics.worst_subject
    if w is None:
        return
    name = labels.get(f"gt:{w.gt_subject_id}", w.description)
    below = " (below the target)" if w.protection < target().min_subject else ""
    st.info(
        f"Worst protected: **{md(name)}**, protection {fmt(w.protection)}{below}: "
        f"{w.sum_score:g} of {w.n_pii} PII inferred."
    )


def summary(report: AuditReport) -> None:
    """Verdict, the span-versus-inference gap in words, tiles, caveats and notices."""
    v = verdict_box(report)
    if v.status == CANNOT_JUDGE:
        st.caption("The figures below are not a verdict: this audit cannot judge the text.")
    st.markdown(f"**{gap_sentence(report.span_metrics, report.metrics)}**")
    metric_tiles(report)
    shown = {*v.reasons, local_caveat(report)}
    other_notices(report, shown)
    legacy_warnings(report, shown | {n.message for n in report.notices})
