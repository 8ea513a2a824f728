"""Export tab: report JSON, PII-score CSV, standalone HTML report, the final text.

Reports are personal data: the redacted form (values masked to their tag, no original text)
is the default; values and the original text are included only when asked.
"""

from __future__ import annotations

import streamlit as st

from pages.components.memo import memo
from pages.views.audit_run import target
from spia_core.report_export import PERSONAL_DATA_NOTICE
from spia_core.service import AuditSession, Version


def _options(version: Version) -> tuple[bool, bool]:
    """(redact_values, include_original) chosen by the user; the safe form by default."""
    c = st.columns(2)
    with_values = c[0].checkbox(
        "Include the inferred values",
        key="exp_values",
        help="Off (default): every inferred and ground-truth value is masked to its tag.",
    )
    has_original = bool(version.report.original_text)
    with_original = c[1].checkbox(
        "Include the original text",
        key="exp_original",
        disabled=not has_original,
        help="Off (default): the original document is not part of the export."
        if has_original
        else "This audit had no original text.",
    )
    return not with_values, bool(with_original and has_original)


def export_tab(version: Version) -> None:
    st.warning(f"**Personal data.** {PERSONAL_DATA_NOTICE}")
    redact_values, include_original = _options(version)
    if redact_values and not include_original:
        st.caption("Redacted form: values masked to their tag, no original text.")
    else:
        parts = ["the inferred values"] * (not redact_values)
        parts += ["the original text"] * include_original
        st.caption(f"These files include {' and '.join(parts)}: handle them as the document.")
    t = target()
    files = memo(
        "exports",
        version.view_key,
        lambda: AuditSession.export(
            version, t, redact_values=redact_values, include_original=include_original
        ),
        t.min_cpr,
        t.min_subject,
        redact_values,
        include_original,
    )
    form = "" if redact_values and not include_original else "_full"
    data_id = version.report.data_id
    c = st.columns(4)
    c[0].download_button(
        "Report (JSON)",
        files.json,
        f"{data_id}_audit{form}.json",
        "application/json",
        key="dl_json",
    )
    c[1].download_button(
        "PII scores (CSV)", files.csv, f"{data_id}_scores{form}.csv", "text/csv", key="dl_csv"
    )
    c[2].download_button(
        "Report (HTML)", files.html, f"{data_id}_audit{form}.html", "text/html", key="dl_html"
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
