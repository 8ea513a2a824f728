"""OCCUPATION, POSITION, AFFILIATION and EDUCATION: roles, job words, titles, organisations."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import spia_core.adversary.local.attributes.location as location
import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.attributes import segment_matches
from spia_core.adversary.local.attributes.family import grown_up
from spia_core.adversary.local.context import LEGAL, DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.rules import rule

_CUES = lexicons.subject_cues("attribute_cues.tsv")

_ORG_LEAD, _WITH = _CUES["org_lead"], _CUES["with_org"]
_OUR_AT, _HR = _CUES["our_at"], _CUES["hr_of"]  # "Quillsoft's HR department"
_TRAILING = re.compile(r"(?:\s+(?:of|for|and(?: I)?|the|at|in|&))+$")

_COMPOUND_BEFORE = re.compile(rf"\b(?:{lexicons.alternation('compound_before')})\s*$", re.I)

#: A subject, 'to' or an auxiliary right before a word makes it a verb ("I cook", "to clean").
_WHO_AFTER = re.compile(r"\s*,?\s*who\b|\s+(?:rang|called|phoned|emailed|texted|said|told)\b")
AGO = re.compile(r"\bago\b", re.I)  # "a student ten years ago": that was then
_PAREN_AFTER = re.compile(r"\s*\(\s*(?:\[|(?:Mr|Mrs|Ms|Miss|Dr)\.? |[A-Z][a-z]+\))")
_VERB_BEFORE = re.compile(rf"\b(?:{lexicons.alternation('verb_before')})\s+$", re.IGNORECASE)


def job_used_as_job(text: str, s: int, e: int) -> bool:
    """False for a job word in a compound or a name ("driver's license", "printer driver")."""
    if _CUES["compound_after"].match(text[e : e + 20].lstrip(" ")):
        return False
    return not _COMPOUND_BEFORE.search(text[max(0, s - 12) : s])


_ARTEFACT, _MAYBE = (lexicons.word_map(f"software_artefact{x}") for x in ("", "_maybe"))
_SURE = lexicons.words("software_word") | _ARTEFACT.keys()  # words that make a sentence software
_TO_WITH = frozenset(["to", "with", "for", "by", "from"])
_TOPIC = frozenset(["compound", "amod", "nmod", "npadvmod", "poss", "punct", "conj", "hmod"])


def software(tok: Any) -> str:
    """Who builds the software ``tok`` names ('app'); 'tool', 'server'... beside a software word."""
    maybe = tok.lower_ in _MAYBE and any(w.lower_ in _SURE for w in tok.sent)
    return _ARTEFACT.get(tok.lower_) or (_MAYBE[tok.lower_] if maybe else "")


def _others(tok: Any) -> bool:
    """The object of a verb or of to/with/for/by/from ("hired a plumber"): another person."""
    return tok.dep_ in {"dobj", "dative"} or (tok.dep_ == "pobj" and tok.head.lower_ in _TO_WITH)


def artefact_topic(tok: Any) -> bool:
    """A word modifying software on its right ('crop-yield forecasting tool'): its topic, no job."""
    while tok.dep_ in _TOPIC and (tok.head.i > tok.i or tok.dep_ == "conj"):
        if tok.dep_ == "poss" and any(c.lower_ in {"my", "our"} for c in tok.children):
            return False
        if software(tok := tok.head):
            return True
    return False


@dataclass(frozen=True)
class RoleWork:
    """What a role says about work: OCCUPATION, POSITION (``*`` = the role phrase), EDUCATION."""

    occupation: str
    position: str
    education: str
    occupation_certainty: int
    position_certainty: int


@functools.cache
def role_work() -> dict[str, RoleWork]:
    """Role key -> RoleWork, from ``work_roles.tsv`` (falls back to roles.tsv for other roles)."""
    out: dict[str, RoleWork] = {}
    for row in lexicons._read_tsv("work_roles.tsv"):
        occ, pos, edu = ("" if c == "-" else c for c in row[1:4])
        out[row[0]] = RoleWork(occ, pos, edu, int(row[4]), int(row[5]))
    for r in lexicons.roles():
        if r.key not in out and (r.occupation or r.position or r.education):
            out[r.key] = RoleWork(r.occupation, r.position, r.education, 4, 2)
    return out


#: Country -> the office its Government Agent usually belongs to (``agent_offices.tsv``).
AGENT_OFFICES = {row[0]: row[1] for row in lexicons._read_tsv("agent_offices.tsv")}

_LEAD_WORDS = re.compile(r"^(?:the|their|his|her|its|a|an|that|this)\s+", re.IGNORECASE)


def role_phrase(text: str) -> str:
    """'the President of the Second Section' -> 'President of the Second Section'; a masked
    part is dropped ('President of [LOC]' -> 'President', '[LOC] Governor' -> 'Governor')."""
    text = re.sub(r"^\s*(?:the\s+)?\[[A-Z_0-9]+\]\s+", "", text)
    text = re.sub(r"\s+(?:of|for|at|in)\s+(?:the\s+)?\[[A-Z_0-9]+\].*$", "", text)
    text = re.sub(r"\s+(?:who|whom|whose|which|that)\b.*$", "", text, flags=re.DOTALL)
    phrase = _LEAD_WORDS.sub("", text.strip(" ,.;:()“”\"'"))
    return lexicons.capitalised(re.sub(r"\s+", " ", phrase))


def _role_findings(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    table = role_work()
    for key in d.roles:
        if (r := table.get(key)) is None:
            continue
        m = next((x for x in d.mentions if x.kind == "role" and x.role == key), None)
        ev = [ctx.ev(m.start, m.end)] if m else []
        phrase = role_phrase(m.text) if m else ""
        place, rest = location.leading_place(phrase, ctx.country)
        if place is not None and rest:
            phrase = lexicons.capitalised(rest)  # 'İzmir Public Prosecutor' -> 'Public Prosecutor'
        if key == "court_president":
            phrase = "President"
        elif key in {"judge", "dean"}:
            # The post is the judge's or dean's; the court or university is the affiliation.
            phrase = re.sub(r"\s+(?:of|at|in)\s+.*$", "", phrase)
        occupation = r.occupation
        if key == "prosecutor" and "public prosecutor" in phrase.lower():
            occupation = "Public Prosecutor"
        cert_o, cert_p = r.occupation_certainty, r.position_certainty
        if occupation:
            out.append(rule("work.role_occupation").find(occupation, ev, certainty=cert_o))
        position = phrase if r.position == "*" else r.position
        if r.position == "*" and not position:
            position = {"judge": "Judge", "prosecutor": "Public Prosecutor"}.get(key, "")
        if position and cert_p:
            out.append(rule("work.role_position").find(position, ev, certainty=cert_p))
        if r.education:
            out.append(rule("work.role_education").find(r.education, ev))
    return out


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    """Occupation, position, education and affiliation of one person, in a fixed order."""
    parts = (_role_findings, _job_words, _positions_and_orgs, _employers, _work_status)
    parts += (_appositive_title, _email_affiliation, _job_before_name)
    parts += (_agent_affiliation,) * ("agent" in d.roles)
    return [f for p in (*parts, _courts_and_offices, _titles_and_children) for f in p(ctx, d)]


def _job_words(ctx: DocContext, d: Draft) -> list[Finding]:
    """Job words right after the mention (apposition) or in its predicates."""
    out: list[Finding] = []
    table, jobs = lexicons.occupations()
    for m, off in segment_matches(ctx, d, jobs):
        word = m.group(0).lower()
        if (job := table.get(word)) is None:
            continue
        s, e = off + m.start(), off + m.end()
        if not job_used_as_job(ctx.text, s, e) or not _job_of_subject(ctx.text, s, d):
            continue
        nxt = _GAP.match(ctx.text, e).end()  # "GP: Dr Shah", "our cook Bev": the named's job
        if any(x.start == nxt for o in ctx.drafts if o is not d for x in o.mentions):
            continue
        own = [x for x in d.mentions if x.start <= s < x.end]  # "Sgt Dean Ware": rank, name
        if any(word in _RANK_JOB or s >= x.end - len(x.name) for x in own):
            continue
        tok = ctx.doc.char_span(s, e) if getattr(ctx, "doc", None) is not None else None
        head = tok.root.head if tok is not None and tok.root.dep_ in {"compound", "amod"} else None
        inside = ctx.text[s - 3 : s] in {"in ", "of "}  # "an MSc in Marine Biology"
        modifier = head is not None and head.i >= tok.end  # "her marine biology", "a police car"
        if modifier and (inside if d.is_author else head.text.islower()):
            continue  # the word modifies a noun
        if tok is not None and (artefact_topic(tok.root) or _others(tok.root)):
            continue  # "the nurse rostering app": what the app is for; "hired a plumber"
        plural = word.endswith("s") and word[:-1] in table  # "Dr Obi and the nurses", "\nPupils:"
        if plural and re.search(r"(?:\band\s+(?:the\s+)?|\n\s*)$", ctx.text[max(0, s - 12) : s]):
            continue
        if word in _NOT_KIND and jobs.match(ctx.text, e + 1):
            continue  # "a retired firefighter", "a freelance translator": the trade is the job
        paren = _PAREN_AFTER.match(ctx.text, e)  # "the Clerk ([PERSON_4])": that person's job
        if paren and not any(x.start < paren.end() <= x.end for x in d.mentions):
            continue
        ev, label = [ctx.ev(s, e)], lexicons.job_label(m.group(0)) or job.occupation
        if re.search(r"\bretired\s+(?:[\w-]+\s+){0,2}$", ctx.text[max(0, s - 30) : s], re.I):
            label = retired(label)  # "Retired postman here": the past job, as annotators write it
        club = _CUES["club_post"].search(ctx.text[max(0, s - 40) : e])  # "our treasurer Jo"
        if club or ctx.text[s - 1 : s] + ctx.text[e : e + 1] == "()":  # "Sam Hale (treasurer)":
            if club or any(not ctx.text[x.end : s - 1].strip() for x in d.mentions if x.end < s):
                post = job_position(m.group(0))  # "A, B (treasurer)": B's
                out.append(rule("work.job_position").find(post, ev, certainty=3))
            continue  # a post in a club or meeting, not a job
        if d.is_author:  # only a hint ("my doctor"); attributes.occupation reads stated jobs
            if _CUES["not_held_before"].search(ctx.text, max(0, s - 40), s):
                continue
            if _VERB_BEFORE.search(ctx.text, max(0, s - 20), s) or _WHO_AFTER.match(ctx.text, e):
                continue  # "I cook dinner" (a verb); "a vet who", "Matron rang" (another)
            if word[-1] == "s" and (word[:-1] in table or word[:-2] in table):
                continue  # a plural: "my team of four buyers", "nine pupils" are other people
            if label == "Student" and AGO.search(ctx.text, *ctx.sentence_of(s)):
                continue  # "the shy student ten years ago": a study then, no status now
            out.append(rule("work.job_word_author").find(label, ev))
        elif s - off < 80:  # a job word far from the mention was as often another person's
            out.append(rule("work.job_word").find(label, ev))
            if not (d.roles.keys() & role_work().keys()):
                # "the applicant, who is a veterinary surgeon": the post held is the job word.
                out.append(rule("work.job_position").find(job_position(m.group(0)), ev))
            if job.education:
                out.append(rule("work.job_education").find(job.education, ev))
    return out


_KEY_JOB, _JOBS = lexicons.word_map("key_job"), lexicons.occupations()[0]  # 'prosecuting' -> ..
_NAMED, _GAP = frozenset({"name", "placeholder"}), re.compile(r"[ \t]*:?[ \t]*")
_NAMES_BEFORE = re.compile(r"(?:[A-Z][\w'’-]+[ \t]*(?:,|and|&)[ \t]*)+$")  # "Tom and " of "Ana"


def _job_before_name(ctx: DocContext, d: Draft) -> list[Finding]:
    """A job or form key before a name: "our cook Bev", "GP: Dr Li", "our drivers Tom and Ana"."""
    for m in (m for m in d.mentions if m.kind in _NAMED and not d.is_author):
        line = ctx.text[max(ctx.text.rfind("\n", 0, m.start) + 1, m.start - 50) : m.start]
        bare = _NAMES_BEFORE.sub("", line)
        lead = bare.rstrip(" \t:," if m.kind == "name" else " \t:")  # "our cook, Bev"
        words = re.findall(r"[\w-]+", lead[-40:].lower())
        for i in range(max(0, len(words) - 3), len(words) * lead[-1:].isalnum()):
            job = _KEY_JOB.get(phrase := " ".join(words[i:])) or _JOBS.get(phrase)
            if job is None or phrase in _RANK_JOB or (bare != line and phrase[-1] != "s"):
                continue  # "Sgt Ware": a rank; "our cook Bev and Tom": Bev's alone
            ev = [ctx.ev(m.start - len(line) + len(lead) - len(phrase), m.start)]
            label = job if isinstance(job, str) else lexicons.job_label(phrase) or job.occupation
            return [rule("work.job_word").find(label, ev)] if label != "-" else []  # "Chair: Jo"
    return []


def _positions_and_orgs(ctx: DocContext, d: Draft) -> list[Finding]:
    """Positions and affiliations in apposition; organisations worked at or led."""
    out: list[Finding] = []
    for m, off in segment_matches(ctx, d, _CUES["position"]):
        s = off + m.start()
        if s - off > 120 or ctx.is_masked(s, off + m.end()):
            continue
        of = (m.group("of") or "").strip()
        org = _TRAILING.sub("", re.sub(r"^(?:of|for|at|in)\s+(?:the\s+)?", "", of))
        os_, oe = off + m.start("of"), off + m.end("of")
        if of and _org_like(ctx, os_, oe, org):
            out.append(rule("work.position_of").find(org, [ctx.ev(os_, oe)]))
    for rx, cert in ((_CUES["work_at"], 5), (_ORG_LEAD, 4), (_WITH, 3), (_OUR_AT, 3), (_HR, 3)):
        for m, off in segment_matches(ctx, d, rx):
            s, e = off + m.start("org"), off + m.end("org")
            org = _TRAILING.sub("", m.group("org").strip(" ,."))
            if rx is _ORG_LEAD and (s - off > 160 or not _org_like(ctx, s, e, org)):
                continue
            if _an_employer(ctx, s, e, org):
                out.append(rule("work.org").find(org, [ctx.ev(s, e)], certainty=cert))
    if d.is_author:
        for m, off in segment_matches(ctx, d, _CUES["firm_possessive"], ("mention",)):
            s, e = off + m.start("org"), off + m.end("org")
            if not ctx.is_masked(s, e):
                out.append(rule("work.firm").find(m.group("org"), [ctx.ev(s, e)]))
    return out


def _employers(ctx: DocContext, d: Draft) -> list[Finding]:
    """Who a judgment's person works for or belongs to (``_EMPLOYER``)."""
    out: list[Finding] = []
    for rx, cert in _EMPLOYER:
        for m, off in segment_matches(ctx, d, rx, ("mention", "pronoun")):
            s, e = off + m.start("org"), off + m.end("org")
            org = _TRAILING.sub("", m.group("org").strip())
            if _an_employer(ctx, s, e, org):
                ev = [ctx.ev(s, s + len(org))]
                out.append(rule("work.employer").find(org, ev, certainty=cert))
    return out


def _an_employer(ctx: DocContext, s: int, e: int, org: str) -> bool:
    """An unmasked name of a body someone works for: no place, generic body or Convention."""
    if ctx.is_masked(s, e) or len(org) < 3 or _CUES["generic_org"].fullmatch(org):
        return False
    return not _CUES["not_an_employer"].search(org) and lexicons.gazetteer().lookup(org) is None


def _courts_and_offices(ctx: DocContext, d: Draft) -> list[Finding]:
    """Courts of a role or sentence, the State's government, the ECHR, ministries."""
    out: list[Finding] = []
    for org, s, e in [] if location.echr_official(ctx, d) else location.role_courts(ctx, d):
        if org.strip() in {"Court", "Tribunal"}:
            continue
        full = location.full_court_name(ctx, org)
        out.append(rule("work.role_court").find(full, [ctx.ev(s, e)]))
    for org, s, e in location.sentence_courts(ctx, d):
        full = location.full_court_name(ctx, org)
        out.append(rule("work.sentence_court").find(full, [ctx.ev(s, e)]))
    phrases = " ".join(m.text for m in d.mentions if m.kind == "role")
    if d.roles.keys() & _STATE_OFFICIALS and ctx.country and not _OWN_BODY.search(phrases):
        # A governor, minister or commissioner works for the State's government.
        out.append(_government(ctx, "work.state"))
    echr = [3] if location.echr_judge(ctx, d) else []
    if d.roles.keys() & {"president", "registrar", "rapporteur"}:
        section = re.search(r"Section|Chamber|Grand", phrases) or "Section" in ctx.text
        echr += [3] if section else [2] if "[" in phrases and LEGAL.search(ctx.text) else []
    out += [rule("work.echr").find("European Court of Human Rights", [], certainty=c) for c in echr]
    for m, off in segment_matches(ctx, d, _CUES["minister"]):
        s, e = off + m.start(), off + m.end()
        if s - off < 80 and not ctx.is_masked(s, e):
            out.append(rule("work.minister").find(f"Ministry {m.group('of')}", [ctx.ev(s, e)]))
    return out


def _titles_and_children(ctx: DocContext, d: Draft) -> list[Finding]:
    """A doctor's or professor's degree; a child's or infant's schooling."""
    out: list[Finding] = []
    title_words = set(re.findall(r"[a-z]+", d.title.lower()))
    if t := next((m for m in d.mentions if m.title), None):  # "Prof. Dr X", "Major Ann Lee"
        ev = [ctx.ev(t.start, t.start + len(t.title))]
    if title_words & {"dr", "doctor", "professor", "prof"}:  # a professor holds a doctorate
        cert = 3 + bool(title_words & {"prof", "professor"})
        out.append(rule("work.title").find("PhD", ev, certainty=cert))
    if t and (job := next((_RANK_JOB[w] for w in sorted(title_words) if w in _RANK_JOB), "")):
        job, _, police = job.partition("|")  # the army; "Sgt X": the police where named
        force = {f.lower() for f in _FORCES.findall(ctx.text)}  # '?': only where forces are named
        job = police if police and force & {"police", "constabulary"} else job
        if job := job if force or job[:1] != "?" else "":
            out.append(rule("work.rank").find(job.lstrip("?"), ev))
        rank = t.text[: t.text.find(t.name)].strip(" .") or t.title  # "Lt Col", "PC"
        out.append(rule("work.rank").find(rank, ev, tag="POSITION"))
    child = d.kin in lexicons.words("child_kin") and d.anchor is not None
    if child and d.anchor.is_author and not grown_up(ctx, d):
        out.append(rule("work.child").find("Unemployed", []))
        for m in d.mentions:
            s0, e0 = ctx.sentence_of(m.start)
            if hit := _CUES["infant"].search(ctx.text[s0:e0]):
                ev = [ctx.ev(s0 + hit.start(), s0 + hit.end())]
                out.append(rule("work.infant").find("No High School Diploma", ev))
                break
    return out


#: Who a judgment's person works for or belongs to, with a certainty (attribute_cues 'employer').
_EMPLOYER = [(rx, n) for rx, k, n in lexicons.cue_table("attribute_cues.tsv") if k == "employer"]

#: Roles of officials of the respondent State's executive.
_STATE_OFFICIALS = frozenset({"governor", "minister", "commissioner", "general_official"})

#: An official who heads a body of their own (a prison, a school, a hospital).
_OWN_BODY = re.compile(r"Prison|HMP|School|Hospital|University|Bank|Company", re.IGNORECASE)

_RANK_JOB = lexicons.word_map("title_job")  # 'major' -> 'Military officer'
_FORCES = re.compile(r"(?i)\b(police|constabulary|army|regiment|military|navy|RAF|troops)\b")
#: Mail providers: their domain says nothing about an employer.
_WEBMAIL = lexicons.work_words("webmail")
_NOT_KIND = lexicons.work_words("not_kind")


def _email_affiliation(ctx: DocContext, d: Draft) -> list[Finding]:
    """The organisation of the subject's e-mail domain ("p.lane@corvex.com" -> "Corvex")."""
    out = []
    for c in d.codes:
        label = c.value.split("@", 1)[-1].split(".")[0].lower()
        ok = c.tag == "EMAIL_ADDRESS" and "@" in c.value and label.isalpha()
        if ok and len(label) > 2 and label not in _WEBMAIL:
            out.append(rule("work.email_domain").find(label.title(), [ctx.ev(c.start, c.end)]))
    return out


_ORG_LIKE = re.compile(rf"{lexicons.alternation('org_like_word')}|Bar\b")


def _org_like(ctx: DocContext, s: int, e: int, org: str) -> bool:
    """An ORG entity overlaps the span, or the phrase carries an organisation word."""
    return ctx.is_org(s, e) or bool(_ORG_LIKE.search(org))


_OFFICE_AFTER = re.compile(r"\s*,?\s*(?:of|from|at)\s+(?:the\s+)?\[ORG[^\]]*\]")


def _agent_affiliation(ctx: DocContext, d: Draft) -> list[Finding]:
    """The Agent's office: the country's usual Agent office, else "<Demonym> Government"."""
    if not ctx.country:
        return []
    after = (
        _OFFICE_AFTER.match(ctx.text, m.end, m.end + 60) for m in d.mentions if m.kind in _NAMED
    )
    named = [ctx.ev(*h.span()) for h in after if h][::-1]  # the last one first
    gov = _government(ctx, "work.agent_government", named)
    if office := AGENT_OFFICES.get(ctx.country, ""):  # the usual office wins ties; one named
        c = gov.certainty + bool(named)  # after the Agent (even masked) adds weight
        return [rule("work.agent_office").find(office, gov.evidence, certainty=c), gov]
    return [gov]


def _government(ctx: DocContext, rule_id: str, named=()) -> Finding:
    """The State's "<Demonym> Government" (certainty 2, 1 when the country is a weak guess)."""
    cert = 2 if ctx.country_certainty >= 2 else 1
    gov = f"{location.demonym_of(ctx.country)} Government"
    return rule(rule_id).find(gov, [*named, *ctx.country_evidence[:2]], certainty=cert)


_OTHER_PERSON_BEFORE = _CUES["other_person_before"]

_DEFINITE_BEFORE = re.compile(r"\bthe\s+(?:[a-z][\w\-]*\s+)?$", re.IGNORECASE)

#: A job coordinated after a relative's mention ("dad of three and a part-time welder").
_COORDINATED_SELF = re.compile(r"[\s,]*(?:and|&)\s+(?:an?|the)\s+(?:[\w-]+\s+){0,2}")


def _job_of_subject(text: str, s: int, d: Draft) -> bool:
    """False when the job word at ``s`` is another person's (see _OTHER_PERSON_BEFORE)."""
    kin = _CUES["kin_apposition"].search(text, max(0, s - 60), s)
    if kin and not any(m.start <= kin.start("k") < m.end for m in d.mentions):
        return False  # "my son, a doctor", "his wife, a nurse": the relative's job
    if d.is_author:  # "my doctor", "our plumber", "by the nurse" name someone else
        return not _CUES["possessed_before"].search(text, max(0, s - 30), s)
    if (own := next((m for m in d.mentions if m.start <= s < m.end), None)) is not None:
        # The subject's own mention: its role's curated wording wins ("the Mayor" -> Mayor).
        r = role_work().get(own.role) if own.kind == "role" else None
        return r is None or not r.occupation
    before = text[max(0, s - 40) : s]
    if _OTHER_PERSON_BEFORE.search(before):
        return False
    last = max((m.end for m in d.mentions if m.end <= s), default=s)
    if d.anchor is not None and d.anchor.is_author and _COORDINATED_SELF.fullmatch(text, last, s):
        return False  # "a dad of three and a part-time welder": the author, not the kids
    # "the accredited doctor" names another person, unless in apposition or after a copula
    # ("Mr X, the director", "he was the headmaster").
    return not (_DEFINITE_BEFORE.search(before) and not _CUES["definite_own"].search(before))


def retired(label: str, stage: str = "Retired") -> str:  # Tax inspector -> Retired tax inspector
    return f"{stage} " + (label if label[:2].isupper() else label[:1].lower() + label[1:])


def job_position(word: str) -> str:
    """The post a job word names, singular and capitalised ('professors' -> 'Professor')."""
    w = re.sub(r"men$", "man", re.sub(r"(?<![su])s$", "", re.sub(r"\s+", " ", word.strip())))
    return lexicons.capitalised(w)


#: Cues that a judgment's person does not (or no longer) work, with a certainty: detention
#: now, a sentence being served, a dismissal, benefits paid to people unable to work.
_NOT_WORKING = lexicons.cue_table("work_status_cues.tsv", re.IGNORECASE)
_WE = re.compile(r"\b(?:I|[Mm]e|[Mm]y|[Uu]s|[Ww]e|[Oo]ur)\b")


def _work_status(ctx: DocContext, d: Draft) -> list[Finding]:
    """'Unemployed' / 'Retired' from ``work_status_cues.tsv`` ("was laid off", "I retired")."""
    out: list[Finding] = []
    for rx, status, cert in _NOT_WORKING if d.is_author or d.kin or "applicant" in d.roles else ():
        hits = list(segment_matches(ctx, d, rx, ("mention", "pronoun")))
        # A status said in the first person is the writer's, wherever it stands in a sentence
        # about others ("my mate and I, since the firm let us go"), and no one else's.
        hits = [h for h in hits if d.is_author or not _WE.search(h[0][0])]
        hits += [(m, 0) for m in rx.finditer(ctx.text) if d.is_author and _WE.search(m[0])]
        for m, off in hits[:1]:
            ev = [ctx.ev(off + m.start(), off + m.end())]
            out.append(rule("work.work_status").find(status, ev, certainty=cert))
    return out


def _appositive_title(ctx: DocContext, d: Draft) -> list[Finding]:
    """POSITION from a title in apposition right after the subject's name (certainty 5)."""
    if d.is_author:
        return []
    for m in (m for m in d.mentions if m.kind in {"name", "placeholder"}):
        hit = _CUES["appositive_title"].match(ctx.text[m.end : m.end + 160])  # ", Head of X"
        if hit is None or ctx.is_masked(m.end + hit.start("pos"), m.end + hit.end("pos")):
            continue
        pos = _TRAILING.sub("", hit.group("pos"))
        ev = [ctx.ev(m.end + hit.start("pos"), m.end + hit.start("pos") + len(pos))]
        return [rule("work.appositive_title").find(pos, ev)]
    return []
