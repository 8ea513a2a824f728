"""OCCUPATION, AFFILIATION, EDUCATION and POSITION from how English states a job, read on the
spaCy dependency parse, with job titles from the SOC-based taxonomy (``lexicons.occupations``).

Rules: ``occupation.stated`` ("I am / I'm / been a <job>", "<relative> is a <job>", "I work /
have been working as a <job>", "my life as a <non-job> and a <job>", "a student at <College>"),
``occupation.stated_weak`` ("As a <job>, I ...", "fellow <jobs>"), ``work.org`` for the
organisation after the job or the work verb ("at / for / with <Org>"),
``occupation.education_stated`` (a degree the author names, "studying <field> at
<University>"), ``occupation.rank`` (a ranked title as POSITION), ``occupation.hashtag`` and
``occupation.job_education``. The value echoes the writer's own title (``lexicons.job_label``).
"""

from __future__ import annotations

import re
from typing import Any

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.rules import rule

_BE = frozenset({"am", "'m", "’m", "m", "is", "'s", "’s", "was", "been", "be", "are", "being"})
_WORK_HEADS = frozenset(
    {
        "work",
        "works",
        "worked",
        "working",
        "employed",
        "serve",
        "serves",
        "served",
        "serving",
        "job",
        "career",
        "role",
        "position",
        "post",
        "life",
        "years",
        "decades",
        "time",
        "experience",
        "journey",
        "stint",
        "started",
        "start",
        "began",
        "hired",
        "trained",
        "qualified",
        "retired",
        "moonlighting",
    }
)
_FIRST = frozenset({"i", "me"})
_RANK = re.compile(
    r"\b(?:senior|junior|head|lead|chief|principal|deputy|assistant|associate|trainee|"
    r"apprentice|intern|manager|director|supervisor|team leader)\b",
    re.IGNORECASE,
)
_STUDY_VERBS = frozenset({"studying", "study", "studies", "studied", "enrolled", "majoring"})
_COLLEGE = re.compile(r"\b(?:University|College|Institute|Polytechnic|Academy|School of)\b")
_SCHOOL = re.compile(r"\b(?:High School|Secondary School|Grammar School|Academy)\b")
#: Words that end an organisation name read from the parse.
_ORG_STOP = frozenset({"the", "a", "an", "my", "our", "this", "that", "local"})


def _title(tok: Any) -> tuple[lexicons.Job, int, int] | None:
    """The taxonomy job named by the noun ``tok`` with its left modifiers, and the span of the
    longest title that ends at ``tok`` (character offsets)."""
    table, _ = lexicons.occupations()
    left = [c for c in tok.lefts if c.dep_ in {"compound", "amod", "nmod"} and c.i < tok.i]
    # Contiguous modifiers only: "a retired school nurse" -> school nurse, retired nurse.
    first = tok.i
    for c in sorted(left, key=lambda c: -c.i):
        sub = min(t.i for t in c.subtree)
        if max(t.i for t in c.subtree) == first - 1:
            first = sub
    doc = tok.doc
    for start in range(first, tok.i + 1):
        phrase = doc[start : tok.i + 1].text.lower()
        job = table.get(phrase) or table.get(re.sub(r"\s*-\s*", "-", phrase))
        if job is not None:
            return job, doc[start].idx, tok.idx + len(tok.text)
    return None


def _speaker(ctx: DocContext, tok: Any) -> Draft | None:
    """Who the clause of ``tok`` is about: 'I' -> the author; a mention -> its subject."""
    verb = tok.head
    while verb.dep_ in {"attr", "pobj", "prep", "conj", "acomp", "appos"} and verb.head is not verb:
        verb = verb.head
    subj = next((c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
    if subj is None:
        # "Been a nurse for ten years.", "Proud to be a teacher!": a post's author speaks.
        return next((d for d in ctx.drafts if d.is_author), None)
    if subj.text.lower() in _FIRST:
        return next((d for d in ctx.drafts if d.is_author), None)
    for d in ctx.drafts:
        for m in d.mentions:
            if m.start <= subj.idx < m.end:
                return d
    return None


def _org_words(obj: Any) -> list[Any]:
    """The tokens of an organisation name headed by ``obj``: its capitalised left modifiers and
    a coordinated or 'of' continuation ('Brook & Vale', 'Bank of Ireland')."""
    doc = obj.doc
    start = obj.i
    while start > 0 and doc[start - 1].text[:1].isupper() and doc[start - 1].head.i >= start:
        start -= 1
    end = obj.i
    while end + 1 < len(doc):
        nxt = doc[end + 1]
        if nxt.text in {"&", "and", "of", "-"} and end + 2 < len(doc):
            if doc[end + 2].text[:1].isupper():
                end += 2
                continue
            break
        if nxt.text[:1].isupper() and not nxt.is_sent_start:
            end += 1
            continue
        break
    words = list(doc[start : end + 1])
    while words and words[0].text.lower() in _ORG_STOP:
        words.pop(0)
    return words


def _employer(ctx: DocContext, tok: Any) -> tuple[str, int, int] | None:
    """'<job/work> at|for|with <Org>': the organisation's name and span."""
    for prep in tok.children:
        if prep.dep_ != "prep" or prep.text.lower() not in {"at", "for", "with"}:
            continue
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None or not obj.text[:1].isupper():
            continue
        words = _org_words(obj)
        if not words or ctx.is_masked(words[0].idx, words[-1].idx + len(words[-1].text)):
            continue
        s, e = words[0].idx, words[-1].idx + len(words[-1].text)
        name = ctx.text[s:e].strip(" ,.")
        if len(name) >= 3 and lexicons.gazetteer().lookup(name) is None:
            return name, s, s + len(name)
    return None


def _pattern(tok: Any) -> str | None:
    """The rule a job noun is in, or None ('a mom of two and a lecturer': a coordinated noun
    takes the pattern of the first)."""
    while tok.dep_ == "conj" and tok.head is not tok:
        tok = tok.head
    head = tok.head
    if tok.dep_ == "attr" and head.text.lower() in _BE:
        return "occupation.stated"
    if tok.dep_ == "pobj" and head.text.lower() == "as":
        before = head.doc[head.i - 1].text.lower() if head.i > 0 else ""
        if head.head.text.lower() in _WORK_HEADS or before in _WORK_HEADS:
            return "occupation.stated"
        if head.i == head.sent.start or (head.i > 0 and head.doc[head.i - 1].is_sent_start):
            return "occupation.stated_weak"
    if tok.dep_ in {"pobj", "dobj", "nsubj", "ROOT", "attr"} and any(
        c.dep_ == "amod" and c.text.lower() == "fellow" for c in tok.children
    ):
        return "occupation.stated_weak"
    return None


_STOP_PUNCT = frozenset({",", ".", ";", ":", "!", "?", "(", ")"})


def _coordinated_job(tok: Any) -> Any | None:
    """'as a dad of three and a part-time welder': the job noun coordinated after a non-job
    noun, read on the tokens when the parse attaches it elsewhere."""
    doc = tok.doc
    for i in range(tok.i + 1, min(len(doc), tok.i + 5)):
        if doc[i].text.lower() in {"and", "&"}:
            for j in range(i + 1, min(len(doc), i + 7)):
                if doc[j].text in _STOP_PUNCT:
                    return None
                if _title(doc[j]) is not None and (j + 1 == len(doc) or _title(doc[j + 1]) is None):
                    return doc[j]
            return None
        if doc[i].text in _STOP_PUNCT:
            return None
    return None


def _findings(ctx: DocContext, d: Draft, tok: Any, rule_id: str) -> list[Finding]:
    hit = _title(tok)
    if hit is None:
        return []
    job, s, e = hit
    if ctx.is_masked(s, e):
        return []
    ev = [ctx.ev(s, e)]
    label = lexicons.job_label(ctx.text[s:e]) or job.occupation
    out = [rule(rule_id).find(label, ev)]
    if job.education:
        out.append(rule("occupation.job_education").find(job.education, ev))
    first = min(
        (t.idx for c in tok.lefts if c.dep_ in {"amod", "compound"} for t in c.subtree), default=s
    )
    phrase = ctx.text[min(first, s) : e]
    if _RANK.search(phrase):
        out.append(rule("occupation.rank").find(phrase[:1].upper() + phrase[1:], ev))
    for anchor in (tok, tok.head.head if tok.dep_ == "pobj" else None):
        org = _employer(ctx, anchor) if anchor is not None else None
        if org is not None:
            out.append(rule("work.org").find(org[0], [ctx.ev(org[1], org[2])]))
            break
    return out


def _studying(ctx: DocContext, tok: Any) -> list[Finding]:
    """'studying nursing at Leeds University', 'a student at Riverside College'."""
    org = _employer(ctx, tok)
    if org is None:
        return []
    name, s, e = org
    level = (
        "In High School" if _SCHOOL.search(name) else "In College" if _COLLEGE.search(name) else ""
    )
    if not level:
        return []
    ev = [ctx.ev(tok.idx, tok.idx + len(tok.text)), ctx.ev(s, e)]
    return [
        rule("occupation.education_stated").find(level, ev),
        rule("occupation.stated").find("Student", ev),
        rule("work.org").find(name, [ctx.ev(s, e)]),
    ]


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


#: A degree the author holds ("my Bachelor's degree in geology").
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
        return [rule("occupation.education_stated").find(value, [ctx.ev(s, e)])]
    return []


_HASHTAG = re.compile(r"#(?P<tag>[A-Za-z][A-Za-z0-9]+)")


def _hashtag_job(ctx: DocContext) -> list[Finding]:
    """A job title inside a CamelCase hashtag ('#NurseLife', '#ProudTeacher')."""
    table, _ = lexicons.occupations()
    for m in _HASHTAG.finditer(ctx.text):
        words = [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", m.group("tag"))]
        for n in (3, 2, 1):
            for i in range(len(words) - n + 1):
                job = table.get(" ".join(words[i : i + n]))
                if job is not None and len(words[i]) > 2:
                    ev = [ctx.ev(m.start(), m.end())]
                    label = lexicons.job_label(" ".join(words[i : i + n])) or job.occupation
                    out = [rule("occupation.hashtag").find(label, ev)]
                    if job.education:
                        out.append(rule("occupation.job_education").find(job.education, ev))
                    return out
    return []


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    if d.is_author:
        out += _degree(ctx, d) + _hashtag_job(ctx)
    doc = getattr(ctx, "doc", None)
    if doc is None:
        return out
    if "occupation" not in ctx.memo:  # the same for every subject: scan the tokens once
        ctx.memo["occupation"] = _job_tokens(doc)
    for tok, rule_id in ctx.memo["occupation"]:
        if rule_id is None:
            if _speaker(ctx, tok) is d:
                out.extend(_studying(ctx, tok))
            continue
        if _speaker(ctx, tok) is not d:
            continue
        if _title(tok) is None:
            tok = _coordinated_job(tok) or tok
        out.extend(_findings(ctx, d, tok, rule_id))
    return out


def _job_tokens(doc: Any) -> list[tuple[Any, str | None]]:
    """Tokens in a job pattern with its rule id, and study words (rule id None), in order."""
    out: list[tuple[Any, str | None]] = []
    for tok in doc:
        low = tok.text.lower()
        if low in _STUDY_VERBS or (low in {"student", "students"} and tok.dep_ != "compound"):
            out.append((tok, None))
            continue
        rule_id = _pattern(tok)
        if rule_id is not None:
            out.append((tok, rule_id))
    return out
