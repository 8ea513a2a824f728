"""Settings page: keys (session only), local endpoint, cache, prices."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.components.keys import K_ENDPOINT, K_KEYS, get_secret
from pages.components.resources import catalog, data_dir
from pages.components.text import md
from spia_core.service import admin

st.title("Settings")

st.subheader("API keys")
st.caption(
    "Keys typed here live in this browser session only (st.session_state) and are never "
    "written to disk. Keys can also come from .streamlit/secrets.toml or the environment."
)
keys = st.session_state.setdefault(K_KEYS, {})
for env in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
    typed = st.text_input(env, value=keys.get(env, ""), type="password", key=f"k_{env}")
    if typed:
        keys[env] = typed
    else:
        keys.pop(env, None)
    st.caption(f"{env}: {'set' if get_secret(env) else 'not set'}")

st.subheader("Local OpenAI-compatible endpoint")
st.caption("A local server (llama.cpp, vLLM, Ollama...) keeps the text on your machine.")
ep = st.session_state.setdefault(K_ENDPOINT, {})
base = st.text_input(
    "Base URL", ep.get("base_url", ""), placeholder="http://127.0.0.1:8000/v1", key="ep_url"
)
model = st.text_input("Model name", ep.get("model", ""), key="ep_model")
local_key = st.text_input(
    "Server API key (optional: vLLM --api-key, a proxy...)",
    value=keys.get("LOCAL_LLM_API_KEY", ""),
    type="password",
    key="k_LOCAL_LLM_API_KEY",
)
if local_key:
    keys["LOCAL_LLM_API_KEY"] = local_key
else:
    keys.pop("LOCAL_LLM_API_KEY", None)
ep.update(base_url=base.strip(), model=model.strip())
st.caption(
    'Choose it as a backbone on the Audit page ("local OpenAI-compatible endpoint"); the '
    "catalog's local models (Llama, Gemma) also use this URL when it is set."
)
if st.button("Test connection", disabled=not base.strip(), key="ep_test"):
    ok, msg = admin.test_endpoint(base.strip(), model.strip(), get_secret("LOCAL_LLM_API_KEY"))
    (st.success if ok else st.error)(msg)  # the URL the user typed, no document text

st.subheader("Response cache")
st.caption(
    "LLM answers are cached on disk (responses and token counts only, never a key): "
    "rerunning the same configuration makes no call."
)
try:
    if st.button("Clear cache", key="cache_clear"):
        admin.response_cache(data_dir()).clear()
        st.success("Cache cleared.")
    stats = admin.cache_stats(data_dir())
    c = st.columns(4)
    c[0].metric("Cached responses", stats["entries"])
    c[1].metric("Hits (this server)", stats["hits"])
    c[2].metric("Misses (this server)", stats["misses"])
    c[3].metric("Size on disk", f"{stats['size_kb']} KB")
    st.caption(f"File: {md(stats['file'])}")
except Exception as exc:
    st.error(f"Cache unavailable: {md(exc)}")

st.subheader("Prices (USD per million tokens)")
cat = catalog()
if cat:
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "model": s.id,
                    "provider": s.provider,
                    "input": s.input_price_per_mtok,
                    "output": s.output_price_per_mtok,
                    "structured output": s.structured_output,
                }
                for s in cat.values()
            ]
        ),
        hide_index=True,
    )
else:
    st.caption("No model catalog available (offline only).")
