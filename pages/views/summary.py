"""The head of the results: verdict, gap sentence, tiles, caveats, warnings, worst subject."""

from __future__ import annotations

import streamlit as st

from pages.components.text import md
from pages.components.tiles import fmt, metric_tiles
from pages.views.audit_run import target
from spia_core.model import AuditReport
from spia_core.service import engines
from spia_core.verdict import NOT_SAFE, SAFE, gap_sentence, judge

OFFLINE_PREFIX = "Offline result:"


def verdict(report: AuditReport) -> None:
    """The release verdict with its reasons."""
    v = judge(report.metrics, target(), adversary_is_local=report.adversary_is_local)
    box = st.error if v.status == NOT_SAFE else st.success if v.status == SAFE else st.info
    reasons = "".join(f"\n- {md(r)}" for r in v.reasons)
    box(f"**Verdict: {v.headline}**" + (f"\n{reasons}" if reasons else ""))


def local_caveat(report: AuditReport) -> None:
    """Protection is overestimated by the local adversary: the paper's closest figure and the
    local-LLM-server suggestion (the benchmarks panel of one audit)."""
    if not report.adversary_is_local:
        return
    text = next((x for x in report.warnings if x.startswith(OFFLINE_PREFIX)), "")
    if not text:
        text = engines.lower_bound_warning(
            report.config.get("dataset") or report.data_id, report.anonymizer
        )
    st.warning(
        "**Protection is overestimated.** "
        + (text or "The local adversary infers less than an LLM adversary.")
        + " For a stronger audit that keeps the text private, point the adversary at a local "
        "LLM server (Settings → Local OpenAI-compatible endpoint, then adversary `llm`)."
    )


def other_warnings(report: AuditReport) -> None:
    for warning in report.warnings:
        if not warning.startswith(OFFLINE_PREFIX):
            st.caption(f"Warning: {md(warning)}")
    for f in [*report.failures, *report.metrics.coverage.failures]:
        st.error(f"Failure in {md(f.stage)}: {md(f.reason)}")


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
    """Verdict, the span-versus-inference gap in words, tiles, caveats and warnings."""
    verdict(report)
    st.markdown(f"**{gap_sentence(report.span_metrics, report.metrics)}**")
    metric_tiles(report)
    local_caveat(report)
    other_warnings(report)
