"""Subject passes over name mentions: clustering name variants into one person, dropping
NER 'names' that read as words, places or bodies."""

from __future__ import annotations

import re

import spia_core.adversary.local.lexicons as lexicons
import spia_core.adversary.local.subjects.people as people
from spia_core.adversary.local.draft import Draft, _tokens, names_compatible
from spia_core.adversary.local.mentions import Mention, _is_first, clean_name
from spia_core.adversary.local.names import is_given_name, name_sets
from spia_core.adversary.local.patterns import TITLES
from spia_core.adversary.local.subjects.state import SubjectState

_OWNED = re.compile(r"\b(?!(?:it|that|here|there|what|who|he|she|let)\W)\w+['’]s $", re.I)
_KIN_BEFORE = lexicons.subject_cues()["kin_before"]
_ORGISH = r"\b(?:Solicitors|Ltd|Inc|PLC|AB|GmbH|Bank|Court|Sąd|Council|Office|Ministry|Party|Association|Company|University|Hospital|Prison|Street|Road)\b"  # noqa: E501


def cluster_names(st: SubjectState) -> None:
    """Pass: one draft per person named; name variants ("Ann Lee", "Lee", "A. Lee") join the
    latest compatible draft. Drafts are looked up by name token (compatible names share one),
    so the pass is linear in the names, not quadratic."""
    by_identity: dict[str, Draft] = {}
    by_token: dict[str, list[Draft]] = {}
    order: dict[int, int] = {}

    def index(d: Draft, m: Mention) -> None:
        order.setdefault(id(d), len(order))
        for t in _tokens(m.name):
            if d not in by_token.setdefault(t, []):
                by_token[t].append(d)

    for m in st.names:
        if m.kind == "placeholder":
            if m.identity and m.identity in by_identity:
                st.attach(by_identity[m.identity], m)
            else:
                d = st.new(m)
                if m.identity:
                    by_identity[m.identity] = d
            continue
        near = {id(d): d for t in _tokens(m.name) for d in by_token.get(t, [])}
        sex = TITLES.get(m.title.lower(), "")  # "Mrs Lee" is not "Mr Lee"
        candidates = [
            d
            for d in sorted(near.values(), key=lambda d: order[id(d)])
            if d.alive
            and d.best_name
            and not (sex and d.title_sex and sex != d.title_sex)
            and any(names_compatible(n.name, m.name) for n in d.names)
        ]
        kin = m.title and len(_tokens(m.name)) == 1  # "Noah Fenton ... His father, Mr Fenton"
        if not candidates or (kin and _KIN_BEFORE.search(st.text, max(0, m.start - 40), m.start)):
            index(st.new(m), m)
            continue
        if len(full := _tokens(m.name)) > 1:  # a full name joins a draft of that full name first
            same = [d for d in candidates if any(_tokens(n.name) == full for n in d.names)]
            candidates = same or candidates
        d = max(candidates, key=lambda d: max(x.start for x in d.mentions))
        st.attach(d, m)
        index(d, m)

    for m in st.names:
        if m.kind == "name" and m.role and id(m) in st.owner:  # "Mummery LJ": a judge
            st.draft_of(m).roles.setdefault(m.role, 0)


def drop_weak_names(st: SubjectState) -> None:
    """Drop untitled single-mention NER 'names' that look like words, places or organisations."""
    firsts = lexicons.first_names()
    for d in (d for d in st.drafts if d.alive and not (d.roles or d.kin or d.is_author)):
        names = [m for m in d.mentions if m.kind == "name"]
        if not names or len(names) != len(d.mentions) or any(m.title for m in names):
            continue
        tokens = [t for m in names for t in _tokens(m.name)]
        multi = any(len(_tokens(m.name)) > 1 for m in names)
        signed = multi or st.legal or not st.text[names[-1].end :].strip(" .!\n")  # "... Rabi"
        known = not signed and _is_first(tokens[0], world=True)  # "Emre", "Ngozi"
        known = known or any(t in firsts for t in tokens) or all(m.source for m in names)
        if known or (multi and len(names) > 1):
            continue
        plain = multi and not re.search(_ORGISH, " ".join(m.name for m in names))
        place = any(_placeish(st, m) for m in names) or lexicons.gazetteer().lookup(names[0].name)
        if plain and not place:
            continue
        st.drop(d)


def _placeish(st: SubjectState, m: Mention) -> bool:
    """A NER 'name' that reads as a place, a body or a foreign phrase by its context."""
    before = st.text[max(0, m.start - 25) : m.start]
    after = st.text[m.end : m.end + 2]
    if re.search(r"(?:\b(?:in|at|from|near|of|Location|pickup|Pickup)\s*:?\s*|[(“\"])$", before):
        return True
    return after[:1] in {")", "”", '"'} or any(t[:1].islower() for t in m.name.split())


def _first_line(m: Mention) -> bool:
    """A name never spans a line break ("Paul Ferreira\nOperations Director"): keep its
    first line (a lone title's name is on the next: "a Mr\nPike"); False when nothing is left."""
    if "\n" not in m.text or m.text.split("\n")[0].strip().rstrip(".").lower() in TITLES:
        return True
    m.text = m.text.split("\n")[0].rstrip()
    m.end = m.start + len(m.text)
    m.name = clean_name(m.text)
    return bool(m.name)


def _why_not(st: SubjectState, m: Mention) -> str:
    """Why a name mention is no person ('' when it may be one). A title keeps a person, unless
    a firm or facility word ends it ("Lord Nelson Inn") or it names a thing ("the Sir X ferry")."""
    name = m.name or m.text
    words = name.split()
    if m.kind != "name":
        return ""
    if m.title:  # "the Lord Halden Inn", "Sir Ivo Smith Ltd"
        heads = lexicons.words("facility_head") | lexicons.words("org_head")
        if any(w.lower().strip(".") in heads for w in words[1:]):
            return "facility or firm name (head word)"
        thing = people.modifies_noun(st.tokens, st.token_at(m.end), m, st.text)
        return "modifies a common noun (a product or brand)" if thing else ""
    shop = re.match(r"['’]s ([A-Z][a-z]+)", st.text[m.end : m.end + 40])  # "Barlow's Bakeries"
    if shop and lexicons.fold(shop[1]) in lexicons.words("org_head"):
        return "a business named with its owner's possessive"
    if len(words) == 1 and name.lower() in lexicons.words("not_a_name_word"):
        return "a language, holiday, weekday or farewell word"
    known = lexicons.fold(words[0]) in lexicons.first_names() and len(words) > 1
    if not st.english and not (known and all(w[:1].isupper() for w in words)):
        return "not English, and no known first name"
    last = lexicons.fold(words[-1])
    if {last, words[-1]} & lexicons.kin_words().keys():  # "Mum", "MIL (58F)"
        return "a kin word used as a name (read as a relative)"
    demonym = last in lexicons.demonyms() or lexicons.subject_cues()["demonym_end"].search(last)
    if demonym and not is_given_name(words[0]) and last not in name_sets()[1]:
        return "a demonym used as a noun ('Proud Glaswegian here': who the writer is)"
    if people.OFFICE.match(name) or m.source == "pair":
        return ""  # "the Dean of X University": who holds the office; "Ann and Lee Hill": Ann
    kind = people.head_class(st.text, m)
    if kind in {"place", "facility", "org"}:
        return f"{kind} name (head word)"
    things = {"ORG", "PRODUCT", "WORK_OF_ART", "FAC", "EVENT"}  # "Marks & Spencer", "the Mary 2"
    for s, e, label in st.ents if m.source.startswith("cue") else []:  # not "my parents, Ann & Bo"
        det = re.search(r"\b(?:the|a|an)\s+(?:\w+\s+)?$", st.text[max(0, s - 16) : s], re.I)
        w, pair = st.text[s:e].split()[0], " and " in st.text[s:e]  # "Ann and Ciarán" (not "&")
        first = lexicons.fold(w) in lexicons.first_names() or (pair and is_given_name(w))
        if s < m.start < e and label in things and (det or not first):
            return "the end of a firm's or a thing's name"
    if people.person_evidence(st.text, m):
        return ""
    if _OWNED.search(st.text[max(0, m.start - 30) : m.start]):
        return "a thing someone owns ('Dad's Morris Minor')"
    label = next((lb for s, e, lb in st.ents if s < m.end and m.start < e), "")  # spaCy's
    if kind == "ambiguous":
        return "place-like head word and nothing a person does"
    located = people.locative_before(st.text, m.start)
    near = people.locative_before(st.text, m.start, weak=True)
    if near and lexicons.fold(name) in lexicons.words("shop_name"):
        return "a shop named like a person after 'at', 'from' ('a voucher from John Lewis')"
    if label in {"GPE", "LOC", "FAC"} and (near or lexicons.gazetteer().lookup(name)):
        return f"a place ({label})"
    weak = near and label != "PERSON"  # "from Carlisle" (ORG) is a place, "to Leigh" a person
    if len(words) == 1 and (located or weak) and lexicons.gazetteer().lookup(name):
        return "a gazetteer place after a locative preposition"
    if people.modifies_noun(st.tokens, st.token_at(m.end), m, st.text):
        return "modifies a common noun (a product or brand)"
    return "a header key" if people.header_key(st.text, m) else ""


def not_a_person(st: SubjectState) -> None:
    """Pass: drop name mentions that are places, facilities, organisations, products, header
    keys, or phrases of a language the engine cannot read."""
    st.english = people.looks_english(st.text)
    keep = []
    for m in (m for m in st.names if m.kind != "name" or _first_line(m)):
        if why := _why_not(st, m):
            st.decide("subject.not_a_person", m, why)
        else:
            keep.append(m)
    st.names = keep
    if not st.english:  # English cue words (kin, roles, "I") mean nothing here
        st.roles, st.kins, st.firsts, st.author_names = [], [], [], []
