"""Generic placeholders ([REDACTED], ***, ████, XXX) read by their slot: a person slot ("Dear
[REDACTED]", "my wife XXX", "Patient: ***") or a value slot ("born on [REDACTED]"); in
third-person slots one token is one person, a greeting's is the addressee, a signature's the
writer."""

from __future__ import annotations

import re

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.mentions import Mention
from spia_core.adversary.local.patterns import GREETING
from spia_core.adversary.local.subjects.state import SubjectState

_CUES = lexicons.subject_cues()
_ROLE_WORDS = {r.key for r in lexicons.roles()} | lexicons.words("role_noun")
_GREETING = re.compile(rf"(?:{GREETING}|(?:^|\n)\s*(?:Attn|To)):?\s*$")  # "Hi X", "To: X"
_SIGNED = re.compile(r"\b(?:Signed|Signature|Sign-off)\s*:?\s*$", re.IGNORECASE)
_CLOSING = _CUES["closing_formula"]
_END = re.compile(r"(?:,\s*\[[A-Z]+\])*(?:\s+x+)?\s*\Z")  # ', [DATETIME], [LOC]', ' xx': the end
_TITLE = re.compile(rf"\b(?:{lexicons.alternation('honorific')})\.?\s*$")
_OBJECT_BEFORE = re.compile(rf"\b(?:{lexicons.alternation('object_verb')})\s+$")


def _norm(token: str) -> str:
    """One identity per placeholder form: any run of █ or * or X is the same token."""
    return {"█": "█", "*": "***"}.get(token[0]) or re.sub("^X+$", "XXX", token.upper())


def _word_before(before: str) -> str:
    """'kin' ('my wife XXX', 'his daughter, ***'), 'role' ('Patient █████') or ''."""
    word = "".join(re.findall(r"[A-Za-z][a-z\-]+(?=\s*,?\s*$)", before)[-1:]).lower()
    role = word in _ROLE_WORDS | lexicons.words("person_key") or word in lexicons.occupations()[0]
    return "kin" if word in lexicons.kin_words() else "role" if role else ""


def _signature(text: str, start: int, end: int) -> bool:
    """The placeholder stands alone on a line after a closing formula (or 'Signed:')."""
    line_start = text.rfind("\n", 0, start) + 1
    if lead := text[line_start:start].strip():  # 'Signed: X'; '- X', '... Love, X' ending the text
        last = re.split(r"(?<=[.!?])\s+", lead)[-1] if _END.match(text, end) else ""
        signed = last in tuple("-–—~") or ("," in last and _CLOSING.fullmatch(last))
        return bool(signed or _SIGNED.search(lead))
    if not re.compile(r"[^\S\n]*(?:\n|\Z)").match(text, end):  # more on its line
        return False
    previous = text[max(0, line_start - 120) : line_start].rstrip().splitlines()[-2:]
    closing = any(_CLOSING.search(line.strip()) for line in previous)
    rest = [] if closing else [ln for ln in text[end:].splitlines() if ln.strip()]  # last lines
    return closing or (len(rest) <= 2 and text[max(0, line_start - 2) : line_start] == "\n\n")


def slot(text: str, start: int, end: int) -> str:
    """'addressee' | 'author' | 'person' | 'named' (bound to the kin or role word before it)
    | 'value' for a generic placeholder at [start, end)."""
    before, after = text[text.rfind("\n", 0, start) + 1 : start], text[end : end + 40]
    if _GREETING.search(text[max(0, start - 30) : start]):
        return "addressee"
    if _signature(text, start, end) or re.search(r"\bI\s*,\s*$", before):
        return "author"
    if (word := _word_before(before)) == "kin":
        return "named"  # "my wife XXX": the relative's own mention, no shared identity
    thanks = re.search(r"\b(?:[Tt]hanks|[Gg]rateful) to\s*$", before)  # 'Thanks to XXX for'
    if word == "role" or _TITLE.search(before) or thanks:
        return "person"
    if lexicons.subject_cues()["value_after"].match(after) or _CUES["value_before"].search(before):
        return "value"
    acts = _CUES["acts_after"].match(after) or _OBJECT_BEFORE.search(before)  # 'I have known ***'
    return "person" if _CUES["person_key"].search(before) or acts else "value"


def read_placeholders(text: str, masks) -> tuple[list[Mention], list[Mention], list[Mention]]:
    """(third-person mentions, addressee mentions, author mentions) of generic placeholders.
    Third-person mentions of the same token share one identity ("MASK:[REDACTED]")."""
    people, addressees, authors, keys = [], [], [], {}  # type: ignore[var-annotated]
    for start, end, _label, _num in (m for m in masks if not m[2]):  # typed: read elsewhere
        token, kind = text[start:end], slot(text, start, end)
        if kind == "person":  # one identity per placeholder form, and per role ('Tenant:',
            base, before = f"MASK:{_norm(token)}", text[text.rfind("\n", 0, start) + 1 : start]
            title = _TITLE.search(before)  # 'Consultant: Dr ***', 'his GP, Dr ***': read past it
            before = before[: title.start()] if title else before
            role = _CUES["slot_role"].search(before)  # a field key, a role: 'The nurse, ***'
            word = before.split()[-1].strip(",") if _word_before(before) == "role" else ""
            phrase = (role.group("key") or role.group("role")) if role else word
            key = (phrase or (title.group(0) if title else "")).strip(" .").lower()  # 'Dr ***'
            other = key and any(b == base and k != key for b, k in keys)  # another role, person
            ident = keys.setdefault((base, key), f"{base}:{key}" if other else base)
            t = title.group(0).strip() if title else ""
            m = Mention(start, end, token, "placeholder", role=phrase, identity=ident, title=t)
            people.append(m)
        elif kind != "value":  # a relative's own mention, the addressee, the writer
            found = {"named": people, "addressee": addressees, "author": authors}[kind]
            found.append(Mention(start, end, token, kind if kind == "author" else "placeholder"))
    return people, addressees, authors


def masked_people(st: SubjectState) -> None:
    """Pass: generic placeholders in person slots become masked people (same token, same
    person), the greeting's the addressee, the signature's the writer; a typed person
    placeholder alone under a closing formula is the writer too."""
    people, addressees, authors = read_placeholders(st.text, st.masks)
    bio = not st.firsts and re.match(r"\s*\[PERSON\] [a-z]", st.text)  # '[PERSON] is a ...'
    for m in [*st.names, *addressees]:  # a greeting's person ('Hi X,', 'To: X') is the recipient
        if m.kind == "placeholder" and _GREETING.search(st.text[max(0, m.start - 30) : m.start]):
            m.role, m.identity = m.role or "recipient", m.identity or "MASK:recipient"
        elif bio and m.text == "[PERSON]" and re.match(r" [a-z]", st.text[m.end :]):
            m.identity = "MASK:bio" if m.start < 4 or st.text[m.start - 2] in ".!?" else ""
        elif m.kind == "placeholder" and not m.identity and _signature(st.text, m.start, m.end):
            authors.append(Mention(m.start, m.end, m.text, "author"))
        elif m.text == "[PERSON]" and not m.role:  # 'Our team lead, [PERSON],': its role
            role = _CUES["slot_role"].search(st.text[st.text.rfind("\n", 0, m.start) + 1 : m.start])
            m.role = (role.group("role") or "") if role else ""
    signed = {(a.start, a.end) for a in authors}  # built once, not per name
    places = {m.start(m.lastgroup) for m in _CUES["place_slot"].finditer(st.text * (not st.legal))}
    for m in (m for m in st.names if m.start in places):
        st.decide("subject.masked_people", m, "no person: 'moving to [PERSON]', 'our dog Bo'")
    kept = [m for m in st.names if (m.start, m.end) not in signed and m.start not in places]
    st.names = sorted(kept + people + addressees, key=lambda m: m.start)
    st.firsts += authors
    for m in [*addressees, *authors]:
        why = "signature: the writer" if m.kind == "author" else "greeting: the addressee"
        st.decide("subject.masked_people", m, why)
