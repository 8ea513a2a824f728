"""Evidence tab: both texts side by side, each subject's evidence in its colour."""

from __future__ import annotations

import streamlit as st

from pages.components.memo import memo
from spia_core import render
from spia_core.model import AuditReport
from spia_core.service import Version

LONG = 3000  # characters: longer texts scroll inside a box
MANY = 30  # subjects: above this, the subject filter starts empty (= every subject)


def highlight_html(report: AuditReport, view_key: str, side: str, shown: tuple[str, ...]) -> str:
    text = report.anonymized_text if side == "anonymized" else report.original_text
    return memo(
        "html",
        view_key,
        lambda: render.render_highlighted(text, render.report_highlights(report, side, set(shown))),
        side,
        shown,
    )


def evidence_tab(version: Version, labels: dict[str, str]) -> None:
    report, vk = version.effective, version.view_key
    many = len(labels) > MANY
    picked = st.multiselect(
        "Only these subjects (empty: every subject)"
        if many
        else "Subjects shown (toggle a subject on or off)",
        list(labels),
        default=[] if many else list(labels),  # a thousand chips would not draw fast
        format_func=labels.get,
        key=f"shown_{version.id}",
    )
    shown = (picked or list(labels)) if many else picked
    # long documents scroll inside a box: the page stays short and cheap to repaint
    long = max(len(report.anonymized_text), len(report.original_text)) > LONG
    height: int | str = 720 if long else "content"
    sides = [
        ("anonymized", "Anonymized text: what the adversary inferred, from which words (hover)")
    ]
    if report.original_text:
        sides.append(("original", "Original text: the ground-truth PII of each subject"))
    for col, (side, caption) in zip(st.columns(len(sides)), sides, strict=True):
        with col:
            st.caption(caption)
            with st.container(height=height, border=long):
                st.html(highlight_html(report, vk, side, tuple(shown)))
