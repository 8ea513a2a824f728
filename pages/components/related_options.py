"""RUPTA's and SEAL's controls where the anonymizer is chosen (anonymizer_options)."""

from __future__ import annotations

from typing import Any

import streamlit as st

METHODS = {"rupta": "RUPTA", "seal": "SEAL-style refinement"}


def _rupta_options(prefix: str) -> dict[str, Any]:
    target = st.text_input(
        "Protected value (empty: every person, scored by the local SPIA adversary)",
        key=f"{prefix}rupta_target",
        help="The paper's setting: one value (e.g. the person's name) the attacker must not "
        "guess among its top K. Empty: our extension, the iterate's CPR over every subject.",
    )
    c = st.columns(4)
    options: dict[str, Any] = {
        "k": int(c[0].number_input("K guesses", 1, 20, 10, key=f"{prefix}rupta_k")),
        "iterations": int(c[1].number_input("T steps", 0, 5, 5, key=f"{prefix}rupta_t")),
        "memory": int(c[2].number_input("Memory", 1, 5, 3, key=f"{prefix}rupta_mem")),
        "utility_goal": float(
            c[3].number_input("Utility goal", 0, 100, 95, key=f"{prefix}rupta_ugoal")
        ),
    }
    label = st.text_input(
        "Downstream label (optional; empty: a meaning judge)", key=f"{prefix}rupta_label"
    )
    if target.strip():
        options["target"] = target.strip()
        options["target_tag"] = st.selectbox(
            "Protected value's tag (how guesses are matched)",
            ["NAME", "AGE", "LOCATION", "OCCUPATION", "NATIONALITY", "AFFILIATION"],
            key=f"{prefix}rupta_tag",
        )
    if label.strip():
        options["label"] = label.strip()
    return options


def _seal_options(prefix: str) -> dict[str, Any]:
    c = st.columns(4)
    floor = float(
        c[2].number_input("Utility floor (0 = off)", 0.0, 1.0, 0.0, 0.05, key=f"{prefix}seal_floor")
    )
    options: dict[str, Any] = {
        "rounds": int(c[0].number_input("Rounds", 1, 5, 3, key=f"{prefix}seal_rounds")),
        "min_certainty": int(c[1].number_input("Certainty >=", 1, 5, 3, key=f"{prefix}seal_c")),
        "adversary": c[3].selectbox(
            "Privacy role",
            ["self", "local"],
            key=f"{prefix}seal_adv",
            help="self: the same model infers (SEAL); local: the SPIA local adversary.",
        ),
    }
    if floor > 0:
        options["utility_floor"] = floor
    return options


def render_options(anonymizer: str | None, prefix: str = "") -> dict[str, Any]:
    """RUPTA's or SEAL's controls (an expander); {} for other anonymizers."""
    if anonymizer not in METHODS:
        return {}
    with st.expander(f"{METHODS[anonymizer]} settings", expanded=False):
        return _rupta_options(prefix) if anonymizer == "rupta" else _seal_options(prefix)
