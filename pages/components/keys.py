"""API keys (this session, else st.secrets, else the environment) and the local endpoint."""

from __future__ import annotations

import os

import streamlit as st

from spia_core.service import Endpoint

#: Session keys (one place, so pages agree).
K_KEYS = "api_keys"  # provider -> key, for this browser session only
K_ENDPOINT = "local_endpoint"  # {"base_url": ..., "model": ...}
#: Key names read by :func:`get_secret` (the local server's key is optional).
KEY_NAMES = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "LOCAL_LLM_API_KEY")
CLOUD_KEYS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


def get_secret(name: str) -> str | None:
    """A key from this session, else st.secrets, else the environment (never written to disk).

    ``st.secrets`` raises when no secrets.toml exists, hence the guarded access.
    """
    session = st.session_state.get(K_KEYS, {})
    if session.get(name):
        return session[name]
    try:
        value = st.secrets.get(name)
    except Exception:  # no secrets.toml: FileNotFoundError / StreamlitSecretNotFoundError
        value = None
    return value or os.environ.get(name) or None


def api_keys() -> dict[str, str]:
    """Every available key (session, st.secrets, env) by env name: goes to the engine only."""
    return {name: key for name in KEY_NAMES if (key := get_secret(name))}


def endpoint() -> Endpoint:
    """The local endpoint set in Settings (empty when unset)."""
    return Endpoint.of(st.session_state.get(K_ENDPOINT))
