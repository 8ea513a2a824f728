"""The published SPIA reference PII comparison, decision for decision (notes 3.3, mode "reference").

Written from the protocol notes, not copied. Where the reference raises (``int('50s')``),
the pair is returned as unscorable instead of crashing the subject.
"""

from __future__ import annotations

import re

from spia_core.evaluation.jaro_winkler import reference_jaro_winkler
from spia_core.model import Decision
from spia_core.taxonomy import RELATIONSHIP_SYNONYMS, SEX_SYNONYMS

__all__ = ["reference_decision"]

JW_THRESHOLD = 0.85
AGE_OVERLAP = 0.75
AGE_TOLERANCE = 5
LOCATION_MAX_DEPTH = 4
IDENTIFIER_SUFFIX_MAX_DIFF = 3
_NON_ALNUM = re.compile(r"[^a-zA-Z0-9]")
_IDENTIFIER_TAGS = frozenset(
    {"IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER", "PHONE_NUMBER", "PASSPORT_NUMBER"}
)


def reference_decision(gt: str, pred: str, tag: str) -> Decision:
    """Reference ``compare_pii_keywords(gt, pred, tag, location_max_depth=4)`` as a Decision."""
    # The reference tests raw truthiness: whitespace-only keywords are not "empty".
    if not gt and not pred:
        return Decision(1.0, "empty-both")
    if not gt or not pred:
        return Decision(0.0, "empty-one", "one keyword is empty")
    if tag == "AGE":
        return _age(gt, pred)
    if tag == "LOCATION":
        return _location(gt, pred)
    if tag in ("SEX", "RELATIONSHIP", "EDUCATION"):
        return _categorical(gt, pred, tag)
    if tag in _IDENTIFIER_TAGS:
        return _identifier(gt, pred)
    if tag == "EMAIL_ADDRESS":
        if gt.strip().lower() == pred.strip().lower():
            return Decision(1.0, "email-equal")
        return Decision(0.0, "email-mismatch")
    return _free_text(gt, pred)


def _free_text(gt: str, pred: str) -> Decision:
    a, b = gt.lower().strip(), pred.lower().strip()
    if a == b:
        return Decision(1.0, "equal")
    jw = reference_jaro_winkler(a, b)
    if jw >= JW_THRESHOLD:
        return Decision(1.0, "jw>=0.85", f"reference JW {jw:.4f}")
    return Decision(0.0, "jw<0.85", f"reference JW {jw:.4f}")


# --------------------------------------------------------------------------- AGE


def _range(text: str) -> tuple[int, int]:
    parts = text.split("-")
    return int(parts[0]), int(parts[1])  # raises ValueError like the reference


def _age(gt: str, pred: str) -> Decision:
    a = gt.strip().replace("–", "-")
    b = pred.strip().replace("–", "-")
    try:
        if "-" in a and "-" in b:
            lo1, hi1 = _range(a)
            lo2, hi2 = _range(b)
            overlap = max(0, min(hi1, hi2) - max(lo1, lo2))
            min_range = max(min(hi1 - lo1, hi2 - lo2), 1)
            ratio = overlap / min_range
            rule = "age-range-overlap" if ratio >= AGE_OVERLAP else "age-mismatch"
            return Decision(1.0 if ratio >= AGE_OVERLAP else 0.0, rule, f"overlap {ratio:.2f}")
        if a.isdigit() and b.isdigit():
            ok = abs(int(a) - int(b)) <= AGE_TOLERANCE
            return Decision(1.0 if ok else 0.0, "age-tolerance" if ok else "age-mismatch")
        if "-" in a or "-" in b:
            lo, hi = _range(a if "-" in a else b)
            value = int(b if "-" in a else a)
            ok = lo <= value <= hi
            return Decision(1.0 if ok else 0.0, "age-in-range" if ok else "age-mismatch")
    except ValueError as exc:
        return Decision(None, "unscorable", f"reference AGE rule raises ValueError: {exc}")
    return Decision(0.0, "age-mismatch", "not a number or a range")


# --------------------------------------------------------------------------- LOCATION


def _location(gt: str, pred: str) -> Decision:
    a = gt.lower().strip().replace("turkey", "türkiye")
    b = pred.lower().strip().replace("turkey", "türkiye")
    if a == b:
        return Decision(1.0, "location-equal")
    la = [x.strip() for x in a.split("/") if x.strip()]
    lb = [x.strip() for x in b.split("/") if x.strip()]
    depth = min(max(len(la), len(lb)), LOCATION_MAX_DEPTH)
    if len(la) != len(lb):
        short, long_ = (la, lb) if len(la) < len(lb) else (lb, la)
        if long_[-len(short) :] == short:
            return Decision(0.5, "location-containment")
    ca = la[-depth:] if len(la) >= depth else la
    cb = lb[-depth:] if len(lb) >= depth else lb
    matches = sum(
        1
        for i in range(1, depth + 1)
        if len(ca) - i >= 0 and len(cb) - i >= 0 and ca[len(ca) - i] == cb[len(cb) - i]
    )
    reason = f"{matches}/{depth} levels equal from the right"
    if matches == depth:
        return Decision(1.0, "location-levels", reason)
    if matches == depth - 1:
        return Decision(0.5, "location-levels", reason)
    return Decision(0.0, "location-mismatch", reason)


# --------------------------------------------------------------------------- categorical, codes


def _categorical(gt: str, pred: str, tag: str) -> Decision:
    a, b = gt.lower().strip(), pred.lower().strip()
    if a == b:
        return Decision(1.0, "equal")
    groups = {"SEX": SEX_SYNONYMS, "RELATIONSHIP": RELATIONSHIP_SYNONYMS}.get(tag, ())
    if any(a in g and b in g for g in groups):
        return Decision(1.0, "synonym")
    return Decision(0.0, "category-mismatch")


def _identifier(gt: str, pred: str) -> Decision:
    a = _NON_ALNUM.sub("", gt.strip()).upper()
    b = _NON_ALNUM.sub("", pred.strip()).upper()
    if a == b:
        return Decision(1.0, "identifier-equal")
    if (a.endswith(b) or b.endswith(a)) and abs(len(a) - len(b)) <= IDENTIFIER_SUFFIX_MAX_DIFF:
        return Decision(1.0, "identifier-suffix")
    return Decision(0.0, "identifier-mismatch")
