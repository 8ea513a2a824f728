"""Shared regular expressions: placeholders, titles, pronouns, numbers, codes."""

from __future__ import annotations

import re

import spia_core.adversary.local.lexicons as lexicons
from spia_core import exposure

_CUES = lexicons.subject_cues()

#: The number of a numbered placeholder ("[PERSON_2]" -> "2").
_MASK_NUMBER = re.compile(r"[_ -]?(\d+)[\]>}]+$")
#: A line opening with a greeting ("Dear", "Hi": word class greeting); GREETED: a greeting right
#: before a name ("Dear Ms Okafor,", "Hi Ana"), the addressee's.
GREETING = rf"(?:^|\n)[^\S\n]*(?:{lexicons.alternation('greeting')})"
GREETED = re.compile(rf"{GREETING}\s+(?:\w+\.?\s+)?\Z")
#: The gap between two items of a list of people ("A, B and C", "A (7) and B"; no blank line).
LIST_GAP = re.compile(r"^(?![\s\S]*\n[ \t]*\n)\s*(?:\(\d{1,2}\)\s*)?(?:,|and|&|, and|,\s*and)\s*$")
#: Text ending in "<someone other than the writer> is a", before "mother of two".
THIRD_COPULA = _CUES["third_copula"]


def beside_name(text: str, start: int, end: int) -> str:
    """'before' or 'after' when text[start:end] is in apposition to another person's name."""
    if before := _CUES["name_before"].search(text, max(0, start - 45), start):
        writer = _CUES["writer_named"].search(text, max(0, before.start() - 12), before.start())
        return "" if writer else "before"
    return "after" if _CUES["name_after"].match(text, end) else ""


PERSON_LABELS = frozenset({"PERSON", "PER", "NAME", "PERSON_NAME"})
#: Labels of placeholders that say nothing of what they hide ("[REDACTED]"): generic masks.
GENERIC_LABELS = frozenset({"REDACTED", "REMOVED", "MASKED", "CENSORED", "HIDDEN", "ANONYMISED"})

#: Title (lower case) -> the sex it gives ("" for either): "mrs" -> "Female", "dr" -> "".
TITLES: dict[str, str] = lexicons.word_map("title_sex")
TITLED_NAME, TITLE_BEFORE = _CUES["titled_name"], _CUES["title_before"]  # "Dr K. Lee", "Dr "

HANDLE = re.compile(r"(?<![\w@.])@(?P<handle>[A-Za-z][\w.]{1,40}[A-Za-z0-9])")
HEADER_NAME = _CUES["header_name"]
LEAD_NAME = re.compile(r"^\s*(?P<name>[A-Z][\w'’\-]+(?: [A-Z][\w'’\-]+){0,2})\s*:\s", re.MULTILINE)
I_AM = r"I(?: am|['’]m| was)"  # the writer's copula before a role or kin word ("I'm the ...")
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll|me|my|My|mine|myself)\b")
MALE_PRONOUN = re.compile(r"\b(?:he|him|his|himself|He|His|Him)\b")
FEMALE_PRONOUN = re.compile(r"\b(?:she|her|hers|herself|She|Her)\b")
PRONOUN = re.compile(r"\b(?:he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)


def is_person_label(label: str) -> bool:
    """A placeholder label that hides a person: [PERSON], [NAME], or a role noun a redaction
    tool writes in place of a name ([PATIENT], [CLIENT_2], [WITNESS])."""
    return label in PERSON_LABELS or label.lower().replace("_", " ") in lexicons.words("role_noun")


def number_value(word: str) -> int | None:
    """2 for 'two' or '2' (2..12), else None."""
    w = word.lower()
    if w.isdigit():
        return int(w) if 2 <= int(w) <= 12 else None
    value = lexicons.word_map("number_word").get(w)
    return int(value) if value else None


def ordinal(word: str) -> int:
    """1 for 'first' ... 10 for 'tenth', else 0."""
    return int(lexicons.word_map("ordinal").get(word.lower(), 0))


def masked_spans(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, label, number) of every placeholder the product reads as a mask
    (``exposure.find_placeholders``: [PERSON_2], <LOC>, ***, ████, "(name withheld)" ...);
    label '' for generic masks. Two alike generic or person masks a space apart are one (a
    name masked word by word: "█████ ██████", "[NAME] [NAME]")."""
    out: list[tuple[int, int, str, str]] = []
    for r in exposure.find_placeholders(text):
        label = "" if r.label in GENERIC_LABELS else r.label
        number = m[1] if (m := _MASK_NUMBER.search(r.text)) else ""
        same = out and out[-1][2:] == (label, number) and text[out[-1][1] : r.start] == " "
        start = out.pop()[0] if same and (not label or is_person_label(label)) else r.start
        out.append((start, r.end, label, number))
    return out


def is_generic_mask(text: str) -> bool:
    """True when ``text`` is one placeholder that says nothing of what it hides ("***")."""
    spans = masked_spans(text)
    return len(spans) == 1 and spans[0][:3] == (0, len(text), "")
