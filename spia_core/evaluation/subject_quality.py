"""Subject precision/recall of an adversary on the written-for-purpose set.

The set (``tests/fixtures/written/documents.jsonl``, see its README) holds short documents
written for this test, each with the people it names or implies. Every expected person has
*cues* (name parts, role or kin words, the placeholder that masks them), is *required* or
optional, and may stand for a counted group (``count``: "our three kids"); ``not_subjects``
lists firms, streets, places and headers that must never become a subject. A predicted
subject is read by what a user sees of it: its label (the description
before `` - ``), its NAME value and, for an unnamed person, the words around its first mention.

Scoring, per document: predicted subjects are matched one-to-one to expected people whose cues
they show (maximum matching, required people first). A predicted subject matched to a required
person is a true positive; one matched to an optional person counts neither way; any other
predicted subject (a firm, a place, a split of someone already matched, a header) is a false
positive. Recall is matched required people over all required people.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spia_core.model import Subject

#: Where the written-for-purpose documents live (one JSON object per line).
WRITTEN_SET = (
    Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "written" / "documents.jsonl"
)
#: Targets of issue 14 for the offline engine.
TARGETS = {"precision": 0.90, "recall": 0.85}
_CLIP = re.compile(r"individual mentioned in “([^”]*)”")


@dataclass
class DocScore:
    """One document's matching: who was found, who was missed, what was extra."""

    doc_id: str
    split: str
    tp: int = 0
    fp: int = 0
    fn: int = 0
    optional_found: int = 0
    missed: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    not_person: list[str] = field(default_factory=list)


def load_written(path: Path | None = None) -> list[dict[str, Any]]:
    """The written documents, in file order."""
    lines = (path or WRITTEN_SET).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def subject_view(subject: Subject, *, context: bool = True) -> str:
    """What a user reads of a predicted subject: label, NAME value and (unless ``context`` is
    False) the words around its first mention."""
    head = subject.description.split(" - ", 1)[0]
    name = next((p.keyword for p in subject.piis if p.tag == "NAME" and p.keyword), "")
    clip = _CLIP.search(subject.description) if context else None
    view = " | ".join(x for x in (head, name, clip.group(1) if clip else "") if x)
    return " ".join(view.split())


def _has(text: str, cue: str) -> bool:
    if re.fullmatch(r"[\w .'-]+", cue):
        return re.search(rf"(?<!\w){re.escape(cue)}(?!\w)", text, re.IGNORECASE) is not None
    return cue.lower() in text.lower()


def _max_matching(edges: dict[int, list[int]], taken: dict[int, int]) -> None:
    """Kuhn's augmenting paths: extend ``taken`` (predicted -> expected) over ``edges``
    (expected -> predicted candidates) without undoing earlier expected people."""

    def augment(e: int, seen: set[int]) -> bool:
        for p in edges.get(e, []):
            if p in seen:
                continue
            seen.add(p)
            if p not in taken or augment(taken[p], seen):
                taken[p] = e
                return True
        return False

    for e in edges:
        if e not in taken.values():
            augment(e, set())


def score_document(doc: dict[str, Any], predicted: Iterable[Subject]) -> DocScore:
    """Match one document's predicted subjects to its expected people."""
    predicted = list(predicted)
    views = [subject_view(s) for s in predicted]
    out = DocScore(doc_id=doc["id"], split=doc.get("split", "dev"))
    # A firm or place named in the words around a person's mention does not make it a firm.
    names = [subject_view(s, context=False) for s in predicted]
    banned = {i for i, v in enumerate(names) for ns in doc.get("not_subjects", []) if _has(v, ns)}
    out.not_person = [views[i] for i in sorted(banned)]
    # A counted group ("three kids") is that many people, each matched once.
    expected = [e for e in doc["subjects"] for _ in range(e.get("count", 1))]
    edges = {
        j: [
            i for i, v in enumerate(views) if i not in banned and any(_has(v, c) for c in e["cues"])
        ]
        for j, e in enumerate(expected)
    }
    taken: dict[int, int] = {}
    _max_matching({j: c for j, c in edges.items() if expected[j]["required"]}, taken)
    _max_matching(edges, taken)
    matched = set(taken.values())
    for j, e in enumerate(expected):
        if e["required"] and j not in matched:
            out.missed.append(e["who"])
    out.fn = len(out.missed)
    for i, v in enumerate(views):
        if i not in taken:
            out.extra.append(v)
        elif expected[taken[i]]["required"]:
            out.tp += 1
        else:
            out.optional_found += 1
    out.fp = len(out.extra)
    return out


def _figures(scores: list[DocScore]) -> dict[str, Any]:
    tp = sum(s.tp for s in scores)
    fp = sum(s.fp for s in scores)
    fn = sum(s.fn for s in scores)
    return {
        "n_docs": len(scores),
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "true_pos": tp,
        "false_pos": fp,
        "missed": fn,
        "not_person_subjects": sum(len(s.not_person) for s in scores),
    }


def subject_quality(
    infer: Callable[[str], list[Subject]],
    docs: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Precision/recall of ``infer`` (text -> subjects) on the written set: all, dev, held-out,
    plus each document's score (``scores``)."""
    docs = load_written() if docs is None else docs
    scores = [score_document(d, infer(d["text"])) for d in docs]
    return {
        "all": _figures(scores),
        "dev": _figures([s for s in scores if s.split == "dev"]),
        "heldout": _figures([s for s in scores if s.split == "heldout"]),
        "scores": scores,
    }


@functools.lru_cache(maxsize=1)
def _local_adversary():
    from spia_core.adversary.local import LocalAdversary

    return LocalAdversary()


def local_subjects(text: str) -> list[Subject]:
    """The local adversary's subjects for one text."""
    return _local_adversary().infer(text).subjects
