"""Work attributes of a post's author from the ways posts state a job: "as a bookkeeper at
Mall-Deshpande", "Proud to be a customer service rep & mom of 3", "my life as a mom of 2 and a
dedicated lecturer", "any insights from fellow office managers?", "#EngineerAtHeart".

Gives OCCUPATION (certainty 3; an apposition found by ``attributes.work`` at certainty 5 still
wins), the same job as POSITION (certainty 2), the EDUCATION the job requires (certainty 2) and
the organisation after "<job> at" as AFFILIATION (certainty 3). Job words come from
data/lexicons/post_jobs.tsv, then occupations.tsv. Called by ``attributes.activity``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.names import leans_first


@dataclass(frozen=True)
class PostJob:
    """What a job word says: the occupation label and the education it requires."""

    occupation: str
    education: str


@functools.cache
def post_jobs() -> tuple[dict[str, PostJob], re.Pattern[str]]:
    """Job word (lower-case) -> PostJob, and a regex matching any of them (or a plural)."""
    table: dict[str, PostJob] = {}
    occ_table, _ = lexicons.occupations()
    for word, job in occ_table.items():
        table[word] = PostJob(job.occupation, job.education)
    for lineno, row in enumerate(lexicons._read_tsv("post_jobs.tsv"), 1):
        if len(row) != 3:
            raise ValueError(f"post_jobs.tsv row {lineno}: expected words, occupation, education")
        job = PostJob(row[1], "" if row[2] == "-" else row[2])
        for word in row[0].split("|"):
            table[word.lower()] = job
    words = sorted(table, key=len, reverse=True)
    rx = re.compile(
        r"(?<![\w#@.-])(" + "|".join(re.escape(w) for w in words) + r")(?:e?s)?(?![\w-])",
        re.IGNORECASE,
    )
    return table, rx


def _lookup(word: str) -> PostJob | None:
    table, _ = post_jobs()
    w = word.lower()
    for cand in (w, w[:-1] if w.endswith("s") else w, w[:-2] if w.endswith("es") else w):
        if cand in table:
            return table[cand]
    return None


#: A first-person frame that introduces what the author is ("I'm a", "as a", "Proud to be a",
#: "my life as a", "I work as a"); "such as a" is not one.
_FRAME = re.compile(
    r"(?:\b(?:I['’]?m|I am|I was|I['’]ve been|I have been|I work(?:ed)? as|working as|"
    r"(?<!such )(?<!same )(?<!much )as|proud to be|happy to be|life as|job as|career as|"
    r"years as|decades as|role as|journey as|status as)\s+(?:an?|the|one)\b)",
    re.IGNORECASE,
)
#: The end of the clause a frame governs.
_CLAUSE_END = re.compile(r"[.!?;:()\n—–]|,\s|\bbut\b|\bwho\b|\bwhose\b|\bwhen\b")
_FIRST_PERSON = re.compile(r"\b(?:I|I['’]m|my|me|myself)\b")
#: "any insights from fellow office managers?": the author is one of them.
_FELLOW = re.compile(
    r"\bfellow\s+(?P<job>[A-Za-z][\w ]{2,40}?)(?=[?!.,;:)]|\s+(?:out|here|who)\b|$)"
)
_HASHTAG = re.compile(r"#(?P<tag>[A-Za-z][A-Za-z0-9]+)")
#: Words that follow a job inside a hashtag (#ProfessorVibes, #EngineerAtHeart, #NurseLife).
_HASHTAG_TAIL = re.compile(
    r"(?:At ?Heart|Life|Vibes|Diary|Diaries|Dad|Mom|Mum|Mama|Papa|Goals|Problems|Mode|Pride|"
    r"Proud|Day|Days|Hustle|Grind|Things|Struggles|Journey)?s?\d*$",
    re.IGNORECASE,
)
_ORG_AFTER = re.compile(
    r"^\s+(?:at|with|for)\s+(?P<org>[A-Z][\w’'&.\-]*(?:(?:,\s+|\s+and\s+|\s+&\s+|\s+)"
    r"[A-Z][\w’'&.\-]*){0,4})"
)
#: A job word that is a qualifier here ("nurse station", "author page").
_NOT_JOB_AFTER = re.compile(
    r"^\s*(?:['’]s?\s|station|page|portal|account|app|module|role\b|name|field|email|id\b)",
    re.IGNORECASE,
)


def _job_in_clause(text: str, start: int) -> tuple[re.Match[str], PostJob] | None:
    """The first job word in the clause that starts at ``start``."""
    end_m = _CLAUSE_END.search(text, start)
    end = end_m.start() if end_m else len(text)
    end = min(end, start + 80)
    _, rx = post_jobs()
    for m in rx.finditer(text, start, end):
        if _NOT_JOB_AFTER.match(text[m.end() : m.end() + 12]):
            continue
        job = _lookup(m.group(1))
        if job is not None:
            return m, job
    return None


def _findings(ctx: DocContext, s: int, e: int, job: PostJob, cert: int, src: str) -> list[Finding]:
    ev = [ctx.ev(s, e)]
    out = [
        Finding("OCCUPATION", job.occupation, cert, 2, ev, src),
        Finding("POSITION", job.occupation, 2, 2, ev, src),
    ]
    if job.education:
        out.append(Finding("EDUCATION", job.education, 2, 3, ev, f"{src}-education"))
    org = _ORG_AFTER.match(ctx.text[e : e + 80])
    if org and not ctx.is_masked(e + org.start("org"), e + org.end("org")):
        name = re.sub(r"(?:\s+(?:and|&))+$", "", org.group("org").rstrip(" ,.&"))
        if len(name) >= 3 and lexicons.gazetteer().lookup(name) is None:
            oev = [ctx.ev(e + org.start("org"), e + org.start("org") + len(name))]
            out.append(Finding("AFFILIATION", name, 3, 2, oev, f"{src}-org"))
    return out


def _others_spans(ctx: DocContext, d: Draft) -> list[tuple[int, int]]:
    """Sentences whose subject is another person ("my husband Ray being a writer")."""
    spans = []
    for o in ctx.drafts:
        if o is d or not getattr(o, "alive", True):
            continue
        for m in o.mentions:
            if m.end > m.start:
                spans.append((m.start, m.end))
    return spans


#: A job whose head word the masker hid ("I'm a police [DEM]", "as a loan [DEM]"): the
#: qualifier names the usual job.
_MASKED_HEAD = {
    "police": "Police officer",
    "loan": "Loan officer",
    "customs": "Customs officer",
    "probation": "Probation officer",
    "customer service": "Customer service representative",
    "sales": "Sales representative",
    "software": "Software Developer",
    "truck": "Truck Driver",
    "bus": "Bus driver",
    "taxi": "Taxi driver",
    "flight": "Flight attendant",
    "office": "Office worker",
    "school": "Teacher",
    "nursing": "Nurse",
    "social": "Social worker",
}
_MASKED_JOB = re.compile(
    r"(?P<q>" + "|".join(sorted(_MASKED_HEAD, key=len, reverse=True)) + r")\s+\[[A-Z]+(?:_\d+)?\]",
    re.IGNORECASE,
)
#: A firm named by partners ("Diaz, Powell and Jarvis", "Stewart, Malone & Howard",
#: "Mall-Deshpande") or with a company suffix, after "at/with/for" in the author's sentence.
_FIRM = re.compile(
    r"\b(?:at|with|for)\s+(?P<org>[A-Z][\w’']+(?:, [A-Z][\w’']+)*,? (?:and|&) [A-Z][\w’']+"
    r"|[A-Z][a-z]+-[A-Z][a-z]+(?:-[A-Z][a-z]+)?"
    r"|[A-Z][\w’'&\-]*(?: [A-Z][\w’'&\-]*){0,3} (?:Inc|PLC|Ltd|LLC|Group|& Co)\b\.?)"
)
_FIRST_PERSON_ANY = re.compile(r"\b(?:I|I['’]m|I['’]ve|my|me|we|our|us)\b")


def author_matches(ctx: DocContext, d: Draft, rx: re.Pattern[str]) -> list[tuple[int, int]]:
    """Spans of ``rx`` that speak about a post's author: the author's own segments, and other
    text too unless it is in a sentence about someone else ("She ...") or a sentence with no
    first-person word ("my kids and decades of teaching" stays the author's)."""
    own = [(g.start, g.end) for g in ctx.segs(d) if g.via == "mention"]
    theirs = [
        (g.start, g.end)
        for o in ctx.drafts
        if o is not d
        for g in ctx.segs(o)
        if g.via == "pronoun"
    ]
    out = []
    for m in rx.finditer(ctx.text):
        s, e = m.start(), m.end()
        if any(a <= s and e <= b for a, b in own):
            out.append((s, e))
            continue
        if any(a <= s < b for a, b in theirs):
            continue
        s0, e0 = ctx.sentence_of(s)
        if _FIRST_PERSON_ANY.search(ctx.text[s0:e0]):
            out.append((s, e))
    return out


#: A degree the author holds ("a Bachelor's degree sparked a passion for flight").
_DEGREE = re.compile(
    r"\b(?:(?P<college>(?i:(?:bachelor|master)['’]?s(?: degree)?|(?:college|university|"
    r"undergraduate|law|nursing|engineering|business) degree|graduated from (?:college|"
    r"university))|MBA|BSc|MSc|B\.Sc\.|M\.Sc\.)"
    r"|(?P<phd>PhD|Ph\.D\.|doctorate)(?![\w-]| (?:student|candidate|program)))",
)


def _degree(ctx: DocContext, d: Draft) -> list[Finding]:
    """EDUCATION from a degree the author names (certainty 3)."""
    for s, e in author_matches(ctx, d, _DEGREE):
        if ctx.is_masked(s, e):
            continue
        value = "PhD" if _DEGREE.match(ctx.text, s).group("phd") else "College Degree"
        return [Finding("EDUCATION", value, 3, 2, [ctx.ev(s, e)], "post-degree")]
    return []


def _people_list(org: str) -> bool:
    """'Anna, Marco and Lisa' lists people: every word is mainly a first name in Faker's
    locales ('Diaz, Powell and Jarvis' are mainly surnames: a firm). All, not most: a missed
    firm hides an affiliation, so a list stays a firm unless it cannot be one."""
    if not re.search(r" (?:and|&) ", org):
        return False
    return all(leans_first(lexicons.fold(w)) for w in re.findall(r"[A-Z][\w’']+", org))


def _firm_affiliation(ctx: DocContext, d: Draft) -> list[Finding]:
    """The firm the author works at/with, from a first-person sentence (certainty 3)."""
    for m in _FIRM.finditer(ctx.text):
        s, e = m.start("org"), m.end("org")
        if ctx.is_masked(s, e):
            continue
        s0, e0 = ctx.sentence_of(s)
        if not _FIRST_PERSON_ANY.search(ctx.text[s0:e0]):
            continue
        org = m.group("org").rstrip(".")
        if lexicons.gazetteer().lookup(org) is not None or _people_list(org):
            continue
        # A partners' list is the firm's full name: it beats a truncated "at Diaz" (3).
        cert = 4 if re.search(r" (?:and|&) ", org) else 3
        return [Finding("AFFILIATION", org, cert, 2, [ctx.ev(s, s + len(org))], "post-firm")]
    return []


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    """OCCUPATION/POSITION/EDUCATION/AFFILIATION of a post author from a stated job."""
    if not d.is_author:
        return []
    text = ctx.text
    out: list[Finding] = _firm_affiliation(ctx, d) + _degree(ctx, d)
    others = _others_spans(ctx, d)
    for fm in _FRAME.finditer(text):
        s0, _ = ctx.sentence_of(fm.start())
        before = text[s0 : fm.start()]
        if fm.group(0).lower().startswith("as") and not (
            _FIRST_PERSON.search(text[s0 : min(len(text), fm.end() + 200)])
            or not before.strip(' \t"“')
        ):
            continue
        # Another person named just before the frame owns it ("Ray, as a writer, ...").
        if any(fm.start() - 25 <= me <= fm.start() for _, me in others):
            continue
        hit = _job_in_clause(text, fm.end())
        if hit is None:
            continue
        m, job = hit
        if ctx.is_masked(m.start(), m.end()):
            continue
        masked = _MASKED_JOB.search(text, fm.end(), min(len(text), fm.end() + 40))
        if masked and masked.start() < m.start():
            break
        out.extend(_findings(ctx, m.start(), m.end(), job, 3, "stated-job"))
        break
    if not any(f.tag == "OCCUPATION" for f in out):
        out.extend(_masked_job(ctx))
    for fm in _FELLOW.finditer(text):
        phrase = fm.group("job")
        _, rx = post_jobs()
        jm = rx.search(phrase)
        if jm and jm.end() == len(phrase.rstrip()):
            job = _lookup(jm.group(1))
            if job is not None:
                s = fm.start("job") + jm.start()
                out.extend(_findings(ctx, s, s + len(jm.group(0)), job, 3, "fellow-job"))
                break
    for hm in _HASHTAG.finditer(text):
        tag = hm.group("tag")
        core = _HASHTAG_TAIL.sub("", tag) or tag
        words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", core)
        for n in (3, 2, 1):
            if len(words) < n:
                continue
            job = _lookup(" ".join(words[-n:]))
            if job is not None:
                s = hm.start()
                out.extend(_findings(ctx, s, hm.end(), job, 3, "job-hashtag"))
                break
        else:
            continue
        break
    return out


def _masked_job(ctx: DocContext) -> list[Finding]:
    """ "I'm a police [DEM]" -> Police officer (certainty 2): the qualifier survives masking."""
    for fm in _FRAME.finditer(ctx.text):
        m = _MASKED_JOB.match(ctx.text, fm.end() + 1) or _MASKED_JOB.search(
            ctx.text, fm.end(), min(len(ctx.text), fm.end() + 25)
        )
        if m is None:
            continue
        label = _MASKED_HEAD[m.group("q").lower()]
        jobs, _ = post_jobs()
        edu = next((j.education for j in jobs.values() if j.occupation == label), "")
        return _findings(ctx, m.start(), m.end(), PostJob(label, edu), 2, "masked-job")
    return []
