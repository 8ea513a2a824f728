"""Stage B: one module per tag family; each exposes ``infer(ctx, draft) -> list[Finding]``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft

_VIAS = ("mention", "pronoun", "list")


def segment_matches(
    ctx: DocContext, d: Draft, rx: re.Pattern[str], vias: tuple[str, ...] = _VIAS
) -> Iterator[tuple[re.Match[str], int]]:
    """Matches of ``rx`` inside the subject's segments; yields (match, offset of the segment)."""
    seen: set[tuple[int, int]] = set()
    for seg in (seg for seg in ctx.segs(d) if seg.via in vias):
        for m in rx.finditer(ctx.text[seg.start : seg.end]):
            if (key := (seg.start + m.start(), seg.start + m.end())) not in seen:
                seen.add(key)
                yield m, seg.start


def lookback(ctx: DocContext, d: Draft, width: int = 90) -> Iterator[tuple[str, int]]:
    """Text just before each name/placeholder mention (same sentence), with its offset."""
    for m in (m for m in d.mentions if m.kind in {"name", "placeholder", "role"}):
        s0, _ = ctx.sentence_of(m.start)
        start = max(s0, m.start - width)
        yield ctx.text[start : m.start], start


FIRST_PERSON_ANY = re.compile(r"\b(?:I|I['’]m|I['’]ve|my|me|we|our|us)\b")


def author_matches(ctx: DocContext, d: Draft, rx: re.Pattern[str]) -> list[tuple[int, int]]:
    """Spans of ``rx`` said of the subject: another subject's in their own segments; the writer's
    in the writer's own segments, or in a sentence with a first-person word outside another's
    pronoun stretch ("She ..."; "my kids and thirty years of nursing" stays the writer's)."""
    if not d.is_author:
        return [(o + m.start(), o + m.end()) for m, o in segment_matches(ctx, d, rx)]
    own = [(g.start, g.end) for g in ctx.segs(d) if g.via == "mention"]
    theirs = [g for o in ctx.drafts if o is not d for g in ctx.segs(o) if g.via == "pronoun"]
    return [
        (s, e)
        for s, e in (m.span() for m in rx.finditer(ctx.text))
        if any(a <= s and e <= b for a, b in own)
        or (
            not any(g.start <= s < g.end for g in theirs)
            and FIRST_PERSON_ANY.search(ctx.text, *ctx.sentence_of(s))
        )
    ]
