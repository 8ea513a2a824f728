"""Derived views (HTML, charts, exports) memoised per version as shown, in this session.

No pickling (reports hold engine objects); only the version on screen keeps entries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

K_MEMO = "_view_memo"


def memo(name: str, view_key: str, compute: Callable[[], Any], *args: Any) -> Any:
    """``compute()`` once per (view key, name, args); a new view key clears the memo."""
    store = st.session_state.setdefault(K_MEMO, {})
    if store.get("view_key") != view_key:
        store.clear()
        store["view_key"] = view_key
    key = (name, *args)
    if key not in store:
        store[key] = compute()
    return store[key]
