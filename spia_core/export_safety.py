"""Making exported text safe: values masked to their tag, CSV cells and Markdown neutralised.

* :class:`ValueMasker` replaces every known personal value (the inferred and ground-truth
  keywords of a report) in a free text (a description, an explanation) with ``[TAG]``.
* :func:`neutralise_cell` stops a spreadsheet from running a CSV cell as a formula.
* :func:`escape_markdown` makes document-derived text inert in Markdown (no links, emphasis,
  headings or HTML).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from spia_core.model import AuditReport, Subject

#: Shorter values (an initial) are not masked in free text.
_MIN_VALUE_CHARS = 2


@dataclass
class ValueMasker:
    """Replaces known values (longest first, case-insensitive, whole words) with ``[TAG]``."""

    pattern: re.Pattern[str] | None
    tags: dict[str, str]

    def mask(self, text: str) -> str:
        if not text or self.pattern is None:
            return text
        return self.pattern.sub(lambda m: f"[{self.tags[m.group(0).casefold()]}]", text)


def value_masker(subjects: Iterable[Subject]) -> ValueMasker:
    """A masker for every non-empty PII keyword of ``subjects``."""
    tags: dict[str, str] = {}
    for subject in subjects:
        for pii in subject.piis:
            value = pii.keyword.strip()
            if pii.is_empty or len(value) < _MIN_VALUE_CHARS:
                continue
            tags.setdefault(value.casefold(), pii.tag)
    if not tags:
        return ValueMasker(None, {})
    alternatives = sorted(tags, key=len, reverse=True)
    body = "|".join(re.escape(v) for v in alternatives)
    pattern = re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.IGNORECASE)
    return ValueMasker(pattern, tags)


def masker_for(report: AuditReport) -> ValueMasker:
    """A masker for every value a report holds (inferred and ground truth)."""
    return value_masker([*report.inferred_subjects, *report.gt_subjects])


#: A quote longer than this is shown cut (``text[:57] + "..."``) in explanations.
_QUOTE_LIMIT = 60


def mask_quotes(text: str, quotes: Iterable[str], label: str) -> str:
    """``text`` with every occurrence of a quoted passage (whitespace-normalised, whole or as
    cut in an explanation) replaced by ``label``, longest first, case-insensitive."""
    forms: set[str] = set()
    for quote in quotes:
        q = " ".join(quote.split())
        if len(q) < _MIN_VALUE_CHARS:
            continue
        forms.add(q)
        if len(q) > _QUOTE_LIMIT:
            forms.add(q[: _QUOTE_LIMIT - 3] + "...")
    if not forms:
        return text
    body = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.sub(body, lambda _m: label, text, flags=re.IGNORECASE)  # one pass


#: First characters a spreadsheet reads as the start of a formula (or a DDE payload).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def neutralise_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not evaluate: text starting with = + - @ TAB CR LF gets a
    leading apostrophe. Numbers pass unchanged."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


# characters that can open Markdown syntax anywhere in a line: emphasis, code, links and
# images, HTML, headings, tables, numbered lists, strikethrough, maths, Streamlit's
# ":colour[...]" and ":material/...:" directives, and the GFM autolinks ("https://", "www.",
# "a@b.c")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~:$@.])")
# a list marker ("- x") or a setext underline ("===") at the start is made literal by escaping
_MD_LEADING = re.compile(r"^(\s*)([-=])")
#: Zero-width space: put inside "://", "www." and before "@" so that no renderer (Streamlit
#: widget labels included, which autolink even after backslash escapes) makes a link.
ZWSP = "\u200b"
_AUTOLINK = re.compile(r"(?i)(?<=[a-z])(?=://)|(?<=\bwww)(?=\.)|(?=@)")


def escape_markdown(text: object) -> str:
    """``text`` made literal for Markdown, on one line: every Markdown (and inline-HTML)
    metacharacter backslash-escaped, whitespace runs collapsed, autolinks broken with a
    zero-width space. No link, image, emphasis, heading, list, table or HTML tag survives."""
    line = _AUTOLINK.sub(ZWSP, " ".join(str(text).split()))
    return _MD_LEADING.sub(r"\1\\\2", _MD_SPECIAL.sub(r"\\\1", line))


def escape_markdown_lines(text: object) -> str:
    """Like :func:`escape_markdown`, keeping line breaks (as Markdown hard breaks)."""
    return "  \n".join(escape_markdown(line) for line in str(text).splitlines())
