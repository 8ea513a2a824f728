"""People's names as the local adversary reads them: census first-name and surname frequencies,
handles and e-mail addresses turned into names, a first name's sex. Shared by mention
finding, subject finding and the attribute rules (it imports none of them)."""

from __future__ import annotations

import functools
import re

import spia_core.adversary.local.lexicons as lexicons

_PARTICLES = frozenset({"mc", "mac", "o", "de", "di", "da", "van", "von", "le", "la", "st"})
#: Pieces of a handle: "ZoëHart" -> Zoë, Hart (accented Latin letters too)
_PIECE = re.compile(r"[A-ZÀ-ÖØ-ÞĀ-Ž]+(?![a-zß-öø-ÿā-ž])|[A-ZÀ-ÖØ-ÞĀ-Ž]?[a-zß-öø-ÿā-ž’']+")


@functools.cache
def name_sets() -> tuple[frozenset[str], frozenset[str]]:
    """(first names, last names), folded, from the census lists (ASCII only)."""
    firsts, lasts = name_votes()
    return frozenset(firsts), frozenset(lasts)


def _lean(word: str) -> int:
    """+1 / -1 / 0: the census lists ``word`` more often as a first name / surname / even."""
    firsts, lasts = name_votes()
    diff = firsts.get(word, 0) - lasts.get(word, 0)
    return (diff > 0) - (diff < 0)


@functools.cache
def name_votes() -> tuple[dict[str, float], dict[str, float]]:
    """Census frequency of each folded ASCII word as a first name / as a surname (1990 U.S.
    Census lists of the ``names`` package; no generator lists)."""
    male, female, last = lexicons.census_names()
    firsts = {w: max(male.get(w, 0.0), female.get(w, 0.0)) for w in male.keys() | female.keys()}
    return (
        {w: v for w, v in firsts.items() if w.isascii() and w.isalpha()},
        {w: v for w, v in last.items() if w.isascii() and w.isalpha()},
    )


@functools.cache
def handle_words() -> frozenset[str]:
    """Words of usernames that are not names (data/lexicons/handle_words.tsv + job words)."""
    jobs = {w for w in lexicons.occupations()[0] if " " not in w}
    return frozenset({row[0].lower() for row in lexicons._read_tsv("handle_words.tsv")} | jobs)


def _cap(token: str) -> str:
    if len(token) == 1:
        return token.upper() + "."
    return token if token.isupper() and len(token) <= 3 else lexicons.capitalised(token)


def split_run(token: str) -> list[str]:
    """Split a run-together lower-case name: 'nicoleherman' -> ['nicole', 'herman'],
    'lintonjohn' -> ['john', 'linton'], 'njones' -> ['n', 'jones'], 'barnesj' -> ['barnes'].
    A token that is itself a known name, or cannot be split, is returned whole."""
    t = token.lower()
    firsts, lasts = name_sets()
    if len(t) < 5 or t in firsts or t in lasts or t in world_given_names():
        return [t]
    strong = lexicons.first_names()
    best: tuple[int, list[str]] | None = None
    for i in range(3, len(t) - 2):
        a, b = t[:i], t[i:]
        for first, last, order in ((a, b, 0), (b, a, 1)):
            if first in firsts and last in lasts:
                score = 2 * min(len(a), len(b)) + _lean(first) - _lean(last) - order
                score += 2 * (first in strong) - 2 * (last in strong)
                score += (first not in lasts) + (last not in firsts)
                if best is None or score > best[0]:
                    best = (score, [first, last])
    if best is not None:
        return best[1]
    return [t[0], t[1:]] if t[1:] in lasts else [t[:-1]] if t[:-1] in lasts else [t]


def handle_tokens(raw: str) -> list[str]:
    """Name tokens of a handle or username (original case), generic words dropped."""
    s = raw.strip().lstrip("@").strip()
    tokens: list[str] = []
    for part in filter(None, re.split(r"[_.\-\s\d]+", s)):
        pieces = _PIECE.findall(part) or [part]
        merged: list[str] = []
        for p in pieces:
            if merged and lexicons.fold(merged[-1]) in _PARTICLES and p[:1].isupper():
                merged[-1] += p
            else:
                merged.append(p)
        tokens.extend(merged)
    return [t for t in tokens if lexicons.fold(t) not in handle_words()] or tokens


def handle_name(raw: str) -> str:
    """'@idabrennan' -> 'Ida Brennan', 'MeeraAdmin' -> 'Meera', '@tkovac' -> 'T. Kovac'."""
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
    parts = [p for p in re.split(r"[._\-+\d]+", address.split("@", 1)[0]) if p]  # local part
    if not parts or lexicons.fold(parts[0]) in lexicons.words("generic_local"):
        return ""
    if len(parts) == 1:
        parts = split_run(parts[0])
    return " ".join(_cap(p.lower()) for p in parts)


def _folded(name: str) -> list[str]:
    return [lexicons.fold(t).rstrip(".") for t in name.split()]


def complete_with_email(name: str, emails: list[str]) -> str:
    """Complete a one-word handle name from the subject's e-mail: 'Holt' + e.holt@ -> 'E. Holt',
    'Ines' + i.varga@ -> 'Ines Varga', 'Lund' + petra81@ -> 'Petra Lund'."""
    h = _folded(name)
    if len(h) != 1 or not h[0]:
        return name
    _, lasts = name_sets()
    for full in filter(None, map(email_name, emails)):
        e = _folded(full)
        if len(e) >= 2 and e[-1] == h[0]:
            return full
        if len(e) >= 2 and (e[0] == h[0] or (len(e[0]) == 1 and h[0].startswith(e[0]))):
            return f"{name} {full.split()[-1]}"
        strong = lexicons.first_names()
        if len(e) == 1 and e[0] in strong and h[0] in lasts and h[0] not in strong:
            return f"{full} {name}"
    return name


def _given(name: str) -> str:
    """The folded first given name of ``name`` (initials skipped; never the surname after
    them: 'A. Mensah'), or ''."""
    words = name.replace("_", " ").split()
    tok = next((t.strip(".") for t in words[: len(words) - 1 or 1] if len(t.strip(".")) > 1), "")
    return lexicons.fold(tok)


@functools.cache
def world_given_names() -> dict[str, float]:
    """Folded given name -> share of women bearing it, over the name records of many countries
    (``data/lexicons/given_names_sex.tsv``, built from the nomquamgender data; SOURCES.md)."""
    return {row[0]: float(row[1]) for row in lexicons._read_tsv("given_names_sex.tsv")}


def is_given_name(name: str) -> bool:
    """True when the first word of ``name`` is a given name of the census or international
    records (whatever its sex)."""
    given = _given(name)
    return given in world_given_names() or given in name_sets()[0]


def census_name_sex(name: str) -> str:
    """'Male'/'Female' from the first given name in the U.S. census lists, else '' (also when the
    international records give it mostly to the other sex: 'Jan Kowalski', 'Robin')."""
    sex, p = lexicons.first_names().get(g := _given(name), ""), world_given_names().get(g, 0.5)
    return "" if (sex == "Female" and p < 0.35) or (sex == "Male" and p > 0.65) else sex


def world_name_sex(name: str) -> str:
    """'Male'/'Female' when at least 90% of the bearers of the first given name are of one sex
    in the international name records, else ''."""
    p = world_given_names().get(_given(name), 0.5)  # an unknown name is neither
    return "Female" if p >= 0.9 else "Male" if p <= 0.1 else ""


def name_sex(name: str) -> str:
    """'Male'/'Female' from the first given name (census lists, then the international
    records), '' when unknown or ambiguous."""
    return census_name_sex(name) or world_name_sex(name)
