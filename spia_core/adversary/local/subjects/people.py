"""Is a candidate name a person? General cues for any English text: a place, facility or firm
head word, a locative preposition, spaCy's place labels, a noun it modifies, a header key, a
language the engine cannot read (details: docs/local_adversary.md, subject.not_a_person)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import spia_core.adversary.local.lexicons as lexicons
from spia_core import exposure
from spia_core.adversary.local.mentions import Mention, big_city
from spia_core.adversary.local.names import is_given_name
from spia_core.adversary.local.parse import Token

_CUES = lexicons.subject_cues()

#: Prepositions that put a place after them. "from", "to" and "on" also take people ("a note
#: from Anna", "married to Leigh"): they count only where spaCy already reads a place.
_LOCATIVE = re.compile(rf"\b(?:{lexicons.alternation('locative')})\s+(?:the\s+)?$", re.I)
_WEAK_LOCATIVE = re.compile(r"\b(?:from|to|into|onto|on|off|behind)\s+(?:the\s+)?$", re.I)


def _words(name: str) -> list[str]:
    return [w.lower().strip(".,'’") for w in re.split(r"\s+", name) if w.strip(".,'’")]


_PAIR_BEFORE = lexicons.latin(r"\b([A-Z][a-z]+)\s+(?:and|&)\s+$")  # "Anna and " of "Lee Hill"
_AFTER = lexicons.latin(r"(?:['’]s)?\s+(?:(?:&|and) (?:[A-Z][a-z]+ )?)?([A-Z][a-z]+)")


def head_class(text: str, m: Mention) -> str:
    """'place' / 'facility' / 'org' when the name's head (its last word, or the word after it,
    "Jackson Avenue", "Hale & Dorr Builders") or its leading word ("River Dane") names a
    non-person; 'ambiguous' for a head that is also a surname (Hill, Hall, Park); '' otherwise."""
    if not (words := _words(m.name or m.text)):
        return ""
    after = _AFTER.match(text[m.end : m.end + 40])
    heads = [words[-1]] + ([after.group(1).lower()] if after else [])
    ambiguous = lexicons.words("ambiguous_head")
    for h in heads:
        for kind in ("place", "facility", "org"):
            if h in lexicons.words(f"{kind}_head"):
                return kind
    if words[0] in lexicons.words("place_lead") and len(words) > 1:
        return "place"
    if any(h in ambiguous for h in heads) and len(words) + bool(after) > 1:
        return "ambiguous"
    return ""


OFFICE = re.compile(rf"(?:The\s+)?(?:Vice[- ])?(?:{lexicons.alternation('office_title')})\s+of\b")


def locative_before(text: str, start: int, *, weak: bool = False) -> bool:
    """A locative preposition right before ``start`` ("at", "near", "the foot of"); with
    ``weak``, also "from", "to", "on"."""
    before = text[max(0, start - 25) : start]
    return _LOCATIVE.search(before) is not None or (
        weak and _WEAK_LOCATIVE.search(before) is not None
    )


def person_evidence(text: str, m: Mention) -> bool:
    """Words around the name that only a person takes: "said", ", who", "(54)" after it; a kin
    or role word in apposition before it ("my parents, ..."); a first name joined to it
    ("Anna and Lee Hill")."""
    if _CUES["person_verb"].match(text[m.end : m.end + 40]) is not None:
        return True
    before = text[max(0, m.start - 40) : m.start]
    word = re.search(r"(?<!\b[Tt]he )(?<!\b[Aa] )\b([A-Za-z]+)\s*,?\s*$", before)  # not "the Uncle"
    if word is not None and lexicons.fold(word.group(1)) in lexicons.kin_words():
        return True
    pair = _PAIR_BEFORE.search(before)
    city = pair and big_city(pair[1])  # not "Rome, Florence and"
    return pair is not None and lexicons.fold(pair.group(1)) in lexicons.first_names() and not city


def mistagged_names(text: str, ents: list[tuple[int, int, str]]) -> list[Mention]:
    """A person NER tags as a firm or place ("a reference for Grace Adeyemi, who"): a given name,
    a word no dictionary has, and a person's words after it or the given name used again alone."""
    out = []
    for s, _, label in ents:
        m = re.compile(r"([A-Z][a-z]+) ([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b").match(text, s)
        if label == "PERSON" or not m or lexicons.fold(m[2]) in lexicons.common_words():
            continue
        mention = Mention.at(m, "name", name=m[0], source="cue")
        again = re.search(rf"\b{m[1]}\b(?! {m[2]})", text[m.end() :])
        if is_given_name(m[1]) and (again or person_evidence(text, mention)):
            out.append(mention)
    return out


def modifies_noun(tokens: list[Token], t: Token | None, m: Mention, text: str) -> bool:
    """'the Fenton Maddox speaker': the name's last token ``t`` is a compound modifier of a
    common noun outside the name, after a determiner."""
    if t is None:
        return False
    head = tokens[t.head] if 0 <= t.head < len(tokens) else t
    if t.dep != "compound" or not head.lower or head.start < m.end:
        return False
    det = r"\b(?:the|a|an|this|that|my|our|his|her|their)\s+(?-i:[A-Z][a-z]+\s+)?$"
    return re.search(det, text[max(0, m.start - 20) : m.start], re.I) is not None


def header_key(text: str, m: Mention) -> bool:
    """'Status:', 'Attendees:' at the start of a line: a field key, not a name."""
    if len(_words(m.name or m.text)) != 1 or not text[m.end : m.end + 2].startswith(":"):
        return False
    if text[text.rfind("\n", 0, m.start) + 1 : m.start].strip():  # not at a line's start
        return False
    return lexicons.fold(m.name or m.text) not in lexicons.first_names()


@functools.cache
def _stop_words() -> dict[str, frozenset[str]]:
    """Function words of the languages an English parser most often meets: spaCy's
    ``spacy.lang.<lang>.stop_words.STOP_WORDS``, each run from its file alone (importing the
    language package first compiles its tokenizer exceptions: French alone, 6 s)."""
    import spacy

    out = {}
    for lang in ("en", "de", "fr", "es", "nl", "it", "pt"):
        namespace: dict = {}  # a word list, no imports
        path = Path(spacy.__file__).parent / "lang" / lang / "stop_words.py"
        exec(path.read_text(encoding="utf-8"), namespace)
        out[lang] = frozenset(w.lower() for w in namespace["STOP_WORDS"])
    return out


def looks_english(text: str) -> bool:
    """True unless the text's function words are clearly another language's (the offline engine
    reads English only). Placeholders are left out; short or word-poor texts count as English."""
    words = re.findall(r"[^\W\d_]+", exposure.without_placeholders(text).lower())[:3000]
    if len(words) < 8:
        return True
    hits = {lang: sum(map(s.__contains__, words)) for lang, s in _stop_words().items()}
    best = max(hits, key=hits.__getitem__)
    # Words shared by several languages ("in", "die", "a") weigh for all; another language
    # must lead clearly, with several of its own function words.
    return best == "en" or hits[best] < 4 or hits[best] < 1.5 * hits["en"]
