"""Export tab: report JSON, PII-score CSV, standalone HTML report, the final text."""

from __future__ import annotations

import streamlit as st

from pages.components.memo import memo
from pages.views.audit_run import target
from spia_core.service import AuditSession, Version


def export_tab(version: Version) -> None:
    t = target()
    files = memo(
        "exports",
        version.view_key,
        lambda: AuditSession.export(version, t),
        t.min_cpr,
        t.min_subject,
    )
    data_id = version.report.data_id
    c = st.columns(4)
    c[0].download_button(
        "Report (JSON)", files.json, f"{data_id}_audit.json", "application/json", key="dl_json"
    )
    c[1].download_button(
        "PII scores (CSV)", files.csv, f"{data_id}_scores.csv", "text/csv", key="dl_csv"
    )
    c[2].download_button(
        "Report (HTML)", files.html, f"{data_id}_audit.html", "text/html", key="dl_html"
    )
    c[3].download_button(
        "Redacted text (final)",
        files.redacted_text,
        f"{data_id}_redacted.txt",
        "text/plain",
        key="dl_txt",
    )
    st.caption(
        "The HTML report is standalone: inline CSS, no script, no external resource, every "
        "text escaped. Overrides are part of every export."
    )
