"""OCCUPATION of a post's author from what they say they do ("caring for patients",
"lesson plans", "#TruckerDad"), from data/lexicons/activities.tsv.

Only for the author of a post, and at a low certainty: an explicit job word found by
``attributes.work`` (certainty 3 or more) always wins over an activity.
"""

from __future__ import annotations

import functools
import re

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.attributes import post_work
from spia_core.adversary.local.attributes.post_work import author_matches
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding


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
    """Occupation -> the education it requires, from occupations.tsv and post_jobs.tsv."""
    table, _ = lexicons.occupations()
    out = {j.occupation: j.education for j in table.values() if j.education}
    jobs, _ = post_work.post_jobs()
    out.update({j.occupation: j.education for j in jobs.values() if j.education})
    return out


#: Words of a technical-support post ("an error in the log", "a glitch in our system"): its
#: author most likely builds or maintains software, the usual reading of such a post.
_TECH_POST = re.compile(
    r"\b(?:error|bug|glitch|log|logs|logging|crash(?:es|ed)?|exception|timeout|database|"
    r"server|backend|back-end|front-end|frontend|API|cache|caching|module|sync(?:ing)?|"
    r"authenticat\w+|encrypt\w*|config\w*|script|software|interface|workaround|"
    r"fix|patch|snag|mismatch)\b",
    re.IGNORECASE,
)


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    if not d.is_author:
        return []
    out: list[Finding] = post_work.infer(ctx, d)
    for rx, occupation, certainty in activities():
        for s, e in author_matches(ctx, d, rx):
            if not ctx.is_masked(s, e):
                ev = [ctx.ev(s, e)]
                out.append(Finding("OCCUPATION", occupation, certainty, 3, ev, "activity"))
                education = _education_of().get(occupation)
                if education and certainty >= 2:
                    out.append(Finding("EDUCATION", education, 2, 3, ev, "activity-education"))
                break
    if not any(f.tag == "OCCUPATION" for f in out):
        out.extend(_tech_post(ctx, d))
    return out


def _tech_post(ctx: DocContext, d: Draft) -> list[Finding]:
    """A technical-support post (two or more distinct technical words, at least one
    error word) with no other cue: the author is guessed a Software Developer (certainty 1)."""
    hits: dict[str, tuple[int, int]] = {}
    for s, e in author_matches(ctx, d, _TECH_POST):
        if not ctx.is_masked(s, e):
            hits.setdefault(ctx.text[s:e].lower(), (s, e))
    errors = {
        "error",
        "bug",
        "glitch",
        "crash",
        "crashes",
        "crashed",
        "exception",
        "timeout",
        "snag",
        "mismatch",
    }
    if len(hits) < 2 or not errors & hits.keys():
        return []
    ev = [ctx.ev(s, e) for s, e in sorted(hits.values())[:3]]
    return [Finding("OCCUPATION", "Software Developer", 1, 3, ev, "tech-post")]
