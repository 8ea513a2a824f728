"""A regex over a long list of literal words, ``\\b(w1|w2|...)\\b``, searched faster.

Python's ``re`` tries every alternative of a large alternation at every word start; a
taxonomy of thousands of job titles then costs tens of microseconds per character.
:class:`WordAlternation` finds exactly the matches of that one regex (same spans, same
alternative chosen: the first in list order that matches): with the words factored into one
prefix tree (:func:`prefix_tree`) when that gives the same matches, else by running at each
candidate position a regex holding only the words whose first character can match there.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

_NEVER = re.compile(r"(?!)")
_NAMED = re.compile(r"\(\?P<\w+>")
_REFERS = re.compile(r"\(\?P=|\(\?\(|\\[1-9]")  # a back-reference or a conditional group


def prefix_tree(words: Iterable[str]) -> str:
    """The words as one regex alternation factored by common prefixes ('son|sons|sister' ->
    's(?:on(?:s)?|ister)'): the same matches as their alternation longest first (of the
    alternatives matching at one place, each a prefix of the next, the longest is tried first),
    without trying every word at every position. For case-sensitive patterns only."""
    tree: dict[str, dict] = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, dict]) -> str:
        kids = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if "" in node and kids:
            return f"(?:{'|'.join(kids)})?"
        return kids[0] if len(kids) == 1 else f"(?:{'|'.join(kids)})" if kids else ""

    return emit(tree)


def _alternation(words: list[str], flags: int) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b", flags)


class WordAlternation:
    """``re.compile(r"\\b(" + "|".join(map(re.escape, words)) + r")\\b", flags)`` with a fast
    :meth:`finditer`; every other attribute (``pattern``, ``search``, ...) is the regex's."""

    def __init__(self, words: Iterable[str], flags: int = 0) -> None:
        self.words = [w for w in words if w]
        self._flags = flags
        self.pattern = r"\b(" + "|".join(re.escape(w) for w in self.words) + r")\b"
        firsts = "".join(re.escape(c) for c in dict.fromkeys(w[0] for w in self.words))
        # a position where some word could start: a word boundary, then one of their first
        # characters (compared as the regex compares them, case folding included)
        self._start = re.compile(rf"\b(?=[{firsts}])", flags) if firsts else _NEVER
        self._by_char: dict[str, re.Pattern[str]] = {}
        # Words listed longest first that case folding cannot confuse (no IGNORECASE, or all
        # in lower-case ASCII: no character of a text matches two of their letters): the
        # alternation is one prefix tree (same matches), which ``re`` itself searches fast.
        longest_first = all(len(a) >= len(b) for a, b in itertools.pairwise(self.words))
        plain = not flags & re.IGNORECASE or all(w.isascii() and w == w.lower() for w in self.words)
        self._tree = longest_first and plain

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        """The one regex: the words' prefix tree when it gives the same matches, else the big
        alternation (compiled when first asked: compiling it takes about a second)."""
        if self._tree:
            return re.compile(r"\b(" + prefix_tree(self.words) + r")\b", self._flags)
        return _alternation(self.words, self._flags)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.regex, name)

    def _at(self, char: str) -> re.Pattern[str]:
        """The alternation of the words whose first character matches ``char`` (in order)."""
        rx = self._by_char.get(char)
        if rx is None:
            flags = self._flags
            sub = [w for w in self.words if re.fullmatch(re.escape(w[0]), char, flags)]
            rx = self._by_char[char] = _alternation(sub, flags) if sub else _NEVER
        return rx

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        """The regex's non-overlapping matches, left to right (its ``finditer``)."""
        if self._tree:
            yield from self.regex.finditer(string, pos, endpos)
            return
        endpos = min(endpos, len(string))
        while pos <= endpos:
            cand = self._start.search(string, pos, endpos)
            if cand is None:
                return
            p = cand.start()
            m = self._at(string[p]).match(string, p, endpos)
            if m is None:
                pos = p + 1
                continue
            yield m
            pos = m.end()  # words are never empty, so a match always moves on

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[str]:
        return [m.group(1) for m in self.finditer(string, pos, endpos)]


#: Flags a regex keeps inside a joined pattern of other flags, as a scoped group '(?i-m:...)'.
_SCOPED = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"))


def _scoped(rx: re.Pattern[str], flags: int, cut: int = 0) -> str:
    on = "".join(c for f, c in _SCOPED if rx.flags & f and not flags & f)
    off = "".join(c for f, c in _SCOPED if flags & f and not rx.flags & f)
    return f"(?{on}{'-' + off if off else ''}:{_NAMED.sub('(?:', rx.pattern[cut:])})"


class RegexSet:
    """Several regexes over one text, scanned once: a lookahead of their alternation (each
    with its own flags) finds every position where one of them can match, and each is then
    tried at those positions only, which gives exactly its own ``finditer`` (regexes that
    cannot be joined, with back-references or other flags, are scanned one by one)."""

    def __init__(self, patterns: Sequence[re.Pattern[str]]) -> None:
        self.patterns = list(patterns)
        self._any: re.Pattern[str] | None = None
        odd = (
            p.flags & ~(re.I | re.M | re.S | re.U) or _REFERS.search(p.pattern)
            for p in self.patterns
        )
        if len(self.patterns) > 1 and not any(odd):
            flags = self.patterns[0].flags
            # a word boundary that opens every regex is tested once, before the lookahead
            cut = 2 * all(p.pattern.startswith(r"\b") for p in self.patterns)
            joined = "|".join(_scoped(p, flags, cut) for p in self.patterns)
            with contextlib.suppress(re.error):  # a global inline flag ('(?i)...'): apart
                self._any = re.compile(r"\b" * bool(cut) + f"(?={joined})", flags)

    def finditer_each(self, text: str) -> list[list[re.Match[str]]]:
        """The matches of each regex in ``text`` (its ``finditer``), in the regexes' order."""
        if self._any is None:
            return [list(rx.finditer(text)) for rx in self.patterns]
        if not (starts := [m.start() for m in self._any.finditer(text)]):
            return [[] for _ in self.patterns]
        return [self._tried(rx, text, starts) for rx in self.patterns]

    def finditer_spans(
        self, text: str, spans: Iterable[tuple[int, int]]
    ) -> list[list[tuple[re.Match[str], int]]]:
        """Per regex, its matches in each piece ``text[a:b]`` of ``spans`` (read as a text of its
        own), as (match, a); a stretch of ``text`` matched again from a later piece is left out."""
        out: list[dict[tuple[int, int], tuple[re.Match[str], int]]] = [{} for _ in self.patterns]
        for a, b in spans:
            for found, keep in zip(self.finditer_each(text[a:b]), out, strict=True):
                for m in found:
                    keep.setdefault((a + m.start(), a + m.end()), (m, a))
        return [list(keep.values()) for keep in out]

    @staticmethod
    @functools.cache
    def of(patterns: tuple[re.Pattern[str], ...]) -> RegexSet:
        """The set of these regexes, built once."""
        return RegexSet(patterns)

    @staticmethod
    def _tried(rx: re.Pattern[str], text: str, starts: list[int]) -> list[re.Match[str]]:
        out: list[re.Match[str]] = []
        pos = 0
        for p in starts:
            if p >= pos and (m := rx.match(text, p)) is not None:
                if m.end() == p:  # an empty match: finditer's own stepping rules apply
                    return list(rx.finditer(text))
                out.append(m)
                pos = m.end()
        return out
