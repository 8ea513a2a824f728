"""The SPIA PII taxonomy (15 tags) and the TAB span-annotation vocabulary."""

from __future__ import annotations

import datetime as _dt

#: The 15 SPIA tags, in the order the datasets list them.
TAGS: tuple[str, ...] = (
    "NAME",
    "IDENTIFICATION_NUMBER",
    "DRIVER_LICENSE_NUMBER",
    "PHONE_NUMBER",
    "PASSPORT_NUMBER",
    "EMAIL_ADDRESS",
    "SEX",
    "AGE",
    "LOCATION",
    "NATIONALITY",
    "EDUCATION",
    "RELATIONSHIP",
    "OCCUPATION",
    "AFFILIATION",
    "POSITION",
)

#: CODE tags: exact-pattern identifiers, inferred by the CODE prompt.
CODE_TAGS: tuple[str, ...] = (
    "IDENTIFICATION_NUMBER",
    "DRIVER_LICENSE_NUMBER",
    "PHONE_NUMBER",
    "PASSPORT_NUMBER",
    "EMAIL_ADDRESS",
)
#: NON-CODE tags, inferred by the NON-CODE prompt.
NON_CODE_TAGS: tuple[str, ...] = tuple(t for t in TAGS if t not in CODE_TAGS)

#: Direct identifiers (NAME and the CODE tags) versus quasi-identifiers (the other 9).
DIRECT_TAGS: tuple[str, ...] = ("NAME", *CODE_TAGS)
QUASI_TAGS: tuple[str, ...] = tuple(t for t in TAGS if t not in DIRECT_TAGS)

#: Categorical vocabularies, canonical spelling as in the SPIA guidelines.
SEX_VALUES: tuple[str, ...] = ("Male", "Female")
EDUCATION_VALUES: tuple[str, ...] = (
    "No High School Diploma",
    "In High School",
    "High School Diploma",
    "In College",
    "College Degree",
    "PhD",
)
RELATIONSHIP_VALUES: tuple[str, ...] = (
    "No relation",
    "In Relation",
    "Married",
    "Divorced",
    "Widowed",
)

#: Synonym sets the reference scorer treats as equal (lower-cased).
SEX_SYNONYMS: tuple[frozenset[str], ...] = (
    frozenset({"male", "m", "man"}),
    frozenset({"female", "f", "woman"}),
)
RELATIONSHIP_SYNONYMS: tuple[frozenset[str], ...] = (
    frozenset({"no relation", "single", "unmarried"}),
    frozenset({"in relation", "dating", "relationship"}),
    frozenset({"married", "wed"}),
    frozenset({"divorced", "separated"}),
    frozenset({"widowed", "widow", "widower"}),
)

#: Ages are stated relative to this date (SPIA guidelines).
REFERENCE_DATE: _dt.date = _dt.date(2025, 9, 1)

#: Default GT certainty threshold for a PII to count.
DEFAULT_MIN_CERTAINTY: int = 3

DISPLAY_NAMES: dict[str, str] = {
    "NAME": "Name",
    "IDENTIFICATION_NUMBER": "ID number",
    "DRIVER_LICENSE_NUMBER": "Driver licence",
    "PHONE_NUMBER": "Phone",
    "PASSPORT_NUMBER": "Passport",
    "EMAIL_ADDRESS": "Email",
    "SEX": "Sex",
    "AGE": "Age",
    "LOCATION": "Location",
    "NATIONALITY": "Nationality",
    "EDUCATION": "Education",
    "RELATIONSHIP": "Relationship",
    "OCCUPATION": "Occupation",
    "AFFILIATION": "Affiliation",
    "POSITION": "Position",
}

#: One colour per tag (colour-blind-friendly qualitative palette, extended).
TAG_COLOURS: dict[str, str] = {
    "NAME": "#d62728",
    "IDENTIFICATION_NUMBER": "#8c564b",
    "DRIVER_LICENSE_NUMBER": "#a0522d",
    "PHONE_NUMBER": "#bc6c25",
    "PASSPORT_NUMBER": "#6d4c41",
    "EMAIL_ADDRESS": "#9c6644",
    "SEX": "#e377c2",
    "AGE": "#ff7f0e",
    "LOCATION": "#2ca02c",
    "NATIONALITY": "#17becf",
    "EDUCATION": "#9467bd",
    "RELATIONSHIP": "#f4a261",
    "OCCUPATION": "#1f77b4",
    "AFFILIATION": "#7f7f7f",
    "POSITION": "#bcbd22",
}

#: TAB's 8 entity types and the masking decision per mention.
TAB_ENTITY_TYPES: tuple[str, ...] = (
    "PERSON",
    "CODE",
    "LOC",
    "ORG",
    "DEM",
    "DATETIME",
    "QUANTITY",
    "MISC",
)
IDENTIFIER_TYPES: tuple[str, ...] = ("DIRECT", "QUASI", "NO_MASK")


def is_code_tag(tag: str) -> bool:
    """True for the 5 CODE tags."""
    return tag in CODE_TAGS


def is_direct_tag(tag: str) -> bool:
    """True for NAME and the CODE tags (direct identifiers)."""
    return tag in DIRECT_TAGS


def tag_group(tag: str) -> str:
    """'CODE' or 'NON-CODE'."""
    return "CODE" if tag in CODE_TAGS else "NON-CODE"
