"""Loads the registered rules of the attribute stage from data/rules/local_adversary_rules.tsv
(one rule a line: id, tag, what it reads, certainty, hardness, source, explanation template,
invented example sentences). Imported by ``rules.rule`` on first use."""

from __future__ import annotations

from spia_core.adversary.local.rules import Rule, register
from spia_core.paths import DATA_DIR

RULES_FILE = DATA_DIR / "rules" / "local_adversary_rules.tsv"


def _load() -> list[Rule]:
    out = []
    for lineno, line in enumerate(RULES_FILE.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 8:
            raise ValueError(f"{RULES_FILE.name}:{lineno}: expected 8 tab-separated columns")
        rid, tag, reads, cert, hard, source, explains, examples = cells
        ex = (
            () if examples == "-" else tuple(e.replace("\\n", "\n") for e in examples.split(" || "))
        )
        out.append(
            Rule(
                rid, tag, reads, int(cert), explains, ex, int(hard), "" if source == "-" else source
            )
        )
    return out


register(*_load())
