"""CODE tags: e-mail addresses, phone numbers, ID, passport and driving-licence numbers."""

from __future__ import annotations

import re
from dataclasses import dataclass

_EMAIL = re.compile(r"\b[\w.+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+\b")
_PREFIXED = re.compile(
    r"\b(?P<cc>[A-Z]{2})-(?P<kind>ID|DL|PP|PASS|SSN|NIN)-(?P<num>[A-Z0-9]{4,14})\b"
)
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_PASSPORT = re.compile(
    r"\bpassport(?:\s+(?:number|no\.?|#|num(?:ber)?))?\s*[:#]?\s*(?:is\s+)?(?P<num>[A-Z]{0,3}\d{6,10}[A-Z]?)\b",
    re.IGNORECASE,
)
_LICENCE = re.compile(
    r"\b(?:driver['’]?s?\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e|DL)(?:\s+(?:number|no\.?|#))?"
    r"\s*[:#]?\s*(?:is\s+)?(?P<num>[A-Z]{0,3}[\-]?\d[\d\-]{5,16}[A-Z]?)\b",
    re.IGNORECASE,
)
_IDNUM = re.compile(
    r"\b(?:national\s+ID|ID\s+number|identity\s+(?:card\s+)?number|ID|SSN|NINO|NIF|PPSN?|Aadhaar|"
    r"social\s+security\s+number|TC\s+no\.?)(?:\s+(?:number|no\.?|#))?\s*[:#]?\s*(?:is\s+)?"
    r"(?P<num>[A-Z]{0,3}\d[\dA-Z\-\s]{5,16}\d[A-Z]?)\b",
    re.IGNORECASE,
)
_PHONE = re.compile(
    r"(?<![\w\-])(?:\+\d{1,3}[\s.\-]?)?(?:\(\d{2,4}\)[\s.\-]?)?\d{2,4}[\s.\-]\d{3,4}[\s.\-]?\d{3,4}"
    r"(?:\s?(?:x|ext\.?)\s?\d{1,6})?(?![\w\-])"
)
_PHONE_PLAIN = re.compile(r"(?<![\w\-+])(?:\+\d{10,14}|0\d{9,11})(?![\w\-])")
_KIND_TAG = {
    "ID": "IDENTIFICATION_NUMBER",
    "SSN": "IDENTIFICATION_NUMBER",
    "NIN": "IDENTIFICATION_NUMBER",
    "DL": "DRIVER_LICENSE_NUMBER",
    "PP": "PASSPORT_NUMBER",
    "PASS": "PASSPORT_NUMBER",
}


@dataclass(frozen=True)
class CodeHit:
    tag: str
    value: str
    start: int
    end: int
    country_iso: str = ""  # from a prefix like "IE-ID-..."


def _valid_phone(raw: str) -> bool:
    """phonenumbers' validity check (+ numbers), or a plausible national trunk number."""
    import phonenumbers

    if not raw.startswith("+"):
        return 10 <= len(raw) <= 12
    try:
        return phonenumbers.is_possible_number(phonenumbers.parse(raw, None))
    except phonenumbers.NumberParseException:
        return False


def _looks_like_date_or_year(s: str) -> bool:
    digits = re.sub(r"\D", "", s)
    return (
        bool(re.fullmatch(r"(?:19|20)\d{2}[\s.\-/]\d{1,2}[\s.\-/]\d{1,2}", s.strip()))
        or len(digits) < 7
    )


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
    for m in _PREFIXED.finditer(text):
        add(_KIND_TAG[m.group("kind")], m.start(), m.end(), m.group("cc"))
    for m in _SSN.finditer(text):
        add("IDENTIFICATION_NUMBER", m.start(), m.end(), "US")
    for rx, tag in (
        (_PASSPORT, "PASSPORT_NUMBER"),
        (_LICENCE, "DRIVER_LICENSE_NUMBER"),
        (_IDNUM, "IDENTIFICATION_NUMBER"),
    ):
        for m in rx.finditer(text):
            if not re.search(r"\d{4}", m.group("num")):
                continue
            add(tag, m.start("num"), m.end("num"))
    for m in _PHONE_PLAIN.finditer(text):
        ctx = text[max(0, m.start() - 40) : m.end() + 3].lower()
        if _valid_phone(m.group(0)) and re.search(
            r"phone|call|tel|mobile|cell|contact|fax|whatsapp|reach|/", ctx
        ):
            add("PHONE_NUMBER", m.start(), m.end())
    for m in _PHONE.finditer(text):
        if _looks_like_date_or_year(m.group(0)):
            continue
        ctx = text[max(0, m.start() - 40) : m.start()].lower()
        if re.search(r"no\.|application|case|§|article|\bcode\b|error|version", ctx[-25:]):
            continue
        if not (
            re.search(r"phone|call|tel|mobile|cell|contact|fax|reach|number|text|whatsapp", ctx)
            or m.group(0).startswith("+")
            or re.search(r"\d{3}[.\-]\d{3}[.\-]\d{4}", m.group(0))
        ):
            continue
        add("PHONE_NUMBER", m.start(), m.end())
    hits.sort(key=lambda h: h.start)
    return hits
