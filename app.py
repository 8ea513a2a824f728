"""SPIA Audit dashboard: `streamlit run app.py` (offline by default)."""

from __future__ import annotations

import streamlit as st

from pages._widgets import K_DESTINATIONS, prewarm, sidebar_mode

st.set_page_config(page_title="SPIA Audit", page_icon=":material/shield_person:", layout="wide")

PAGES = [
    st.Page("pages/audit.py", title="Audit", icon=":material/policy:", default=True),
    st.Page("pages/benchmarks.py", title="Benchmarks", icon=":material/scatter_plot:"),
    st.Page("pages/run.py", title="Run benchmark", icon=":material/play_circle:"),
    st.Page("pages/dataset.py", title="Dataset", icon=":material/dataset:"),
    st.Page("pages/settings.py", title="Settings", icon=":material/settings:"),
]

page = st.navigation(PAGES)
prewarm()
st.session_state[K_DESTINATIONS] = []  # the page that configures LLM stages fills it
page.run()
sidebar_mode()  # after the page, so "where text goes" reflects this run's choices
