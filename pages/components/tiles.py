"""Number formatting and the metric tiles of one report."""

from __future__ import annotations

import streamlit as st

from spia_core.model import AuditReport


def fmt(x: float | None, pct: bool = False) -> str:
    if x is None:
        return "n/a"
    return f"{100 * x:.0f}%" if pct else f"{x:.3f}"


def metric_tiles(report: AuditReport) -> None:
    """Span metrics beside inference metrics and utility."""
    sm, m, u = report.span_metrics, report.metrics, report.utility
    left, right = st.columns(2)
    with left:
        st.caption("Span metrics (what was masked)")
        c = st.columns(3)
        c[0].metric("Token recall", fmt(sm.token_recall if sm else None))
        c[1].metric("ER_di", fmt(sm.er_di if sm else None))
        c[2].metric("ER_qi", fmt(sm.er_qi if sm else None))
    with right:
        st.caption("Inference metrics (what stays protected) and utility")
        c = st.columns(4)
        c[0].metric("CPR", fmt(m.cpr))
        c[1].metric("IPR", fmt(m.ipr))
        c[2].metric("1-AAC", fmt(m.one_minus_aac))
        c[3].metric("Utility", fmt(u.rouge_l if u else None), help="ROUGE-L F1")
