"""Charts tab: protection per tag and per subject (with the target line)."""

from __future__ import annotations

import streamlit as st

from pages.components.memo import memo
from pages.views.audit_run import target
from spia_core import charts
from spia_core.service import Version


def charts_tab(version: Version) -> None:
    report, min_subject = version.effective, target().min_subject
    tag_fig, subject_fig = memo(
        "charts",
        version.view_key,
        lambda: (
            charts.per_tag_protection(report.metrics),
            charts.subject_protection(report.metrics, min_subject),
        ),
        min_subject,
    )
    c = st.columns(2)
    c[0].plotly_chart(tag_fig, key="tag_chart")
    c[1].plotly_chart(subject_fig, key="subject_chart")
