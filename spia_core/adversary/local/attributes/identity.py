"""NAME and the CODE tags of one subject."""

from __future__ import annotations

from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.subjects import Draft


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    names = d.names
    if names:
        best = d.best_name
        m = next((x for x in names if x.name == best), names[0])
        cert = 5 if m.kind == "name" else (4 if " " in best else 3)
        out.append(Finding("NAME", best, cert, 1, [ctx.ev(m.start, m.end)], m.kind))
    for c in d.codes:
        out.append(Finding(c.tag, c.value, 5, 1, [ctx.ev(c.start, c.end)], "code"))
    return out
