"""The results of one version: summary, subjects legend, then the lazily drawn tabs."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from pages.components.resources import audit_session
from pages.views.adjudicate import adjudicate_tab
from pages.views.evidence import evidence_tab
from pages.views.export import export_tab
from pages.views.fix import fix_tab
from pages.views.llm_details import anonymizer_rounds, llm_usage
from pages.views.plots import charts_tab
from pages.views.subjects import subjects_tab
from pages.views.summary import summary, worst
from spia_core import render
from spia_core.service import Version

TABS = ("Evidence", "Subjects", "Charts", "Fix and re-audit", "Adjudicate", "Export")
K_TAB = "result_tab"


def results(version: Version) -> None:
    report = version.effective
    summary(report)
    llm_usage(report)
    anonymizer_rounds(report, version.id)

    labels = render.subject_keys(report)
    colours = render.subject_colours(labels)
    st.subheader("Subjects")
    st.html(render.legend_html(labels, colours))
    worst(report, labels)

    tabs = st.tabs(TABS, key=K_TAB, on_change="rerun")
    views: dict[str, Callable[[], None]] = {
        "Evidence": lambda: evidence_tab(version, labels),
        "Subjects": lambda: subjects_tab(report, labels, colours),
        "Charts": lambda: charts_tab(version),
        "Fix and re-audit": lambda: fix_tab(report, labels),
        "Adjudicate": lambda: adjudicate_tab(version),
        "Export": lambda: export_tab(version),
    }
    for name, tab in zip(TABS, tabs, strict=True):
        if tab.open is not False:  # None: no state tracking, draw every tab
            with tab:
                views[name]()


def version_picker() -> Version | None:
    """The version shown (the latest by default); None before the first audit."""
    versions = audit_session().versions
    if not versions:
        return None
    labels = [v.label for v in versions]
    if st.session_state.get("version_pick") not in labels:
        st.session_state.pop("version_pick", None)
    if len(versions) == 1:
        return versions[0]
    chosen = st.selectbox("Version shown", labels, index=len(labels) - 1, key="version_pick")
    return versions[labels.index(chosen)]
