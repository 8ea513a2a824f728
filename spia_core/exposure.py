"""Exposure: what an adversary reading only the (redacted) text learns, per person and document.

Definition (docs/exposure.md): a subject's exposure is the number of SPIA tags the adversary
gets about them with certainty >= ``min_certainty`` (3, the scorer's threshold): direct
identifiers it recovers (NAME, the CODE tags) plus quasi-identifiers it infers. Every tag
weighs 1, as it does in CPR (each (subject, tag) pair with certainty >= 3 counts once). The
document's exposure is the sum over subjects. A placeholder is *seen through* when an
inference counted in the exposure rests on evidence covering it.
"""

from __future__ import annotations

import bisect
import functools
import re

from spia_core.model import DocumentExposure, PlaceholderReading, Subject, SubjectExposure
from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY, DIRECT_TAGS, DISPLAY_NAMES, TAGS

#: Masking placeholders: [REDACTED], [PERSON], [PERSON_2], [LOC], <PERSON>, {NAME}, ***, ███,
#: ■■■, XXX (three or more capital X as a word), [X], a bare REDACTED, and bracketed notes that
#: say something was taken out: [Name removed], (name withheld), <redacted>, [s.40(2)].
#: Every alternative opens with a character, not a look-behind ('XXX' not after a letter or
#: digit is 'X(?<![A-Za-z0-9]X)XX', '\bREDACTED' is 'R(?<!\wR)EDACTED'), so that a search
#: skips straight to the characters that can open a placeholder.
PLACEHOLDER = re.compile(
    r"\[(?P<label>[A-Za-z][A-Za-z_ ]{0,30}?)(?:[_ -]?\d+)?\]"
    r"|<(?P<label2>[A-Z][A-Z_]{1,30}?)(?:_?\d+)?>"
    r"|\{\{?(?P<label3>[A-Z][A-Z_]{1,30}?)(?:_?\d+)?\}?\}"
    r"|\[(?P<note>[^\[\]\n]{1,50})\]|[(<](?P<aside>[^()<>\n]{1,50})[)>]"
    r"|\*{3,}|█+|[▇▆■▬▮▓]{2,}|X(?<![A-Za-z0-9]X)X{2,}(?![A-Za-z0-9])|R(?<!\wR)EDACTED\b"
)
#: Bracketed words that are masks of no particular type.
_GENERIC = frozenset(
    {"redacted", "removed", "masked", "withheld", "deleted", "anonymised", "anonymized", "x"}
)
#: Bracketed words that are ordinary text, not masks ("[sic]", "[citation needed]", "[edit]").
_NOT_MASKS = frozenset({"sic", "citation needed", "edit", "sic!", "emphasis added", "ibid"})
#: What a lower-case bracket note may name before saying it was taken out ("name withheld").
_WHAT = (
    r"(?:personal\s+)?(?:name|names|address|details|data|information|info|text|number|"
    r"phone(?:\s+number)?|email(?:\s+address)?|identity|location|signature|person|date)"
)
_TAKEN_OUT = r"(?:redacted|removed|withheld|deleted|omitted|anonymi[sz]ed|masked|suppressed)"
#: A bracket note that is a mask: "name withheld", "redacted - s.40".
_MASK_NOTE = re.compile(
    rf"(?:{_WHAT}\s+)?{_TAKEN_OUT}(?:\s*[-–:,;]\s*[^\n]{{0,30}})?", re.IGNORECASE
)
#: In square brackets also a word alone ("[name]") or an exemption ("[s.40(2)]"); in round
#: brackets these are text ("(name)", "the Act (s. 40)").
_MASK_WORD = re.compile(rf"{_WHAT}|(?:s\.?|section)\s*\d+(?:\(\w+\))*", re.IGNORECASE)
#: The label a note's first word gives ("Name removed" -> NAME); other notes are generic.
_NOTE_LABELS = {
    "name": "NAME",
    "names": "NAME",
    "person": "PERSON",
    "address": "ADDRESS",
    "phone": "PHONE",
    "email": "EMAIL",
    "location": "LOCATION",
    "date": "DATE",
}


def _note_label(note: str, *, square: bool = True) -> str | None:
    """The label of a bracket note that is a mask ('' generic), None when it is text."""
    note = note.strip()
    if not (_MASK_NOTE.fullmatch(note) or (square and _MASK_WORD.fullmatch(note))):
        return None
    return _NOTE_LABELS.get(note.split()[0].lower(), "")


def _bracket_label(raw: str) -> str | None:
    """The label of a [Word] placeholder ('' generic), None for editorial brackets."""
    word = raw.strip().lower()
    if word in _NOT_MASKS:
        return None
    if raw.isupper() or word in _GENERIC:
        return "" if word in _GENERIC else raw.strip().upper()
    return _note_label(raw)  # "[Name removed]", "[name]"; else "[Ed]", "[laughs]": text


def find_placeholders(text: str) -> list[PlaceholderReading]:
    """Every masking placeholder of ``text``, in order, with its label ('' when generic)."""
    return [PlaceholderReading(*found) for found in _placeholders(text)]


@functools.lru_cache(maxsize=8)  # an audit asks about the same text several times
def _placeholders(text: str) -> tuple[tuple[int, int, str, str], ...]:
    out: list[tuple[int, int, str, str]] = []
    pos = 0
    while m := PLACEHOLDER.search(text, pos):
        pos = m.end()
        if m.group("label"):
            label = _bracket_label(m.group("label"))
        elif m.group("note") or m.group("aside"):
            label = _note_label(m.group("note") or m.group("aside"), square=bool(m.group("note")))
        else:
            raw = m.group("label2") or m.group("label3") or ""
            label = "" if raw.lower() in _GENERIC else raw.upper()
        if label is not None:
            out.append((m.start(), m.end(), m.group(0), label))
        else:  # a bracket of text: a mask inside it ("the chair ([PERSON_2])") still counts
            pos = m.start() + 1
    return tuple(out)


def without_placeholders(text: str, filler: str = " ") -> str:
    """``text`` with every placeholder of :func:`find_placeholders` replaced by ``filler``."""
    parts, last = [], 0
    for r in find_placeholders(text):
        parts += [text[last : r.start], filler]
        last = r.end
    return "".join([*parts, text[last:]])


def readings_text(inferred: list[str], labels: dict[int, str]) -> str:
    """A placeholder's readings ("0:OCCUPATION") in words, per person:
    "Tenant (#0): Occupation, Position; subject 3: Sex" (``labels``: subject id -> label)."""
    by_person: dict[str, list[str]] = {}
    for item in inferred:
        sid, _, tag = item.partition(":")
        label = labels.get(int(sid)) if sid.isdigit() else None
        who = f"{label} (#{sid})" if label else f"subject {sid}"
        by_person.setdefault(who, []).append(DISPLAY_NAMES.get(tag, tag))
    return "; ".join(f"{who}: {', '.join(tags)}" for who, tags in by_person.items())


def _label(subject: Subject) -> str:
    head = subject.name or subject.description.split(" - ")[0].strip()
    return head[:80] if head else f"subject {subject.id}"


def subject_exposure(
    subject: Subject, min_certainty: int = DEFAULT_MIN_CERTAINTY
) -> SubjectExposure:
    """Direct and quasi tags the adversary holds about ``subject`` at ``min_certainty`` or more."""
    held = {p.tag for p in subject.piis if not p.is_empty and p.certainty >= min_certainty}
    ordered = [t for t in TAGS if t in held]
    return SubjectExposure(
        subject_id=subject.id,
        label=_label(subject),
        direct=[t for t in ordered if t in DIRECT_TAGS],
        quasi=[t for t in ordered if t not in DIRECT_TAGS],
    )


#: Placeholder labels that mask a value of one tag: only an inference of that tag reads them.
#: Person labels and generic masks are read by any inference (they hide a person).
LABEL_TAGS: dict[str, str] = {
    **dict.fromkeys(["LOCATION", "LOC", "GPE", "CITY", "ADDRESS", "COUNTRY", "PLACE"], "LOCATION"),
    **dict.fromkeys(["ORG", "ORGANIZATION", "ORGANISATION", "COMPANY", "EMPLOYER"], "AFFILIATION"),
    **dict.fromkeys(["PHONE", "PHONE_NUMBER", "TEL"], "PHONE_NUMBER"),
    **dict.fromkeys(["EMAIL", "EMAIL_ADDRESS"], "EMAIL_ADDRESS"),
    **dict.fromkeys(["AGE"], "AGE"),
    **dict.fromkeys(["NORP", "NATIONALITY"], "NATIONALITY"),
    **dict.fromkeys(["JOB", "OCCUPATION", "PROFESSION"], "OCCUPATION"),
}

#: How far (characters, same sentence) evidence may sit from a placeholder it reads through.
NEAR_CHARS = 60
_SENTENCE_END = re.compile(r"[.!?]\s|\n")


def _reads(text: str, start: int, end: int, ph: PlaceholderReading) -> bool:
    """True when evidence [start, end) covers ``ph`` or sits next to it in the same sentence."""
    if start <= ph.start and ph.end <= end:
        return True
    if end <= ph.start:
        gap = text[end : ph.start]
    elif ph.end <= start:
        gap = text[ph.end : start]
    else:
        return True  # overlapping
    return len(gap) <= NEAR_CHARS and not _SENTENCE_END.search(gap)


def read_placeholders(
    text: str, subjects: list[Subject], min_certainty: int = DEFAULT_MIN_CERTAINTY
) -> list[PlaceholderReading]:
    """The placeholders of ``text``, each with the counted inferences that read through it.

    An inference (certainty >= ``min_certainty``) reads through a placeholder when one of its
    evidence spans covers the placeholder or sits within :data:`NEAR_CHARS` characters of it
    in the same sentence ("her husband [PERSON]": the mask hides a married man). A typed
    placeholder ([LOCATION], [ORG], ...) is read only by an inference of its tag.
    """
    placeholders = find_placeholders(text)
    if not placeholders:
        return placeholders
    starts = [p.start for p in placeholders]
    for subject in subjects:
        for pii in subject.piis:
            if pii.is_empty or pii.certainty < min_certainty:
                continue
            for ev in pii.evidence:
                lo = bisect.bisect_left(starts, ev.start - NEAR_CHARS - 40)
                for ph in placeholders[lo:]:
                    if ph.start > ev.end + NEAR_CHARS:
                        break
                    if LABEL_TAGS.get(ph.label, pii.tag) != pii.tag:
                        continue
                    if _reads(text, ev.start, ev.end, ph):
                        key = f"{subject.id}:{pii.tag}"
                        if key not in ph.inferred:
                            ph.inferred.append(key)
                        ph.seen_through = True
    return placeholders


def document_exposure(
    text: str, subjects: list[Subject], min_certainty: int = DEFAULT_MIN_CERTAINTY
) -> DocumentExposure:
    """Exposure of every subject found in ``text`` and the placeholders it sees through."""
    return DocumentExposure(
        min_certainty=min_certainty,
        subjects=[subject_exposure(s, min_certainty) for s in subjects],
        placeholders=read_placeholders(text, subjects, min_certainty),
    )
