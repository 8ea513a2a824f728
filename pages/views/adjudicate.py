"""Adjudicate tab: score overrides (data editor or form); every metric recomputes."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.components.resources import audit_session
from spia_core.service import Version
from spia_core.service.overrides import merge_edits, score_rows
from spia_core.taxonomy import DISPLAY_NAMES

SCORES = [0.0, 0.5, 1.0]


def _bump(vid: str) -> None:
    """A new editor key after a change (the editor restarts from the new overrides)."""
    st.session_state[f"adj_gen_{vid}"] = st.session_state.get(f"adj_gen_{vid}", 0) + 1


def _on_editor_change(vid: str, rows: list[dict], key: str) -> None:
    edits = (st.session_state.get(key) or {}).get("edited_rows") or {}
    version = audit_session().version(vid)
    audit_session().adjudicate(vid, merge_edits(rows, edits, version.overrides))
    _bump(vid)


def _on_override_form(vid: str) -> None:
    pick = st.session_state.get("ov_pick")
    if pick is None:
        return
    score = float(st.session_state.get("ov_score", 0.0))
    reason = (st.session_state.get("ov_reason") or "").strip() or "manual override"
    version = audit_session().version(vid)
    audit_session().adjudicate(vid, {**version.overrides, tuple(pick): (score, reason)})
    _bump(vid)


def _editor(vid: str, rows: list[dict]) -> None:
    key = f"adj_{vid}_{st.session_state.get(f'adj_gen_{vid}', 0)}"
    st.data_editor(
        pd.DataFrame(rows),
        hide_index=True,
        key=key,
        on_change=_on_editor_change,
        args=(vid, rows, key),
        disabled=["subject", "subject id", "tag", "GT PII", "inferred", "rule", "auto score"],
        column_config={
            "subject id": None,  # hidden: subjects are picked by name and role
            "score": st.column_config.SelectboxColumn("score", options=SCORES),
        },
    )


def _form(vid: str, rows: list[dict]) -> None:
    names = {(r["subject id"], r["tag"]): r["subject"] for r in rows}
    with st.form("override_form"):
        c = st.columns([3, 1, 3])
        c[0].selectbox(
            "Subject · tag",
            list(names),
            format_func=lambda k: f"{names[k]} · {DISPLAY_NAMES.get(k[1], k[1])}",
            key="ov_pick",
        )
        c[1].selectbox("New score", SCORES, key="ov_score")
        c[2].text_input("Reason", "", key="ov_reason")
        st.form_submit_button("Apply override", on_click=_on_override_form, args=(vid,))


def adjudicate_tab(version: Version) -> None:
    """Score overrides: the verdict, the tiles and the charts recompute."""
    st.caption(
        "Change a score (0, 0.5 or 1) and give a reason: the verdict, the tiles and the "
        "charts recompute, and the override is kept in the exported report."
    )
    rows = score_rows(version.effective)
    if not rows:
        st.caption("Nothing was scored.")
        return
    _editor(version.id, rows)
    _form(version.id, rows)
    if version.overrides:
        st.caption(f"{len(version.overrides)} override(s) in force.")
        if st.button("Remove every override", key=f"ov_clear_{version.id}"):
            audit_session().adjudicate(version.id, {})
            st.rerun()
