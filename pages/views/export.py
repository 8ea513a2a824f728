"""Export tab: report JSON, PII-score CSV, standalone HTML report, the final text.

Reports are personal data: the redacted form (values masked to their tag, no original text)
is the default; values and the original text are included only when asked.
"""

from __future__ import annotations

import functools

import streamlit as st

from pages.components.text import file_stem
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
    t, data_id = target(), file_stem(version.report.data_id)
    form = "" if redact_values and not include_original else "_full"
    opts = {"redact_values": redact_values, "include_original": include_original}
    table = "inferences" if version.report.mode == "redacted_only" else "scores"
    buttons = (
        ("Report (JSON)", "json", f"{data_id}_audit{form}.json", "application/json"),
        (f"PII {table} (CSV)", "csv", f"{data_id}_{table}{form}.csv", "text/csv"),
        ("Report (HTML)", "html", f"{data_id}_audit{form}.html", "text/html"),
        ("Redacted text (final)", "text", f"{data_id}_redacted.txt", "text/plain"),
    )
    for col, (label, kind, name, mime) in zip(st.columns(4), buttons, strict=True):
        # built when clicked (a large report costs seconds), no rerun afterwards
        col.download_button(
            label,
            functools.partial(AuditSession.export_file, version, kind, t, **opts),
            name,
            mime,
            key=f"dl_{kind}",
            on_click="ignore",
        )
    st.caption(
        "The HTML report is standalone: inline CSS, no script, no external resource, every "
        "text escaped. Overrides are part of every export."
    )
