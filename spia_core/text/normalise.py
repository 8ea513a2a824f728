"""Keyword normalisation for the default scorer: text folding, countries, names, categories.

All public functions are pure and cached, so scoring a whole corpus normalises each distinct
keyword once. The country table is ``data/lexicons/country_aliases.json`` (see its ``source``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache

from spia_core.paths import DATA_DIR as BUNDLED_DATA_DIR

__all__ = [
    "COUNTRY_ALIASES_PATH",
    "canonical_category",
    "canonical_country",
    "fold",
    "location_levels",
    "loose",
    "name_tokens",
    "nationality_key",
]

COUNTRY_ALIASES_PATH = BUNDLED_DATA_DIR / "lexicons" / "country_aliases.json"

# Letters that Unicode NFKD does not decompose into base letter + combining mark.
_SPECIAL_LETTERS = str.maketrans(
    {
        "ı": "i",
        "ł": "l",
        "Ł": "L",
        "ø": "o",
        "Ø": "O",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "þ": "th",
        "Þ": "Th",
        "\u2018": "'",
        "\u2019": "'",
        "\u02bc": "'",
        "`": "'",
        "\u2013": "-",
        "\u2014": "-",
    }
)
_SPACES = re.compile(r"\s+")
_LOOSE_DROP = re.compile(r"[.'\"]")
_LOOSE_SPACE = re.compile(r"[-_/]")
_LOCATION_SPLIT = re.compile(r"[/,;]")
_NAME_TOKEN = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")

#: Honorifics dropped before comparing names.
NAME_TITLES: frozenset[str] = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "dr",
        "prof",
        "professor",
        "sir",
        "dame",
        "madam",
        "mme",
        "herr",
        "frau",
        "lord",
        "lady",
    }
)


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower-case, strip accents (İ->i, ı->i, ł->l ...), unify quotes and dashes, squash spaces."""
    if text.isascii():  # NFKD leaves ASCII as it is and it has no combining marks
        return _SPACES.sub(" ", text.translate(_SPECIAL_LETTERS).casefold()).strip()
    text = unicodedata.normalize("NFKD", text.translate(_SPECIAL_LETTERS))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _SPACES.sub(" ", text.casefold()).strip()


@lru_cache(maxsize=65536)
def loose(text: str) -> str:
    """:func:`fold`, then drop dots and quotes and treat - _ / as spaces (for lookups)."""
    text = _LOOSE_SPACE.sub(" ", _LOOSE_DROP.sub("", fold(text)))
    return _SPACES.sub(" ", text).strip()


# --------------------------------------------------------------------------- countries


@lru_cache(maxsize=1)
def _country_tables() -> tuple[dict[str, str], dict[str, str]]:
    """(name/alias -> canonical key, demonym -> canonical key), keys in :func:`loose` form."""
    try:
        data = json.loads(COUNTRY_ALIASES_PATH.read_text(encoding="utf-8"))
        countries = data["countries"]
    except (OSError, ValueError, KeyError) as exc:
        raise RuntimeError(f"cannot read country table {COUNTRY_ALIASES_PATH}: {exc}") from exc
    names: dict[str, str] = {}
    demonyms: dict[str, str] = {}
    for i, entry in enumerate(countries):
        try:
            key = loose(entry["name"])
            for alias in [entry["name"], *entry.get("aliases", [])]:
                names.setdefault(_strip_the(loose(alias)), key)
            for demonym in entry.get("demonyms", []):
                demonyms.setdefault(loose(demonym), key)
        except (KeyError, TypeError) as exc:
            raise RuntimeError(f"{COUNTRY_ALIASES_PATH}: bad entry #{i}: {exc!r}") from exc
    return names, demonyms


def _strip_the(text: str) -> str:
    return text[4:] if text.startswith("the ") else text


@lru_cache(maxsize=65536)
def canonical_country(text: str, demonyms: bool = False) -> str | None:
    """Canonical key of a country name or alias (and demonym if asked), else None.

    ``canonical_country("U.S.A.") == canonical_country("United States") == "united states"``;
    ``canonical_country("Turkey") == "turkiye"``. England/Scotland/Wales are not UK aliases.
    """
    names, demonym_table = _country_tables()
    key = _strip_the(loose(text))
    found = names.get(key)
    if found is None and demonyms:
        found = demonym_table.get(key)
    return found


@lru_cache(maxsize=65536)
def nationality_key(text: str) -> str:
    """Comparable form of a NATIONALITY value: the canonical country when known
    (demonyms included, 'Swedish' -> 'sweden'), else the folded text.

    A location-style value ('Nicosia / Cyprus') is reduced to its last level.
    """
    last = text.rsplit("/", 1)[-1] if "/" in text else text
    return canonical_country(last, demonyms=True) or fold(last)


@lru_cache(maxsize=65536)
def location_levels(text: str) -> tuple[str, ...]:
    """Location levels, most specific first; '/', ',' and ';' all separate levels.

    Each level is folded, and a country level is replaced by its canonical key.
    """
    levels = []
    for raw in _LOCATION_SPLIT.split(text):
        level = fold(raw)
        if level:
            levels.append(canonical_country(level) or level)
    return tuple(levels)


# --------------------------------------------------------------------------- names


@lru_cache(maxsize=65536)
def name_tokens(text: str) -> tuple[str, ...]:
    """Folded name tokens without honorifics; 'Dr. Liesel Marquardt' -> ('liesel', ...)."""
    tokens = _NAME_TOKEN.findall(fold(text))
    kept = [t for t in tokens if t not in NAME_TITLES]
    return tuple(kept) if kept else tuple(tokens)


# --------------------------------------------------------------------------- categories

_CATEGORY_SYNONYMS: dict[str, dict[str, tuple[str, ...]]] = {
    "SEX": {
        "male": ("male", "m", "man", "boy", "gentleman"),
        "female": ("female", "f", "woman", "girl", "lady"),
    },
    "RELATIONSHIP": {
        "no relation": ("no relation", "single", "unmarried", "not married", "never married"),
        "in relation": (
            "in relation",
            "dating",
            "relationship",
            "in a relationship",
            "in relationship",
            "partnered",
            "engaged",
            "cohabiting",
            "has a partner",
        ),
        "married": ("married", "wed", "spouse"),
        "divorced": ("divorced", "separated", "divorcee"),
        "widowed": ("widowed", "widow", "widower"),
    },
    "EDUCATION": {
        "no high school diploma": (
            "no high school diploma",
            "no high school",
            "no diploma",
            "high school dropout",
            "primary school",
            "elementary school",
        ),
        "in high school": (
            "in high school",
            "in highschool",
            "high school student",
            "highschool student",
            "secondary school student",
            "in secondary school",
        ),
        "high school diploma": (
            "high school diploma",
            "highschool diploma",
            "high school graduate",
            "high school degree",
            "ged",
            "secondary education",
            "a levels",
        ),
        "in college": (
            "in college",
            "college student",
            "university student",
            "in university",
            "undergraduate",
            "undergraduate student",
        ),
        "college degree": (
            "college degree",
            "bachelors degree",
            "bachelors",
            "bachelor",
            "bachelor degree",
            "university degree",
            "college graduate",
            "university graduate",
            "masters degree",
            "masters",
            "master degree",
            "graduate degree",
            "postgraduate degree",
            "law degree",
            "mba",
            "bsc",
            "msc",
            "llb",
            "llm",
        ),
        "phd": ("phd", "doctorate", "doctoral degree", "doctor of philosophy", "dphil"),
    },
}


@lru_cache(maxsize=1)
def _category_lookup() -> dict[str, dict[str, str]]:
    return {
        tag: {loose(v): canonical for canonical, vs in groups.items() for v in vs}
        for tag, groups in _CATEGORY_SYNONYMS.items()
    }


@lru_cache(maxsize=65536)
def canonical_category(tag: str, text: str) -> str:
    """Canonical value of a SEX / RELATIONSHIP / EDUCATION keyword, else its loose form."""
    key = loose(text)
    return _category_lookup().get(tag, {}).get(key, key)
