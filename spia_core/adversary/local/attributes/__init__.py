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
