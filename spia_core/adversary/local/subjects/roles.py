"""Subject passes over role phrases: apposition, definite references, indefinite roles that act
and masked officials (mostly judgments)."""

from __future__ import annotations

import re

import spia_core.adversary.local.lexicons as lexicons
import spia_core.adversary.local.patterns as patterns
import spia_core.adversary.local.rules as rules
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.mentions import QUOTE_SPANS, Mention, overlaps
from spia_core.adversary.local.subjects.state import SubjectState

_CUES = lexicons.subject_cues()

_POSSESSIVE_DETS = frozenset({"his", "her", "their", "its"}) | {
    f"the {o}applicant{s}"
    for o in ("", "first ", "second ", "third ")
    for s in ("'s", "’s", "s'", "s’")
}

#: Words before an indefinite role that make it a predicate ("was a judge", "as an expert").
_PREDICATE_BEFORE = re.compile(
    rf"(?i)\b(?:{lexicons.alternation('predicate_word')})\s+(?:an?\s+(?:[\w-]+\s+){{0,2}})?$"
)

#: A verb right after an indefinite role makes it the subject of a clause: a person who acts.
_ACTS_AFTER = re.compile(rf"\s+(?:\w+ly\s+)?(?:{lexicons.alternation('act_verb')})\b")


def _possessor(anchor: str) -> str:
    """The party a possessive determiner names ("the plaintiff's" -> plaintiff), else ''."""
    m = re.match(r"the (?:first |second |third )?(applicant|plaintiff|deceased)s?['’]", anchor)
    return m.group(1) if m else ""


def _role_target(st: SubjectState, r: Mention) -> Mention | None:
    """The person a role phrase stands in apposition to ("Mr X, the applicant's father")."""
    if re.match(r"['’]s?\b", st.text[r.end : r.end + 2]):
        return None  # "Mr X, the applicant's father": the role is the possessor
    link = _CUES["names_after"].match(st.text, r.end)
    after = st.adjacent_after(link.end() if link else r.end)
    found = (link and after) or st.adjacent_before(r.start) or after or st.titled_after(r.end)
    place = _CUES["role_place"].match(st.text, r.end)  # "the tenant at flat 3, [NAME], who"
    if found is None and place and rules.enabled("subject.role_apposition"):
        found = st.adjacent_after(place.end(), limit=1)
        found = found if found and re.match(r"\s*(?:[,)]|$)", st.text[found.end :]) else None
    return found


def _role_draft(st: SubjectState, r: Mention) -> Draft | None:
    """An existing subject this (unattached) role phrase refers to, or None for a new one."""
    found = st.with_role(r.role, r.ordinal)  # none: no fits, None
    pre, comp = r.qualifier.split("|") if r.qualifier else ("", "")

    def quals(d: Draft) -> list[tuple[str, str]]:
        return [
            tuple(m.qualifier.split("|"))  # type: ignore[misc]
            for m in d.mentions
            if m.kind == "role" and m.role == r.role and m.qualifier
        ]

    def compatible(d: Draft) -> bool:
        qs = quals(d)  # with no qualifier of its own ('the judge') any holder fits
        return not qs or any(
            (p == pre or not pre or not p) and (c == comp or not comp or not c) for p, c in qs
        )

    def last(d: Draft) -> int:
        return max((x.start for x in d.mentions if x.start < r.start), default=-1)

    owner = _possessor(r.anchor)
    if owner:  # "the plaintiff's representative" is not the applicant's representative

        def same_owner(d: Draft) -> bool:
            owners = {_possessor(m.anchor) for m in d.mentions if m.kind == "role"} - {""}
            return owner in owners or (owner == "applicant" and not owners)

        found = [d for d in found if same_owner(d)]
    exact = [d for d in found if any(q == (pre, comp) for q in quals(d))]
    if not (fits := exact or [d for d in found if compatible(d)]):
        return None
    return max(fits, key=last) if exact or r.ordinal == 0 or len(fits) > 1 else fits[0]


_OF_MINE = (" of mine", " of ours")


def _indefinite_is_person(st: SubjectState, r: Mention) -> bool:
    """'A judge of the County Court wrote ...' is a person; 'was a judge' is a predicate."""
    before = st.text[max(0, r.start - 40) : r.start]
    if _PREDICATE_BEFORE.search(before):
        return False
    if _ACTS_AFTER.match(st.text[r.end : r.end + 30]) or st.text.startswith(_OF_MINE, r.end):
        return True  # "..., a judge of the County Court told the applicant"; "a friend of mine"
    if re.search(r"[,(]\s*$", before):
        return False  # apposition to something that is not a person mention
    return bool(r.qualifier.strip("|")) or r.anchor in {"another", "one"}


def link_roles(st: SubjectState) -> None:
    standalone = {x.key for x in lexicons.roles() if x.standalone}  # "the applicant" alone
    pending: list[Mention] = []
    for r in sorted(st.roles, key=lambda m: m.start):
        target = _role_target(st, r)
        if target is not None and r.plural:
            for i, p in enumerate(st.chain(target, forward=target.start > r.start), 1):
                st.draft_of(p).roles.setdefault(r.role, i)
            continue
        if target is not None:
            d = st.draft_of(target)
            same = _unique_role_holder(st, r, d) if target.kind == "placeholder" else None
            if same is not None:  # "The applicant, [PERSON], is ...": the same applicant
                d = st.merge(same, d)
            d.roles.setdefault(r.role, r.ordinal)
            if r.anchor not in {"a", "an"}:
                st.attach(d, r)
            continue
        pending.append(r)
    for m in _CUES["represented"].finditer(st.text):
        if (first := st.adjacent_after(m.end(), limit=2)) is not None:
            for p in st.chain(first, forward=True):
                st.draft_of(p).roles.setdefault("lawyer", 0)
    _link_opening_applicants(st)
    for r in (r for r in pending if not r.plural or r.anchor in {"one"}):
        if not r.anchor and _PREDICATE_BEFORE.search(st.text, max(0, r.start - 40), r.start):
            continue  # "As a retired Irish teacher, I ...": a predicate
        mine = st.text.startswith(_OF_MINE, r.end)  # "a colleague of mine": someone new
        if r.role not in standalone and r.anchor not in {"another", "one"} and not mine:
            continue  # "the witness" is a reference; "another witness" is someone new
        if r.anchor in {"a", "an", "another", "one"}:
            if _indefinite_is_person(st, r):
                st.new(r, holds=True)
            continue
        own = _CUES["own_choice"].match(st.text, r.end)
        if own is not None:  # "the expert she had chosen": the party's own, someone new
            r.text = f"{r.text}{own.group(0)}"
            r.end = own.end()
        if own is None and (found := _role_draft(st, r)) is not None:
            st.attach(found, r)
        else:
            d = st.new(r, holds=True)
            if r.anchor in _POSSESSIVE_DETS and r.role != "agent":  # "his supervisor"
                owner = st.resolve_anchor(r)
                d.anchor = owner if owner is not d else None


def masked_officials(st: SubjectState) -> None:
    """A masked body that files an indictment is a public prosecutor ('[ORG] at [ORG] filed an
    indictment'); one that submits 'his written opinion' is a (principal) prosecutor too."""
    for m in _CUES["masked_prosecutor"].finditer(st.text):
        opinion = bool(m.group("opinion"))
        known = [
            d
            for d in st.with_role("prosecutor")
            if opinion == any("opinion" in x.text for x in d.mentions if x.kind == "role")
        ]
        what = "written opinion" if opinion else "indictment"
        text = f"public prosecutor who {m.group('verb') or m.group('opinion')} the {what}"
        r = Mention(m.start(), m.end(), text, "role", role="prosecutor", source="masked")
        if known:
            st.attach(known[0], r)
            continue
        st.new(r, holds=True)


def _unique_role_holder(st: SubjectState, r: Mention, d: Draft) -> Draft | None:
    """The one other holder of a single-person role ('the applicant', 'the Agent') that an
    unnumbered masked name in apposition to it stands for; None when it may be someone new."""
    single = r.role in {"applicant", "agent"} and r.anchor.startswith("the") and not r.ordinal
    if not single or r.plural or d.identity or d.best_name:
        return None
    others = [x for x in st.with_role(r.role) if x is not d]
    one = len(others) == 1 and not (others[0].best_name or others[0].roles.get(r.role))
    return others[0] if one else None


def _link_opening_applicants(st: SubjectState) -> None:
    """'... lodged ... by a Turkish national, Mr X (and Mrs Y)' names the applicant(s)."""
    m = _CUES["opening"].search(st.text[:3000])
    if (first := st.adjacent_after(m.end(), limit=3) if m is not None else None) is None:
        return
    people = st.chain(first, forward=True)
    if any("applicant" in st.draft_of(p).roles for p in people):
        return
    for i, p in enumerate(people, 1):
        st.draft_of(p).roles.setdefault("applicant", i if len(people) > 1 else 0)


_AGED_PERSON = _CUES["aged_person"]
_SOMEONE = _CUES["someone"]
_COPULA_BEFORE = re.compile(rf"\b(?:{lexicons.alternation('copula')})\s+$")


def _antecedent(st: SubjectState, r: Mention) -> Draft | None:
    """The person a definite role noun refers back to: the latest draft with that role, else
    the latest unnamed-role person introduced before it (a masked person, or a named one when
    no other person shares the sentence): "[REDACTED] joined ... The employee was ..."."""
    if same := st.with_role(r.role):
        return max(same, key=lambda d: max(m.start for m in d.mentions))
    best, start = None, max(st.text.rfind(". ", 0, r.start), st.text.rfind("\n", 0, r.start)) + 1
    if re.search(r"\b(?:new|next|incoming)\b|^(?:[Oo]ur|[Yy]our|[Mm]y)\b", r.text):
        return None  # "X (chair), the new secretary", "Dear X, ... our tenant": another person
    for m in st.people_between(0, r.start):
        d, said = st.draft_of(m), re.match(r"\s*\(([a-z ]+)\)", st.text[m.end : m.end + 30])
        if said:  # "[PERSON_2] (treasurer)": the holder of that role, of no other
            if said.group(1) == r.role:
                return d
            continue
        other = m.role and r.role not in m.role.lower().split()  # 'Tenant: XXX' is no caseworker
        if other or d.roles or d.kin or d.is_author or d.title.lower().startswith(("dr", "doc")):
            continue
        if _CUES["kin_before"].search(st.text[max(0, m.start - 40) : m.start]):
            continue  # "my wife Kavita ... The receptionist": a relative is not the role holder
        if m.kind == "placeholder" or not st.people_between(start, r.start):  # alone in it
            best = d
    return best


def _modifier(st: SubjectState, end: int) -> bool:
    """The word ending at ``end`` modifies the noun after it (dependency 'compound'); without
    a parse, a lower-case noun phrase right after it ("patient records") counts as one."""
    if (tok := st.token_at(end)) is not None and tok.dep:
        return tok.dep in {"compound", "amod", "nmod"}
    return bool(
        re.match(r" (?:records?|notes?|files?|data|details|portal|system|list)\b", st.text[end:])
    )


def role_nouns(st: SubjectState) -> None:
    """Pass (everyday documents): a definite role noun ("the employee", "the patient") is one
    person across the text, bound to a name in apposition or to the person it refers back to;
    "a 58-year-old woman" who is not a predicate is a person too."""
    if st.legal or not st.english:
        return
    taken = [(m.start, m.end) for d in st.drafts if d.alive for m in d.mentions]
    cues = (_CUES["role_noun"], _AGED_PERSON, _CUES["bare_role"], _CUES["my_contact"])
    found = [(m, m.group("noun").lower()) for rx in cues for m in rx.finditer(st.text)]
    doers = (
        m for m in _SOMEONE.finditer(st.text) if getattr(st.token_at(m.end()), "dep", "") == "nsubj"
    )
    found += [(m, m.group("noun").lower()) for m in doers]
    for m, noun in sorted(found, key=lambda x: x[0].start()):
        if any(s <= m.start() < e for s, e in taken) or _modifier(st, m.end()):
            continue  # "the patient records system": a noun modifier, no person
        r = Mention.at(m, "role", role=noun, anchor="the")
        predicate = _COPULA_BEFORE.search(st.text[max(0, m.start() - 12) : m.start()])
        target = _role_target(st, r)
        if target is not None and m.re is not _CUES["my_contact"]:  # "my colleague Ana": Ana's
            d = st.draft_of(target)
        elif target is not None or predicate is not None:
            continue  # "she is the tenant", "is a 45-year-old man": said of someone known
        elif m.re in (_AGED_PERSON, _SOMEONE):
            d = st.new()
        else:
            d = _antecedent(st, r) or st.new()
        st.attach(d, r)
        d.roles.setdefault(noun, 0)
        st.decide("subject.role_nouns", r, f"role noun '{noun}'")


def pronoun_person(st: SubjectState) -> None:
    """Pass: a 'He' or 'She' opening a sentence, with no person, relative or role before it, is
    a person ('Seen today. She was in pain and her husband drove her in.')."""
    if not st.english or any(d.alive and not d.is_author for d in st.drafts):
        return
    quotes = [m.span() for m in QUOTE_SPANS.finditer(st.text)]
    said = [m for m in patterns.PRONOUN.finditer(st.text) if not overlaps(*m.span(), quotes)]
    m = said[0] if said and said[0].group(0) in {"He", "She"} else None  # "She reports ..."
    if m is None or not re.search(r"(?:^|[.!?]\s+)$", st.text[: m.start()]):
        return
    male = bool(patterns.MALE_PRONOUN.fullmatch(m[0]))
    other = next((o for o in said if bool(patterns.MALE_PRONOUN.fullmatch(o[0])) != male), None)
    pets = [p.start() for p in _CUES["place_slot"].finditer(st.text) if p["pet"]]  # 'our dog X'
    known = [k.start for k in st.kins + st.roles] + pets
    for p in (m, other) if other else (m,):  # "He works nights and she teaches piano": two
        if not any(k < p.start() for k in known):
            who = "man" if patterns.MALE_PRONOUN.fullmatch(p[0]) else "woman"
            said_as = f"the {who} called '{p[0].lower()}'"
            st.new(Mention(p.start(), p.start(), said_as, "role", role="pronoun"))  # zero-width
