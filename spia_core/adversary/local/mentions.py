"""Mention detection for Stage A: names, placeholders, roles, kin words, first person, handles."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import spia_core.adversary.local.lexicons as lexicons
import spia_core.adversary.local.patterns as patterns
import spia_core.adversary.local.rules as rules
from spia_core.adversary.local.names import (
    handle_name,
    handle_tokens,
    handle_words,
    is_given_name,
    name_sets,
    world_given_names,
)
from spia_core.text.casing import english_word

_CUES = lexicons.subject_cues()


@dataclass
class Mention:
    """A reference to a person: one span of the text."""

    start: int
    end: int
    text: str
    kind: str  # name | placeholder | role | author | kin | handle | code
    name: str = ""  # the name without title (name/handle kinds)
    title: str = ""
    role: str = ""  # role key (applicant, agent, lawyer...) or kin word
    ordinal: int = 0  # "the second applicant" -> 2
    plural: bool = False
    identity: str = ""  # placeholder identity ("PERSON_2"); "" when not reusable
    anchor: str = ""  # kin: the possessor phrase ("my", "his", "the applicant's", "Mr X's")
    count: int = 1  # kin: "two sons" -> 2
    qualifier: str = ""  # role: "modifier|complement" ("principal public|court of cassation")
    source: str = ""  # rule that found it ("cue": a known first name after a social cue)

    @classmethod
    def at(cls, m: re.Match[str], kind: str, group: int | str = 0, **kw: Any) -> Mention:
        """The mention of a regex match, or of one of its groups."""
        return cls(m.start(group), m.end(group), m.group(group), kind, **kw)

    @classmethod
    def between(cls, text: str, start: int, end: int, kind: str, **kw: Any) -> Mention:
        """The mention of ``text[start:end]``."""
        return cls(start, end, text[start:end], kind, **kw)


QUOTE_SPANS = re.compile(r"“[^”]{0,2000}”|\"[^\"\n]{0,2000}\"")


def _plain_word(word: str) -> bool:
    """A common English word (or its plural) that is no surname or first name."""
    w = lexicons.fold(word)
    common = {w, w.removesuffix("s")} & lexicons.common_words()
    return bool(common) and w not in name_sets()[1] and w not in lexicons.first_names()


def overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """True when [start, end) overlaps one of ``spans``."""
    return any(s < end and start < e for s, e in spans)


_LEAD = lexicons.alternation("lead_title", "title_job")  # "Mr", "Sgt", "Lt Col"
_LEAD_TITLES = re.compile(rf"(?i)^(?:(?:{_LEAD})\.?\s+)+")


def clean_name(raw: str) -> str:
    """Strip titles, possessives and punctuation from a name."""
    name = re.split(r"\s[-–—]\s", raw, maxsplit=1)[0].strip().strip(",;:!?()[]“”\"'")  # "Jo - Chef"
    name = _LEAD_TITLES.sub("", re.sub(r"['’]s$", "", name))
    return name.strip(" .,") if not re.search(r"\b[A-Z]\.$", name) else name.strip(" ,")


def plausible_name(name: str) -> bool:
    """Reject NER person spans that are roles, places or noise."""
    if not name or len(name) < 2 or any(ch.isdigit() for ch in name) or not name[0].isupper():
        return False
    words = name.split()
    if len(words) > 5 or any(lexicons.fold(w) in lexicons.words("not_name") for w in words):
        return False
    place = lexicons.gazetteer().country(name) or lexicons.fold(name) in lexicons.demonyms()
    # no country, people, job ("Consultant Orthopaedic Surgeon" tagged PERSON), word in capitals
    return not place and not lexicons.job_label(name) and (not name.isupper() or len(name) <= 3)


def handle_to_name(handle: str) -> str:
    """'@greta_holm' -> 'Greta Holm', '@ingrid77' -> 'Ingrid'."""
    parts = [p for p in re.split(r"[_.\-\d]+", handle.lstrip("@")) if len(p) >= 2]
    return " ".join(map(lexicons.capitalised, parts))


#: Capitalised words listed with commas and a last 'and' ("Tom, Ana and Leo"; firms take '&').
_LISTED = lexicons.latin(r"\b[A-Z][a-z]{2,}(?:, [A-Z][a-z]{2,})+,? and [A-Z][a-z]{2,}\b")


def _is_first(word: str, world: bool = False) -> bool:
    """A census first name, or with ``world`` one of any country's records (no word or place)."""
    f = lexicons.fold(word)
    if f in lexicons.words("wordlike_first") or f in lexicons.demonyms():  # not "Kenyan"
        return False
    known = f in lexicons.first_names() or f in name_sets()[0]
    if known or not world or f in lexicons.common_words():
        return known
    return f in world_given_names() and lexicons.gazetteer().lookup(word) is None


def big_city(word: str) -> bool:
    """A place of 100,000 people or more bears the name ("Manila", "Florence")."""
    return getattr(lexicons.gazetteer().lookup(word), "population", 0) >= 1e5


def _small_town_given(word: str) -> bool:
    """Any country's given name, also where a town under 100,000 bears it ("Kemi"; not Manila)."""
    return not big_city(word) and lexicons.fold(word) in world_given_names()


def firm_like(phrase: str) -> bool:
    """A list of capitalised words that reads as surnames (a firm), not as first names."""
    words = re.findall(r"[A-Z][\w’'\-]+", phrase)
    return sum(lexicons.fold(w) in lexicons.first_names() for w in words) * 2 < len(words)


def find_paired_names(text: str) -> list[Mention]:
    """'Ivo & Lena Kessler' -> 'Ivo Kessler' and 'Lena Kessler' (a shared surname)."""
    out = []
    for m in _CUES["pair"].finditer(text):
        if m["ta"]:  # "Mr and Mrs Patel": two titled people
            kw = {"name": m["last"], "source": "pair"}
            out.append(Mention.at(m, "name", "ta", title=m["ta"], **kw))
            out.append(Mention.between(text, m.start("tb"), m.end(), "name", title=m["tb"], **kw))
        elif not (_is_first(m.group("a")) and _is_first(m.group("b"))):
            continue
        nxt = re.match(r"\s+(\w+)", text[m.end() :])
        if m["ta"] or (nxt and nxt[1].lower() in lexicons.words("org_head")):
            continue  # a firm: "Smith & Jones Partners"
        last = m.group("last")
        out.append(Mention.at(m, "name", "a", name=f"{m.group('a')} {last}", source="pair"))
        span = (m.start("b"), m.end("last"))
        out.append(Mention.between(text, *span, "name", name=f"{m['b']} {last}", source="pair"))
    return out


def find_cue_names(text: str) -> list[Mention]:
    """Known first names after a social cue in informal text ("with Leigh", "hubby Marcus"),
    full names of a known first name and surname ("Helena Marsh"), and @handles that do not
    open the text ("with @MiaKowal")."""
    lower = set(re.findall(r"\b[a-z]+\b", text))
    out: list[Mention] = []
    for m in [*_CUES["name_cue"].finditer(text), *_CUES["vocative"].finditer(text)]:
        name, cue = m.group("name"), m.groupdict()
        first, noun = name.split()[0], cue.get("noun") or ""
        skip = noun in lexicons.words("not_person") or lexicons.fold(first) in lower
        skip = skip or first in lexicons.words("lead_title") | lexicons.words("name_cue")  # "Hey,"
        # "my daughter (Ama)": a word alone in brackets after a kin word is a name
        kin = noun in lexicons.kin_words() and text[m.end("name") : m.end("name") + 1] == ")"
        bracketed = kin and lexicons.fold(first) not in lexicons.common_words()
        contact = noun in lexicons.words("social_noun") or noun in lexicons.kin_words()
        bracketed |= contact and _small_town_given(first)
        if not bracketed and (skip or not _is_first(first, world=True)):  # any country's names
            continue
        second = lexicons.fold(name.split()[1]) if " " in name else ""
        if second in lexicons.words("org_head"):
            continue  # "for Justice Watch": an organisation's name
        if second and (second in lexicons.words("not_name") or second not in name_sets()[1]):
            name = first  # "with Leigh Today": the second word is no surname
        end = m.start("name") + len(name)
        # after to/for/from/by (they take places too) a name off the census lists vouches for
        # no NER name ("Pickup from Mohan Vihar"): source "cue?"
        source = "cue?" if cue.get("prep") and not _is_first(first) else "cue"
        out.append(Mention(m.start("name"), end, name, "name", name=name, source=source))
    for m in _LISTED.finditer(text):  # a list of given names only: each one a person
        words = list(lexicons.latin(r"[A-Z][a-z]+").finditer(text, m.start(), m.end()))
        if all(_is_first(w[0]) or _small_town_given(w[0]) for w in words) and not any(
            lexicons.fold(w[0]) in lower for w in words
        ):
            out += [Mention.at(w, "name", name=w[0], source="cue") for w in words]
    taken = [(m.start, m.end) for m in out]
    lasts = name_sets()[1]
    for m in _CUES["full_name"].finditer(text):  # a known first name and surname: "Helena Marsh"
        first, last = m.group("first"), m.group("last")
        if overlaps(*m.span(), taken):
            continue
        f = lexicons.fold(first)
        if f not in lexicons.first_names() or f in lexicons.words("wordlike_first") or f in lower:
            continue
        if (low := lexicons.fold(last)) not in lasts or low in lower or lexicons.job_label(m[0]):
            continue
        out.append(Mention(m.start(), m.end(), m.group(0), "name", name=m.group(0), source="cue"))
    for m in re.finditer(r"\((?P<name>[A-Z][a-z]{2,})[!)]", text):  # "my support (Vincent!)"
        name = m.group("name")
        if not overlaps(*m.span(), taken) and _is_first(name) and lexicons.fold(name) not in lower:
            out.append(Mention.at(m, "name", "name", name=name, source="cue"))
    lead = len(text) - len(text.lstrip())
    for m in patterns.HANDLE.finditer(text):
        if m.start() <= lead + 1 or text[max(0, m.start() - 1) : m.start()].isalnum():
            continue
        if (name := handle_name(m.group(0))) and any(len(t) > 2 for t in name.split()):
            out.append(Mention.at(m, "handle", name=name))
    return out


@functools.cache
def _no_given() -> frozenset[str]:  # "Dear", "Uncle", "Chef" before a name: no given name
    jobs, w = lexicons.occupations()[0], lexicons.words
    return lexicons.common_words() | w("not_name") | w("role_noun") | {*lexicons.kin_words(), *jobs}


def find_name_mentions(text: str, ents: list[tuple[int, int, str]], masks) -> list[Mention]:
    """Titled names, NER PERSON entities, person placeholders, paired first names."""
    out: list[Mention] = find_paired_names(text)
    taken = [(m.start, m.end) for m in out] + [(s, e) for s, e, *_ in masks]  # "Dr XXXX": no name

    def add(m: Mention, span: tuple[int, int] | None = None) -> None:
        out.append(m)
        taken.append(span or (m.start, m.end))

    for m in patterns.TITLED_NAME.finditer(text):
        if overlaps(*m.span(), taken):
            continue
        first = (name := clean_name(m.group("name"))).split()[0] if m["name"] else ""
        rank = m["title"] not in lexicons.words("name_title") and not _is_first(first, True)
        end = m.end()
        if (cut := re.match(r"[A-Z]\.(?= (\w+))", name)) and _plain_word(cut[1]):
            name, end = name[0], m.start("name") + 1  # "Mr X. Notes were taken": X
        if name and lexicons.fold(first) not in lexicons.words("not_name") and not rank:
            add(Mention.between(text, m.start(), end, "name", name=name, title=m.group("title")))
    for m in _CUES["a_certain"].finditer(text):  # "a certain P. Andronikou": a named third party
        if not overlaps(*m.span(), taken):
            add(Mention.at(m, "name", "name", name=m.group("name"), source="certain"))
    for m in re.finditer(r"\b(?P<name>[A-Z][a-z]+(?:-[A-Z][a-z]+)?) (?P<title>LJ)\b", text):
        if not overlaps(*m.span(), taken):  # "Mummery LJ"
            add(Mention.at(m, "name", name=m.group("name"), role="judge"))
    for start, end, label, num in masks:
        slot = _CUES["not_a_person_slot"].search(near := text[max(0, start - 30) : start])
        social = label in {"LOC", "GPE", "ORG", "MISC", "DEM"} and _CUES["social"].search(near)
        listed = label != "DEM" and _WITH_I.match(text, start)  # '[ORG], [LOC] and I drove'
        if (patterns.is_person_label(label) or social or listed) and slot is None:
            before = patterns.TITLE_BEFORE.search(text[max(0, start - 12) : start])
            title = before.group("title") if before else ""
            s0 = start - (len(before.group(0)) if before else 0)
            ident = f"{label}_{num}" if num else ""
            add(Mention.between(text, s0, end, "placeholder", title=title, identity=ident))
    for m in _CUES["form_name"].finditer(text):  # "Patient name: Aoife Brennan" (a form's field)
        if not overlaps(*m.span("name"), taken):
            add(Mention.at(m, "name", "name", name=m["name"], role=(m["role"] or m["key"]).lower()))
    pets: set[str] = set()  # names said after a pet noun
    heads = lexicons.words("place_head") | lexicons.words("ambiguous_head")  # "Quarry Lane"
    for start, end, label in ents:
        if label != "PERSON" or overlaps(start, end, taken):
            continue
        raw = re.split(r"[!?]\s|(?<=[a-z]{2})\.\s", text[start:end])[0]  # "Sam! Proud" -> Sam
        nee = text[max(0, start - 5) : start].lower() in {"(née ", "(nee "}  # a maiden name
        if "".join(text[max(0, start - 20) : start].split()[-1:]) in lexicons.words("pet_noun"):
            pets.add(text[start:end])
        if nee or text[start:end] in pets or text[max(0, start - 1) : start] in {"#", "@"}:
            continue  # a hashtag, a handle or a pet ("our collie Meg"); "Ann Lee (née Hale)": one
        head, _, rest = raw.partition(" ")
        common = lexicons.fold(head) in lexicons.common_words() or head.endswith("ing")
        lead = rest and english_word(head.lower()) and not is_given_name(head)  # "Proud Brummie"
        common = common or (lead and rest.split()[-1].lower() not in heads)
        common = common and lexicons.fold(head) not in lexicons.first_names()  # "Bringing Theo"
        if rest and (head in lexicons.kin_words() or common):  # "Grandma Rosa", "Check Ambrose"
            start, raw = start + len(head) + 1, rest  # the kin word or verb is no name
        given = lexicons.latin(r"\b([A-Z][a-z]+) \Z").search(text[max(0, start - 20) : start])
        g = given and lexicons.fold(given[1])
        if g and " " not in raw and _is_first(g, True) and g not in _no_given():
            start, raw = start - len(given[0]), given[0] + raw  # NER clipped "Aoife Brennan"
        name = clean_name(raw)
        if not plausible_name(name):
            continue
        before = patterns.TITLE_BEFORE.search(text[max(0, start - 12) : start])
        title = before.group("title") if before else ""
        s1 = start + max(raw.find(name), 0)
        s0 = start - len(before.group(0)) if before else s1
        add(Mention.between(text, s0, s1 + len(name), "name", name=name, title=title), (start, end))
    return out


#: "... Would use again. - Priya, 41, Leicester": a given name, an age and maybe a town.
_AGED_SIGN = lexicons.latin(r"(?:^|[.!?\n-–—]\s*)(?P<name>[A-Z][a-z]+), \d{1,2}\b[^\n.!?]{0,40}$")


def sign_off(text: str) -> Mention | None:
    """The writer's name after a closing ("Regards,\\nAnn Lee", "Signed: T. Okwu, carer") or alone
    in the last block: a title, initials, a known first name or one word under a closing
    ("Cheers,\\nFolake"), so "Recruitment Officer" under "Yours sincerely" names no one."""
    closings = list(_CUES["closing_line"].finditer(text))
    c = _CUES["call_name"].search(text)  # "... text Gemma on 07700 ...": Gemma first named there
    c = c if c and text.find(c["name"]) == c.start("name") else None
    first = patterns.FIRST_PERSON.search(text)
    aged = None if first else _AGED_SIGN.search(text)  # no 'I'
    m = closings[-1] if closings else _CUES["last_block"].search(text) or aged or c
    bare = _CUES["bare_sign"].search(text) if first else None
    if (m := m or (bare if bare and bare["name"] not in text[: bare.start()] else None)) is None:
        return None
    role, kin = (m.groupdict().get("role") or "") * ("(" not in m[0]), lexicons.kin_words()
    if role and not (role[:1].isupper() or lexicons.job_label(role.split()[-1]) or role in kin):
        return None  # "Thanks, Tom, see you soon": no job after the name
    name = clean_name(raw := m.group("name"))
    titled = name != raw or re.match(r"[A-Z]\. ?\S", name)  # a title or initials ("J. R. Lee")
    word = re.fullmatch(r"[A-Z][a-z]+", name) and lexicons.fold(name) not in lexicons.common_words()
    said = re.search(r"[A-Za-z]", text[m.start() : m.start("name")])  # a closing word, no dash
    alone = closings and said and word and not lexicons.gazetteer().lookup(name)  # "Cheers,\nAda"
    if not name or not (titled or alone or is_given_name(name)):
        return None
    return Mention(m.start("name"), m.end("name"), raw, "handle", name=name)


def find_author_mentions(text: str) -> tuple[list[Mention], list[Mention]]:
    """First-person mentions outside quotes, and author names (header, handle, self-intro)."""
    quotes = [m.span() for m in QUOTE_SPANS.finditer(text)]
    firsts = [
        Mention.at(m, "author")
        for m in patterns.FIRST_PERSON.finditer(text)
        if not overlaps(m.start(), m.start() + 1, quotes)
    ]
    names: list[Mention] = []
    m = patterns.HEADER_NAME.search(text[:300])
    group = "name" if m is None or m.group("name") else "by"
    raw = m.group(group).strip() if m else ""
    if group == "by" and " " in raw and not raw[:1].isupper():
        m, raw = None, ""  # "Comment from the moderator": a description, not a name
    raw = raw.split("<")[0].strip() or raw  # "From: Ann Lee <ann@example.org>"
    # "Name: [REDACTED]" on a form: the masked person is read by its slot.
    form = m is None or patterns.is_generic_mask(raw)
    # "Seller Name: [ORG]": the masker hid the name, and its key is no name either (a
    # '[PERSON]' value stays a header mention: the subject passes merge it into the author).
    if hidden := not form and raw.startswith("[") and not raw.startswith("[PERSON"):
        firsts.insert(0, Mention(m.start(group), m.end(group), raw, "author"))
    elif not form:
        name = handle_to_name(raw) if re.search(r"[_.\d@[]|^\S+$", raw) else clean_name(raw)
        name = ("@" in raw and handle_name(raw)) or name
        names.append(Mention(m.start(group), m.end(group), raw, "handle", name=name))
    hm = patterns.HANDLE.match(text, len(text) - len(text.lstrip()))
    generic = hm and {lexicons.fold(t) for t in handle_tokens(hm[0])} <= handle_words()  # @user12
    if hm and not names and not hidden and not generic:
        names.append(Mention.at(hm, "handle", name=handle_to_name(hm.group(0))))
    if not names and not hidden:
        lm = patterns.LEAD_NAME.match(text)
        words = lm.group("name").split() if lm else []
        lead = lm and not any(lexicons.fold(w) in lexicons.words("not_name") for w in words)
        lead = lead and (not lm["name"].isupper() or is_given_name(lm["name"].title()))  # FOR SALE:
        if lead and (len(words) > 1 or lexicons.fold(words[0]) in lexicons.first_names()):
            names.append(Mention.at(lm, "handle", "name", name=lm.group("name")))
    cv = not names and not hidden and rules.enabled("subject.header_line")  # a CV, a letter
    hl = _CUES["header_line"].match(text) if cv else None
    if hl:  # a firm's header line ("Ltd", "Hospital") names no writer
        org = lexicons.words("org_head") | {w.lower() for w in lexicons.words("org_like_word")}
        hl = None if org & set(re.split(r"[ -]", hl.group("name").lower())) else hl
    if hl and (hl[1].isupper() or patterns.FIRST_PERSON.search(text)) and is_given_name(hl[1]):
        names.append(Mention.at(hl, "handle", "name", name=hl[1].title()))  # a CV in capitals
    intro = _CUES["self_intro"].search(text)
    first = intro.group("name").split()[0] if intro else ""
    tail = text[intro.end() : intro.end() + 24] if intro else ""  # "I'm Rajesh, a tester"
    named = intro and re.match(r"(?i)my name|it|i.*?, (?:an?|the|\w+['’]s) ", intro[0] + tail)
    known = lexicons.fold(first) in lexicons.first_names() or (named and _is_first(first, True))
    nation = intro is not None and lexicons.fold(intro.group("name")) in lexicons.demonyms()
    if intro and known and not nation:  # "I'm Irish": a nationality, not a name
        names.append(Mention.at(intro, "handle", "name", name=intro.group("name")))
    quoted = next((m.start() for m in _CUES["voice"].finditer(text) if m["wrote"]), None)
    return firsts, names + [s for s in [sign_off(text[:quoted])] if s is not None]


def role_qualifier(m: re.Match[str]) -> tuple[str, str]:
    """(modifier, complement) of a role match, folded ('principal public', 'court of cassation')."""
    pre = " ".join([m.group("adj") or "", *m.group("role").split()[:-1]]).strip()
    comp = re.sub(r"^(?:of|at|in|for) (?:the )?", "", (m.group("comp") or "").strip())
    return lexicons.fold(pre), lexicons.fold(comp)


def find_role_mentions(text: str) -> list[Mention]:
    """Role phrases: 'the applicant', 'their Agent', 'a judge of the County Court'."""
    out = []
    roles = lexicons.roles()
    for m in _CUES["role_mention"].finditer(text):
        det = m.group("det") or ""
        if det.startswith("["):
            det = "one"  # "[QUANTITY] of the officers": a masked "one of the"
        if not det and not re.match(r"\[|[A-ZÀ-ÞİŞÇĞÖÜŁŚŻŹ](?!\w+ly\b)", m.group("adj") or ""):
            continue  # a bare role word ("Judges", "Agent"), or after a lower-case modifier
        if not det and text.startswith(" here", m.end()):
            continue  # "Retired midwife here": the writer introducing themself
        given = lexicons.fold(m["role"]) in lexicons.first_names()
        if given and re.match(r" [A-Z][a-z]", text[m.end() :]):  # "Captain Dean Hollis": a name
            continue
        role = next(r for i, r in enumerate(roles) if m.group(f"r{i}"))
        last = m.group("role").split()[-1].lower()
        plural = last.endswith("s") and not last.endswith("ss")
        plural = plural and role.key in lexicons.words("plural_role")
        ordinal = patterns.ordinal(m.group("ord") or "")
        mention = Mention.at(m, "role", role=role.key, ordinal=ordinal, plural=plural)
        mention.anchor, mention.qualifier = det.lower(), "|".join(role_qualifier(m))
        out.append(mention)
    return out


#: Masks listed before "and I" ('[ORG], [LOC] and I drove'): people with the writer.
_WITH_I = re.compile(r"(?<![a-z] )\[[A-Z]+(?:_\d+)?\](?:,? \[[A-Z]+(?:_\d+)?\])*,? (?:and|&) I\b")
_MASKED_RELATIVE = _CUES["masked_relative"]
_WIDOWED = re.compile(r"['’]s (?:death|surname)|,? (?:had )?(?:died|passed away|was killed)")
_LATE = re.compile(r"\b(?:[Bb]uried|[Ll]ost) \w+ $|\blate $")  # 'my late [DEM]', 'lost my [DEM]'
_PRONOUN = re.compile(r"\b(?:(?P<m>[Hh]e|[Hh]im|[Hh]is)|[Ss]he|[Hh]er)\b(?! \[DEM\])")
_GUESS = {"young": ("son", "daughter", "child"), "elder parent": ("father", "mother", "parent")}
_GUESS["dating"] = ("boyfriend", "girlfriend", "partner")  # an unmarried couple's cues
_PAIRS = dict.fromkeys(_GUESS["elder parent"], ("mother", "father"))  # 'my [DEM] and [DEM]'
_PAIRS |= dict.fromkeys(_GUESS["young"], ("son", "daughter"))
_GUESS["apart"] = _GUESS["elder parent"]  # 'my [DEM] rang from her flat': lives apart, no spouse


def _guess_relative(text: str, m: re.Match[str]) -> str:
    """The likeliest kin word behind a masked one, from its sentence on (at most 25 characters
    before it: 'caring for my [DEM]'): a child near school words or after our/their, a parent near
    care words, a partner near engagement words, else a spouse; the sex from the next he/she."""
    start = max(*(text.rfind(c, 0, m.start()) for c in ".!?\n"), m.start() - 26) + 1
    window = " ".join(re.split(r"(?<=[.!?])\s+", text[start : m.end() + 300])[:2])
    pron = _PRONOUN.search(window, m.end() - start)
    sex = 2 if pron is None else 0 if pron.group("m") else 1
    if m.group("kin").endswith("-in-law"):  # 'my [DEM]-in-law': most often a parent-in-law
        return ("father-in-law", "mother-in-law", "parent-in-law")[sex]
    owner, aged = m.group("anchor").lower(), _CUES["masked_aged"].search(window[m.end() - start :])
    kinds = list(_GUESS)[: None if owner == "my" else -1]  # 'apart' is said of the writer's
    after = re.match(r"(?:,? ?\[PERSON(?:_\d+)?\],?)? (?:and|&) (?:(I)|our)\b", text[m.end() :])
    if after and not after[1] and owner == "my":  # 'my [DEM] and our kids': the other parent
        return ("husband", "wife", "spouse")[sex]
    if after and after[1]:
        kinds, aged = ["dating"], None  # 'my [DEM] and I ...': a couple, whatever else is said
    cue = {k: rf"\b(?:{lexicons.alternation(*(c + '_cue' for c in k.split()))})\b" for k in kinds}
    young = owner in {"our", "their"} or (aged and re.match(r",? ?\[PERSON", text[m.end() :]))
    died = _WIDOWED.match(text, m.end()) or _LATE.search(text, m.start() - 8, m.start("kin"))
    default = "young" if young else "elder parent" if aged or (died and owner == "my") else ""
    kind = next((k for k in kinds if re.search(cue[k], window, re.I)), default)
    if not kind or (died and owner != "my"):  # 'his [DEM] died': only a spouse
        return ("husband", "wife", "spouse")[{"his": 1, "her": 0}.get(owner, sex)]
    return _GUESS[kind][sex]


_SAID = re.compile(r"\s*(s?he) (?:said|says|added|told|explained|recalled)\b", re.I)
#: Names or person masks listed right after a plural kin word ("our kids, Ella (7) and Rose").
_ITEM = r"(?:[A-Z][a-z]+|\[[A-Z]+(?:_\d+)?\])(?:\s*\(\d{1,2}\))?"
_NAMED_LIST = re.compile(rf",?\s+{_ITEM}(?:(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*){_ITEM})+")


def _possessed_kin(text: str) -> list[Mention]:
    """'his wife', 'the applicant's son', 'my four wonderful kids', 'two daughters'."""
    out: list[Mention] = []
    kinmap, quotes = lexicons.kin_words(), [q.span() for q in QUOTE_SPANS.finditer(text)]
    for m in _CUES["possessed_kin"].finditer(text):
        word, ks = m.group("kin"), m.start("kin")
        kin = kinmap[word]
        anchor, start = (m.group("anchor") or "").lower(), m.end("own") if m["own"] else m.start()
        own = list(re.finditer(r"\b(?:my|his|her|our|their|your)\s", m.group(0), re.I))
        if not anchor and own:  # "said her great-granddaughter": the last possessive, from it on
            anchor, start = own[-1][0].strip().lower(), start + own[-1].start()
        q = next((e for s, e in quotes if s < ks < e), 0)  # '"... for my son," she said': hers
        if anchor in {"my", "our"} and (said := _SAID.match(text, q) if q else None):
            anchor = "her" if said[1].lower() == "she" else "his"
        prev = out[-1] if out else None
        listed = prev and prev.anchor not in {"", "a", "an"} and not prev.plural
        gap = text[prev.end : m.start("num") if m["num"] else ks] if prev else ""
        gap = re.sub(r"^(?:\s+[A-Z][\w'’-]+)+", "", gap)  # "his wife Ada, two sons"
        if not anchor and listed and patterns.LIST_GAP.match(gap):
            anchor = prev.anchor  # "my Mum and Dad", "his wife Ada, two sons": his too
        of_kin = prev and prev.anchor and re.fullmatch(r"['’]s\s+", text[prev.end : ks])
        if of_kin and not anchor and rules.enabled("subject.kin_of_kin"):  # "my sister's husband"
            out.append(Mention.at(m, "kin", "kin", role=kin.word, anchor=f"{prev.text}'s"))
            continue
        words = m.group(0).split()[: None if anchor else -1]  # "our twins": 2; "had twins": none
        counted = (w for w in words if w.lower() != "both")
        num_word = m.group("num") or next((w for w in counted if patterns.number_value(w)), "")
        low = word.lower()
        plural = low in {"children", "wives", "folks"} or (
            low.endswith("s") and not low.endswith("ss") and low[:-1] in kinmap
        )
        ages = re.match(r" ?\((\d{1,2}(?:(?:,| and| &) ?\d{1,2})+)\)", text[m.end() : m.end() + 30])
        num_word = num_word or (str(len(re.findall(r"\d+", ages[1]))) if ages else "")  # (9, 6)
        if plural and anchor and not num_word and (named := _NAMED_LIST.match(text, m.end())):
            num_word = str(len(re.findall(r"[A-Z]\w+", named[0])))  # "our kids, Ella (7) and Rose"
        num = patterns.number_value(num_word) if num_word and plural else None  # "twin brother"
        generic = not anchor and not text[:ks].endswith(("the ", "The "))
        if plural and num is None and (kin.word != "parent" or generic):
            continue  # uncounted collective ("other parents"): not subjects
        num = 2 if plural and num is None else num  # "my parents"
        standalone = re.match(r"[\s(\"“]|$", text[max(0, ks - 1) : ks] or " ")
        det = re.search(r"\b(?:[Tt]he|[Aa]n?)\s+$", text[:ks])  # "the Uncle Sam ad"
        address = word in lexicons.words("address_kin") and standalone and not det
        address = address or (det and det[0][0] in "Tt" and word in lexicons.words("the_kin"))
        if not anchor and (address or _CUES["praised"].search(text[max(0, ks - 45) : ks])):
            anchor = "my"  # "Took Dad to the clinic" (a kin word as a name), "the best gran"
        if (not anchor or anchor in {"a", "an"}) and num is None:
            continue  # bare 'son', 'a widow': an attribute, not a separate person
        work = kin.word == "partner" and _CUES["work_with"].search(text, max(0, start - 40), start)
        if work or set(m.group(0).lower().split()) & lexicons.words("partner_kind"):
            continue  # "her lab partner", "my business partner", "works with his partner"
        kw = {"role": kin.word, "anchor": anchor, "count": num or 1, "plural": plural}
        out.append(Mention.between(text, start, m.end(), "kin", **kw))
    return out


def _counted_children(text: str, out: list[Mention]) -> None:
    """'parent of two', 'one amazing kid', 'a one-year-old'."""
    kinmap = lexicons.kin_words()
    for m in [*_CUES["parent_of"].finditer(text), *_CUES["little_ones"].finditer(text)]:
        parent = kinmap.get(m.group(0).split()[0].lower())  # "mother" of "mother of two"
        third = parent and patterns.THIRD_COPULA.search(text[max(0, m.start() - 60) : m.start()])
        third = (named := parent and patterns.beside_name(text, m.start(), m.end())) or third
        anchor = {"Female": "her", "Male": "his"}.get(parent.sex, "their") if third else "my"
        n, src = patterns.number_value(m.group("num")) or 1, "parent_of" if parent else ""
        kw = {"role": "child", "anchor": anchor, "count": n, "plural": True, "source": src}
        out[:] = [k for k in out if not m.start() <= k.start < m.end()]  # "Mum of two": the writer
        if named == "after":
            continue  # "mother of three Ann Lee": Ann's children, of whom nothing else is said
        out.append(Mention.at(m, "kin", "num", **kw))
    for m in _CUES["one_child"].finditer(text):
        if any(k.start <= m.start("kin") < k.end for k in out):
            continue
        if m.group(0).split()[0].lower() in {"a", "an"} and not m.group("age"):
            continue  # "a kid" is an attribute, "a one-year-old" is a child
        before = text[max(0, m.start() - 30) : m.start()]
        if m.group("age") and not re.search(r"\b(?:with|and|&|have|has|our|my)\s*$", before):
            continue
        word = m.group("kin").lower()  # "our 3 kids / our [QUANTITY] [DEM] ... our eldest": one
        counted = any(k.plural and kinmap[k.role].age_hint for k in out)  # of them (kin.link_kin)
        counted = counted or _CUES["masked_count"].search(text, 0, m.start())
        eldest = word.endswith("est") and counted
        role = word if word in kinmap and not m.group("age") and not eldest else "child"
        out.append(Mention.at(m, "kin", role=role, anchor="my", source=word if eldest else ""))


#: Children a masked count stands for when nothing else says how many ("our [QUANTITY] kids").
MASKED_CHILDREN = 4


def _masked_kin(text: str, out: list[Mention]) -> None:
    """Kin words a masker hid: "His [DEM] died", "born in X and Y", "a present from her [DEM]"."""
    for m in _CUES["masked_born"].finditer(text):  # "leaving [QUANTITY] [DEM] born in X and Y"
        n = len(re.findall(r"\[DATETIME\]|\b\d{4}\b", m.group("dates")))
        if n < 2 or any(k.start <= m.start("kin") < k.end for k in out):
            continue
        anchor = "the applicant's" if "the applicant" in text else ""  # a judgment's family
        out.append(Mention.at(m, "kin", "kin", role="child", count=n, plural=True, anchor=anchor))
    for m in _CUES["masked_donor"].finditer(text):  # "a present from her [DEM]": her parent(s)
        g = "kin" if m.group("kin") else "kin2"
        if any(k.start <= m.start(g) < k.end for k in out):
            continue
        anchor = (m.group("anchor") or m.group("anchor2")).lower()
        both = bool(re.match(r"[^.]{0,60}\btheir\b", text[m.end() :])) or anchor == "their"
        kw = {"role": "parent", "anchor": anchor, "count": 2 if both else 1, "plural": both}
        out.append(Mention.between(text, m.start(g) - len(anchor) - 1, m.end(g), "kin", **kw))
    for m in _MASKED_RELATIVE.finditer(text):  # "my [DEM] [PERSON] ... he": a guessed relative
        if not any(k.start <= m.start("kin") < k.end for k in out):
            role, anchor = _guess_relative(text, m), m.group("anchor").lower()
            out.append(Mention.at(m, "kin", role=role, anchor=anchor, source="guess"))
            if m["two"]:  # mum and dad, wife and kids; 'her [DEM] and [QUANTITY] [DEM]': children,
                n = MASKED_CHILDREN if "[Q" in m["two"] else 1
                out[-1].role, role = (role, "child") if n > 1 else _PAIRS.get(role, (role, "child"))
                kw = {"anchor": anchor, "count": n, "plural": n > 1, "source": "guess"}
                out.append(Mention.between(text, m.end(), m.end("two"), "kin", role=role, **kw))
    for m in re.finditer(r"\b(?P<anchor>[Oo]ur|[Mm]y) little ones?\b", text):
        out.append(Mention.at(m, "kin", role="child", anchor=m.group("anchor").lower()))


def find_kin_mentions(text: str) -> list[Mention]:
    """'his wife', 'the applicant's son', 'my four wonderful kids', 'two daughters', 'parent of two'."""  # noqa: E501
    out = _possessed_kin(text)
    if rules.enabled("subject.counted_children"):
        _counted_children(text, out)
    if rules.enabled("subject.masked_kin"):
        _masked_kin(text, out)
    return out
