"""AGE: birth dates and years, stated ages, life stages (relative to taxonomy.REFERENCE_DATE)."""

from __future__ import annotations

import re

from spia_core.adversary.local.attributes import segment_matches
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.subjects import Draft
from spia_core.taxonomy import REFERENCE_DATE

_MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        1,
    )
}
_BORN = re.compile(
    r"\bborn\s+(?:on\s+|in\s+)?(?:(?P<day>\d{1,2})\s+(?P<month>[A-Z][a-z]+)\s+|(?P<month2>[A-Z][a-z]+)\s+(?P<day2>\d{1,2}),?\s+)?(?:in\s+)?(?P<year>1[89]\d\d|20[0-2]\d)\b"
)
_AGED = re.compile(
    r"\b(?:aged\s+(?P<a>\d{1,3})|(?P<b>\d{1,3})[- ]years?[- ]old|age of (?P<c>\d{1,3})|"
    r"(?:I am|I'm|I’m)\s+(?P<d>\d{1,2})\b(?!\s*(?:%|kg|km|years? (?:of|in|at|with|since)))|(?P<e>\d{1,2})\s*(?:yo|y/o)\b)"  # noqa: E501
)
_DECADE = re.compile(
    r"\bin (?:my|his|her|their) (?:(?P<q>early|mid|late)[- ])?(?P<dec>twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties|[2-9]0s)\b"  # noqa: E501
)
_DECADES = {
    "twenties": 20,
    "thirties": 30,
    "forties": 40,
    "fifties": 50,
    "sixties": 60,
    "seventies": 70,
    "eighties": 80,
    "nineties": 90,
}
_STAGES = (
    (re.compile(r"\b(?:retired|retiree|pensioner|retirement)\b", re.I), "65-75", 2),
    (re.compile(r"\b(?:high school|secondary school|teenager|teen)\b", re.I), "14-18", 2),
    (
        re.compile(
            r"\b(?:university student|college student|undergraduate|freshman|sophomore)\b", re.I
        ),
        "18-24",
        2,
    ),
    (re.compile(r"\b(?:grandchildren|grandkids|grandson|granddaughter)\b", re.I), "60-70", 2),
)
_YEAR = re.compile(r"\b(?:19[5-9]\d|20[0-2]\d)\b")


def age_from_birth(year: int, month: int = 0, day: int = 0) -> str:
    """'54-55' for a birth year, '54' for a full date."""
    ref = REFERENCE_DATE
    if month:
        age = ref.year - year - ((ref.month, ref.day) < (month, day or 1))
        return str(age)
    return f"{ref.year - year - 1}-{ref.year - year}"


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    for m, off in segment_matches(ctx, d, _BORN):
        if ctx.is_masked(off + m.start(), off + m.end()):
            continue
        year = int(m.group("year"))
        month = _MONTHS.get((m.group("month") or m.group("month2") or "").lower(), 0)
        day = int(m.group("day") or m.group("day2") or 0)
        out.append(
            Finding(
                "AGE",
                age_from_birth(year, month, day),
                5,
                2,
                [ctx.ev(off + m.start(), off + m.end())],
                "born",
            )
        )
        break
    for m, off in segment_matches(ctx, d, _AGED):
        age = int(next(g for g in m.groups() if g))
        if not 0 < age < 120:
            continue
        s, e = off + m.start(), off + m.end()
        sent = ctx.text[slice(*ctx.sentence_of(s))]
        years = [int(y) for y in _YEAR.findall(sent)]
        if years and not m.group("d") and not m.group("e"):
            age += REFERENCE_DATE.year - max(years)
            out.append(Finding("AGE", f"{age - 1}-{age}", 3, 3, [ctx.ev(s, e)], "aged-then"))
        else:
            out.append(Finding("AGE", str(age), 4, 1, [ctx.ev(s, e)], "aged"))
        break
    for m, off in segment_matches(ctx, d, _DECADE):
        dec = m.group("dec")
        base = _DECADES.get(dec, int(dec[:1]) * 10 if dec[:1].isdigit() else 30)
        q = m.group("q")
        lo, hi = {
            "early": (base, base + 4),
            "mid": (base + 3, base + 7),
            "late": (base + 6, base + 9),
        }.get(q or "", (base, base + 9))
        out.append(
            Finding("AGE", f"{lo}-{hi}", 4, 1, [ctx.ev(off + m.start(), off + m.end())], "decade")
        )
    if (
        d.kin in {"child", "kid", "son", "daughter", "grandson", "granddaughter"}
        and d.anchor is not None
        and d.anchor.is_author
    ):
        out.append(Finding("AGE", "3-12", 2, 3, [], "child"))
    if d.kin == "baby" or any("little one" in m.text for m in d.mentions):
        out.append(Finding("AGE", "0-5", 3, 3, [], "baby"))
    for rx, value, cert in _STAGES:
        for m, off in segment_matches(ctx, d, rx):
            out.append(
                Finding(
                    "AGE", value, cert, 3, [ctx.ev(off + m.start(), off + m.end())], "life-stage"
                )
            )
            break
    return out
