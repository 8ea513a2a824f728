"""Document-derived text in Markdown: shown as written, never as markup or links."""

from __future__ import annotations

import re

from spia_core.export_safety import ZWSP, escape_markdown, escape_markdown_lines

__all__ = ["ZWSP", "file_stem", "md", "md_lines"]

#: ``text`` escaped for ``st.markdown``/``st.caption``/labels: literal, on one line.
md = escape_markdown
#: Like :func:`md`, keeping line breaks (as Markdown hard breaks).
md_lines = escape_markdown_lines

_UNSAFE_NAME = re.compile(r"[^\w.-]+")


def file_stem(name: object) -> str:
    """A download file name's stem from a document name (an upload's name is document
    input): letters, digits, '.', '-' and '_' only, at most 80 characters."""
    stem = _UNSAFE_NAME.sub("_", str(name)).strip("._") or "document"
    return stem[:80]
