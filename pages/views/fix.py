"""Fix and re-audit tab: redact evidence spans, audit the new version, compare versions."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.components.resources import audit_session
from pages.components.text import file_stem
from pages.views.audit_run import run_audit
from spia_core import charts, render
from spia_core.model import AuditReport
from spia_core.service.results import metric_values
from spia_core.taxonomy import DISPLAY_NAMES

K_FIX_SUBJECTS = "fix_subjects"
K_FIX_SPANS = "fix_spans"


def _span_options(report: AuditReport, labels: dict[str, str], hls: list) -> dict[str, tuple]:
    options: dict[str, tuple[int, int]] = {}
    for h in sorted(hls, key=lambda h: (h.key, h.start)):
        snippet = " ".join(report.anonymized_text[h.start : h.end].split())[:40]
        label = (
            f"{labels.get(h.key, h.key)} · {DISPLAY_NAMES.get(h.tag, h.tag)} · "
            f"'{snippet}' @{h.start}"
        )
        options[label] = (h.start, h.end)
    return options


def _pick_and_reaudit(report: AuditReport, labels: dict[str, str]) -> None:
    hls = render.report_highlights(report, "anonymized")
    if not hls:
        st.caption("No evidence to redact in the anonymized text.")
        return
    options = _span_options(report, labels, hls)
    whole = st.multiselect(
        "Redact all evidence for subject",
        sorted({h.key for h in hls}),
        format_func=labels.get,
        key=K_FIX_SUBJECTS,
    )
    picked = st.multiselect("Redact these evidence spans", list(options), key=K_FIX_SPANS)
    spans = [options[p] for p in picked] + [(h.start, h.end) for h in hls if h.key in whole]
    n = len(render.merge_spans(spans))
    if st.button(
        f"Redact {n} span(s) and re-audit" if n else "Redact selected and re-audit",
        disabled=not spans,
        key="reaudit",
    ):
        reaudit(report, spans)


def reaudit(report: AuditReport, spans: list[tuple[int, int]]) -> None:
    """Audit the anonymized text with ``spans`` redacted, as the user's own redaction."""
    session = audit_session()
    n = len(session.versions) + 1
    new = run_audit(
        session.fix_document(report),
        session.redact(report, spans),
        session.fix_choices(report),
        f"v{n}",
        report.data_id,
    )
    if new is not None:
        session.add_version(f"v{n} (fixed)", new)
        st.rerun()


def history() -> None:
    """Span and inference metrics of every version, and their chart."""
    versions = audit_session().versions
    if len(versions) < 2:
        return
    st.subheader("Versions")
    rows = [
        {
            "version": v.label,
            **metric_values(v.effective),
            "exposure": v.effective.exposure.score if v.effective.exposure else None,
        }
        for v in versions
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.plotly_chart(charts.version_history(rows), key="history_chart")


def fix_tab(report: AuditReport, labels: dict[str, str]) -> None:
    st.caption(
        "Pick evidence spans (or all evidence of a subject): they are replaced with "
        f"`{render.REDACTION_TOKEN}` and the new version is re-audited as your redaction "
        "(anonymizer `provided`)."
    )
    _pick_and_reaudit(report, labels)
    history()
    st.download_button(
        "Download the final redacted version",
        report.anonymized_text,
        f"{file_stem(report.data_id)}_redacted.txt",
        "text/plain",
        key="dl_final",
    )
