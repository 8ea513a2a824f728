"""Can the engine read this text? Language detection and the "people but no subjects" check.

The offline (local) adversary reads English only: its lexicons, patterns and spaCy model are
English. A text in another language gets a blocking :class:`Notice` (``unsupported_language``)
so no verdict is given from an audit that could not read it. Language identification uses
py3langid, whose model ships inside the wheel (nothing is downloaded at run time).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from spia_core.exposure import without_placeholders
from spia_core.model import Notice, NoticeKind, Severity, Subject
from spia_core.paths import DATA_DIR

#: Languages the offline engine reads.
LOCAL_LANGUAGES: frozenset[str] = frozenset({"en"})
#: Below this many letters the language is not judged (too short to identify reliably).
MIN_LETTERS = 40
#: Log-probability lead per letter another language needs over English (German and French
#: paragraphs lead by 1.6-1.8; informal English posts that a creole edges out by < 0.01).
ENGLISH_MARGIN = 0.25
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
#: Personal pronouns: a text using them speaks of people.
PERSONAL_PRONOUN = re.compile(
    r"\b(?:he|him|his|himself|she|her|hers|herself|I|me|my|mine|myself)\b"
    r"|\b(?:He|Him|His|Himself|She|Her|Hers|Herself|Me|My|Mine|Myself)\b"
)


@dataclass(frozen=True)
class LanguageGuess:
    """The most likely language of a text (ISO 639-1 code) and whether it was judged at all."""

    code: str  # "" when the text is too short to judge
    n_letters: int

    @property
    def judged(self) -> bool:
        return bool(self.code)


@functools.lru_cache(maxsize=1)
def _ranker() -> Callable[[str], list[tuple[str, float]]]:
    """py3langid's ranking (its bundled model loads on first use, about 0.5 s)."""
    from py3langid.langid import _get_identifier

    return _get_identifier().rank


def _sample(text: str, limit: int = 20_000) -> str:
    """Placeholders removed; a long text is sampled at its start, middle and end."""
    text = without_placeholders(text)
    if len(text) <= limit:
        return text
    third = limit // 3
    mid = len(text) // 2
    return " ".join((text[:third], text[mid - third // 2 : mid + third // 2], text[-third:]))


def detect_language(text: str) -> LanguageGuess:
    """The language of ``text`` (placeholders ignored); code '' when it is too short to judge."""
    sample = _sample(text)
    n_letters = len(_LETTER.findall(sample))
    if n_letters < MIN_LETTERS:
        return LanguageGuess("", n_letters)
    scores = _ranker()(sample)
    code, best = scores[0]
    english = dict(scores).get("en", float("-inf"))
    # English-lexified creoles (Nigerian Pidgin) score within a hair of English on informal
    # posts; a language only counts as "not English" when it wins by a clear margin.
    if code != "en" and (best - english) / n_letters < ENGLISH_MARGIN:
        code = "en"
    return LanguageGuess(str(code), n_letters)


def language_notice(
    text: str, *, adversary_is_local: bool, stage: str = "validate", data_id: str = ""
) -> Notice | None:
    """A blocking notice when the offline engine is asked to read a language it cannot.

    For an LLM adversary a non-English text is noted (info) but does not block: the model
    reads it, although the bundled lexicon-based parts (span metrics) do not.
    """
    guess = detect_language(text)
    if not guess.judged or guess.code in LOCAL_LANGUAGES:
        return None
    detail = {"language": guess.code, "supported": sorted(LOCAL_LANGUAGES)}
    if adversary_is_local:
        return Notice(
            kind=NoticeKind.UNSUPPORTED_LANGUAGE,
            stage=stage,
            message=(
                f"The text looks like language '{guess.code}', but the offline engine reads "
                "English only: it cannot judge this text. Use an LLM adversary "
                "(--adversary llm) for other languages."
            ),
            severity=Severity.ERROR,
            data_id=data_id,
            detail=detail,
        )
    return Notice(
        kind=NoticeKind.UNSUPPORTED_LANGUAGE,
        stage=stage,
        message=(
            f"The text looks like language '{guess.code}'; the LLM adversary reads it, but the "
            "offline span metrics and lexicons are English only."
        ),
        severity=Severity.INFO,
        data_id=data_id,
        detail=detail,
    )


#: First person plural (the author among others), and person-type placeholders.
_PLURAL_SELF = re.compile(r"\b(?:we|us|our|ours|ourselves)\b", re.IGNORECASE)


#: A bracketed label ([PERSON], <NAME_2>, {client 2}); which labels hide a person is the local
#: adversary's :func:`~spia_core.adversary.local.patterns.is_person_label`.
_BRACKETED_LABEL = re.compile(r"[\[<{](?P<label>[A-Za-z][A-Za-z_ ]*?)(?:[_ ]?\d+)?[\]>}]")
#: Labels a writer or platform uses for itself, person placeholders here too.
_SELF_LABELS = frozenset({"AUTHOR", "USER"})


def _person_placeholders(text: str) -> list[re.Match[str]]:
    """Placeholders that hide a person, as the local adversary reads them, plus [AUTHOR]."""
    from spia_core.adversary.local.patterns import is_person_label

    out = []
    for m in _BRACKETED_LABEL.finditer(text):
        label = m.group("label").strip().upper().replace(" ", "_")
        if is_person_label(label) or label in _SELF_LABELS:
            out.append(m)
    return out


@functools.cache
def _honorific() -> re.Pattern[str]:
    """Short titles of address ("Mr", "Dr"): the local adversary's ``honorific`` words."""
    from spia_core.adversary.local import lexicons

    return re.compile(rf"\b(?:{lexicons.alternation('honorific')})\b")


@functools.cache
def _person_noun_pattern() -> re.Pattern[str]:
    """Nouns that denote a person: the bundled list, the local adversary's role nouns, kin
    words and job titles (plurals too)."""
    from spia_core.adversary.local import lexicons

    path = DATA_DIR / "lexicons" / "person_nouns.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    words = {w.strip().lower() for w in lines if w.strip() and not w.startswith("#")}
    words |= lexicons.words("role_noun") | set(lexicons.kin_words())
    words |= set(lexicons.occupations()[0])
    forms = words | {w + "s" for w in words} | {w[:-1] + "ies" for w in words if w.endswith("y")}
    body = "|".join(re.escape(w) for w in sorted(forms, key=len, reverse=True))
    return re.compile(rf"\b(?:{body})\b", re.IGNORECASE)


def person_noun(word: str) -> bool:
    """Whether ``word`` is a noun that denotes a person ("nurse", "sisters")."""
    return _person_noun_pattern().fullmatch(word) is not None


def people_cues(text: str) -> list[str]:
    """Words that show a text speaks of people: personal pronouns (he, her, I, my, ...), the
    first person plural (we, our), honorifics (Mr, Dr), person placeholders ([PERSON]) and
    person nouns (intern,
    neighbour, sister, nurse...), lower-cased, once each, in order of appearance."""
    found: dict[int, str] = {}
    matches = [
        *PERSONAL_PRONOUN.finditer(text),
        *_PLURAL_SELF.finditer(text),
        *_honorific().finditer(text),
        *_person_placeholders(text),
        *_person_noun_pattern().finditer(text),
    ]
    for m in matches:  # the first reading of a position wins, in this order
        found.setdefault(m.start(), m.group(0).lower())
    return list(dict.fromkeys(found[k] for k in sorted(found)))


def speaks_of_people(text: str) -> bool:
    """True when the text uses personal pronouns, "we", person placeholders or person nouns."""
    return bool(people_cues(text))


def no_subjects_notice(
    text: str, subjects: list[Subject], *, stage: str = "infer", data_id: str = ""
) -> Notice | None:
    """A blocking notice when the adversary found nobody in a text that speaks of people."""
    if subjects:
        return None
    cues = people_cues(text)
    if not cues:
        return None
    return Notice(
        kind=NoticeKind.NO_SUBJECTS_FOUND,
        stage=stage,
        message=(
            "The adversary found no person, but the text speaks of people "
            f"({', '.join(cues[:6])}): the audit cannot say that nobody is exposed."
        ),
        severity=Severity.ERROR,
        data_id=data_id,
        detail={"cues": cues},
    )
