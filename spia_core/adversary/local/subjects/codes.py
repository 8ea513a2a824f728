"""Subject passes for codes (e-mail, phone, ID): whose each code is, and the third parties a
code shows to exist."""

from __future__ import annotations

import re

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.attributes.codes import CodeHit
from spia_core.adversary.local.draft import Draft, _tokens, names_compatible
from spia_core.adversary.local.mentions import Mention
from spia_core.adversary.local.names import email_name
from spia_core.adversary.local.subjects.state import SubjectState

_CUES = lexicons.subject_cues()

_QUOTE_OPEN = re.compile(r"[“\"][^”\"\n]{0,60}$")

#: A cue that a code is someone else's, then no first person to the end ("like X"); for an
#: e-mail address or phone number, contact_cue ("addresses like X", "I emailed X").
_OTHER_CUE, _OTHER_CONTACT = (
    re.compile(rf"\b(?:{lexicons.alternation(c)})\b(?:(?!\b(?:my|our|i|me)\b)[^.;:])*$")
    for c in ("other_cue", "contact_cue")
)

_CONTACT_TAGS = frozenset({"PHONE_NUMBER", "EMAIL_ADDRESS"})

_OWNER_OTHER = rf"\b(?:{lexicons.alternation('owner_other')})\b"


def _last(pattern: str, text: str) -> int | None:
    """Start of the last match of ``pattern`` in ``text`` (None when absent)."""
    return next(reversed([m.start() for m in re.finditer(pattern, text)]), None)


def _third_party_code(text: str, start: int, before: str, *, contact: bool = False) -> bool:
    """A code quoted from a log or error message, or introduced as 'the/similar/e.g. ... number',
    belongs to someone other than the writer (contacts: 'addresses like X', 'emailed X')."""
    tail = before[-45:]
    if contact:
        return _OTHER_CONTACT.search(tail) is not None
    quoted = _QUOTE_OPEN.search(text[max(0, start - 60) : start])
    if quoted and not re.search(r"\b(?:my|our)\b", quoted.group(0), re.IGNORECASE):
        return True
    return _OTHER_CUE.search(tail) is not None


_HOLDER_WORDS = rf"\b(?P<w>{lexicons.alternation('code_holder')})s?\b"


def masked_code_holders(st: SubjectState) -> None:
    """A masked code introduced as someone else's ('client ID [CODE]', 'employee records
    (ID: [CODE])') still shows that this third person exists."""
    if st.legal:
        return
    for m in re.finditer(r"\[(?:CODE|ID|ID_NUMBER)(?:_\d+)?\]", st.text):
        before = st.text[max(0, m.start() - 40) : m.start()].lower()
        who = re.search(_HOLDER_WORDS + r"[^.]*$", before)
        contact = _OTHER_CONTACT.search(before[-45:])
        if re.search(r"\b(?:my|our|i)\s+(?:\w+\s+){0,2}$", before) and not contact:
            continue
        if who is not None:
            word = who.group("w")
        elif _CUES["masked_doc"].search(before) and not re.search(r"\b(?:my|our|i|me)\b", before):
            word = "person"  # "passport no. [CODE]" in a log: someone else's document
        elif contact:
            word = "contact"  # "I even emailed [CODE]", "addresses (like [CODE])"
        else:
            continue
        d = st.new(Mention.at(m, "code", role=word))
        d.roles.setdefault("holder", 0)
        kinds = lexicons.word_map("code_kind").items()  # what it is: 'passport number', ...
        d.code_kind = next((kind for w, kind in kinds if w in before[-40:]), "ID")


def _code_owner(st: SubjectState, c: CodeHit, prev_end: int) -> tuple[str, str]:
    """('mine' | 'other' | '' (undecided), holder word) for a code, from the words just
    before it, not reaching back past the previous code ("client ID X from my workstation
    (Y)": Y is the writer's)."""
    before = st.text[max(0, c.start - 60, prev_end) : c.start].lower()
    before = re.sub(r"\b(e|i)\.(g|e)\.", r"\1_\2_", before)  # "e.g." ends no sentence
    before = re.split(r"[.!?;\n]", before)[-1].replace("e_g_", "e.g.").replace("i_e_", "i.e.")
    other = _last(_OWNER_OTHER, before)
    word = re.match(r"\w+", before[other:]).group(0) if other is not None else ""
    word = {"records": "", "record": "", "account": "", "profile": ""}.get(word, word)
    mine = _last(r"\b(?:my|our|i|me|mine)\b", before)
    own = rf"(?:my|our) {word} (?:id|number|no\b|card)"
    if word and mine is not None and re.match(own, before[mine:]):
        other = None  # "my student ID", "our customer number": the writer's own
    if re.search(r"\bcorrect\b|\bcredentials?\b|\bvalid\b", before[-45:]):
        return "mine", ""
    if _third_party_code(st.text, c.start, before, contact=c.tag in _CONTACT_TAGS):
        return "other", word
    if mine is not None and (other is None or mine > other):
        return "mine", ""
    if other is not None:
        return "other", word
    return ("other", "") if c.tag in {"IDENTIFICATION_NUMBER", "PASSPORT_NUMBER"} else ("", "")


def attach_codes(st: SubjectState) -> None:
    author = st.author
    prev_end = 0
    for c in st.codes:
        owner, word = _code_owner(st, c, prev_end)
        prev_end = c.end
        if (named := _named_holder(st, c, author) or _labelled_holder(st, c, owner)) is not None:
            named.codes.append(c)
        elif owner == "other" or (owner == "" and author is None and not _near(st, c)):
            st.new(Mention(c.start, c.end, c.value, "code", role=word)).codes.append(c)
        elif author is not None:
            author.codes.append(c)
        elif (near := _near(st, c)) is not None:
            st.draft_of(near).codes.append(c)
        else:
            st.new(Mention(c.start, c.end, c.value, "code")).codes.append(c)


def _named_holder(st: SubjectState, c: CodeHit, author: Draft | None) -> Draft | None:
    """The person (not the author) an e-mail address names: '@lanep' ... 'p.lane@...'."""
    name = email_name(c.value) if c.tag == "EMAIL_ADDRESS" else ""
    if not name or not any(len(t) > 2 for t in _tokens(name)):
        return None
    if author is not None and any(names_compatible(n.name, name) for n in author.names):
        return None
    found = [d for d in st.drafts if d.alive and not d.is_author and not d.kin]
    found = [d for d in found if any(names_compatible(n.name, name) for n in d.names)]
    return found[0] if len(found) == 1 else None


def _labelled_holder(st: SubjectState, c: CodeHit, owner: str) -> Draft | None:
    """A named person the code is labelled onto ('Tomas Reyes, SSN ...', 'Ann Lee (patient ID
    ...)': only a comma, colon or bracket and the code's label between), else the one person a
    note calls only 'she' or 'he' ('Patient ID: ... She reports ...')."""
    near = _near(st, c)  # "Emergency contact: Ann Lee (mum) - 07700 ...": hers
    between = st.text[near.end : c.start] if near is not None and near.kind == "name" else "."
    on = re.fullmatch(r",? (?:on|at) ", between)  # "contact our treasurer, Ann Lee, on 07700"
    if owner == "mine" and not on:
        return None
    if on or re.fullmatch(r"\s*[-–,:(]\s*(?:[\w/]+[.,]?\s*){0,4}\)?\s*[-–:#]?\s*", between):
        return None if (d := st.draft_of(near)).is_author else d
    alone = [d for d in st.drafts if d.alive and any(m.role == "pronoun" for m in d.mentions)]
    return alone[0] if len(alone) == 1 and owner == "other" else None


def _near(st: SubjectState, c: CodeHit) -> Mention | None:
    near = st.people_between(c.start - 400, c.start)
    prev = [m for m in near if m.end <= c.start and c.start - m.end < 150]
    return prev[-1] if prev else None
