"""The rule registry of the local adversary (``data/rules/local_adversary_rules.tsv``, described
in docs/local_adversary.md): ``rule(id).find(value, evidence)`` makes a finding with the rule's
certainty; ``disabled`` switches rules off for the ablation, ``enabled`` is what passes check."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from dataclasses import dataclass

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.evidence import Finding
from spia_core.model import Evidence
from spia_core.paths import DATA_DIR

#: What a rule may read.
READS = frozenset({"token pattern", "dependency pattern", "lexicon", "gazetteer", "embedding"})
READS |= {"prior", "structure"}


@dataclass(frozen=True)
class Rule:
    """One named inference of the local adversary (see the module docstring)."""

    id: str
    tag: str
    reads: str
    certainty: int
    explains: str
    examples: tuple[str, ...] = ()
    hardness: int = 2
    source: str = ""

    def __post_init__(self) -> None:
        if self.reads not in READS:
            raise ValueError(f"rule {self.id}: reads {self.reads!r} is not one of {sorted(READS)}")
        if not 1 <= self.certainty <= 5:
            raise ValueError(f"rule {self.id}: certainty {self.certainty} outside 1-5")
        if "." not in self.id:
            raise ValueError(f"rule id {self.id!r} must be '<family>.<name>'")

    def find(
        self,
        value: str,
        evidence: list[Evidence] | None = None,
        *,
        tag: str | None = None,
        certainty: int | None = None,
    ) -> Finding:
        """A Finding of this rule (``tag`` for a rule giving two tags, as a code prefix gives
        NATIONALITY and LOCATION; ``certainty`` only from a lexicon column or a cue's strength)."""
        cert = self.certainty if certainty is None else certainty
        ev = list(evidence or [])
        return Finding(tag or self.tag, value, cert, self.hardness, ev, self.id, self.explains)


#: The rules, one a line (id, tag, reads, certainty, hardness, source, explanation, examples).
RULES_FILE = DATA_DIR / "rules" / "local_adversary_rules.tsv"
_DISABLED: set[str] = set()


def rule(rule_id: str) -> Rule:
    """The registered rule ``rule_id`` (KeyError when unknown)."""
    return all_rules()[rule_id]


@functools.cache
def all_rules() -> dict[str, Rule]:
    """Every rule of ``RULES_FILE`` by id (read on first use; an id may appear once)."""
    out: dict[str, Rule] = {}
    for rid, tag, reads, cert, hard, source, explains, ex in lexicons._read_tsv(RULES_FILE, 8):
        if rid in out:
            raise ValueError(f"rule {rid} registered twice")
        ex = () if ex == "-" else ex.replace("\\n", "\n").split(" || ")
        src = "" if source == "-" else source
        out[rid] = Rule(rid, tag, reads, int(cert), explains, tuple(ex), int(hard), src)
    return out


def enabled(rule_id: str) -> bool:
    """False while ``rule_id`` is switched off by :func:`disabled`."""
    return rule_id not in _DISABLED


@contextlib.contextmanager
def disabled(rule_ids: set[str] | frozenset[str]) -> Iterator[None]:
    """Switch rules off inside the block (for ablation)."""
    added = set(rule_ids) - _DISABLED
    _DISABLED.update(added)
    try:
        yield
    finally:
        _DISABLED.difference_update(added)


#: Open recordings: each collects every candidate finding of every subject (ablation bench).
_RECORDERS: list[list[dict[str, list]]] = []


@contextlib.contextmanager
def recording() -> Iterator[list[dict[str, list]]]:
    """Collect the candidate findings of each subject, in subject order."""
    rec: list[dict[str, list]] = []
    _RECORDERS.append(rec)
    try:
        yield rec
    finally:
        _RECORDERS.remove(rec)


def record(candidates: dict[str, list]) -> None:
    """Called once per subject by the attribute stage."""
    for rec in _RECORDERS:
        rec.append(candidates)
