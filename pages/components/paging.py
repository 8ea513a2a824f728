"""Long lists drawn one page at a time (a 1,000-subject document stays fast to draw)."""

from __future__ import annotations

from typing import TypeVar

import streamlit as st

T = TypeVar("T")
PAGE_SIZE = 20


def page_of(items: list[T], key: str, size: int = PAGE_SIZE) -> list[T]:
    """The slice of ``items`` on the page picked with a number input (all when one page)."""
    if len(items) <= size:
        return items
    pages = (len(items) + size - 1) // size
    n = int(st.number_input(f"Page (of {pages}, {size} per page)", 1, pages, 1, key=key))
    return items[(n - 1) * size : n * size]
