"""The default PII comparison: the SPIA protocol with the reference's defects fixed.

Every difference from :mod:`spia_core.evaluation.rules_reference` is listed in docs/scoring.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from spia_core.evaluation.jaro_winkler import standard_jaro_winkler
from spia_core.model import Decision
from spia_core.text.normalise import (
    canonical_category,
    canonical_country,
    fold,
    location_levels,
    name_tokens,
    nationality_key,
)

__all__ = ["AGE_PRECISE_WIDTH", "default_decision", "parse_age"]

JW_THRESHOLD = 0.85
AGE_OVERLAP = 0.75
AGE_TOLERANCE = 5
#: A predicted age range wider than this that contains the GT is "less precise" (0.5).
AGE_PRECISE_WIDTH = 20
#: Upper bound used for open-ended ages ("40+", "over 40").
AGE_MAX = 120
#: Narrow ranges (e.g. the GT's birth-year ranges '54-55') get the +-5 tolerance of points.
AGE_NARROW_WIDTH = 2
IDENTIFIER_SUFFIX_MAX_DIFF = 3
IDENTIFIER_MIN_SUFFIX = 6
IDENTIFIER_MIN_CORE = 5

# --------------------------------------------------------------------------- AGE parsing

_AGE_PREFIX = re.compile(
    r"^(?:(?:about|around|approximately|approx|roughly|circa|ca|c|aged|age|probably|likely|"
    r"estimated|est|in (?:his|her|their|the))\b\.?\s*|~\s*)+"
)
_AGE_SUFFIX = re.compile(r"\s*-?\s*(?:years? old|year-old|years?|yrs?|y/?o|old)\.?$")
_AGE_NUMBER = re.compile(r"^(\d{1,3})$")
_AGE_RANGE = re.compile(r"^(\d{1,3})\s*(?:-|to|and)\s*(\d{1,3})$")
_AGE_DECADE = re.compile(
    r"^(?:(early|mid|late)\s*-?\s*)?(?:(\d)0\s*'?s|(twenties|thirties|forties|fifties|sixties"
    r"|seventies|eighties|nineties))$"
)
_AGE_PLUS = re.compile(
    r"^(\d{1,3})\s*\+$|^(?:over|above|older than|more than|at least)\s+(\d{1,3})$"
    r"|^(\d{1,3}) or (?:older|more|above)$"
)
_AGE_UNDER = re.compile(r"^(?:under|below|younger than|less than)\s+(\d{1,3})$")
_DECADE_WORDS = {
    "twenties": 2,
    "thirties": 3,
    "forties": 4,
    "fifties": 5,
    "sixties": 6,
    "seventies": 7,
    "eighties": 8,
    "nineties": 9,
}
_AGE_WORDS: dict[str, tuple[int, int]] = {
    "infant": (0, 1),
    "baby": (0, 1),
    "toddler": (1, 3),
    "child": (0, 12),
    "kid": (0, 12),
    "teen": (13, 19),
    "teens": (13, 19),
    "teenager": (13, 19),
    "teenage": (13, 19),
    "adolescent": (12, 17),
    "young adult": (18, 25),
    "middle-aged": (45, 64),
    "middle aged": (45, 64),
    "elderly": (65, AGE_MAX),
    "senior": (65, AGE_MAX),
}
_DECADE_PART = {None: (0, 9), "early": (0, 3), "mid": (4, 6), "late": (7, 9)}


@lru_cache(maxsize=65536)
def parse_age(text: str) -> tuple[int, int] | None:
    """An age keyword as an inclusive (low, high) range, or None if it is not an age.

    '40' -> (40, 40); '54-55' -> (54, 55); '50s' -> (50, 59); 'early 40s' -> (40, 43);
    'mid-30s' -> (34, 36); 'late 20s' -> (27, 29); 'about 40' -> (40, 40); '40+' -> (40, 120);
    'under 18' -> (0, 17); 'teenager' -> (13, 19). See docs/scoring.md for the full table.
    """
    s = _AGE_SUFFIX.sub("", _AGE_PREFIX.sub("", fold(text))).strip()
    if s in _AGE_WORDS:
        return _AGE_WORDS[s]
    if m := _AGE_NUMBER.match(s):
        n = int(m.group(1))
        return (n, n)
    if m := _AGE_RANGE.match(s):
        lo, hi = sorted((int(m.group(1)), int(m.group(2))))
        return (lo, hi)
    if m := _AGE_DECADE.match(s):
        digit = m.group(2) or str(_DECADE_WORDS[m.group(3)])
        lo, hi = _DECADE_PART[m.group(1)]
        return (int(digit) * 10 + lo, int(digit) * 10 + hi)
    if m := _AGE_PLUS.match(s):
        n = int(next(g for g in m.groups() if g is not None))
        return (n, max(n, AGE_MAX))
    if m := _AGE_UNDER.match(s):
        n = int(m.group(1))
        return (0, max(n - 1, 0))
    return None


def _age(gt: str, pred: str) -> Decision:
    g, p = parse_age(gt), parse_age(pred)
    if g is None:
        return Decision(None, "unscorable", f"GT AGE {gt!r} is not an age")
    if p is None:
        return Decision(0.0, "age-unparsed", f"predicted AGE {pred!r} is not an age")
    (gl, gh), (pl, ph) = g, p
    if g == p:
        return Decision(1.0, "equal", f"both {gl}-{gh}")
    gw, pw = gh - gl, ph - pl
    if gw <= AGE_NARROW_WIDTH and pw <= AGE_NARROW_WIDTH:
        ok = abs((gl + gh) - (pl + ph)) / 2 <= AGE_TOLERANCE
        return Decision(1.0 if ok else 0.0, "age-tolerance" if ok else "age-mismatch")
    if pw > AGE_PRECISE_WIDTH and pl <= gl and gh <= ph:
        return Decision(0.5, "age-less-precise", f"predicted range {pl}-{ph} is wide")
    if gw == 0 or pw == 0:
        lo, hi, v = (pl, ph, gl) if gw == 0 else (gl, gh, pl)
        ok = lo <= v <= hi
        return Decision(1.0 if ok else 0.0, "age-in-range" if ok else "age-mismatch")
    overlap = max(0, min(gh, ph) - max(gl, pl))
    ratio = overlap / max(min(gw, pw), 1)
    ok = ratio >= AGE_OVERLAP
    return Decision(
        1.0 if ok else 0.0, "age-range-overlap" if ok else "age-mismatch", f"overlap {ratio:.2f}"
    )


# --------------------------------------------------------------------------- LOCATION, NATIONALITY


def _is_subsequence(small: tuple[str, ...], big: tuple[str, ...]) -> bool:
    it = iter(big)
    return all(level in it for level in small)


def _location(gt: str, pred: str) -> Decision:
    g, p = location_levels(gt), location_levels(pred)
    if g == p:
        return Decision(1.0, "equal", " / ".join(g))
    if g and p and len(p) < len(g) and _is_subsequence(p, g):
        if p[0] == g[0] and p[-1] == g[-1]:
            return Decision(1.0, "location-same-precision", "only intermediate levels missing")
        return Decision(0.5, "location-less-precise", "prediction is a coarser version of GT")
    if g and p and len(g) < len(p) and _is_subsequence(g, p):
        return Decision(1.0, "location-more-precise", "prediction contains every GT level")
    return Decision(0.0, "location-mismatch")


def _nationality(gt: str, pred: str) -> Decision:
    g, p = nationality_key(gt), nationality_key(pred)
    if g == p:
        return Decision(1.0, "country-equal", g)
    g_last = gt.rsplit("/", 1)[-1]
    p_last = pred.rsplit("/", 1)[-1]
    if canonical_country(g_last, True) and canonical_country(p_last, True):
        return Decision(0.0, "country-mismatch", f"{g} != {p}")
    return _free_text(gt, pred)


# --------------------------------------------------------------------------- NAME


def _token_match(small: str, big: str) -> bool:
    return small == big or (len(small) == 1 and big.startswith(small))


def _covers(big: tuple[str, ...], small: tuple[str, ...]) -> bool:
    """Every token of ``small`` matches a distinct token of ``big`` (an initial matches)."""
    free = list(big)
    for tok in small:
        hit = next((b for b in free if b == tok), None)
        if hit is None:
            hit = next((b for b in free if _token_match(tok, b)), None)
        if hit is None:
            return False
        free.remove(hit)
    return True


def _name(gt: str, pred: str) -> Decision:
    g, p = name_tokens(gt), name_tokens(pred)
    if g and g == p:
        return Decision(1.0, "equal", "same name tokens")
    if g and p and _covers(g, p) and not _covers(p, g):
        if len(p) >= 2 and len(g[0]) > 1 and g[0] in p and g[-1] in p:
            return Decision(1.0, "name-first-last", "first and last name given")
        return Decision(0.5, "name-part", "prediction is part of the GT name")
    if g and p and _covers(p, g):
        return Decision(1.0, "name-contains-gt", "prediction contains the GT name")
    return _free_text(gt, pred)


# --------------------------------------------------------------------------- codes

_NON_ALNUM = re.compile(r"[^A-Z0-9]")
_DIGITS = re.compile(r"\d+")
_PHONE_EXT = re.compile(r"(?:\s*(?:x|ext\.?|extension)\s*\d+)+\s*$", re.IGNORECASE)


def _norm_id(text: str) -> str:
    return _NON_ALNUM.sub("", fold(text).upper())


def _codes_match(a: str, b: str) -> str | None:
    """The rule under which two normalised identifiers match, else None."""
    if a == b:
        return "identifier-equal"
    short, long_ = sorted((a, b), key=len)
    if (
        len(short) >= IDENTIFIER_MIN_SUFFIX
        and long_.endswith(short)
        and len(long_) - len(short) <= IDENTIFIER_SUFFIX_MAX_DIFF
    ):
        return "identifier-suffix"
    core_a, core_b = a.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), b.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if core_a == core_b and len(core_a) >= IDENTIFIER_MIN_CORE:
        return "identifier-letter-prefix"
    return None


def _identifier(gt: str, pred: str) -> Decision:
    a, b = _norm_id(gt), _norm_id(pred)
    if not a or not b:
        return Decision(0.0, "identifier-mismatch", "no letters or digits")
    if rule := _codes_match(a, b):
        return Decision(1.0, rule)
    return Decision(0.0, "identifier-mismatch")


def _phone(gt: str, pred: str) -> Decision:
    g_base, p_base = _PHONE_EXT.sub("", gt), _PHONE_EXT.sub("", pred)
    a, b = _norm_id(g_base).lstrip("0"), _norm_id(p_base).lstrip("0")
    if not a or not b:
        return Decision(0.0, "identifier-mismatch", "no digits")
    rule = _codes_match(a, b)
    if rule is None:
        return Decision(0.0, "identifier-mismatch")
    g_ext, p_ext = _DIGITS.findall(gt[len(g_base) :]), _DIGITS.findall(pred[len(p_base) :])
    if g_ext and not p_ext:
        return Decision(0.5, "phone-without-extension", "GT extension not inferred")
    if g_ext and p_ext and g_ext != p_ext:
        return Decision(0.0, "identifier-mismatch", "different extensions")
    return Decision(1.0, rule)


def _email(gt: str, pred: str) -> Decision:
    a = fold(gt).removeprefix("mailto:").strip()
    b = fold(pred).removeprefix("mailto:").strip()
    return Decision(1.0, "email-equal") if a == b else Decision(0.0, "email-mismatch")


# --------------------------------------------------------------------------- categorical, text


def _categorical(gt: str, pred: str, tag: str) -> Decision:
    g, p = canonical_category(tag, gt), canonical_category(tag, pred)
    if g == p:
        return Decision(1.0, "synonym", g)
    return Decision(0.0, "category-mismatch", f"{g} != {p}")


def _free_text(gt: str, pred: str) -> Decision:
    jw = standard_jaro_winkler(fold(gt), fold(pred))
    if jw >= JW_THRESHOLD:
        return Decision(1.0, "jw>=0.85", f"JW {jw:.4f}")
    return Decision(0.0, "jw<0.85", f"JW {jw:.4f}")


_RULES: dict[str, Callable[[str, str], Decision]] = {
    "AGE": _age,
    "LOCATION": _location,
    "NATIONALITY": _nationality,
    "NAME": _name,
    "IDENTIFICATION_NUMBER": _identifier,
    "DRIVER_LICENSE_NUMBER": _identifier,
    "PASSPORT_NUMBER": _identifier,
    "PHONE_NUMBER": _phone,
    "EMAIL_ADDRESS": _email,
    "SEX": lambda g, p: _categorical(g, p, "SEX"),
    "RELATIONSHIP": lambda g, p: _categorical(g, p, "RELATIONSHIP"),
    "EDUCATION": lambda g, p: _categorical(g, p, "EDUCATION"),
}


def default_decision(gt: str, pred: str, tag: str) -> Decision:
    """Default-mode comparison of one GT keyword with one predicted keyword."""
    g, p = gt.strip(), pred.strip()
    if not g and not p:
        return Decision(1.0, "empty-both")
    if not g or not p:
        return Decision(0.0, "empty-one", "one keyword is empty")
    if fold(g) == fold(p):
        return Decision(1.0, "equal")
    return _RULES.get(tag, _free_text)(g, p)
