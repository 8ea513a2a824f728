"""OCCUPATION of a post's author from what they say they do ("caring for patients",
"lesson plans", "#TruckerDad"), from data/lexicons/activities.tsv.

Only for the author of a post, and at a low certainty: an explicit job word found by
``attributes.work`` (certainty 3 or more) always wins over an activity.
"""

from __future__ import annotations

import functools
import re

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.attributes import segment_matches
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.subjects import Draft


@functools.cache
def activities() -> tuple[tuple[re.Pattern[str], str, int], ...]:
    """(pattern, occupation, certainty) rows of activities.tsv, in file order."""
    out = []
    for lineno, row in enumerate(lexicons._read_tsv("activities.tsv"), 1):
        if len(row) != 3 or not row[2].isdigit():
            raise ValueError(
                f"activities.tsv row {lineno}: expected pattern, occupation, certainty"
            )
        try:
            rx = re.compile(rf"(?<![\w#])(?:{row[0]})(?!\w)", re.IGNORECASE)
        except re.error as exc:
            raise ValueError(f"activities.tsv row {lineno}: bad pattern {row[0]!r}: {exc}") from exc
        out.append((rx, row[1], int(row[2])))
    return tuple(out)


@functools.cache
def _education_of() -> dict[str, str]:
    """Occupation -> the education it requires, from occupations.tsv."""
    table, _ = lexicons.occupations()
    return {j.occupation: j.education for j in table.values() if j.education}


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    if not d.is_author:
        return []
    out: list[Finding] = []
    for rx, occupation, certainty in activities():
        for m, off in segment_matches(ctx, d, rx, ("mention",)):
            s, e = off + m.start(), off + m.end()
            if not ctx.is_masked(s, e):
                ev = [ctx.ev(s, e)]
                out.append(Finding("OCCUPATION", occupation, certainty, 3, ev, "activity"))
                education = _education_of().get(occupation)
                if education and certainty >= 2:
                    out.append(Finding("EDUCATION", education, 2, 3, ev, "activity-education"))
                break
    return out
