"""NAME and the CODE tags of one subject. Names in posts often come as handles (``@tkovac`` ->
"T. Kovac", ``Piet_R`` -> "Piet R") or e-mail addresses (``l.moreau@...`` -> "L. Moreau"); a
handle is completed from the subject's own e-mail (``@holt_77`` + ``e.holt@...`` -> "E. Holt")."""

from __future__ import annotations

import re
from dataclasses import dataclass

import spia_core.adversary.local.lexicons as lexicons
import spia_core.adversary.local.names as names
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft, draft_name
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.mentions import overlaps
from spia_core.adversary.local.rules import rule
from spia_core.model import Evidence
from spia_core.text.casing import english_word

_HEADER = lexicons.subject_cues("attribute_cues.tsv")["post_header_name"]


@dataclass(frozen=True)
class NameChoice:
    """The NAME chosen for a subject, with its certainty, evidence and how it was found (a
    mention, header, signoff or email: the rule ``identity.name_<source>``)."""

    name: str
    certainty: int
    evidence: list[Evidence]
    source: str


#: A name closing the text ("- Priya, 41, Leicester"), or introducing its writer ("Kofi here!").
_SIGNED, _INTRO = (lexicons.subject_cues()[k] for k in ("signed_name", "intro_name"))

_ADDRESSED = re.compile(r"\byou,[ \t]*\Z", re.IGNORECASE)
#: Words that close a post and are also recorded as given names (kin words, too: ", Mam.").
_CLOSERS = frozenset({"love", "amen", "blessings", "admin", "peace", "hope", *lexicons.kin_words()})


def signoff(text: str) -> re.Match[str] | None:
    """The name (age, town) closing a post, in its last 80 characters ('- Priya, 41, Leeds')."""
    return _SIGNED.search(text, max(0, len(text) - 80))


def signed_name(text: str) -> tuple[str, int, int] | None:
    """A writer's name closing or introducing a post, when its first word is a given name of
    the census or international records (``names.is_given_name``)."""
    for m in filter(None, (signoff(text), _INTRO.search(text))):
        key = "name" if m.group("name") else "name2"
        raw = m.group(key)
        first = lexicons.fold(raw.split()[0])
        if not names.is_given_name(raw) or first in lexicons.common_words() or first in _CLOSERS:
            continue
        if " " not in raw and first in lexicons.demonyms():  # "I am Kenyan": a nationality
            continue
        if " " not in raw and english_word(first) and first not in lexicons.first_names():
            continue  # "... at 4am. Legend.": praise, not a signature
        if m.re is _SIGNED and _ADDRESSED.search(text, max(0, len(text) - 80), m.start(key)):
            continue  # "So proud of you, Thandi.": the person addressed, not the writer
        return raw, m.start(key), m.end(key)
    return None


def header_name(text: str) -> tuple[str, int, int] | None:
    """The name in a post header ('Seller Name: Mitali', '[PERSON]: Arjun'), with its span."""
    if (m := _HEADER.match(text[:200])) is None:
        return None
    raw = m.group("name").strip()
    words = raw.split()  # "[PERSON] : hello there." is a one-line post, not a header name
    said = raw[-1:] in ".!?" or (len(words) > 1 and not all(w[:1].isupper() for w in words))
    if said or raw.startswith("[") or not re.search(r"[A-Za-z]", raw) or len(words) > 3:
        return None
    name = raw if " " in raw else names.handle_name(raw)
    return (name, m.start("name"), m.start("name") + len(raw)) if name else None


def subject_name(ctx: DocContext, d: Draft) -> NameChoice | None:
    """The best NAME for a subject: names and handles, completed from its e-mail addresses."""
    emails = [c.value for c in d.codes if c.tag == "EMAIL_ADDRESS"]
    value, cert, best = draft_name(d)
    if best is not None:
        return NameChoice(value, cert, [ctx.ev(best.start, best.end)], "mention")
    lead = ctx.text[: len(ctx.text) - len(ctx.text.lstrip())]
    opens = any(m.kind == "placeholder" and m.start == len(lead) for m in d.mentions)
    if (d.is_author or opens) and (head := header_name(ctx.text)) is not None:
        value = names.complete_with_email(head[0], emails)
        return NameChoice(value, 3, [ctx.ev(head[1], head[2])], "header")
    if d.is_author:
        signed = signed_name(ctx.text)  # not a name another subject holds ("Thanks, Marco!")
        held = [(m.start, m.end) for o in ctx.drafts if o is not d and o.alive for m in o.mentions]
        if signed and not ctx.is_masked(*signed[1:]) and not overlaps(*signed[1:], held):
            return NameChoice(signed[0], 3, [ctx.ev(signed[1], signed[2])], "signoff")
    for c in d.codes:
        if c.tag == "EMAIL_ADDRESS":
            value = names.email_name(c.value)
            if value and any(len(t) > 1 for t in names._folded(value)):
                return NameChoice(value, 3 if d.is_author else 2, [ctx.ev(c.start, c.end)], "email")
    return None


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out = [
        rule("identity.code").find(c.value, [ctx.ev(c.start, c.end)], tag=c.tag) for c in d.codes
    ]
    if (c := subject_name(ctx, d)) is not None:
        found = rule(f"identity.name_{c.source}").find(c.name, c.evidence, certainty=c.certainty)
        out.insert(0, found)
    return out
