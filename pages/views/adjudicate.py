"""Adjudicate tab: score overrides (data editor, form or a ``score --overrides`` file); every
metric recomputes through the engine's ``apply_overrides``."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.components.resources import audit_session
from pages.components.text import file_stem, md
from spia_core.service import Version
from spia_core.service.overrides import (
    from_file,
    make_override,
    merge_edits,
    overrides_json,
    score_rows,
)
from spia_core.taxonomy import DISPLAY_NAMES

SCORES = [0.0, 0.5, 1.0]


def _bump(vid: str) -> None:
    """A new editor key after a change (the editor restarts from the new overrides)."""
    st.session_state[f"adj_gen_{vid}"] = st.session_state.get(f"adj_gen_{vid}", 0) + 1


def _on_editor_change(vid: str, rows: list[dict], key: str) -> None:
    edits = (st.session_state.get(key) or {}).get("edited_rows") or {}
    version = audit_session().version(vid)
    merged = merge_edits(version.report, rows, edits, version.overrides)
    audit_session().adjudicate(vid, merged)
    _bump(vid)


def _on_override_form(vid: str) -> None:
    pick = st.session_state.get("ov_pick")
    if pick is None:
        return
    score = float(st.session_state.get("ov_score", 0.0))
    reason = st.session_state.get("ov_reason") or ""
    version = audit_session().version(vid)
    key = tuple(pick)
    change = make_override(version.report, key, score, reason)
    audit_session().adjudicate(vid, {**version.overrides, key: change})
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
    names = {(r["subject id"], r["tag"], r["GT PII"]): r for r in rows}

    def label(k: tuple) -> str:
        row = names[k]
        return f"{row['subject']} · {DISPLAY_NAMES.get(k[1], k[1])}: {row['GT PII']}"

    with st.form("override_form"):
        c = st.columns([3, 1, 3])
        c[0].selectbox("Subject · tag", list(names), format_func=label, key="ov_pick")
        c[1].selectbox("New score", SCORES, key="ov_score")
        c[2].text_input("Reason", "", key="ov_reason")
        st.form_submit_button("Apply override", on_click=_on_override_form, args=(vid,))


def _file(version: Version) -> None:
    """Download the overrides as a ``score --overrides`` file, or apply one."""
    c = st.columns(2)
    c[0].download_button(
        "Overrides (JSON, for score --overrides)",
        overrides_json(version.overrides.values()),
        f"{file_stem(version.report.data_id)}_overrides.json",
        "application/json",
        key=f"ov_dl_{version.id}",
        disabled=not version.overrides,
        on_click="ignore",
    )
    up = c[1].file_uploader("Apply an overrides file", type=["json", "jsonl"], key="ov_up")
    if up is None or st.session_state.get("ov_up_done") == (version.id, up.file_id):
        return
    try:
        loaded = from_file(up.getvalue().decode("utf-8"), version.report, up.name)
    except (ValueError, UnicodeDecodeError) as exc:
        st.error(md(exc))
        return
    st.session_state["ov_up_done"] = (version.id, up.file_id)
    audit_session().adjudicate(version.id, {**version.overrides, **loaded})
    _bump(version.id)
    st.rerun()


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
    _file(version)
    if version.overrides:
        st.caption(f"{len(version.overrides)} override(s) in force.")
        if st.button("Remove every override", key=f"ov_clear_{version.id}"):
            audit_session().adjudicate(version.id, {})
            st.rerun()
