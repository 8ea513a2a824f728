"""OCCUPATION, AFFILIATION, EDUCATION and POSITION from how English states a job, read on the
spaCy parse with SOC-based titles (``lexicons.occupations``): ``occupation.stated`` ("I am a",
"I work as a", "a <job> by trade"), ``.stated_weak`` ("As a <job>, I"), ``.does`` ("I drive a
bus"), ``.workplace`` ("I work in retail"), ``work.org`` / ``work.org_named`` (at|for|with
<Org>), ``.education_stated``, ``.rank``, ``.hashtag``, ``.job_education``."""

from __future__ import annotations

import functools
import re
from typing import Any

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.attributes import FIRST_PERSON_ANY, author_matches, work
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.mentions import firm_like
from spia_core.adversary.local.patterns import GREETED
from spia_core.adversary.local.rules import rule

_CUES = lexicons.subject_cues("attribute_cues.tsv")

_RANK = re.compile(rf"\b(?:{lexicons.alternation('rank_word')})\b", re.IGNORECASE)
_COLLEGE = re.compile(r"\b(?:University|College|Institute|Polytechnic|Academy|School of)\b")
_SCHOOL = re.compile(r"\b(?:High School|Secondary School|Grammar School|Academy)\b")
#: The rest of a firm named after its partners: "Pollard[, Ngata and Vance]", "Lee[, Ross & Co]".
_PARTNERS = re.compile(r"(?:,\s*[A-Z][\w'’-]+)+,?\s+(?:and|&)\s+[A-Z][\w'’-]+")

#: An agent noun: someone who does something (adjuster, curator, florist, librarian...).
_AGENT = re.compile(r"(?:er|or|ist|ian|ant|ent|man|woman|eer|ee|ier)s?$")
_words = lexicons.work_words  # a kind of work_words.tsv (not_kind, org_heads, position_heads...)
_BUILD = _words("software_verbs")  # "I deploy / maintain / wrote <software>"


@functools.cache
def _generic_heads() -> frozenset[str]:
    """Heads of 3+ taxonomy titles (engineer, worker): they need modifiers ('sound engineer')."""
    counts: dict[str, int] = {}
    for row in lexicons._read_tsv("occupation_taxonomy.tsv"):
        for title in {t.strip().lower() for t in [row[2], *row[4].split("|")] if t.strip()}:
            counts[title.split()[-1]] = counts.get(title.split()[-1], 0) + 1
    return frozenset(w for w, n in counts.items() if n >= 3)


def _modifiers(tok: Any) -> int:
    """Index of the first of the modifiers left of ``tok`` ('a retired school nurse': retired)."""
    first = tok.i
    left = [c for c in tok.lefts if c.dep_ in {"compound", "amod", "nmod"} and c.i < tok.i]
    for c in sorted(left, key=lambda c: -c.i):
        if max(t.i for t in c.subtree) == first - 1:
            first = min(t.i for t in c.subtree)
    return first


def _title(
    tok: Any, *, any_agent: bool = False
) -> tuple[str, lexicons.Job | None, int, int] | None:
    """(label, job or None, start, end): the longest taxonomy title ending at ``tok``, widened
    by a generic head's modifiers ('sound engineer'); ``any_agent``: any agent noun counts."""
    table, _ = lexicons.occupations()
    doc, first = tok.doc, _modifiers(tok)
    end = tok.idx + len(tok.text)
    hit = None
    for start in range(first, tok.i + 1):
        phrase = doc[start : tok.i + 1].text.lower()
        if (job := table.get(phrase) or table.get(re.sub(r"\s*-\s*", "-", phrase))) is not None:
            hit = (job, start)
            break
    generic = tok.text.lower().rstrip("s") in _generic_heads()
    agent = any_agent and _AGENT.search(tok.text.lower()) and tok.text.islower()
    nouns = any(t.dep_ == "compound" for t in doc[first : tok.i])  # not "the registered owner"
    if hit is None and not ((generic and nouns) or agent):
        return None
    job, start = hit if hit is not None else (None, tok.i)
    if job is None or generic:
        while start > first and doc[start - 1].text.lower() not in _words("not_kind"):
            word = doc[start - 1].text
            if not re.fullmatch(r"[A-Za-z][\w-]*", word) or (word.istitle() and start - 1 > 0):
                break  # "the County Authority housing officer": a name is no part of the job
            start -= 1
    phrase = doc[start : tok.i + 1].text
    label = lexicons.job_label(phrase) or work.job_position(phrase)
    if any(t.lower_ == "retired" for t in doc[first : tok.i]):  # an annotator's "Retired teacher"
        label = work.retired(label)
    return label, job, doc[start].idx, end


def _speaker(ctx: DocContext, tok: Any) -> Draft | None:
    """Who the clause of ``tok`` is about: 'I' -> the author; a mention -> its subject (found
    once per token: every subject asks about every job word)."""
    memo = ctx.memo.setdefault("speaker", {})
    return memo[tok.i] if tok.i in memo else memo.setdefault(tok.i, _clause_subject(ctx, tok))


_THIRD_VERB = re.compile(r"(?!was\b)[a-z]*[^s']s")  # 'is', 'has', 'works': no 'I' as its subject
_CLIMB = {"attr", "pobj", "prep", "conj", "acomp", "appos", "xcomp", "advcl"}  # "X used to be"


def _clause_subject(ctx: DocContext, tok: Any) -> Draft | None:
    verb = tok if any(c.dep_ == "nsubj" for c in tok.children) else tok.head  # "he joined X"
    while verb.dep_ in _CLIMB and verb.head is not verb:
        if verb.dep_ in {"conj", "advcl"} and any(c.dep_ == "nsubj" for c in verb.children):
            break  # "I teach and my husband is a mechanic": the second clause has its own subject
        verb = verb.head
    if "relcl" in (verb.dep_, tok.dep_):  # "my wife, who teaches / works as": the noun's
        return _named(ctx, (tok if tok.dep_ == "relcl" else verb).head)
    subj = next((c for c in verb.children if c.dep_.startswith("nsubj") and _line(c, verb)), None)
    aux = [verb.lower_, *(c.lower_ for c in verb.children if c.dep_ == "aux")]  # "is training"
    if subj is None and any(map(_THIRD_VERB.fullmatch, aux)) and (h := _pronoun_holder(ctx, tok)):
        return h  # no 'I': "My aunt works at X" ('works' a noun), "Ann, who ..., is training as"
    if subj is None or subj.lower_ in {"i", "me", "we"}:  # "Been a nurse for ten years."
        return (subj and _named(ctx, subj)) or next((d for d in ctx.drafts if d.is_author), None)
    if subj.text.lower() == "you":  # a letter's "you have been a driver": the greeted addressee
        greeted = (
            d for d in ctx.drafts if "recipient" in d.roles or GREETED.search(ctx.text, 0, d.first)
        )
        return next(greeted, None)
    if subj.lower_ in {"he", "she"}:  # "She worked as a conductor": whose pronoun stretch it is
        return _pronoun_holder(ctx, subj)
    appos = next((c for c in subj.children if c.dep_ == "appos"), subj)  # "My friend Ann Lee"
    return _named(ctx, subj) or _named(ctx, appos)


def _pronoun_holder(ctx: DocContext, tok: Any) -> Draft | None:  # latest stretch, no 'I' after
    at = [(g.start, d) for d in ctx.drafts for g in ctx.segs(d) if g.start <= tok.idx < g.end]
    s, d = max(at, key=lambda x: x[0], default=(0, None))
    mine = d is None or d.is_author or FIRST_PERSON_ANY.search(ctx.text, s + 1, tok.idx)
    return None if mine else d


def _line(a: Any, b: Any) -> bool:
    """Two tokens on one line ("Dear Ms Okafor,\n\nI have ...": no subject of the next line)."""
    return "\n" not in a.doc[min(a.i, b.i) : max(a.i, b.i)].text_with_ws


def _named(ctx: DocContext, tok: Any) -> Draft | None:
    """The subject one of whose mentions holds the token ``tok`` (an offset index built once)."""
    if "mention_at" not in ctx.memo:  # the first subject's mention wins, as in text order
        ms = [(m, d) for d in ctx.drafts[::-1] for m in d.mentions[::-1]]
        ctx.memo["mention_at"] = {i: d for m, d in ms for i in range(m.start, m.end)}
    return ctx.memo["mention_at"].get(tok.idx)


def _org_words(obj: Any) -> list[Any]:
    """The tokens of an organisation name headed by ``obj`` ('Brook & Vale', 'Bank of Ireland')."""
    doc, start, end = obj.doc, obj.i, obj.i
    while start > 0 and doc[start - 1].text[:1].isupper() and doc[start - 1].head.i >= start:
        start -= 1
    while end + 1 < len(doc):
        nxt = doc[end + 1]
        if nxt.text in {"&", "and", "of", "-"} and end + 2 < len(doc):
            if doc[end + 2].text[:1].isupper():
                end += 2
                continue
            break
        if nxt.text[:1].isupper() and not nxt.is_sent_start and nxt.text != "I":  # "X I'm"
            end += 1
            continue
        break
    words = list(doc[start : end + 1])
    while words and words[0].lower_ in _words("org_stop"):
        words.pop(0)
    return words


def _org_at(ctx: DocContext, obj: Any) -> tuple[str, int, int] | None:
    """The ORG/FAC entity (else capitalised words) from ``obj`` on; not places, masks, people."""
    shop = next((c for c in obj.children if c.dep_ == "case"), None)  # "at Fairfield's"
    if not obj.text[:1].isupper():  # "joining the University of Arden's health centre"
        obj = next((c for c in obj.children if c.dep_ == "poss" and c.text[:1].isupper()), obj)
    partners = _PARTNERS.match(ctx.text, obj.idx + len(obj.text))
    firm = partners is not None and ("&" in partners[0] or firm_like(obj.text + partners[0]))
    if not obj.text[:1].isupper() or (not firm and _named(ctx, obj) is not None):
        return None
    ent = next((x for x in ctx.ents if x[0] <= obj.idx < x[1] and x[2] in {"ORG", "FAC"}), None)
    if ent is not None:
        s, e = ent[0], ent[1]
    else:
        if not (words := _org_words(obj)):
            return None
        s, e = words[0].idx, words[-1].idx + len(words[-1].text)
    e = max(e, partners.end() if firm else e, shop.idx + len(shop.text) if shop else e)
    if ctx.is_masked(s, e):
        return None
    name = re.sub(r"^(?:the|The)\s+", "", ctx.text[s:e].strip(" ,."))
    name = name if shop else re.sub(r"['’]s?$", "", name)
    if len(name) < 3 or (shop is None and lexicons.gazetteer().lookup(name) is not None):
        return None
    return name, e - len(name), e


def _employer(ctx: DocContext, tok: Any) -> tuple[str, int, int] | None:
    """'<job/work> at|for|with <Org>': the organisation's name and span."""
    for prep in tok.children:
        if prep.dep_ != "prep" or prep.text.lower() not in {"at", "for", "with"}:
            continue
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if (org := _org_at(ctx, obj) if obj is not None else None) is not None:
            return org
    return None


#: Words whose 'at / for / with <Org>' names where one works.
_ORG_HEADS = _words("work_heads") | _words("org_heads")
#: Words after which 'as a <noun>' states a job ("I work as", "my first week as a nurse").
_AS_HEADS = _words("work_heads") | _words("stint_heads")
#: What a firm did for its customer: "... for fixing my boiler", "..., they sorted our roof".
_SERVED = re.compile(r"[^.!?]*?\b(?:for|they|who)\s+\w+(?:ed|ing)\s+(?:\w+\s+)?(?:my|our|me|us)\b")


def _affiliations(ctx: DocContext, d: Draft, tok: Any) -> list[Finding]:
    """AFFILIATION from 'I joined <Org>', '<work word / job verb> at|for|with <Org>'."""
    joined = tok.lower_ in {"joined", "join", "joining"}
    preps = {"at", "for", "with"} | ({"of"} if tok.head.lower_ in _words("member_heads") else set())
    if not joined and (tok.lower_ not in preps or tok.dep_ != "prep"):  # "a member of X"
        return []
    obj = next((c for c in tok.children if c.dep_ == ("dobj" if joined else "pobj")), None)
    head = tok if joined else tok.nbor(-1) if tok.i and tok.nbor(-1).text == "Here" else tok.head
    if head.dep_ in {"dobj", "npadvmod"} and head.text.lower() not in _ORG_HEADS:
        head = head.head  # "I teach maths at X": the verb's
    if (org := _org_at(ctx, obj) if obj is not None else None) is None or org[1] < tok.idx:
        return []  # "from Pets at Home": the 'at' is in the name
    if {t.lower_ for t in tok.doc[max(0, tok.i - 3) : tok.i]} & {"old", "former", "previous"}:
        return []  # "my old team at X": no more
    if not (head.text.lower() in _ORG_HEADS or _agent_of(head.text)):
        # "everyone at Kestrel Print Studio": where the author works, as a weak guess
        named = org[0].split()[-1].lower() in _words("org_words") or ctx.is_org(org[1], org[1] + 1)
        served = _SERVED.match(ctx.text, org[2], ctx.sentence_of(org[1])[1])
        if served or not (d.is_author and named and _speaker(ctx, head) is d):
            return []  # "thanks to everyone at X for fixing my car": a customer's
        return [rule("work.org_named").find(org[0], [ctx.ev(org[1], org[2])])]
    poss = next((c for c in head.children if c.dep_ == "poss"), head)  # "her team at X"
    theirs = poss.lower_ in {"his", "her"} and _pronoun_holder(ctx, poss) is d
    kin = any(m.start == poss.idx for o in ctx.drafts if not o.is_author for m in o.mentions)
    mine = d.is_author and poss.lower_ in {"my", "our"} and not kin  # not "My aunt works at X"
    if not (mine or theirs) and _speaker(ctx, head) is not d:
        return []
    return [rule("work.org").find(org[0], [ctx.ev(org[1], org[2])], certainty=3)]


def _pattern(tok: Any) -> str | None:
    """The rule a job noun is in, or None (a coordinated noun takes the pattern of the first)."""
    while tok.dep_ == "conj" and tok.head is not tok:
        tok = tok.head
    head = tok.head
    if (  # "there are three nurses": not a job
        tok.dep_ == "attr"
        and head.lower_ in _words("copula")
        and not any(c.dep_ == "expl" for c in head.children)
    ):
        return "occupation.stated"
    made = head.head if tok.dep_ == "pobj" and head.text.lower() in {"to", "as"} else head
    if (tok.dep_ in {"pobj", "xcomp", "oprd"}) and made.lower_ in _words("made"):
        return "occupation.stated"  # "promoted to team leader", "appointed chair of X"
    if tok.dep_ == "pobj" and head.text.lower() == "as":
        before = head.doc[head.i - 1].text.lower() if head.i > 0 else ""
        masked = before == "]" and head.doc[head.i - 2].text == "DATETIME"  # "[DATETIME] as a"
        if head.head.lower_ in _AS_HEADS or before in _AS_HEADS or masked:
            return "occupation.stated"
        if head.i == head.sent.start or (head.i > 0 and head.doc[head.i - 1].is_sent_start):
            return "occupation.stated_weak"
    if tok.dep_ in {"pobj", "dobj", "nsubj", "ROOT", "attr"} and any(  # "fellow nurses"
        c.dep_ == "amod" and c.text.lower() == "fellow" for c in tok.children
    ):
        return "occupation.stated_weak"
    other = tok.dep_ in {"dobj", "pobj"} or (tok.dep_ == "appos" and len(head.text) > 1)
    kids = list(tok.children) if not other and tok.lower_ in lexicons.occupations()[0] else []
    spent = [c for c in kids if c.lower_ in {"years", "decades"} and c.dep_ != "compound"]
    spent += [g for c in kids if c.lower_ == "for" for g in c.children if g.lower_ in _LONG]
    if spent:  # "52M, welder for 20 years", "thirty years a postie"; not "my uncle, a welder"
        return "occupation.stated"
    lo, hi = sorted((tok.i, head.i))  # "Ann Lee, Supervisor\n\nPupils involved": two lines
    if "\n" in tok.doc[lo:hi].text_with_ws:  # (doc.text would rebuild the whole text)
        return None
    if tok.dep_ == "appos" or (tok.dep_ == "compound" and tok.text.islower() and tok.head.is_title):
        # "Nadia Rahman, pharmacist", "my neighbour, a fire officer", "local baker Priya Raman"
        return "occupation.apposition"
    return None


_STOP_PUNCT = frozenset({",", ".", ";", ":", "!", "?", "(", ")"})


def _coordinated_job(tok: Any) -> Any | None:
    """The job noun coordinated after a non-job noun ('as a dad of three and a welder')."""
    doc = tok.doc
    for i in range(tok.i + 1, min(len(doc), tok.i + 5)):
        if doc[i].text.lower() in {"and", "&"}:
            for j in range(i + 1, min(len(doc), i + 7)):
                if doc[j].text in _STOP_PUNCT or doc[j].dep_[:5] in ("nsubj", "prep"):
                    return None
                if _title(doc[j]) is not None and (j + 1 == len(doc) or _title(doc[j + 1]) is None):
                    return doc[j]
            return None
        if doc[i].text in _STOP_PUNCT:
            return None
    return None


_TITLE_CASE = re.compile(r"[A-Z][\w-]*(?: (?:of|and|&|the|[A-Z][\w-]*))+")  # "Head of Sales"


def _position(ctx: DocContext, tok: Any, rule_id: str = "") -> list[Finding]:
    """POSITION = the post a stated noun names: 'the head of marketing', 'team leader'; with
    a title in capitals, the OCCUPATION too; and the employer named after it."""
    if tok.text.lower() not in _words("position_heads"):
        return []
    doc = tok.doc
    start, end = _modifiers(tok), tok.i
    of = next((c for c in tok.children if c.dep_ == "prep" and c.text.lower() == "of"), None)
    if of is not None:
        end = max(t.i for t in of.subtree)
    words = doc[start : end + 1]
    s, e = words[0].idx, words[-1].idx + len(words[-1].text)
    if ctx.is_masked(s, e) or end - start > 6:
        return []
    phrase, ev = ctx.text[s:e], [ctx.ev(s, e)]
    out = [rule("occupation.position_stated").find(lexicons.capitalised(phrase), ev)]
    title = re.split(r" (?:at|for|with|in) ", phrase)[0]  # "Head of Data at Tidewell": a job
    if rule_id == "occupation.stated" and of is not None and _TITLE_CASE.fullmatch(title):
        out.append(rule(rule_id).find(title, ev, certainty=3 if _held_before(tok) else None))
    ups = [c for c in of.children if c.dep_ == "pobj"] if of else []  # "Head of Data at X"
    for anchor in [tok, *ups, *([tok.head.head] if tok.dep_ == "pobj" else [])]:  # "a role as"
        if (org := _employer(ctx, anchor)) is not None:
            return [*out, rule("work.org").find(org[0], [ctx.ev(org[1], org[2])])]
    return out


def _findings(ctx: DocContext, d: Draft, tok: Any, rule_id: str) -> list[Finding]:
    if (hit := _title(tok, any_agent=_after_work_verb(tok))) is None:
        return _position(ctx, tok, rule_id)
    label, job, s, e = hit
    if tok.lower_ in _words("owner_role") and any(c.lower_ == "the" for c in tok.children):
        return []  # "I am the landlord of 3 Elm Row": a part in the story, no job
    bracketed = ctx.text[s - 1 : s] == "("  # (text[s - 1] would read the last character at 0)
    hoped = _CUES["not_held_before"].search(ctx.text, max(0, s - 40), s)  # "hope to be a vet"
    hoped = hoped or _CUES["club_post"].search(ctx.text[max(0, s - 40) : e])  # "Club Secretary"
    if ctx.is_masked(s, e) or not work.job_used_as_job(ctx.text, s, e) or bracketed or hoped:
        return []  # "named Shopkeeper of the Year": an award; "Jo Bell (treasurer)": a post
    ev, before = [ctx.ev(s, e)], rule_id == "occupation.stated" and _held_before(tok)
    training = re.search(r"\bto (?:re)?train as an? $", ctx.text[max(0, s - 20) : s])  # to be
    out = [rule(rule_id).find(label, ev, certainty=2 if training else 3 if before else None)]
    if job is not None and job.education:
        out.append(rule("occupation.job_education").find(job.education, ev))
    phrase = ctx.text[min(tok.doc[_modifiers(tok)].idx, s) : e]
    if _RANK.search(phrase):
        out.append(rule("occupation.rank").find(lexicons.capitalised(phrase), ev))
    for anchor in (tok, tok.head.head if tok.dep_ == "pobj" else None):
        if (org := _employer(ctx, anchor) if anchor is not None else None) is not None:
            out.append(rule("work.org").find(org[0], [ctx.ev(org[1], org[2])]))
            break
    return out


def _held_before(tok: Any) -> bool:
    """'I was a postman', 'I used to be a cook', 'I worked as a sweep': a job held before ranks
    below one held now ('I've worked as', 'I'm')."""
    verb = tok.head.head if tok.dep_ == "pobj" else tok.head
    up = verb.head.lower_ if verb.dep_ == "xcomp" else ""  # "used to be a cook"
    aux = {c.lower_ for c in verb.children if c.dep_ == "aux"} | {up}
    held = verb.lower_ in _words("held_before") and not aux & _words("have")
    return held or "used" in aux or work.AGO.search(tok.sent.text) is not None  # "years ago, as"


def _after_work_verb(tok: Any) -> bool:
    """'I work as a <tok>', 'my job as a <tok>': any agent noun there is a job."""
    by = {c.lower_ for p in tok.children if p.lower_ == "by" for c in p.children}
    if by & {"trade", "profession", "training"}:
        return True  # "a glassblower by trade"
    heads = _words("work_heads") - {"life", "time", "journey"}
    return tok.dep_ == "pobj" and tok.head.lower_ == "as" and tok.head.head.lower_ in heads


def _studying(ctx: DocContext, tok: Any) -> list[Finding]:
    """'studying nursing at Leeds University', 'a student at Riverside College'."""
    if (org := _employer(ctx, tok)) is None:
        return []
    name, s, e = org
    level = "In High School" if _SCHOOL.search(name) else "In College"
    if level == "In College" and not _COLLEGE.search(name):
        return []
    ev = [ctx.ev(tok.idx, tok.idx + len(tok.text)), ctx.ev(s, e)]
    edu, job = rule("occupation.education_stated").find(level, ev), rule("occupation.stated")
    return [edu, job.find("Student", ev), rule("work.org").find(name, ev[1:])]


@functools.cache  # asked for every token of a text
def _agent_of(verb: str, obj: str = "", bare: bool = False) -> str:
    """The taxonomy title of a verb's agent noun ('welds', 'welded' -> 'welder'), led by the
    verb's object where the taxonomy has that ('drove' + 'taxi' -> 'taxi driver', 'install' +
    'drywall' -> 'drywall installer'; with no object, a head of titles: 'installer'), or ''."""
    if (v := verb.lower()) in _words("past_lookalikes"):
        return ""
    v = lexicons.word_map("past_irregular").get(v, v)  # 'drove' -> 'drive'
    if bare:  # said with no object: 'welding', 'farmed', 'nursed' -> welder, farmer, nurse
        s = re.sub(r"(?:ing|ed)$", "", v)
        forms = [_agent_of(f) or f for f in (s, s + "e", s[:-1]) if s != verb.lower()]
        return next((t for t in forms if t in lexicons.occupations()[0]), "")
    ends = [v[:-2], v[:-1]] if v.endswith(("es", "ed")) else [v[:-1]] if v.endswith("s") else []
    for stem in (s for s in [v, *ends] if len(s) > 2):
        for agent in (stem + "er", stem + "r", stem + "or", stem[:-1] + "or", stem[:-1] + "ist"):
            for title in (f"{obj} {agent}", f"{obj[:-1]} {agent}", agent) if obj else [agent]:
                if title in lexicons.occupations()[0] or (not obj and agent in _generic_heads()):
                    return title
    return ""


def _field_agent(m: re.Match[str]) -> str:
    """The job whose agent noun a field of work names ('energy engineering' -> Energy engineer,
    'dentistry' -> Dentist) when the taxonomy knows that noun, else ''."""
    *mod, field = (m["p"] or m["q"]).lower().split()
    base = field[: -3 if field.endswith(("ing", "ism")) else -2 if field.endswith("ry") else -1]
    known = [a for a in (base, base + "er", base + "e", base + "ist", base + "or") if len(base) > 3]
    agent = next((a for a in known if a in lexicons.occupations()[0]), "")
    if not agent or not (m["q"] or m["of"] or m["in"] == "in") or agent in _words("pastimes"):
        return ""  # "at the building": no field; "years of gardening": a pastime as often
    return lexicons.job_label(" ".join([*mod, agent])) or " ".join([*mod, agent]).capitalize()


_CLAUSES = {"conj", "ccomp", "xcomp", "advcl", "relcl"}  # another clause's words
_NOT_DOING = {"aux", "auxpass", "neg", "xcomp", "prt"}  # "will drive", "picks the kids up"
_PAST = lexicons.words("past_irregular")
#: What makes a past deed work: "for 20 years", "for a living", "all her life", "until he retired".
_HOW, _LONG = {"prep", "npadvmod", "advcl"}, _words("how_long")


def _does(ctx: DocContext, d: Draft, verb: Any) -> list[Finding]:
    """'I teach chemistry', 'She welds pipes': a verb and object whose agent is a job title."""
    if not verb.text.isalpha() or verb.dep_ not in {"ROOT", "conj", "ccomp", "advcl", "relcl"}:
        return []
    kids = list(verb.children)
    subj = next((c for c in kids if c.dep_ == "nsubj"), None)
    at = [c for p in kids if p.lower_ == "at" for c in p.children if c.dep_ == "pobj"]
    obj = next((c for c in kids if c.dep_ == "dobj"), None)
    obj = obj or (None if verb.lower_ in _words("object_needed") else next(iter(at), None))
    if subj is None or (obj is not None and obj.text.lower() in _words("no_work_object")):
        return []
    o = obj or verb  # "I've been welding for six years": no object, a how-long phrase below
    owner = verb.lower_ in _words("run_verbs") and o.lower_ in _words("business_nouns")
    own = any(c.dep_ == "poss" for c in o.children) and not owner  # "I drive my kids": no job
    aux = {"have", "'ve", "has", "had", "been", "am", "'m", "is", "was"} if o is verb else set()
    if own or any(c.dep_ in _NOT_DOING and c.lower_ not in aux for c in kids) or verb.i < subj.i:
        return []
    agent = "owner" if owner else _agent_of(verb.text, o.lower_ if obj else "", bare=not obj)
    mine = {"i", "we"} if owner else {"i"}  # "we run a café"; "my gran ran a shop": hers
    past = o is verb or verb.lower_ in _PAST or re.search(r"[^e]ed$", verb.lower_) is not None
    how = [t.lower_ for c in (*kids, *o.children) if c.dep_ in _HOW for t in (c, *c.children)]
    long = _LONG.intersection(how)
    said = verb.lower_.endswith("s") or past  # "they teach": no job
    s, e = subj.idx, o.idx + len(o.text)
    if (past and not (long or owner)) or (subj.lower_ not in mine and not said) or not agent:
        return []  # "I baked a cake"; "my dad drove a taxi for years" is a job
    clause = (t for c in kids if c.dep_ not in _CLAUSES for t in c.subtree if t.dep_ != "compound")
    chore = not long and any(t.lower_ in _words("once_a_week") for t in clause)  # "every Sunday"
    if chore or ctx.is_masked(s, e) or _speaker(ctx, subj) is not d:
        return []  # "I clean the bathroom every Sunday": a chore
    label = f"{o.lower_} owner" if owner else agent
    pastime = (o.dep_ == "pobj" or past) and agent in _words("pastimes")  # "baked for years"
    pastime |= o.dep_ == "pobj" and not o.text.islower()
    if pastime or label in _words("position_heads"):
        return []  # "I swim at the pool"; "I manage four flats" (a post), not "a hotel manager"
    at_work = {c.lower_ for c in at} - {"home", "night", "weekends"}
    cert = 4 if long & {"living", "trade"} else 3 if at_work or long else None
    ev, label = [ctx.ev(verb.idx, e)], lexicons.job_label(label) or label.capitalize()
    return [rule("occupation.does").find(label, ev, certainty=cert)]


def _builds(ctx: DocContext, d: Draft, verb: Any) -> list[Finding]:
    """'I deploy the booking app', 'the viewer we maintain': the writer builds or runs software."""
    kids = {c.dep_: c for c in verb.children}
    obj = kids.get("dobj", verb.head if verb.dep_ == "relcl" else None)  # "the app we maintain"
    if obj is None or kids.get("nsubj", verb).lower_ not in {"i", "we"} or not d.is_author:
        return []
    obj = next((t for t in [obj, *obj.rights] if work.software(t)), obj)  # "booking portal": amod
    s, e = min(kids["nsubj"].idx, obj.left_edge.idx), max(verb.idx + len(verb), obj.idx + len(obj))
    if (job := work.software(obj)) in {"", "-"} or "my" in {c.lower_ for c in obj.children}:
        return []  # "I built my own website": a pastime as often
    return [] if ctx.is_masked(s, e) else [rule("occupation.builds").find(job, [ctx.ev(s, e)])]


def _field_title(field: str) -> str:
    """The job a profile field names ('Lead land surveyor' -> 'Land surveyor'), or a title-case
    field ending in a post or a head of several titles ('HR Business Partner'); else ''."""
    words = field.split()
    for i in range(len(words)):
        job, singular = lexicons._titles().get(key := " ".join(words[i:]).lower(), (None, key))
        if job is None:
            continue
        if key != singular or any(w.lower() in _words("function") for w in words[:i]):
            return ""  # a firm ('Hale Surveyors') or a sentence ('As a wedding planner, I')
        kind = [w for w in words[:i] if w.lower() not in _words("not_kind")]
        if words[-1].lower().rstrip("s") not in _generic_heads() or len(kind) > 2:
            kind = []
        return lexicons.capitalised(" ".join(kind + words[i:]))
    low = [w.lower() for w in words]
    if len(words) > 4 or not all(w[:1].isupper() for w in words) or set(low) & _words("function"):
        return ""
    return field if low[-1] in _generic_heads() | _words("position_heads") else ""


def _profile(ctx: DocContext, d: Draft) -> list[Finding]:
    """Job, rank and employer in a profile field of the first or last three lines ("Kofi | X")."""
    lines = ctx.text.split("\n")
    head, tail = len("\n".join(lines[:3])), len(ctx.text) - len("\n".join(lines[-3:]))
    for m in _CUES["field"].finditer(ctx.text):
        s, e = m.span("title")
        names = (x for o in ctx.drafts for x in o.mentions if x.kind == "name")
        if head < m.start() < tail or any(x.start < e <= x.end for x in names):
            continue  # "Best,\nAnna Baker": a name ends no job title
        if not (hit := _field_title(m.group("title"))) or ctx.is_masked(s, e):
            continue
        ev, post = [ctx.ev(s, e)], _CUES["club_post"].search(m["title"])  # "Club Secretary"
        out = [rule("occupation.position_stated" if post else "occupation.profile").find(hit, ev)]
        if rank := next((p for p in m.group("title").split(" - ") if _RANK.search(p)), None):
            out.append(rule("occupation.rank").find(rank, ev))  # "Jo - Senior Pharmacist"
        org, o = (m.group("org") or "").strip(), m.start("org")
        if org and not ctx.is_masked(o, o + len(org)):
            out.append(rule("work.org").find(org, [ctx.ev(o, o + len(org))]))
        return out
    return []


_THIRD = re.compile(r"\b(?:his|her|their)\b", re.I)
_I_WE = re.compile(r"\b(?:I|[Ww]e)\b")


@functools.cache
def _education_cues() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(value, pattern) rows of ``education_cues.tsv``, in precedence order."""
    rows = lexicons._read_tsv("education_cues.tsv")
    return tuple((r[0], re.compile(r[2], re.IGNORECASE if r[1] == "i" else 0)) for r in rows)


def _degree(ctx: DocContext, d: Draft) -> list[Finding]:
    """EDUCATION: the first row of ``education_cues.tsv`` matching the person's own text."""
    for value, rx in _education_cues():
        for s, e in author_matches(ctx, d, rx):
            if not ctx.is_masked(s, e) and not (d.is_author and _THIRD.search(ctx.text, s, e)):
                ev = [ctx.ev(s, e)]  # "in my second year of a nursing degree": a student too
                out = [rule("occupation.education_stated").find(value, ev)]
                now = value[:3] == "In " and not work.AGO.search(ctx.text, *ctx.sentence_of(s))
                return out + [rule("occupation.stated").find("Student", ev)] * now  # not 'ago'
    return []


#: Where a post's author tags themself: a CamelCase hashtag ('#NurseLife'), a compound handle
#: in a post header ("@chef_marta :", "Seller Name: NurseGreta |", "TomPlumber48 :").
_TAGS = {
    "occupation.hashtag": re.compile(r"#(?P<h>[A-Za-z][A-Za-z0-9]+)(?P<h2>)"),
    "work.handle": _CUES["work_handle"],
}
_A = "|".join(_words("tag_affixes"))  # words glued to a job in a hashtag ('#proudnurse')
_TAG_AFFIX = re.compile(rf"^(?:{_A})(?=[a-z]{{4}})|(?<=[a-z]{{4}})(?:{_A})$")


def _tagged_job(ctx: DocContext) -> list[Finding]:
    """A job title inside the author's hashtag or handle ('#ProudTeacher', 'TomPlumber48')."""
    table, out = lexicons.occupations()[0], []
    for rule_id, rx in _TAGS.items():
        for m in rx.finditer(ctx.text if rule_id == "occupation.hashtag" else ctx.text[:300]):
            key = "h" if m["h"] else "h2"
            if rule_id == "work.handle" and not re.search(r"[a-z][A-Z]|\d|_", m[key]):
                continue  # a plain word before a colon ("Update:") is no handle
            words = [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", m[key])]
            words = _TAG_AFFIX.sub(r" \g<0> ", " ".join(words)).split()  # '#nurselife'
            cut = [words[i : i + n] for n in (3, 2, 1) for i in range(len(words) - n + 1)]
            hits = (" ".join(w) for w in cut if len(w[0]) > 2 and " ".join(w) in table)
            if phrase := next(hits, ""):
                job, ev = table[phrase], [ctx.ev(m.start(key), m.end(key))]
                out.append(rule(rule_id).find(lexicons.job_label(phrase) or job.occupation, ev))
                if job.education:
                    out.append(rule("occupation.job_education").find(job.education, ev))
                break
    return out


_POST = _CUES["post"]


def _posts(ctx: DocContext, d: Draft) -> list[Finding]:
    """The author's post from the team they lead or the job they got (position_stated)."""
    for s, e in author_matches(ctx, d, _POST):
        m = _POST.match(ctx.text, s)
        post = m["p"] or f"{m['n']} {lexicons.word_map('team_verb')[m['v']]}"
        if not ctx.is_masked(s, e) and post.split()[-1].lower() in _words("position_heads"):
            post, ev = lexicons.capitalised(post), [ctx.ev(s, e)]
            return [rule("occupation.position_stated").find(post, ev)]
    return []


#: "I work in retail", "ten years in accounting", "my shift at the bakery", "I run a bakery".
_AT_WORK = (
    r"\b(?:(?:(?:I|I['’]ve|I['’]m|I have|we|we['’]ve){1}(?: \w+){{0,2}}? work(?:s|ed|ing)?|years?|"
    r"decades?|careers?|stint|jobs?|colleagues|co-?workers|boss|(?:my|our) (?:shift|job)s?)"
    r" (?P<in>in|at|for)|(?P<of>(?:year|decade)s?(?: of)?)|(?P<own>(?:I|we) (?:\w+ )?(?:run|own|"
    r"opened)))(?: (?:a|an|the|our|my|this))?(?: (?:local|small|big|busy|large|nearby|new|same|"
    r"little|family))? (?P<p>{0})\b(?!\s+(?:of|degree|course|student|school|college|class)s?\b|"
    rf"(?:[\s-]+[\w-]+){{{{0,2}}}}?[\s-]+(?:{lexicons.alternation('software_artefact')})\b)|"
    r"\b(?P<q>{0}) (?:is|has been|was) (?:what pays the bills|my (?:day )?job)"
)


@functools.cache
def _any_workplace(at_work: str) -> re.Pattern[str]:
    """``at_work`` with every row of ``work_places.tsv`` at once: it matches where a row does."""
    rows = lexicons._read_tsv("work_places.tsv")
    return re.compile(at_work.format("|".join(f"(?:{r[0]})" for r in rows)), re.I)


def _workplace(ctx: DocContext, d: Draft) -> list[Finding]:
    """The job a field or workplace the person works in implies (``work_places.tsv``; its row
    '*' is any field whose agent noun is a job: 'proofreading is my day job')."""
    at_work = _AT_WORK.replace("{1}", "" if d.is_author else "?")  # "my son works in retail"
    texts = [ctx.text] if d.is_author else [ctx.text[g.start : g.end] for g in ctx.segs(d)]
    if not any(map(_any_workplace(at_work).search, texts)):
        return []  # what every row matches: none of them can (one scan instead of one a row)
    for rx, label, certainty in lexicons.cue_table("work_places.tsv", re.I, at_work):
        for s, e in author_matches(ctx, d, rx):
            m = rx.match(ctx.text, s)
            said = d.is_author or not _I_WE.search(ctx.text, *ctx.sentence_of(s))  # 'I' speaks
            if ctx.is_masked(s, e) or m is None or (m["of"] and certainty < 3) or not said:
                continue  # "ten years of school": no workplace
            job = _field_agent(m) if label == "*" else label
            job = f"{m['p'].capitalize()} owner" if m["own"] and certainty < 3 else job
            if job:  # "I run a little bakery" -> Bakery owner
                return [rule("occupation.workplace").find(job, [ctx.ev(s, e)], certainty=certainty)]
    return []


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    if d.is_author:
        out += _tagged_job(ctx) + _profile(ctx, d) + _posts(ctx, d)
    out += _degree(ctx, d) + _workplace(ctx, d)
    if (doc := getattr(ctx, "doc", None)) is None:
        return out
    if "occupation" not in ctx.memo:  # the same for every subject: scan the tokens once
        ctx.memo["occupation"] = _job_tokens(doc)
    for tok, rule_id in ctx.memo["occupation"]:
        if rule_id == "study":
            out.extend(_studying(ctx, tok) if _speaker(ctx, tok) is d else [])
        elif rule_id == "other":
            out.extend(_does(ctx, d, tok) + _affiliations(ctx, d, tok))
            out.extend(_builds(ctx, d, tok) if tok.lower_ in _BUILD else [])
        elif d is (_named(ctx, tok.head) if rule_id.endswith("apposition") else _speaker(ctx, tok)):
            if _title(tok) is None:
                tok = _coordinated_job(tok) or tok
            out.extend(_findings(ctx, d, tok, rule_id))
    return out


def _job_tokens(doc: Any) -> list[tuple[Any, str]]:
    """Tokens of job patterns (rule id), study words ("study"), work verbs and 'at' ("other")."""
    out: list[tuple[Any, str]] = []
    for tok in doc:
        low = tok.text.lower()
        if low in _words("study_verbs") or (
            low in {"student", "students"} and tok.dep_ != "compound"
        ):
            out.append((tok, "study"))
        elif (rule_id := _pattern(tok)) is not None:
            out.append((tok, rule_id))
        elif low in {"at", "for", "with", "joined", "join", "joining", "of"} | _BUILD or (
            (_agent_of(low) or _agent_of(low, bare=True) or low in _words("run_verbs"))
            and any(c.dep_ == "dobj" or c.lower_ in {"at", "for"} for c in tok.children)
        ):
            out.append((tok, "other"))
    return out
