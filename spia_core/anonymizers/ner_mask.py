"""The ``ner-mask`` anonymizer: spaCy NER plus patterns, replaced with TAB category placeholders.

It stands in for the SPIA paper's TAB Longformer (its weights are not published): entities
found by the shared spaCy pipeline (:func:`spia_core.nlp.load_pipeline`) and by regular
expressions for codes, dates, ages, amounts and titled names are replaced with ``[PERSON]``,
``[LOC]``, ``[ORG]``, ``[DATETIME]``, ``[CODE]``, ``[QUANTITY]``, ``[DEM]`` or ``[MISC]``.
With ``numbered=True`` each distinct entity gets its own placeholder (``[PERSON_1]``), which
shows how consistent placeholders still tell an adversary who is who.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS

#: spaCy OntoNotes labels -> TAB entity types (None = left alone).
SPACY_TO_TAB: dict[str, str | None] = {
    "PERSON": "PERSON",
    "GPE": "LOC",
    "LOC": "LOC",
    "FAC": "LOC",
    "ORG": "ORG",
    "NORP": "DEM",
    "LANGUAGE": "DEM",
    "DATE": "DATETIME",
    "TIME": "DATETIME",
    "CARDINAL": "QUANTITY",
    "QUANTITY": "QUANTITY",
    "MONEY": "QUANTITY",
    "PERCENT": "QUANTITY",
    "EVENT": "MISC",
    "PRODUCT": "MISC",
    "WORK_OF_ART": "MISC",
    "ORDINAL": None,
    "LAW": None,
}

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_WEEKDAY = r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
_CURRENCY = (
    r"(?:EUR|GBP|USD|TRL|TRY|PLN|SEK|NOK|DKK|CHF|ATS|DEM|FRF|ITL|RUB|UAH|INR|NZD|AUD|CAD|"
    r"PHP|HUF|CZK|BGN|RON|HRK|EEK|LTL|LVL|SKK|SIT|MDL|GEL|AMD|AZN)"
)
_NUMBER_WORDS = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|thousand|million|several|dozens?)"
)
_DEM_WORDS = (
    r"(?:un)?married|divorced?|widow(?:ed|er)?s?|single mom|single dad|"
    r"(?:grand)?(?:father|mother|dad|mom|mum|son|daughter|parent)s?|kids?|kiddos?|children|"
    r"husband|wife|fianc[ée]e?|boyfriend|girlfriend|"
    r"teacher|lecturer|professor|student|doctor|nurse|physician|surgeon|lawyer|attorney|"
    r"engineer|accountant|bookkeeper|architect|farmer|driver|officer|soldier|journalist|"
    r"editor|manager|clerk|secretary|shopkeeper|dancer|mechanic|electrician|plumber|"
    r"pharmacist|dentist|psychologist|programmer|developer|designer|chef|cook|waiter|"
    r"cashier|salesman|businessman|businesswoman|self-employed|unemployed|retired|"
    r"pensioner|bachelor'?s degree|master'?s degree|PhD|diploma"
)
_TITLE = r"(?:Mr|Mrs|Ms|Miss|Mme|Mlle|Dr|Prof|Judge|Sir|Lord|Lady|Dame|Sheikh|Imam)"
_NAME_WORD = r"[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’.-]*"

#: (TAB type, compiled pattern, group to mask). Order matters only for equal spans.
PATTERNS: tuple[tuple[str, re.Pattern[str], int], ...] = (
    ("CODE", re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"), 0),
    ("CODE", re.compile(r"\bhttps?://\S+|\bwww\.\S+"), 0),
    # application / case / file numbers: 22302/10, 121/2/3, 2-123/2004, 11/14 E.1
    ("CODE", re.compile(r"\b\d[\d-]{0,7}/\d{1,4}(?:/\d{1,4})*(?:\s+[A-Z]\.\d+)?\b"), 0),
    # identifiers mixing letters and digits (IE-ID-5170294, B73920451, K51A8C8)
    (
        "CODE",
        re.compile(
            r"\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b"
            r"|\b(?=\w*\d\w*\d\w*\d)(?=\w*[A-Z])[A-Z0-9]{5,}\b"
        ),
        0,
    ),
    # long digit runs (ID numbers, account numbers)
    ("CODE", re.compile(r"\b\d{6,}\b"), 0),
    # "no. 703", "nos. 12 and 13"
    ("CODE", re.compile(r"\b(?:[Nn]os?|[Nn]r)\.?\s*(\d[\w/.-]*)"), 1),
    # online handles: tina996, alexander_kelly, norman.thomas, @user
    (
        "PERSON",
        re.compile(r"@\w+|\b[A-Za-z]+_\w+\b|\b[a-z]+(?:[._][a-z]+)+\d*\b(?!\.\w)|\b[a-z]+\d{2,}\b"),
        0,
    ),
    # marital status, family roles and common occupations (quasi-identifiers)
    ("DEM", re.compile(rf"\b(?:{_DEM_WORDS})\b", re.IGNORECASE), 0),
    # dates: "Monday, 3 May 2004", "3 May", "May 2004", "1990s", years, ISO dates and times
    (
        "DATETIME",
        re.compile(
            rf"\b(?:{_WEEKDAY},?\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}"
            rf"(?:,?\s+\d{{4}})?|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|{_MONTH}\s+\d{{4}})\b"
        ),
        0,
    ),
    ("DATETIME", re.compile(rf"\b{_WEEKDAY}\b"), 0),
    ("DATETIME", re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?\b"), 0),
    ("DATETIME", re.compile(r"\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"), 0),
    ("DATETIME", re.compile(r"\b\d{1,2}:\d{2}(?:\s?[AaPp]\.?[Mm]\.?)?"), 0),
    ("DATETIME", re.compile(r"\b(?:1[6-9]|20)\d\d(?:s|'s)?\b"), 0),
    # ages: "aged 45", "age of 12", "45 years old", "45-year-old"
    (
        "DEM",
        re.compile(
            rf"\b(?:aged|age of|age)\s+(?:\d{{1,3}}|{_NUMBER_WORDS}(?:[- ]{_NUMBER_WORDS})?)\b"
            rf"|\b(?:\d{{1,3}}|{_NUMBER_WORDS})[- ](?:years?|months?)[- ]old\b"
        ),
        0,
    ),
    # amounts: EUR 1,300 / 250,000 Swedish kronor / ₹750 / $20
    (
        "QUANTITY",
        re.compile(
            rf"\b{_CURRENCY}\s?\d[\d,.\s]*\d\b|\b{_CURRENCY}\s?\d\b|[€£$₹¥]\s?\d[\d,.]*\d?"
            r"|\b\d[\d,.]*\s(?:[A-Z][a-z]+\s)?(?:euros?|pounds(?: sterling)?|dollars?|kronor|"
            r"zlotys?|liras?|"
            r"francs?|marks?|roubles?|rupees?|hryvnias?|schillings?|lira|kuna|lei|korun[ay]?)\b"
        ),
        0,
    ),
    # titled names: "Mr K. Laskaris", "Mrs Eleni Petrou Vasou", "Judge Smith"
    (
        "PERSON",
        re.compile(rf"\b{_TITLE}\.?\s+((?:{_NAME_WORD}\s+){{0,3}}{_NAME_WORD})"),
        1,
    ),
)

#: Placeholder label per TAB type.
PLACEHOLDERS: dict[str, str] = {
    t: t for t in ("PERSON", "LOC", "ORG", "DATETIME", "CODE", "QUANTITY", "DEM", "MISC")
}

_TYPE_PRIORITY = {"CODE": 0, "PERSON": 1, "DATETIME": 2, "QUANTITY": 3, "DEM": 4}
_TRAILING = " ,.;:()[]'\"’“”-"
_LEADING_TITLE = re.compile(rf"^(?:{_TITLE}\.?\s+|the\s+)", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """One span to mask, in original offsets."""

    start: int
    end: int
    tab_type: str
    source: str  # "ner:LABEL" | "pattern" | "phone"


def _phone_spans(text: str, regions: tuple[str, ...]) -> Iterator[Found]:
    seen: set[tuple[int, int]] = set()
    for region in regions:
        for match in _phone_matcher()(text, region):
            if (match.start, match.end) not in seen:
                seen.add((match.start, match.end))
                yield Found(match.start, match.end, "CODE", "phone")


@functools.cache
def _phone_matcher() -> type:
    """``phonenumbers.PhoneNumberMatcher`` that verifies each candidate once per process.

    Its ``_parse_and_verify(candidate, offset)`` (at the default leniency, VALID) reads only
    the candidate, the region and the characters just before and after it in the text, so it
    is asked once per (region, candidate, those characters): a text repeats its years and
    case numbers, and the three regions see the same candidates. Same matches."""
    import phonenumbers

    @functools.lru_cache(maxsize=8192)
    def verified(region: str, before: str, candidate: str, after: str) -> Any:
        matcher = phonenumbers.PhoneNumberMatcher(before + candidate + after, region)
        return matcher._parse_and_verify(candidate, len(before))

    class Matcher(phonenumbers.PhoneNumberMatcher):  # type: ignore[misc]
        def _parse_and_verify(self, candidate: str, offset: int) -> Any:
            end = offset + len(candidate)
            before = self.text[offset - 1 : offset] if offset else ""
            found = verified(self.preferred_region, before, candidate, self.text[end : end + 1])
            return (
                None
                if found is None
                else phonenumbers.PhoneNumberMatch(offset, candidate, found.number)
            )

    return Matcher


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _TRAILING:
        start += 1
    while end > start and text[end - 1] in _TRAILING:
        end -= 1
    if text[start:end].endswith(("'s", "’s")):
        end -= 2
    return start, end


def _resolve(found: list[Found]) -> list[Found]:
    """Merge overlapping spans; the merged span keeps the type of its strongest member."""
    merged: list[Found] = []
    for f in sorted(found, key=lambda f: (f.start, -(f.end - f.start))):
        if merged and f.start < merged[-1].end:
            last = merged[-1]
            best = min(
                (last, f), key=lambda x: (_TYPE_PRIORITY.get(x.tab_type, 9), x.start - x.end)
            )
            merged[-1] = Found(last.start, max(last.end, f.end), best.tab_type, best.source)
        else:
            merged.append(f)
    return merged


def _entity_key(text: str) -> str:
    """Normalised entity text, so that 'Mr Smith' and 'Smith' share a number."""
    key = _LEADING_TITLE.sub("", text.strip())
    return re.sub(r"\s+", " ", key).casefold()


@ANONYMIZERS.register("ner-mask")
class NerMaskAnonymizer:
    """spaCy NER + patterns -> TAB placeholders (offline stand-in for the TAB Longformer)."""

    name = "ner-mask"
    display_name = "NER mask (offline, spaCy + patterns)"
    is_local = True
    needs_backbone = False
    description = (
        "Replaces entities found by spaCy NER and by patterns (emails, phone numbers, ID and "
        "application numbers, dates, ages, amounts, titled names) with TAB category "
        "placeholders such as [PERSON] or [DATETIME]. Runs offline. It stands in for the SPIA "
        "paper's TAB Longformer, whose trained weights are not published, so its figures are "
        "comparable to, not the same as, the paper's Longformer row."
    )

    def __init__(
        self,
        numbered: bool = False,
        phone_regions: tuple[str, ...] = ("US", "GB", "IN"),
        use_ner: bool = True,
    ) -> None:
        self.numbered = numbered
        self.phone_regions = tuple(phone_regions)
        self.use_ner = use_ner

    def find(self, text: str) -> tuple[list[Found], list[str], str]:
        """Spans to mask (merged, original offsets), warnings, and the spaCy model used."""
        from spia_core.nlp import load_pipeline, parse

        warnings: list[str] = []
        found: list[Found] = []
        model = "none"
        if self.use_ner:
            pipeline = load_pipeline()
            model = pipeline.model_name
            if pipeline.has_ner:
                doc = parse(text, pipeline, syntax=False)  # NER alone, shared with later stages
                for ent in doc.ents:
                    tab_type = SPACY_TO_TAB.get(ent.label_)
                    if tab_type is not None:
                        found.append(
                            Found(ent.start_char, ent.end_char, tab_type, f"ner:{ent.label_}")
                        )
            else:
                warnings.append(
                    "no trained spaCy model is installed: ner-mask ran on patterns only "
                    "(degraded; names, places and organisations are mostly left in)"
                )
        for tab_type, pattern, group in PATTERNS:
            for m in pattern.finditer(text):
                if m.group(group):
                    found.append(Found(m.start(group), m.end(group), tab_type, "pattern"))
        found.extend(_phone_spans(text, self.phone_regions))
        trimmed = []
        for f in found:
            start, end = _trim(text, f.start, f.end)
            if f.tab_type == "PERSON" and text[start:end].endswith((" I", "\nI")):
                end -= 2  # "Ms Rowe I am the landlord": NER took the writer's "I" into the name
            if end > start:
                trimmed.append(Found(start, end, f.tab_type, f.source))
        return _resolve(trimmed), warnings, model

    def anonymize(self, text: str) -> AnonymizedText:
        spans, warnings, model = self.find(text)
        numbers: dict[str, dict[str, int]] = {}
        parts: list[str] = []
        cursor = 0
        for f in spans:
            label = PLACEHOLDERS[f.tab_type]
            if self.numbered:
                per_type = numbers.setdefault(label, {})
                n = per_type.setdefault(_entity_key(text[f.start : f.end]), len(per_type) + 1)
                label = f"{label}_{n}"
            parts.extend((text[cursor : f.start], f"[{label}]"))
            cursor = f.end
        parts.append(text[cursor:])
        counts: dict[str, int] = {}
        for f in spans:
            counts[f.tab_type] = counts.get(f.tab_type, 0) + 1
        return AnonymizedText(
            text="".join(parts),
            masked_spans=[(f.start, f.end) for f in spans],
            method=self.name,
            trace={
                "spacy_model": model,
                "numbered": self.numbered,
                "n_masked": len(spans),
                "per_type": counts,
                "spans": [[f.start, f.end, f.tab_type, f.source] for f in spans],
            },
            warnings=warnings,
        )
