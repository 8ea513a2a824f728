"""LOCATION and NATIONALITY: residence phrases, demonyms, respondent State, institutions."""

from __future__ import annotations

import dataclasses
import re

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.attributes import identity, lookback, segment_matches
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.mentions import overlaps
from spia_core.adversary.local.rules import rule

_CUES = lexicons.subject_cues("attribute_cues.tsv")

_ORG_TOWN, _ORIGIN, _NATIONAL = _CUES["org_town"], _CUES["origin"], _CUES["national"]
_PREP = _CUES["place_prep"]
_WHO = re.compile(r"\b(?P<w>\w+),?\s+(?:who|whose \w+|which|that)\s+(?:\w+\s+)?\Z")


def _exact_place(surface: str, country: str = "") -> lexicons.Place | None:
    """The place called ``surface`` (as spelt); a city of the document's country wins."""
    if (place := lexicons.gazetteer().lookup(surface)) is None:
        return None
    if country and place.country != country and place.minor_alias(surface):
        return None  # 'Somerset' in a British text: not Bellflower, California
    if not place.is_country and country and place.country != country:
        by_country = lexicons.gazetteer().cities_by_country.get(lexicons.fold(surface), {})
        place = by_country.get(country) or place
    if place.is_country or place.admin:
        return place
    return dataclasses.replace(place, name=surface.strip())


def _place(name: str, country: str = "") -> lexicons.Place | None:
    """The place named by the longest leading run of words of ``name``."""
    words = name.strip().split()
    runs = (" ".join(words[:k]) for k in range(len(words), 0, -1))
    return next((p for run in runs if (p := _exact_place(run, country)) is not None), None)


_CAP = r"[A-ZÀ-ÖØ-ÞİŞÇĞ][\w’'\-]*"
_COURT, _COURT_AFTER, _GENERIC_COURT = (_CUES[k] for k in ("court", "court_after", "generic_court"))
_PLACE_BEFORE = re.compile(rf"(?P<place>{_CAP}(?:[ \-]{_CAP})?)\s+$")


def leading_place(phrase: str, country: str = "") -> tuple[lexicons.Place | None, str]:
    """'İzmir Public Prosecutor' -> (İzmir, 'Public Prosecutor'); no place -> (None, phrase)."""
    words = phrase.split()
    role_words = lexicons.words("role_word")
    if len(words) < 2 or lexicons.fold(words[0]) in role_words:
        return None, phrase
    for k in (2, 1):
        place = _exact_place(" ".join(words[:k]), country) if len(words) > k else None
        if place is not None:
            return place, " ".join(words[k:])
    if words[0][:1].isupper() and lexicons.fold(words[1]) in role_words and country:
        # An unknown capitalised word before a role word names a place ('Kartal District
        # Governor'): a town of the document's country.
        return lexicons.Place(words[0], country), " ".join(words[1:])
    return None, phrase


def role_courts(ctx: DocContext, d: Draft) -> list[tuple[str, int, int]]:
    """Courts or prosecutor's offices a role mention names ('the Konya Public Prosecutor')."""
    out: list[tuple[str, int, int]] = []
    for m in (m for m in d.mentions if m.kind == "role"):
        inside, after = _COURT.search(m.text), _COURT_AFTER.match(ctx.text[m.end : m.end + 90])
        for hit, off in ((inside, m.start), (after, m.end)):
            if hit and not ctx.is_masked(off + hit.start("org"), off + hit.end("org")):
                out.append((hit.group("org"), off + hit.start("org"), off + hit.end("org")))
        if m.role == "prosecutor":
            before = _PLACE_BEFORE.search(ctx.text[max(0, m.start - 40) : m.start])
            phrase = re.sub(r"^(?:the|The)\s+", "", m.text.strip())
            place, _ = leading_place(phrase, ctx.country)
            if place is not None and not place.is_country:
                out.append((f"{phrase}'s Office", m.start, m.end))
            elif before and _place(before.group("place"), ctx.country) is not None:
                s = m.start - len(before.group(0))
                if not ctx.is_masked(s, m.start):
                    out.append((f"{before.group('place')} {m.text.strip()}'s Office", s, m.end))
    return out


_JUDICIAL_ROLES = frozenset({"judge", "prosecutor", "court_president"})


def sentence_courts(ctx: DocContext, d: Draft) -> list[tuple[str, int, int]]:
    """The court named in the sentence of a judge or prosecutor whose mention names none."""
    if not (d.roles.keys() & _JUDICIAL_ROLES) or role_courts(ctx, d):
        return []
    for m in (m for m in d.mentions if m.kind == "role"):
        s0, e0 = ctx.sentence_of(m.start)
        best: tuple[int, str, int, int] | None = None
        for hit in _COURT.finditer(ctx.text, s0, e0):
            s, e = hit.start("org"), hit.end("org")
            if ctx.is_masked(s, e) or (s < m.end and m.start < e):
                continue
            org = hit.group("org")
            if not re.search(r"[A-ZÀ-ÞİŞÇĞ]\w*\s+\S", org) and org.split()[0].islower():
                continue
            dist = s - m.end if s >= m.end else m.start - e + 40
            if best is None or dist < best[0]:
                best = (dist, org, s, e)
        if best is not None:
            return [best[1:]]
    return []


def full_court_name(ctx: DocContext, org: str) -> str:
    """'Regional Court' -> 'Warsaw Regional Court' when the text names exactly one place's
    court of that kind (the short form refers back to it); otherwise ``org``."""
    org = re.sub(r"^(?:the|The)\s+", "", org.strip())
    if not _GENERIC_COURT.match(org) or org in {"Court", "Tribunal"}:
        return org
    places = {
        m.group(1).split()[-1]
        for m in re.finditer(rf"\b({_CAP}(?:[ \-]{_CAP})?)\s+{re.escape(org)}\b", ctx.text)
        if lexicons.fold(m.group(1).split()[-1]) not in lexicons.words("role_word")
        and _place(m.group(1).split()[-1], ctx.country) is not None
    }
    return f"{places.pop()} {org}" if len(places) == 1 else org


def _role_place(ctx: DocContext, d: Draft) -> list[Finding]:
    """A place in the name of the role's court or office ('Kayseri State Security Court')."""
    out: list[Finding] = []
    courts = [("location.role_court", c) for c in role_courts(ctx, d)]
    courts += [("location.sentence_court", c) for c in sentence_courts(ctx, d)]
    for rule_id, (org, s, e) in courts:
        place, _ = leading_place(org, ctx.country)
        if place is not None and not place.is_country:
            out.append(rule(rule_id).find(place.location(), [ctx.ev(s, e)]))
    return out


def echr_judge(ctx: DocContext, d: Draft) -> bool:
    """A judge of the European Court of Human Rights (a sentence of a mention says so)."""
    named = any(m.kind in {"name", "role", "placeholder"} for m in d.mentions)
    if d.is_author or d.roles.keys() - {"judge"} or not named:
        return False
    return any(_CUES["echr_judge"].search(ctx.text, *ctx.sentence_of(m.start)) for m in d.mentions)


def echr_official(ctx: DocContext, d: Draft) -> bool:
    """A President of a Section/Chamber of the Strasbourg Court, its Registrar or a judge."""
    if echr_judge(ctx, d):
        return True
    if not d.roles.keys() & {"president", "registrar"}:
        return False
    phrases = " ".join(m.text for m in d.mentions if m.kind == "role")
    return bool(re.search(r"Section|Chamber|Grand", phrases)) or "Section" in ctx.text


_CHILDREN = lexicons.words("child_kin")
_CLOSE_KIN = _CHILDREN | lexicons.words("spouse_kin")


def region_code(code: str, country: str = "") -> str:
    """'NT' -> 'Northern Territory / Australia'; 'WA' -> 'Washington / United States' unless the
    document is set in Australia; '' when ``code`` is no known state abbreviation."""
    tables = {  # in the order tried when the document names no country
        "United States": lexicons.gazetteer().us_states,
        "Australia": lexicons.word_map("au_region"),
        "Canada": lexicons.word_map("ca_region"),
    }
    order = sorted(tables, key=lambda c: c != country)
    return next((f"{tables[c][code]} / {c}" for c in order if tables[c].get(code)), "")


def suffix_country(name: str) -> lexicons.PlaceSuffix | None:
    """The country whose place names end like ``name`` ('Rampuram' -> India), or None."""
    words = name.split()
    last = lexicons.fold(words[-1]) if words else ""
    if not last or last in lexicons.common_words() or last in lexicons.first_names():
        return None
    for row in lexicons.place_suffixes():
        # The whole last word may be the suffix only when it follows a name ('Karol Bagh
        # Nagar'); otherwise at least three letters must precede it.
        whole = last == row.suffix and len(words) > 1
        if whole or (last.endswith(row.suffix) and len(last) - len(row.suffix) >= 3):
            return row
    return None


_TOWN_VALUE = re.compile(r"[A-Z][\w’'\-]*(?: [A-Z][\w’'\-]*){0,3}")


def header_place_cert(value: str, country: str = "") -> tuple[str, int]:
    """(LOCATION, most certainty) of a header value: 5 for a known place, 3 for an unknown town
    in the document's country ('Cavinti / Philippines'), 1-2 from its ending; else ('', 0)."""
    value = value.split(",")[0].strip(" .")
    region = region_code(value, country) if re.fullmatch(r"[A-Z]{2,3}", value) else ""
    place = None if region else _place(value, country)
    if region or place:
        return region or place.location(), 5
    town = _TOWN_VALUE.fullmatch(value)
    if town and country:
        return f"{value} / {country}", 3
    suffix = suffix_country(value) if town else None
    return (f"{value} / {suffix.country}", suffix.certainty) if suffix else ("", 0)


def header_location(ctx: DocContext, d: Draft) -> list[Finding]:
    """The header place for the author (and, less certainly, their children and spouse)."""
    close = d.kin in _CLOSE_KIN and d.anchor is not None and d.anchor.is_author
    if not d.is_author and not close:
        return []
    cert, out = 5 if d.is_author else 3, []
    for m in _CUES["header_place"].finditer(ctx.text[:400]):
        loc, cap = header_place_cert(m.group("value"), ctx.country)
        if loc:
            c = cert if cap >= 5 or (cap >= 3 and ctx.country_certainty >= 2) else min(cert, cap)
            if cap < 3 and not d.is_author:
                c = min(c, 1)
            ev = [ctx.ev(m.start("value"), m.end("value"))]
            rule_id = "location.header" if cap >= 3 else "location.header_suffix"
            out.append(rule(rule_id).find(loc, ev, certainty=c))
            if cap < 3 and d.kin not in _CHILDREN:  # the ending's country: a NATIONALITY hint
                country = loc.split(" / ")[-1]
                out.append(rule("location.header_suffix_nationality").find(country, ev))
    return out


def _unknown_town(ctx: DocContext, raw: str, start: int, verb: str) -> str:
    """'lives in Obertal' (unknown to the gazetteer): "Obertal / Austria" in an Austrian text;
    '' for a first name, body or role (NER calls small towns persons: those are kept)."""
    if verb not in lexicons.words("home_verb") or not ctx.country:
        return ""
    name = re.split(r"\s*,\s*|\s+(?:and|where|with|since|until|in)\b", raw.strip())[0]
    words = name.split()
    first = lexicons.fold(words[0]) if 0 < len(words) <= 3 else ""
    not_town = lexicons.words("role_word") | lexicons.words("not_town")
    if not first or first in not_town or first in lexicons.first_names():
        return ""
    return "" if ctx.is_org(start, start + len(name)) else f"{name} / {ctx.country}"


_MOVE = frozenset({"moved", "moving", "relocated"})
_MOVERS = lexicons.words("mover") | lexicons.kin_words().keys()  # "my family moved to X"


def residence(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    cues = (_CUES["reside"], _CUES["self_place"], _ORG_TOWN)
    found = [x for rx in cues for x in segment_matches(ctx, d, rx)]
    sign = [(m, 0) for m in [identity.signoff(ctx.text)] if m and m["place"]]
    for m, off in found + sign * d.is_author:
        raw = m.group("place").removesuffix("-based")
        ev = [ctx.ev(off + m.start(), off + m.end())]
        verb = (m.groupdict().get("verb") or "").lower()
        cert = int(lexicons.word_map("residence_verb").get(verb, 3))
        cert = 4 if m.groupdict().get("home") else cert  # "we rent a flat in X": a home
        moved = verb in _MOVE and ctx.doc  # "the market moved to Leeds": no home
        vt = moved and ctx.doc.char_span(off + m.start("verb"), off + m.end("verb"))
        subj = next((c for c in vt.root.children if c.dep_ == "nsubj"), None) if vt else None
        if (
            subj
            and subj.text.isalpha()
            and not (subj.ent_type_ or subj.lower_ in _MOVERS or ctx.mentioned(subj.idx))
            and not [c for c in subj.children if c.lower_ in _MOVERS]
        ):
            continue  # a thing's new place, not a person's
        skip = raw.startswith("[") or lexicons.fold(raw.split()[0]) in lexicons.words("month")
        if skip or ctx.is_masked(off + m.start("place"), off + m.end("place")):
            continue  # a mask; "moved house in March": when, not where
        pre = m.group(0)[: m.start("place") - m.start()].split()  # 'moved from Y to': Y is left
        if verb in _MOVE | {"emigrated"} and "from" in pre and "to" not in pre:
            continue  # where they left (location.origin reads it); 'from X to Y': Y
        w = _WHO.search(ctx.text, max(0, off + m.start() - 35), off + m.start())
        if w and w["w"].islower() and not any(x.start <= w.start() < x.end for x in d.mentions):
            continue  # "the owner, a vet who moved to Whitby": the home of the clause's noun
        if (place := _place(raw, ctx.country)) is None:
            if town := _unknown_town(ctx, raw, off + m.start("place"), verb):
                out.append(rule("location.residence_town").find(town, ev))
            continue
        rid, c = ("location.org_town", None) if m.re is _ORG_TOWN else ("location.residence", cert)
        out.append(rule(rid).find(place.location(), ev, certainty=c))
    out.extend(header_location(ctx, d))
    return out


def nationality(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []

    def from_match(m: re.Match[str], off: int, rule_id: str) -> None:
        if dem := m.group("dem") or m.group("dem2") or m.group("dem3") or m.group("dem4"):
            country = lexicons.demonyms().get(lexicons.fold(dem))
        else:
            country = lexicons.gazetteer().country(m.group("c"))
        if country:
            out.append(rule(rule_id).find(country, [ctx.ev(off + m.start(), off + m.end())]))

    for chunk, off in lookback(ctx, d, 90):
        for m in _NATIONAL.finditer(chunk):
            rest = chunk[m.end() :]  # "I am Kenyan" (dem3): the writer's own, below
            if not (m["dem3"] or m["dem4"]) and (len(rest) < 40 or not rest.strip(" ,:\n\t")):
                from_match(m, off, "location.national_before")
    for m, off in segment_matches(ctx, d, _ORIGIN):  # the country of origin, not of residence
        if (place := _place(m["place"], ctx.country)) is not None and not place.admin:
            ev = [ctx.ev(off + m.start(), off + m.end())]
            out.append(rule("location.origin").find(place.country, ev))
    for m, off in segment_matches(ctx, d, _NATIONAL):
        if not m.group("dem3") or d.is_author:
            from_match(m, off, "location.national_self" if m.group("dem3") else "location.national")
    return out


def demonym_of(country: str) -> str:
    """'Türkiye' -> 'Turkish' (first demonym listed for the country)."""
    return next((dem.title() for dem, c in lexicons.demonyms().items() if c == country), country)


def phone_prefix(ctx: DocContext, d: Draft) -> list[Finding]:
    """The country of a calling code left before a masked number ('+63 [CODE]'): LOCATION and
    NATIONALITY at certainty 2 (1 when the code serves several countries, as +1 does)."""
    import phonenumbers

    out: list[Finding] = []
    for m, off in segment_matches(ctx, d, _CUES["masked_phone_prefix"]):
        regions = phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(int(m.group("cc")), ())
        country = lexicons.gazetteer().countries_by_iso.get(regions[0], "") if regions else ""
        if not country:
            continue
        cert = 2 if len(regions) == 1 else 1
        ev = [ctx.ev(off + m.start(), off + m.end())]
        out.append(rule("location.phone_prefix").find(country, ev, certainty=cert))
        out.append(rule("location.phone_prefix_nationality").find(country, ev, certainty=cert))
    return out


def _placed(ctx: DocContext, s: int, e: int) -> bool:
    """A city named as a place: after a preposition (_PREP) or as a noun's modifier."""
    if _PREP.search(ctx.text, max(0, s - 25), s) or ctx.text[s - 1 : s] == "#":
        return True
    span = None if ctx.doc is None else ctx.doc.char_span(s, e, alignment_mode="expand")
    return span is not None and span[-1].dep_ == "compound"


def _document_country(ctx: DocContext, d: Draft) -> list[Finding]:
    """The document's country as NATIONALITY and LOCATION (surest for parties and officials); the
    writer's LOCATION is the only city of it named outside others' segments, if any (home_city)."""
    roles = set(d.roles)
    official = roles & lexicons.words("official_role")
    cert = max(1, min(3, ctx.country_certainty - (0 if official else 1)))
    cert = 1 if roles & {"president", "registrar"} else min(cert, 2) if "judge" in roles else cert
    ev = list(ctx.country_evidence[:3])
    loc_cert = max(1, cert - (0 if "agent" in roles or "lawyer" in roles else 1))
    loc = rule("location.document_country_location").find(ctx.country, ev, certainty=loc_cert)
    others = [(g.start, g.end) for o in ctx.drafts if o is not d for g in ctx.segs(o)]
    cities = {
        p.location(): e
        for e in (ctx.country_evidence if d.is_author else [])  # spans that voted (at most 4)
        if (p := _exact_place(e.text, ctx.country))
        and p.country == ctx.country != p.name
        and _placed(ctx, e.start, e.end)
        and not overlaps(e.start, e.end, others)
    }
    if len(cities) == 1:
        [(city, e)] = cities.items()
        loc = rule("location.home_city").find(city, [e], certainty=loc_cert)
    return [rule("location.document_country").find(ctx.country, ev, certainty=cert), loc]


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out = residence(ctx, d) + nationality(ctx, d) + _role_place(ctx, d) + phone_prefix(ctx, d)
    is_child = d.kin in _CHILDREN
    # Weak cues (a calling code, a given name: certainty <= 2) do not block the residence country.
    nats = [f for f in out if f.tag == "NATIONALITY" and f.certainty >= 3]
    locs = [f for f in out if f.tag == "LOCATION" and f.certainty >= 3]
    country_locs = [f for f in locs if lexicons.gazetteer().country(f.keyword.split(" / ")[-1])]
    if country_locs and not nats:
        top = max(country_locs, key=lambda f: f.certainty)
        c, ev = top.keyword.split(" / ")[-1], list(top.evidence)
        out.append(rule("location.residence_country").find(c, ev, certainty=2 if is_child else 3))
    if ctx.country:
        out += _document_country(ctx, d)
    return out
