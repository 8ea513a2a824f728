"""Process-wide services (cached once per server) and this session's audit session."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import streamlit as st

from spia_core.datasets import load_bundled
from spia_core.model import Document
from spia_core.nlp import load_pipeline
from spia_core.service import AuditSession, BatchJobs, ComponentCache, engines
from spia_core.service.warm import start_warm
from spia_core.store import ResultStore

ROOT = Path(__file__).resolve().parents[2]
SAMPLES_DIR = ROOT / "data" / "samples"
BUNDLED = ("TAB-144", "PANORAMA-151")
K_SESSION = "audit_session"  # this browser session's AuditSession
K_OPEN_DOC = "open_doc"  # (dataset name, data_id) set by the Dataset page


def data_dir() -> Path:
    """``$SPIA_DATA_DIR`` when set, else spia_data/ next to app.py."""
    return Path(os.environ.get("SPIA_DATA_DIR") or ROOT / "spia_data")


@st.cache_resource(show_spinner=False)
def open_store() -> ResultStore:
    """The SQLite results store in :func:`data_dir`."""
    return ResultStore(data_dir())


@st.cache_resource(show_spinner=False)
def component_cache() -> ComponentCache:
    """Built stages per configuration, shared by every session of this server."""
    return ComponentCache(data_dir())


@st.cache_resource(show_spinner=False)
def batch_jobs() -> BatchJobs:
    """Dataset runs of this server process: survive page reloads and second visits."""
    return BatchJobs(data_dir())


def audit_session() -> AuditSession:
    """This browser session's audits (kept in st.session_state; reports are not pickled)."""
    session = st.session_state.get(K_SESSION)
    if session is None:
        session = AuditSession(component_cache(), open_store())
        st.session_state[K_SESSION] = session
    return session


@st.cache_resource(show_spinner="Loading the spaCy pipeline...")
def warm_nlp() -> str:
    """Load the shared spaCy pipeline once per server process; returns the model name."""
    return load_pipeline().model_name


@st.cache_resource(show_spinner=False)
def bundled_dataset(name: str) -> list[Document]:
    """A bundled SPIA dataset (TAB-144, PANORAMA-151), loaded once per server process."""
    return load_bundled(name)


def sample_files() -> list[Path]:
    """Bundled sample documents (data/samples/*.txt)."""
    return sorted(SAMPLES_DIR.glob("*.txt")) if SAMPLES_DIR.is_dir() else []


def catalog() -> dict[str, Any]:
    """The model catalog (id -> ModelSpec), or {} (with an error shown) when unreadable."""
    try:
        return engines.catalog()
    except (OSError, ValueError) as exc:
        st.error(f"Model catalog unreadable: {exc}")
        return {}


@st.cache_resource(show_spinner=False)
def prewarm() -> threading.Thread:
    """Start loading spaCy, the offline stages, the datasets and plotly in the background
    (once per process), so that the first offline audit does not pay for them. The stage
    registries are filled first, in this thread, so that the warm-up thread and a page never
    import the same built-in modules at once."""
    engines.registered("anonymizer"), engines.registered("adversary")
    return start_warm(component_cache(), sample_files(), BUNDLED, bundled_dataset)
