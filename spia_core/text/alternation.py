"""A regex over a long list of literal words, ``\\b(w1|w2|...)\\b``, searched faster.

Python's ``re`` tries every alternative of a large alternation at every word start; a
taxonomy of thousands of job titles then costs tens of microseconds per character.
:class:`WordAlternation` finds exactly the matches of that one regex (same spans, same
alternative chosen: the first in list order that matches), but at each candidate position it
runs a regex holding only the words whose first character can match there.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

_NEVER = re.compile(r"(?!)")


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

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        """The one big regex (compiled when first asked: compiling it takes about a second)."""
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
