"""Audit page: one document in, subjects, evidence, metrics, verdict, fixes and exports out.

The page is a composition of views (pages/views/); the work is done by the service layer
(:class:`spia_core.service.AuditSession`).
"""

from __future__ import annotations

import streamlit as st

from pages.components.resources import audit_session
from pages.views.audit_input import AuditInput, audit_input
from pages.views.audit_run import configuration, run_audit
from pages.views.fix import K_FIX_SPANS, K_FIX_SUBJECTS
from pages.views.results import results, version_picker


def _input_panel() -> tuple[AuditInput, dict | None, bool]:
    """Input, configuration and the Run / Cancel buttons; (input, choices, run clicked)."""
    with st.container(border=True):
        given = audit_input()
        cfg = configuration(
            given.redacted is not None, has_gt=given.has_gt, redacted_only=given.redacted_only
        )
        cols = st.columns([1, 1, 4])
        go = cols[0].button(
            "Run audit", type="primary", disabled=not given.ready or cfg is None, key="run_audit"
        )
        if cols[1].button("Cancel", key="cancel_audit", help="Stops a running audit."):
            audit_session().cancel()
            st.toast("Audit cancelled: the previous results, if any, are shown.")
        with cols[2]:  # beside the buttons: their position stays put while the page reruns
            _what_runs(given, cfg)
    return given, cfg, go


def _what_runs(given: AuditInput, cfg: dict | None) -> None:
    """Say why *Run audit* is unavailable, or what a redacted-only audit gives."""
    if not given.ready:
        st.caption(
            "Give a text to run an audit: the original (paste, upload, sample or dataset "
            "document), or only your redacted version (tick *I already have the redacted "
            "version*)."
        )
    elif given.redacted_only:
        st.caption(
            "Redacted-only audit: the adversary reads your redacted text alone and shows who "
            "it singles out and what it infers. There is no CPR without the original; give "
            "the original text too to measure it."
        )
    elif given.redacted is None and not given.has_gt and given.original is not None:
        from spia_core.audit.caveats import already_redacted_message

        if already_redacted_message(given.original.text):
            st.warning(
                "This text already looks redacted (it holds redaction placeholders). If it is "
                "your redacted document, audit it alone: leave the original empty and give it "
                "under *I already have the redacted version*. Audited as an original, its "
                "ground truth lacks what was removed and CPR covers only what is left."
            )
    if given.ready and cfg is None:
        st.caption("Complete the choices above (a cloud backbone needs your consent tick).")


def _new_audit(given: AuditInput, cfg: dict) -> None:
    report = run_audit(given.original, given.redacted, cfg, "v1", given.redacted_name)
    if report is None:
        return
    audit_session().start(given.original, cfg, report)
    st.session_state.pop(K_FIX_SUBJECTS, None)
    st.session_state.pop(K_FIX_SPANS, None)


def main() -> None:
    st.title("Audit a document")
    st.caption(
        "Who can still be singled out, what can be inferred about them, and from which words. "
        "Offline by default: nothing leaves this machine unless you choose a cloud backbone."
    )
    given, cfg, go = _input_panel()
    if go and given.ready and cfg is not None:
        _new_audit(given, cfg)
    version = version_picker()
    if version is not None:
        if version.store_error:
            st.warning(f"Could not save the audit to the results store: {version.store_error}")
        results(version)


main()
