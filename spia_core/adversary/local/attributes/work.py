"""OCCUPATION, POSITION, AFFILIATION and EDUCATION: roles, job words, titles, organisations."""

from __future__ import annotations

import re

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.attributes import lookback, segment_matches
from spia_core.adversary.local.attributes.location import demonym_of
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.subjects import Draft

_POSITION = re.compile(
    r"\b(?P<pos>(?:Deputy |Vice[- ]|Chief |Principal |Senior |Assistant |Acting )?"
    r"(?:Head|Director(?:-General)?|Chairman|Chairwoman|Chair|President|Minister|Secretary(?:-General)?|"
    r"Governor|Mayor|Ambassador|Dean|Rector|Manager|CEO|Chief Executive Officer|Commissioner|"
    r"Registrar|Co-Agent|Agent|Counsel|Adviser|Advisor|Legal Adviser|Public Prosecutor|Prosecutor|"
    r"Consul|Procurator(?: General)?|Headman|muhtar|Superintendent|Inspector|Commander|Rapporteur))"
    r"(?P<of>\s+(?:of|for|at|in)\s+(?:the\s+)?[A-Z][\w’'\-]*(?:\s+(?:of|for|and|the|[A-Z][\w’'\-]*)){0,8})?"
)
_ORG_LEAD = re.compile(
    r"(?:,\s*|\s(?:of|at|with|for|from|in)\s+(?:the\s+)?)(?P<org>(?:Ministry|Department|Office|Foreign|Federal|"
    r"Court|University|Hospital|Council|Bar|Embassy|Prosecutor|Directorate|Agency|Bureau|Institute|Police|"
    r"School|Association|Union|Commission|Chamber|Service|Committee|Government|Legal|National|European|"
    r"[A-Z][\w’'\-]+(?:,? (?:and )?[A-Z][\w’'\-]+)*(?: (?:PLC|Inc|Ltd|LLC|AB|GmbH|AG|SA|Store|Group|Solicitors|& Co)\.?))"  # noqa: E501
    r"(?:\s+(?:of|for|and|the|[A-Z][\w’'\-]*|&)){0,8})"
)
_WORK_AT = re.compile(
    r"\b(?:work(?:s|ing|ed)?|employed|shift|job|role|position|career|intern(?:ing)?|volunteer(?:ing)?)\s+(?:\w+\s+){0,2}?"
    r"(?:at|with|for|in)\s+(?P<org>[A-Z][\w’'\-&]*(?:(?:,\s+|\s+and\s+|\s+&\s+|\s+|-)[A-Z][\w’'\-&]*){0,4}(?:\s+(?:PLC|Inc|Ltd|LLC|Store|Co)\.?)?)"
)
_WITH_ORG = re.compile(
    r"\b(?:with|at|for|from)\s+(?P<org>[A-Z][\w’'\-]*(?:,\s+[A-Z][\w’'\-]*)*(?:,?\s+and\s+[A-Z][\w’'\-]*)|[A-Z][\w’'\-]*\s+(?:PLC|Inc|Ltd|LLC|Store|Group)\.?)"
)
_OCC_PHRASE = re.compile(
    r"\b(?:is|was|am|I'm|I’m|as|being|works as|working as|worked as|a|an|the|his|her|my)\s+(?:an?\s+)?(?:\w+\s+){0,2}?(?P<job>JOB)\b"  # noqa: E501
)


def _jobs_rx() -> re.Pattern[str]:
    _, rx = lexicons.occupations()
    return rx


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    table, jobs = lexicons.occupations()
    role_info = {r.key: r for r in lexicons.roles()}
    for key in d.roles:
        r = role_info.get(key)
        if r is None:
            continue
        m = next((x for x in d.mentions if x.kind == "role" and x.role == key), None)
        ev = [ctx.ev(m.start, m.end)] if m else []
        if r.occupation:
            out.append(Finding("OCCUPATION", r.occupation, 4, 2, ev, f"role:{key}"))
        if r.position:
            out.append(
                Finding(
                    "POSITION",
                    r.position,
                    4 if key in {"agent", "president", "registrar"} else 2,
                    2,
                    ev,
                    f"role:{key}",
                )
            )
        if r.education:
            out.append(Finding("EDUCATION", r.education, 3, 2, ev, f"role:{key}"))
    # Job words right after the mention (apposition) or in its predicates.
    for m, off in segment_matches(ctx, d, jobs):
        word = m.group(0).lower()
        job = table.get(word)
        if job is None:
            continue
        s, e = off + m.start(), off + m.end()
        near = s - off < 80
        cert = 5 if near else 3
        out.append(Finding("OCCUPATION", job.occupation, cert, 1, [ctx.ev(s, e)], "job-word"))
        if job.education:
            out.append(Finding("EDUCATION", job.education, 3, 2, [ctx.ev(s, e)], "job-education"))
        if word in {
            "lawyer",
            "lawyers",
            "advocate",
            "advocates",
            "solicitor",
            "barrister",
            "attorney",
            "counsel",
        }:
            out.append(Finding("POSITION", "Legal representative", 2, 2, [ctx.ev(s, e)], "lawyer"))
    for chunk, off in lookback(ctx, d, 40):
        m = re.search(rf"(?:{jobs.pattern})\s*,?\s*$", chunk, re.IGNORECASE)
        if m:
            job = table.get(m.group(1).lower())
            if job:
                out.append(
                    Finding(
                        "OCCUPATION",
                        job.occupation,
                        5,
                        1,
                        [ctx.ev(off + m.start(), off + m.end())],
                        "job-before",
                    )
                )
                if job.education:
                    out.append(
                        Finding(
                            "EDUCATION",
                            job.education,
                            3,
                            2,
                            [ctx.ev(off + m.start(), off + m.end())],
                            "job-education",
                        )
                    )
    # Positions and affiliations in apposition.
    for m, off in segment_matches(ctx, d, _POSITION):
        s = off + m.start()
        if s - off > 120 or ctx.is_masked(s, off + m.end()):
            continue
        pos = m.group("pos")
        of = (m.group("of") or "").strip()
        keyword = pos if pos in {"Agent", "Co-Agent"} or not of else f"{pos} {of}"
        out.append(Finding("POSITION", keyword, 4, 1, [ctx.ev(s, off + m.end())], "position"))
        if of:
            org = re.sub(r"^(?:of|for|at|in)\s+(?:the\s+)?", "", of)
            out.append(
                Finding(
                    "AFFILIATION",
                    org,
                    3,
                    2,
                    [ctx.ev(off + m.start("of"), off + m.end("of"))],
                    "position-of",
                )
            )
    for rx, cert in ((_WORK_AT, 5), (_ORG_LEAD, 4), (_WITH_ORG, 3)):
        for m, off in segment_matches(ctx, d, rx):
            s, e = off + m.start("org"), off + m.end("org")
            if ctx.is_masked(s, e) or (rx is _ORG_LEAD and s - off > 160):
                continue
            org = m.group("org").strip(" ,.")
            if len(org) < 3 or lexicons.gazetteer().lookup(org) is not None:
                continue
            if rx is _ORG_LEAD and not _org_like(ctx, s, e, org):
                continue
            out.append(Finding("AFFILIATION", org, cert, 1, [ctx.ev(s, e)], "org"))
    if "agent" in d.roles and ctx.country:
        dem = demonym_of(ctx.country)
        out.append(
            Finding(
                "AFFILIATION",
                f"{dem} Government",
                2,
                2,
                list(ctx.country_evidence[:2]),
                "agent-government",
            )
        )
    if d.roles.keys() & {"president", "registrar", "rapporteur"} and "Section" in ctx.text:
        out.append(Finding("AFFILIATION", "European Court of Human Rights", 3, 2, [], "echr"))
    if d.title.lower().rstrip(".") in {"dr", "doctor", "professor", "prof"}:
        t = next(m for m in d.mentions if m.title)
        out.append(
            Finding("EDUCATION", "PhD", 3, 2, [ctx.ev(t.start, t.start + len(t.title))], "title")
        )
        if t.title.lower().startswith("prof"):
            out.append(
                Finding(
                    "OCCUPATION",
                    "University professor",
                    4,
                    2,
                    [ctx.ev(t.start, t.start + len(t.title))],
                    "title",
                )
            )
    if d.kin in {"child", "kid", "son", "daughter"} and d.anchor is not None and d.anchor.is_author:
        out.append(Finding("OCCUPATION", "Unemployed", 2, 3, [], "child"))
    return out


def _org_like(ctx: DocContext, s: int, e: int, org: str) -> bool:
    """An ORG entity overlaps the span, or the phrase carries an organisation word."""
    if any(es < e and s < ee and lab == "ORG" for es, ee, lab in ctx.ents):
        return True
    return bool(
        re.search(
            r"Ministry|Department|Office|Court|University|Hospital|Council|Embassy|Directorate|"
            r"Agency|Bureau|Institute|School|Association|Union|Commission|Service|Committee|"
            r"Government|PLC|Inc|Ltd|LLC|Store|Solicitors|Police|Bar\b",
            org,
        )
    )
