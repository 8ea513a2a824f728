"""The results of one version: summary, subjects legend, then the lazily drawn tabs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from pages.components.resources import audit_session
from pages.views.adjudicate import adjudicate_tab
from pages.views.evidence import evidence_tab
from pages.views.export import export_tab
from pages.views.exposure import (
    NO_CPR,
    exposure_tiles,
    people_tab,
    person_labels,
    placeholders_tab,
)
from pages.views.fix import fix_tab
from pages.views.llm_details import anonymizer_rounds, llm_usage
from pages.views.plots import charts_tab
from pages.views.related import render_trajectory
from pages.views.subjects import subjects_tab
from pages.views.summary import legacy_warnings, local_caveat, summary, worst
from pages.views.verdict import other_notices, verdict_box
from spia_core import render
from spia_core.service import Version

TABS = ("Evidence", "Subjects", "Charts", "Fix and re-audit", "Adjudicate", "Export")
K_TAB = "result_tab"
REDACTED_TABS = ("People", "Evidence", "Placeholders", "Fix and re-audit", "Export")
K_REDACTED_TAB = "redacted_tab"


LEGEND_MAX = 40


def legend(labels: dict[str, str], colours: dict[str, str]) -> None:
    """The subjects' colour chips (the first 40 of a long list; the tabs have them all)."""
    keys = list(labels)[:LEGEND_MAX]
    st.html(render.legend_html({k: labels[k] for k in keys}, colours))
    if len(labels) > LEGEND_MAX:
        st.caption(f"... and {len(labels) - LEGEND_MAX} more subjects (see the Subjects tab).")


def redacted_results(version: Version) -> None:
    """A redacted-only audit: verdict, no CPR, exposure, then People / Evidence /
    Placeholders / Fix / Export (no ground truth, so nothing to score or adjudicate)."""
    report = version.effective
    v = verdict_box(report)
    st.info(NO_CPR)
    exposure_tiles(report)
    shown = {*v.reasons, local_caveat(report)}
    other_notices(report, shown)
    legacy_warnings(report, shown | {n.message for n in report.notices})
    llm_usage(report)
    labels = person_labels(report)
    tabs = st.tabs(REDACTED_TABS, key=K_REDACTED_TAB, on_change="rerun")
    views: dict[str, Callable[[], None]] = {
        "People": lambda: people_tab(report),
        "Evidence": lambda: evidence_tab(version, labels),
        "Placeholders": lambda: placeholders_tab(report),
        "Fix and re-audit": lambda: fix_tab(report, labels),
        "Export": lambda: export_tab(version),
    }
    _draw(REDACTED_TABS, tabs, views)


def _draw(names: tuple[str, ...], tabs: Any, views: dict[str, Callable[[], None]]) -> None:
    """Draw the open tab only (every tab when the tabs keep no state)."""
    for name, tab in zip(names, tabs, strict=True):
        if tab.open is not False:
            with tab:
                views[name]()


def results(version: Version) -> None:
    if version.report.mode == "redacted_only":
        redacted_results(version)
        return
    report = version.effective
    summary(report)
    llm_usage(report)
    anonymizer_rounds(report, version.id)
    render_trajectory(report)  # RUPTA / SEAL iterates (related's module)

    labels = render.subject_keys(report)
    colours = render.subject_colours(labels)
    st.subheader("Subjects")
    legend(labels, colours)
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
    _draw(TABS, tabs, views)


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
