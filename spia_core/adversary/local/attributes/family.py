"""RELATIONSHIP: spouses, widows, divorce, partners (kin words and statements)."""

from __future__ import annotations

import re

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.attributes import segment_matches
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.subjects import Draft

_STATUS = (
    (re.compile(r"\b(?:divorced|divorce|ex-wife|ex-husband|separated)\b", re.I), "Divorced", 5),
    (re.compile(r"\b(?:widow|widowed|widower)\b", re.I), "Widowed", 5),
    (
        re.compile(
            r"\b(?:married|marriage|wedding|#MarriedLife|spouse|my wife|my husband|his wife|her husband)\b",  # noqa: E501
            re.I,
        ),
        "Married",
        4,
    ),
    (
        re.compile(r"\b(?:girlfriend|boyfriend|fianc[ée]e?|engaged|dating|partner)\b", re.I),
        "In Relation",
        3,
    ),
    (re.compile(r"\b(?:single|unmarried|never married)\b", re.I), "No relation", 3),
)


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    kin = lexicons.kin_words().get(d.kin)
    km = next((m for m in d.mentions if m.kind == "kin"), None)
    if d.kin == "spouse" or (kin and kin.relationship):
        value = "Married" if d.kin == "spouse" else kin.relationship
        out.append(
            Finding("RELATIONSHIP", value, 4, 1, [ctx.ev(km.start, km.end)] if km else [], "kin")
        )
    for other in ctx.drafts:
        if other.anchor is d and other.kin:
            k = lexicons.kin_words().get(other.kin)
            value = "Married" if other.kin == "spouse" else (k.anchor_relationship if k else "")
            if value:
                m = next((x for x in other.mentions if x.kind == "kin"), None)
                out.append(
                    Finding(
                        "RELATIONSHIP",
                        value,
                        4,
                        2,
                        [ctx.ev(m.start, m.end)] if m else [],
                        "anchor-of-kin",
                    )
                )
            elif other.kin in {"child", "kid", "son", "daughter"} and d.is_author:
                out.append(Finding("RELATIONSHIP", "Married", 2, 3, [], "parent"))
    vias = ("mention", "pronoun", "list")
    for rx, value, cert in _STATUS:
        for m, off in segment_matches(ctx, d, rx, vias):
            word = m.group(0).lower()
            # "his wife" inside the subject's own segment speaks about this subject's marriage.
            out.append(
                Finding(
                    "RELATIONSHIP",
                    value,
                    cert if not word.startswith("widow") or d.kin else 3,
                    2,
                    [ctx.ev(off + m.start(), off + m.end())],
                    "status",
                )
            )
            break
    if d.kin in {"father", "mother"} and any(
        o.kin in {"father", "mother"} and o.anchor is d.anchor and o is not d for o in ctx.drafts
    ):
        out.append(Finding("RELATIONSHIP", "Married", 3, 3, [], "parents"))
    return out
