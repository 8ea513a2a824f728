"""Stage B driver: run every tag family for a subject and keep the best finding per tag."""

from __future__ import annotations

import re
from dataclasses import replace

import spia_core.adversary.local.attributes.location as location
import spia_core.adversary.local.attributes.occupation as occupation
import spia_core.adversary.local.rules as rules
from spia_core.adversary.local.attributes import activity, age, family, identity, sex, work
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding, best
from spia_core.model import PII
from spia_core.taxonomy import CODE_TAGS, TAGS

FAMILIES = (identity, sex, age, location, family, work, occupation, activity)
_NO_JOB = frozenset({"Retired", "Unemployed", "Student", "Stay-at-home", "Homemaker"})
_NOW = _NO_JOB - {"Retired"}  # a retired person's past job is kept: 'Retired <job>'
_STAGE = frozenset({"Retired", "Apprentice", "Trainee"})  # said before the job: 'Trainee nurse'


def candidates(ctx: DocContext, d: Draft) -> dict[str, list[Finding]]:
    """Every enabled finding of every family for one subject, by tag."""
    findings: dict[str, list[Finding]] = {t: [] for t in TAGS}
    for fam in FAMILIES:
        for f in (f for f in fam.infer(ctx, d) if rules.enabled(f.rule)):
            if f.keyword.strip():
                findings[f.tag].append(f)
    rules.record(findings)
    return findings


def choose(findings: dict[str, list[Finding]]) -> list[PII]:
    """One PII per NON-CODE tag (the best finding; 'Retired <job>' for a past job, 'Trainee
    <job>' for one being learnt), every distinct CODE value. A job (certainty >= 3) rules out the
    guessed age of a young child; a status held now (out of work, studying, at home) outranks a
    job read at no higher certainty (a past job, the trade studied)."""
    piis: list[PII] = []
    occ = findings.get("OCCUPATION", [])
    if now := max((f.certainty for f in occ if f.keyword.split()[0] in _NOW), default=0):
        keep = [f for f in occ if f.certainty > now or f.keyword.split()[0] in _NO_JOB | _STAGE]
        findings = {**findings, "OCCUPATION": keep}
    age = best(findings.get("AGE", []))
    if age and age.certainty > 2 and int(re.match(r"\d*", age.keyword)[0] or 0) >= 25:
        school = {"Pupil", "In High School"}  # "his oldest pupil" at 41: a learner, no pupil
        findings = {t: [f for f in fs if f.keyword not in school] for t, fs in findings.items()}
    job = best(findings.get("OCCUPATION", []))
    if job and job.certainty > 2 and job.keyword not in _NO_JOB:
        ages = [f for f in findings.get("AGE", []) if f.rule != "age.child"]
        findings = {**findings, "AGE": ages}  # a new dict: the caller's is left as it is
    for tag in TAGS:
        if tag in CODE_TAGS:
            first: dict[str, Finding] = {}  # every distinct value, in order
            for f in findings.get(tag, []):
                first.setdefault(f.keyword, f)
            piis += [f.to_pii() for f in first.values()] or [PII(tag=tag)]
            continue
        top, fs = best(findings.get(tag, [])), findings.get(tag, [])
        old = best([f for f in fs if tag == "OCCUPATION" and f.keyword in _STAGE])
        job = best([f for f in fs if f.keyword.split()[0] not in _NO_JOB | _STAGE]) if old else None
        if top and old and job and top.keyword.split()[0] not in _NO_JOB:  # 'Trainee' or a job
            ev = job.evidence + old.evidence
            top = replace(job, keyword=work.retired(job.keyword, old.keyword), evidence=ev)
            top.certainty = max(job.certainty, old.certainty)
        piis.append(top.to_pii() if top is not None else PII(tag=tag))
    return piis
