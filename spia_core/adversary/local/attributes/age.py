"""AGE: birth dates and years, stated ages, life stages (relative to taxonomy.REFERENCE_DATE)."""

from __future__ import annotations

import calendar
import functools
import re

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.attributes import identity, segment_matches
from spia_core.adversary.local.attributes.family import grown_up
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.mentions import Mention
from spia_core.adversary.local.rules import rule
from spia_core.model import Evidence
from spia_core.readability import person_noun
from spia_core.taxonomy import REFERENCE_DATE

_CUES = lexicons.subject_cues("attribute_cues.tsv")

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_TEEN = re.compile(r"\bteen(?:age[dr]?s?|s)?\b", re.I)
_UNITS = list(lexicons.word_map("number_unit"))  # "one" ... "nineteen", in order
_TENS = {w: int(v) for w, v in lexicons.word_map("number_ten").items()}  # "twenty" -> 20
#: Spelled numbers up to 99 ("one" -> 1, "forty-two" -> 42).
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate(_UNITS, 1)} | _TENS
NUMBER_WORDS |= {f"{t}-{u}": v + i for t, v in _TENS.items() for i, u in enumerate(_UNITS[:9], 1)}
_DECADES = {w: int(v) for w, v in lexicons.word_map("decade").items()}  # "forties" -> 40
_ORDINALS = {w: int(v) for w, v in lexicons.word_map("ordinal").items()}  # "third" -> 3
_SCHOOL = {"freshman": 14, "sophomore": 15, "junior": 16, "senior": 17, "kindergarten": 5}
_SCHOOL |= {f"college {k}": v + 4 for k, v in list(_SCHOOL.items())[:4]}  # sophomore: 19-20
_TEACH = re.compile(r"\bteach(?:es|ing)?\b", re.I)  # "I teach in Year 5": the pupils' age
#: "class of 2010" (school leavers are about 18), "born in '88", "Class of '05".
_CLASS_OF = re.compile(r"\b[Cc]lass of (?:(?P<y4>(?:19|20)\d\d)|['’](?P<y2>\d\d))\b")
_BORN_SHORT = re.compile(r"\b[Bb]orn in ['’](?P<y2>\d\d)\b")
_YEAR = re.compile(r"(?<![\w/])(?:19[5-9]\d|20[0-2]\d)(?![\w/])")  # not in 'Ref 12/2024/7'


@functools.lru_cache(maxsize=4)
def _born_lists(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, years) of every 'born in Y1, Y2 and Y3' list, found once per text (the
    age rules ask for every subject)."""
    return tuple((m.start(), m.end(), m.group("list")) for m in _CUES["born_list"].finditer(text))


def _listed_birth(ctx: DocContext, d: Draft) -> list[Finding]:
    """The subject's year in a list of birth years: the people named before 'born' in that
    sentence, else the numbered applicants, else the counted children, in order."""
    for m_start, m_end, listed in _born_lists(ctx.text):
        if ctx.is_masked(m_start, m_end):
            continue
        years = [int(y) for y in re.findall(r"\d{4}", listed)]
        s0, _ = ctx.sentence_of(m_start)
        sentence = ctx.text[s0:m_start]
        named: list[Draft] = []
        for o in sorted(ctx.drafts, key=lambda o: o.first):
            spans = [x.start for x in o.mentions if x.kind in {"name", "placeholder"}]
            if any(s0 <= x < m_start for x in spans) and o not in named:
                named.append(o)
        named.sort(key=lambda o: min(x.start for x in o.mentions if s0 <= x.start < m_start))
        if len(named) != len(years):
            if re.search(r"\bapplicants\b", sentence):
                named = [o for o in ctx.drafts if o.roles.get("applicant")]
                named.sort(key=lambda o: o.roles["applicant"])
            elif re.search(r"\b(?:children|sons|daughters|kids)\b", sentence):
                named = [o for o in ctx.drafts if o.child_count == len(years)]
                named.sort(key=lambda o: o.child_index)
        if len(named) == len(years) and d in named:
            year = years[named.index(d)]
            return [rule("age.born_list").find(age_from_birth(year), [ctx.ev(m_start, m_end)])]
    return []


#: An age next to a mention: "12-year-old son" (in a kin mention), "twenty-year-old Leif"
#: (before), "Ines, 29, ..." or "my son (7)" or "partner (36M)" (after).
_AGE_IN = re.compile(r"\b(?P<n>\d+|[a-z]+(?:-[a-z]+)?)[- ](?P<u>year|month)s?[- ]old\b", re.I)
_AGE_BEFORE = re.compile(_AGE_IN.pattern + r"(?:(?:\s+[\w-]+){1,3}\s*,)?\s+$", re.I)
_AGE_LIST = re.compile(r"\s*(?:\(|,\s*(?:aged\s+)?)\d\d?(?:\s*(?:,|and|&)\s*\d\d?)+\)?")


def _mention_age(text: str, m: Mention) -> tuple[str, int, int] | None:
    """(age, start, end) stated in or next to a kin, name or placeholder mention."""
    if m.kind not in {"kin", "name", "handle", "placeholder"}:
        return None
    end = m.end + text.startswith(")", m.end)  # "her son ([NAME]) is 19"
    if after := _CUES["age_after"].match(text, end, end + 20):
        return after["n"] or after["p"] or after["t"] or after["b"], m.start, after.end()
    inside = m.kind == "kin" and _AGE_IN.search(text, m.start, m.end)
    hit = inside or _AGE_BEFORE.search(text, max(0, m.start - 60), m.start)
    n = hit and (int(hit["n"]) if hit["n"].isdigit() else NUMBER_WORDS.get(hit["n"].lower()))
    if not n:
        return None
    return str(n) if hit["u"].lower() == "year" else "0", min(m.start, hit.start()), m.end


def _teen(ctx: DocContext, d: Draft) -> Evidence | None:
    """'teenage', 'teens' in the child's own text ("our two teenage sons"), else, for children
    counted together, in the sentence of one of their mentions ("the kids are teenagers now")."""
    for m, off in segment_matches(ctx, d, _TEEN):
        return ctx.ev(off + m.start(), off + m.end())
    for k in (k for k in d.mentions if k.kind == "kin") if d.child_count > 1 else []:
        if m := _TEEN.search(ctx.text, *ctx.sentence_of(k.start)):
            return ctx.ev(*m.span())
    return None


def _of_a_thing(ctx: DocContext, start: int) -> bool:
    """Whether 'turns N' or 'age N' at ``start`` is said of a thing: the verb's subject, or the
    noun that 'age N' describes, is a common noun that names no person."""
    span = ctx.doc.char_span(start, start + 1, alignment_mode="expand") if ctx.doc else None
    if not span or not (tok := span[0]).lower_.startswith(("turn", "age")):
        return False
    kids = [c for c in tok.children if c.dep_ == "nsubj"]
    after = tok.i > 1 and tok.nbor(-1).text == ","  # "a rugby shirt, age 9": the shirt's
    subj = (tok.nbor(-2) if after else None) if tok.lower_ == "age" else next(iter(kids), None)
    thing = subj is not None and subj.text.islower() and not person_noun(subj.text)
    return thing and subj.lower_ not in {"he", "she", "we", "they", "you", "who", "one", "ones"}


def age_from_birth(year: int, month: int = 0, day: int = 0) -> str:
    """'54-55' for a birth year, '54' for a full date."""
    ref = REFERENCE_DATE
    if month:
        return str(ref.year - year - ((ref.month, ref.day) < (month, day or 1)))
    return f"{ref.year - year - 1}-{ref.year - year}"


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    lists = [(a, b) for a, b, _ in _born_lists(ctx.text)]
    for m, off in segment_matches(ctx, d, _CUES["born"]):
        listed = any(a <= off + m.start("year") < b for a, b in lists)  # see _listed_birth
        if listed or ctx.is_masked(off + m.start(), off + m.end()):
            continue
        year = int(m.group("year"))
        month = _MONTHS.get((m.group("month") or m.group("month2") or "").lower(), 0)
        day = int(m.group("day") or m.group("day2") or 0)
        ev = [ctx.ev(off + m.start(), off + m.end())]
        out.append(rule("age.born").find(age_from_birth(year, month, day), ev))
        break
    if not out:
        out.extend(_listed_birth(ctx, d))
    own = []  # a list first: "two kids, 8 and 11" is no child aged 8 twice
    for m in d.mentions if d.child_count > 1 else []:  # "our kids (14 and 11)", ", aged 9 and 6"
        ages = _AGE_LIST.match(ctx.text, m.end)
        if ages and len(nums := re.findall(r"\d+", ages[0])) == d.child_count:
            own.append((nums[d.child_index - 1], m.start, ages.end()))
    own += [a for m in d.mentions if (a := _mention_age(ctx.text, m))]
    if d.is_author and (sign := identity.signoff(ctx.text)) and sign["age"]:
        own.append((sign["age"], sign.start(), sign.end()))  # "- Priya, 41, Leicester"
    out += [rule("age.stated").find(v, [ctx.ev(s, e)]) for v, s, e in own[:1]]
    if "mention_ages" not in ctx.memo:  # every subject asks about everyone else's ages
        ages = ((o, _mention_age(ctx.text, m)) for o in ctx.drafts for m in o.mentions)
        ctx.memo["mention_ages"] = [(o, a[1], a[2]) for o, a in ages if a]
    others = [(s, e) for o, s, e in ctx.memo["mention_ages"] if o is not d]
    others += [m.span() for m in _CUES["pet"].finditer(ctx.text)]  # "our spaniel, 4 years old"
    for m, off in [] if own else segment_matches(ctx, d, _CUES["aged"]):
        if any(a <= off + m.start() < b or a < off + m.end() <= b for a, b in others):
            continue  # "the applicant's 12-year-old son": the son's age
        raw = next(g for g in m.groups() if g)
        age = NUMBER_WORDS.get(raw.lower()) or int(raw)
        if not 0 < age < 120:
            continue
        s, e = off + m.start(), off + m.end()
        if _of_a_thing(ctx, s):
            continue  # "Our bakery turns 10", "a school blazer, age 11"
        sent = ctx.text[slice(*ctx.sentence_of(s))]
        years = [int(y) for y in _YEAR.findall(sent) if int(y) <= REFERENCE_DATE.year]
        dead = re.search(r"\b(?:died|death|killed|deceased)\b", sent)
        # only an age stated the plain way ('aged 45', 'a 45-year-old') may date from a year
        # the sentence gives; the other forms ('I'm 34', 'turned 50') speak of now
        then = years and not dead and any(m.group(g) for g in "abcg")
        age += REFERENCE_DATE.year - max(years) if then else 0
        value = f"{age - 1}-{age}" if then else str(age)
        out.append(rule("age.stated").find(value, [ctx.ev(s, e)]))
        break
    for rx, offset in ((_CLASS_OF, 18), (_BORN_SHORT, 0)):
        for m, off in segment_matches(ctx, d, rx):
            y = int(m.groupdict().get("y4") or 0) or 2000 + int(m["y2"])  # '05' -> 2005
            year = y - 100 * (y > REFERENCE_DATE.year and not m.groupdict().get("y4"))  # '88'
            age = REFERENCE_DATE.year - year + offset
            if 0 < age < 110:
                ev = [ctx.ev(off + m.start(), off + m.end())]
                value = f"{age - 1}-{age}" if offset == 0 else f"{age - 1}-{age + 1}"
                out.append(rule("age.stated").find(value, ev))
            break
    for m, off in segment_matches(ctx, d, _CUES["decade"]):
        dec = (m.group("dec") or m.group("s")).lower()
        base = _DECADES.get(dec, int(dec[:1]) * 10 if dec[:1].isdigit() else 30)
        lo, hi = {"early": (0, 4), "mid": (3, 7), "late": (6, 9)}.get(m.group("q") or "", (0, 9))
        ev = [ctx.ev(off + m.start(), off + m.end())]
        out.append(rule("age.stated").find(f"{base + lo}-{base + hi}", ev))
    for m, off in [] if own else segment_matches(ctx, d, _CUES["school_year"]):
        sent = ctx.text[slice(*ctx.sentence_of(off + m.start()))]
        if _TEACH.search(sent) or (d.is_author and not re.search(r"\bI\b", sent)):
            continue  # "our lad is a high-school junior": not the writer's year
        grade = m["g"] or m["g2"] or _ORDINALS.get((m["gw"] or m["gw2"] or "").lower())
        age = int(m["y"]) + 4 if m["y"] else int(grade) + 5 if grade else _SCHOOL[m["hs"] or m["k"]]
        ev = [ctx.ev(off + m.start(), off + m.end())]
        out.append(rule("age.school_year").find(f"{age}-{age + 1}", ev))
        break
    kid = not own and d.kin in lexicons.words("child_kin") | {"grandson", "granddaughter"}
    if kid and (teen := _teen(ctx, d)):
        out.append(rule("age.teen").find("13-19", [teen]))
    elif kid and d.anchor is not None and d.anchor.is_author and not grown_up(ctx, d):
        out.append(rule("age.child").find("3-12", []))
    if d.kin == "baby" or any("little one" in m.text for m in d.mentions):
        out.append(rule("age.baby").find("0-5", []))
    return out
