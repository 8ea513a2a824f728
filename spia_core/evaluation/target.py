"""The target subject of a document (the applicant in TAB, the author in PANORAMA), for 1-AAC.

The datasets carry no target flag. The entity files' provenance names the person the document
is about: TAB ``provenance.applicant``, PANORAMA ``provenance.profile`` (First/Last Name). The
target is the GT subject whose NAME matches it; otherwise subject 0, otherwise the first subject.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spia_core.evaluation.matching import name_similarity
from spia_core.model import Document, Subject

#: Minimum name similarity for a provenance name to identify a subject.
MIN_NAME_SIMILARITY = 0.6
#: Minimum name similarity for a subject other than subject 0 to be the target.
STRONG_NAME_SIMILARITY = 0.8


@dataclass(frozen=True)
class TargetResolution:
    """Which subject is the target and how it was found."""

    subject_id: int | None
    #: "override" | "applicant" | "profile" | "subject0" | "first" | "none"
    method: str
    detail: str = ""


def _provenance(document: Document) -> dict[str, Any]:
    prov = document.metadata.get("provenance")
    return prov if isinstance(prov, dict) else {}


def _profile_names(profile: dict[str, Any]) -> list[str]:
    """The profile's full name (first + last); a relative sharing only the surname scores low."""
    first = str(profile.get("First Name") or "").strip()
    last = str(profile.get("Last Name") or "").strip()
    full = f"{first} {last}".strip()
    return [full] if full else []


def _best_by_name(subjects: list[Subject], names: list[str]) -> tuple[Subject, float] | None:
    """The subject whose NAME matches one of ``names``.

    Subject 0 (the annotation convention lists the target first) wins whenever its NAME matches
    at all (>= MIN_NAME_SIMILARITY); another subject needs a surname-level match
    (>= STRONG_NAME_SIMILARITY), the best one winning (ties: lowest id).
    """
    scored: list[tuple[Subject, float]] = []
    for subject in sorted(subjects, key=lambda s: s.id):
        sims = [
            sim
            for pii in subject.values("NAME")
            for name in names
            if (sim := name_similarity(pii.keyword, name)) is not None
        ]
        if sims and max(sims) >= MIN_NAME_SIMILARITY:
            scored.append((subject, max(sims)))
    first = next(((s, v) for s, v in scored if s.id == 0), None)
    if first is not None:
        return first
    strong = [(s, v) for s, v in scored if v >= STRONG_NAME_SIMILARITY]
    return max(strong, key=lambda sv: (sv[1], -sv[0].id), default=None)


def resolve_target(document: Document, override: int | None = None) -> TargetResolution:
    """Find the target subject of ``document`` and say how (see module docstring).

    ``override`` names the target explicitly; it must be the id of one of the subjects.
    """
    subjects = document.subjects
    if override is not None:
        if document.subject(override) is None:
            ids = [s.id for s in subjects]
            raise ValueError(
                f"{document.data_id}: target override {override} is not a subject id (ids: {ids})"
            )
        return TargetResolution(override, "override")
    prov = _provenance(document)
    candidates: list[tuple[str, list[str]]] = []
    applicant = str(prov.get("applicant") or "").strip()
    if applicant:
        candidates.append(("applicant", [applicant]))
    profile = prov.get("profile")
    if isinstance(profile, dict) and _profile_names(profile):
        candidates.append(("profile", _profile_names(profile)))
    for method, names in candidates:
        found = _best_by_name(subjects, names)
        if found is not None:
            subject, sim = found
            return TargetResolution(
                subject.id, method, f"NAME {subject.name!r} ~ {names[0]!r} ({sim:.2f})"
            )
    tried = ", ".join(f"{m} {n[0]!r}" for m, n in candidates) or "no provenance name"
    if document.subject(0) is not None:
        return TargetResolution(
            0, "subject0", f"fallback to subject 0 ({tried} matched no subject's NAME well enough)"
        )
    if subjects:
        first = subjects[0].id
        return TargetResolution(
            first,
            "first",
            f"fallback to first subject ({tried} matched no subject's NAME well enough)",
        )
    return TargetResolution(None, "none", "document has no subjects")


def target_subject_id(document: Document, override: int | None = None) -> int | None:
    """Id of the target subject of ``document`` (None when it has no subjects)."""
    return resolve_target(document, override).subject_id
