"""SPIA Audit dashboard: `streamlit run app.py` (offline by default)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from pages.components.resources import prewarm
from pages.components.sidebar import K_DESTINATIONS, sidebar_mode

# a bundled image: a ":material/...:" page icon makes the browser fetch the favicon from an
# external font host, and nothing may leave this machine unasked
ICON = Path(__file__).resolve().parent / "assets" / "icon.png"
st.set_page_config(page_title="SPIA Audit", page_icon=str(ICON), layout="wide")

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
