"""CODE tags: e-mail addresses, phone numbers, ID, passport and driving-licence numbers."""

from __future__ import annotations

import re
from dataclasses import dataclass

import spia_core.adversary.local.lexicons as lexicons

_CUES = lexicons.subject_cues("attribute_cues.tsv")

_EMAIL = re.compile(r"\b[\w.+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+\b")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_PHONE_CONTEXT = re.compile(rf"{lexicons.alternation('phone_cue')}|tel\b", re.IGNORECASE)
_PASSPORT_NEAR = re.compile(r"(?<![\w\-])[A-Z]{0,2}\d{6,9}(?![\w\-])")


@dataclass(frozen=True)
class CodeHit:
    tag: str
    value: str
    start: int
    end: int
    country_iso: str = ""  # from a prefix like "IE-ID-..."


def _possible_international(digits: str) -> bool:
    """phonenumbers' possibility check for a number written with its country code."""
    import phonenumbers

    try:
        return phonenumbers.is_possible_number(phonenumbers.parse("+" + digits, None))
    except phonenumbers.NumberParseException:
        return False


_US_FORMAT = re.compile(r"(?:\(\d{3}\)\s?|\d{3}[.\-])\d{3}[.\-]\d{4}(?:\s?(?:x|ext\.?)\s?\d+)*")


def phone_at(text: str, m: re.Match[str]) -> bool:
    """Whether a phone-like run is a phone number, from its form and the words before it."""
    raw = m.group(0)
    digits = re.sub(r"\D", "", re.split(r"\s?(?:x|ext\.?)\s?\d", raw, maxsplit=1)[0])  # no ext.
    if not 7 <= len(digits) <= 15 or _CUES["date_like"].fullmatch(raw.strip()):
        return False
    before = text[max(0, m.start() - 60) : m.start()]  # "contact our treasurer, Ann Lee, on"
    if _CUES["not_phone_before"].search(before[-25:]):
        return False
    if raw.startswith("+"):
        return _possible_international(digits)
    us = len(digits) == 10 and _US_FORMAT.fullmatch(raw)
    if us or (raw.startswith("00") and _possible_international(digits[2:])):
        return True
    context = bool(_PHONE_CONTEXT.search(before))
    end = text.find("\n", m.end())
    line = text[text.rfind("\n", 0, m.start()) + 1 : end if end >= 0 else None]
    alone_national = line.strip() == raw and re.fullmatch(r"0[1-9]\d{8,9}", digits) and " " in raw
    return (context and 9 <= len(digits) <= 13) or bool(alone_national)


def find_codes(text: str) -> list[CodeHit]:
    """Every CODE value in ``text`` (non-overlapping, in text order)."""
    hits: list[CodeHit] = []
    taken: list[tuple[int, int]] = []

    def add(tag: str, start: int, end: int, iso: str = "") -> None:
        if any(s < end and start < e for s, e in taken):
            return
        taken.append((start, end))
        hits.append(CodeHit(tag, text[start:end], start, end, iso))

    for m in _EMAIL.finditer(text):
        add("EMAIL_ADDRESS", m.start(), m.end())
    for m in _CUES["prefixed_code"].finditer(text):
        tag = lexicons.word_map("code_prefix")[m.group("kind")]
        add(tag, m.start(), m.end(), m.group("cc"))
    for m in _SSN.finditer(text):
        add("IDENTIFICATION_NUMBER", m.start(), m.end(), "US")
    for (_, tag, digits), found in lexicons.cue_matches(text, "code_cues.tsv", re.IGNORECASE):
        for m in found:  # "passport no. X1234567": a labelled number
            if re.search(rf"\d{{{digits}}}", m.group("num")):
                add(tag, m.start("num"), m.end("num"))
    for m in _CUES["phone"].finditer(text):
        if phone_at(text, m):
            add("PHONE_NUMBER", m.start(), m.end())
    for m in re.finditer(r"\bpassports?\b", text, re.IGNORECASE):
        w0 = max(0, m.start() - 60)
        near = _PASSPORT_NEAR.finditer(text[w0 : m.end() + 60])
        if (n := next((n for n in near if re.search(r"\d{6}", n.group(0))), None)) is not None:
            add("PASSPORT_NUMBER", w0 + n.start(), w0 + n.end())
    hits.sort(key=lambda h: h.start)
    return hits
