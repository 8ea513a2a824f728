"""NAME and the CODE tags of one subject.

Names in online posts often come as handles or usernames: ``@nicoleherman`` -> "Nicole Herman",
``@njones`` -> "N. Jones", ``VasuAdmin`` -> "Vasu", ``Jacob_M`` -> "Jacob M", or as e-mail
addresses (``t.zimmerman@...`` -> "T. Zimmerman"). A handle is completed from the subject's own
e-mail address when they share a name part (``@ward_77`` + ``b.ward@...`` -> "B. Ward").
Run-together handles are split with Faker's per-locale first- and last-name lists.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.mentions import Mention
from spia_core.model import Evidence

_PARTICLES = frozenset({"mc", "mac", "o", "de", "di", "da", "van", "von", "le", "la", "st"})
_GENERIC_LOCAL = frozenset(
    {
        "info",
        "support",
        "admin",
        "contact",
        "sales",
        "help",
        "noreply",
        "office",
        "hr",
        "team",
        "hello",
        "service",
        "billing",
        "jobs",
        "careers",
        "mail",
        "webmaster",
    }
)
_HEADER = re.compile(
    r"\A\s*(?:\[[A-Z_]+\]\s*)?(?:(?:Seller|Buyer|User|Contact|Author|Poster|Reviewer)\s*)?(?:Name|name|Username|"
    r"User|Author|Seller|Posted by|From|\[[A-Z_]+\])\s*:\s*(?P<name>[^|\n]{2,40}?)\s*(?:\||\n|$)"
)


@dataclass(frozen=True)
class NameChoice:
    """The NAME chosen for a subject, with its certainty, evidence and the rule used."""

    name: str
    certainty: int
    evidence: list[Evidence]
    source: str


@functools.cache
def name_sets() -> tuple[frozenset[str], frozenset[str]]:
    """(first names, last names), folded, from all of Faker's person locales (ASCII only)."""
    firsts, lasts = name_votes()
    return frozenset(firsts), frozenset(lasts)


def leans_first(word: str) -> bool:
    """True when Faker's locales list the folded ``word`` more often as a first name."""
    return _lean(word) > 0


def _lean(word: str) -> int:
    """+1 when Faker's locales list ``word`` more often as a first name than as a surname,
    -1 for the reverse, 0 when even ('john' +1, 'jones' -1, 'linton' 0)."""
    firsts, lasts = name_votes()
    diff = firsts.get(word, 0) - lasts.get(word, 0)
    return (diff > 0) - (diff < 0)


@functools.cache
def name_votes() -> tuple[dict[str, int], dict[str, int]]:
    """How many Faker person locales list each folded ASCII word as a first name / a surname."""
    firsts: dict[str, int] = {}
    lasts: dict[str, int] = {}

    def words(value: object) -> list[str]:
        if not isinstance(value, list | tuple | dict | set | frozenset):
            return []
        return [w.lower() for w in value if isinstance(w, str) and w.isascii() and w.isalpha()]

    for _locale, provider in lexicons.faker_providers("faker.providers.person"):
        given: set[str] = set()
        for attr in ("first_names", "first_names_male", "first_names_female"):
            given.update(words(getattr(provider, attr, None)))
        for w in given:
            firsts[w] = firsts.get(w, 0) + 1
        for w in set(words(getattr(provider, "last_names", None))):
            lasts[w] = lasts.get(w, 0) + 1
    return firsts, lasts


@functools.cache
def handle_words() -> frozenset[str]:
    """Words of usernames that are not names (data/lexicons/handle_words.tsv + job words)."""
    words = {row[0].lower() for row in lexicons._read_tsv("handle_words.tsv")}
    table, _ = lexicons.occupations()
    words.update(w for w in table if " " not in w)
    return frozenset(words)


def _cap(token: str) -> str:
    if len(token) == 1:
        return token.upper() + "."
    if token.isupper() and len(token) <= 3:
        return token
    return token[:1].upper() + token[1:]


def split_run(token: str) -> list[str]:
    """Split a run-together lower-case name: 'nicoleherman' -> ['nicole', 'herman'],
    'lintonjohn' -> ['john', 'linton'], 'njones' -> ['n', 'jones'], 'barnesj' -> ['barnes'].
    A token that is itself a known name, or cannot be split, is returned whole."""
    t = token.lower()
    firsts, lasts = name_sets()
    if len(t) < 5 or t in firsts or t in lasts:
        return [t]
    best: tuple[int, list[str]] | None = None
    for i in range(3, len(t) - 2):
        a, b = t[:i], t[i:]
        for first, last, order in ((a, b, 0), (b, a, 1)):
            if first in firsts and last in lasts:
                strong = 2 * (first in lexicons.first_names()) - 2 * (
                    last in lexicons.first_names()
                )
                score = (
                    2 * min(len(a), len(b))
                    + strong
                    + (first not in lasts)
                    + (last not in firsts)
                    + _lean(first)
                    - _lean(last)
                    - order
                )
                if best is None or score > best[0]:
                    best = (score, [first, last])
    if best is not None:
        return best[1]
    if len(t) >= 5 and t[1:] in lasts:
        return [t[0], t[1:]]
    if len(t) >= 5 and t[:-1] in lasts:
        return [t[:-1]]
    return [t]


def handle_tokens(raw: str) -> list[str]:
    """Name tokens of a handle or username (original case), generic words dropped."""
    s = raw.strip().lstrip("@").strip()
    tokens: list[str] = []
    for part in re.split(r"[_.\-\s\d]+", s):
        if not part:
            continue
        pieces = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z’']+", part) or [part]
        merged: list[str] = []
        for p in pieces:
            if merged and lexicons.fold(merged[-1]) in _PARTICLES and p[:1].isupper():
                merged[-1] += p
            else:
                merged.append(p)
        tokens.extend(merged)
    kept = [t for t in tokens if lexicons.fold(t) not in handle_words()]
    return kept or tokens


def handle_name(raw: str) -> str:
    """'@nicoleherman' -> 'Nicole Herman', 'VasuAdmin' -> 'Vasu', '@njones' -> 'N. Jones'."""
    s = raw.strip().lstrip("@").strip()
    if re.search(r"[\[\]<>*█]", s):
        return ""  # a masking placeholder, not a name
    if re.search(r"@[\w\-]+\.", s):
        return email_name(s)
    tokens = handle_tokens(s)
    if len(tokens) == 1 and tokens[0].islower():
        tokens = split_run(tokens[0])
    return " ".join(_cap(t) for t in tokens if t)


def email_name(address: str) -> str:
    """A person's name from an e-mail address ('' for role addresses like support@)."""
    local = address.split("@", 1)[0]
    parts = [p for p in re.split(r"[._\-+\d]+", local) if p]
    if not parts or lexicons.fold(parts[0]) in _GENERIC_LOCAL:
        return ""
    if len(parts) == 1:
        parts = split_run(parts[0])
    return " ".join(_cap(p.lower()) for p in parts)


def _folded(name: str) -> list[str]:
    return [lexicons.fold(t).rstrip(".") for t in name.split()]


def complete_with_email(name: str, emails: list[str]) -> str:
    """Complete a one-word handle name from the subject's e-mail: 'Ward' + b.ward@ -> 'B. Ward',
    'Mitali' + m.chawla@ -> 'Mitali Chawla', 'Anderson' + david81@ -> 'David Anderson'."""
    h = _folded(name)
    if len(h) != 1 or not h[0]:
        return name
    _, lasts = name_sets()
    for address in emails:
        full = email_name(address)
        e = _folded(full)
        if not e or not full:
            continue

        if len(e) >= 2 and e[-1] == h[0]:
            return full
        if len(e) >= 2 and (e[0] == h[0] or (len(e[0]) == 1 and h[0].startswith(e[0]))):
            return f"{name} {full.split()[-1]}"
        strong = lexicons.first_names()
        if len(e) == 1 and e[0] in strong and h[0] in lasts and h[0] not in strong:
            return f"{full} {name}"
    return name


#: What the masker left of a handle that opens a post ("[PERSON].curtis :", "[PERSON]_55 :").
_HANDLE_RESIDUE = re.compile(
    r"\s*@?\[PERSON(?:_\d+)?\][._-]?(?P<rest>[A-Za-z][\w.]*[A-Za-z\d])\s*:"
)


def header_name(text: str) -> tuple[str, int, int] | None:
    """The name in a post header ('Seller Name: Mitali', '[PERSON]: Arjun'), with its span."""
    m = _HEADER.match(text[:200])
    if m is None:
        return None
    raw = m.group("name").strip()
    if raw.startswith("[") or not re.search(r"[A-Za-z]", raw) or len(raw.split()) > 3:
        return None
    if (" " in raw and not all(w[:1].isupper() for w in raw.split())) or raw[-1] in ".!?":
        return None  # "[PERSON] : hello there." is a one-line post, not a header name
    name = raw if " " in raw else handle_name(raw)
    return (name, m.start("name"), m.start("name") + len(raw)) if name else None


def draft_name(d: Draft) -> tuple[str, int, Mention | None]:
    """(name, certainty, mention) from the subject's own names and handles; ('', 0, None)."""
    emails = [c.value for c in d.codes if c.tag == "EMAIL_ADDRESS"]
    names = d.names
    if not names:
        return "", 0, None
    full = [m for m in names if m.kind == "name"]
    if full:
        best = max(full, key=lambda m: (len(m.name.split()), len(m.name)))
        value, cert = best.name, 5
    else:
        best = names[0]
        value = handle_name(best.text)
        if not value:
            return "", 0, None
        cert = 4 if " " in value else 3
    value = complete_with_email(value, emails) if " " not in value else value
    return value, cert, best


def subject_name(ctx: DocContext, d: Draft) -> NameChoice | None:
    """The best NAME for a subject: names and handles, completed from its e-mail addresses."""
    emails = [c.value for c in d.codes if c.tag == "EMAIL_ADDRESS"]
    value, cert, best = draft_name(d)
    if best is not None:
        return NameChoice(value, cert, [ctx.ev(best.start, best.end)], best.kind)
    lead = ctx.text[: len(ctx.text) - len(ctx.text.lstrip())]
    opens = any(m.kind == "placeholder" and m.start == len(lead) for m in d.mentions)
    if d.is_author or opens:
        head = header_name(ctx.text)
        if head is not None:
            value = complete_with_email(head[0], emails)
            return NameChoice(value, 3, [ctx.ev(head[1], head[2])], "header")
        rest = _HANDLE_RESIDUE.match(ctx.text)
        value = handle_name(rest.group("rest")) if rest else ""
        if rest and value:
            # "[PERSON].curtis :": the masker hid one part of the handle, the rest names them.
            ev = [ctx.ev(rest.start("rest"), rest.end("rest"))]
            return NameChoice(complete_with_email(value, emails), 2, ev, "handle-residue")
    for c in d.codes:
        if c.tag == "EMAIL_ADDRESS":
            value = email_name(c.value)
            if value and any(len(t) > 1 for t in _folded(value)):
                return NameChoice(value, 3 if d.is_author else 2, [ctx.ev(c.start, c.end)], "email")
    return None


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    choice = subject_name(ctx, d)
    if choice is not None:
        out.append(
            Finding("NAME", choice.name, choice.certainty, 1, choice.evidence, choice.source)
        )
    for c in d.codes:
        out.append(Finding(c.tag, c.value, 5, 1, [ctx.ev(c.start, c.end)], "code"))
    return out
