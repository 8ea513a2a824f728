"""Stage B driver: run every tag family for a subject and keep the best finding per tag."""

from __future__ import annotations

from collections.abc import Callable

import spia_core.adversary.local.rules as rules
from spia_core.adversary.local.attributes import (
    activity,
    age,
    family,
    identity,
    location,
    occupation,
    sex,
    work,
)
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding, best
from spia_core.model import PII
from spia_core.taxonomy import CODE_TAGS, TAGS

FAMILIES = (identity, sex, age, location, family, work, occupation, activity)


def candidates(
    ctx: DocContext, d: Draft, role_phrase: Callable[[Draft], str]
) -> dict[str, list[Finding]]:
    """Every enabled finding of every family for one subject, by tag."""
    findings: dict[str, list[Finding]] = {t: [] for t in TAGS}
    for fam in FAMILIES:
        for f in fam.infer(ctx, d):
            if not rules.enabled(f.rule):
                continue
            if f.keyword.strip() == "*":  # roles.tsv: "the role phrase itself"
                f.keyword = role_phrase(d)
            if f.keyword.strip():
                findings[f.tag].append(f)
    rules.record(findings)
    return findings


def choose(findings: dict[str, list[Finding]]) -> list[PII]:
    """One PII per NON-CODE tag (the best finding), every distinct CODE value."""
    piis: list[PII] = []
    for tag in TAGS:
        if tag in CODE_TAGS:
            seen: set[str] = set()
            for f in findings.get(tag, []):
                if f.keyword not in seen:
                    seen.add(f.keyword)
                    piis.append(f.to_pii())
            if not seen:
                piis.append(PII(tag=tag))
            continue
        top = best(findings.get(tag, []))
        piis.append(top.to_pii() if top is not None else PII(tag=tag))
    return piis
