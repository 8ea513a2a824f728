"""Sidebar: which mode the app is in and where text will be sent."""

from __future__ import annotations

import streamlit as st

from pages.components.keys import K_ENDPOINT, get_secret
from pages.components.text import md

K_DESTINATIONS = "audit_destinations"  # list[str]: the sidebar's "where text goes"


def sidebar_mode() -> None:
    """The mode (offline, local server, cloud keys) and this page's destinations of text."""
    with st.sidebar:
        st.markdown("**Mode**")
        cloud_keys = [k for k in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY") if get_secret(k)]
        ep = st.session_state.get(K_ENDPOINT, {}).get("base_url")
        st.write("Offline (local adversary, no network): always available.")
        if ep:
            st.markdown(f"Local LLM server: {md(ep)}")
        if cloud_keys:
            names = ", ".join(k.split("_")[0].capitalize() for k in cloud_keys)
            st.write(f"Cloud backbones with a key: {names}")
        sel = st.session_state.get(K_DESTINATIONS) or []
        st.markdown("**Where text goes**")
        if not sel:
            st.write("Nowhere: text stays on this machine.")
        for line in sel:
            st.write(f"- {line}")
