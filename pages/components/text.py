"""Document-derived text in Markdown: shown as written, never as markup or links."""

from __future__ import annotations

import re

# characters that can open Markdown syntax anywhere in a line: emphasis, code, links and
# images, HTML, headings, tables, strikethrough, maths, Streamlit's ":colour[...]" and
# ":material/...:" directives, and the GFM autolinks ("https://", "www.", "a@b.c")
_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~:$@.])")
# a list marker at the start ("- x", "1) x") is made literal by escaping its punctuation
_LEADING = re.compile(r"^(\s*)([-=])")
# widget and status labels turn bare URLs into links even after backslash escapes: a
# zero-width space inside the scheme, "www." and "@" keeps them text everywhere
ZWSP = "\u200b"
_AUTOLINK = re.compile(r"(?i)(?<=[a-z])(?=://)|(?<=\bwww)(?=\.)|(?=@)")


def md(text: object) -> str:
    """``text`` escaped for ``st.markdown``/``st.caption``/labels: literal, on one line."""
    line = _AUTOLINK.sub(ZWSP, " ".join(str(text).split()))
    return _LEADING.sub(r"\1\\\2", _SPECIAL.sub(r"\\\1", line))


def md_lines(text: object) -> str:
    """Like :func:`md`, keeping line breaks (as Markdown hard breaks)."""
    return "  \n".join(md(line) for line in str(text).splitlines())


_UNSAFE_NAME = re.compile(r"[^\w.-]+")


def file_stem(name: object) -> str:
    """A download file name's stem from a document name (an upload's name is document
    input): letters, digits, '.', '-' and '_' only, at most 80 characters."""
    stem = _UNSAFE_NAME.sub("_", str(name)).strip("._") or "document"
    return stem[:80]
