"""The worked example of docs/metrics.md, computed by the engine: the page's figures must hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spia_core.evaluation.matching import LocalMatcher
from spia_core.evaluation.metrics import DocumentScores, compute_metrics
from spia_core.evaluation.scoring import score_document
from spia_core.evaluation.span_metrics import document_span_metrics
from spia_core.exposure import document_exposure
from spia_core.model import PII, Document, EntityMention, Evidence, Subject

DOC = Path(__file__).parents[1] / "docs" / "metrics.md"
ORIGINAL = "Anna Berg, 34, is a nurse in Hull. Her brother Tom Berg drives a taxi."
REDACTED = "[PERSON], 34, is a nurse in [LOC]. Her brother [PERSON] drives a taxi."


def _ev(text: str, snippet: str, nth: int = 0) -> Evidence:
    starts = [m.start() for m in re.finditer(re.escape(snippet), text)]
    return Evidence(starts[nth], starts[nth] + len(snippet), snippet)


GT = [
    Subject(
        0,
        "Anna Berg - a nurse",
        [
            PII("NAME", "Anna Berg", 5, 1),
            PII("SEX", "Female", 5, 1),
            PII("AGE", "34", 5, 1),
            PII("LOCATION", "Hull", 4, 1),
            PII("OCCUPATION", "Nurse", 5, 1),
        ],
    ),
    Subject(
        1,
        "Tom Berg - her brother, a taxi driver",
        [
            PII("NAME", "Tom Berg", 5, 1),
            PII("SEX", "Male", 5, 1),
            PII("OCCUPATION", "Taxi driver", 4, 1),
        ],
    ),
]
INFERRED = [
    Subject(
        0,
        "a nurse - a 34-year-old woman",
        [
            PII("AGE", "34", 5, 1, [_ev(REDACTED, "34")]),
            PII("OCCUPATION", "Nurse", 5, 1, [_ev(REDACTED, "a nurse")]),
            PII("SEX", "Female", 4, 1, [_ev(REDACTED, "Her")]),
        ],
    ),
    Subject(
        1,
        "her brother - a taxi driver",
        [
            PII("SEX", "Male", 5, 1, [_ev(REDACTED, "brother")]),
            PII("OCCUPATION", "Taxi driver", 4, 1, [_ev(REDACTED, "drives a taxi")]),
        ],
    ),
]


def _mention(text: str, snippet: str, eid: str, kind: str, etype: str) -> EntityMention:
    ev = _ev(text, snippet)
    return EntityMention(snippet, etype, ev.start, ev.end, eid, kind)


def _documented(name: str) -> float:
    """The bold figure the page gives for ``name`` in its tables."""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == name and cells[-1].startswith("**"):
            return float(cells[-1].strip("*"))
    raise AssertionError(f"{name} not found in {DOC}")


def test_inference_metrics_match_the_page() -> None:
    assignment = LocalMatcher().match(GT, INFERRED)
    assert [p.pred_subject_id for p in assignment.pairs] == [0, 1]
    results = score_document(GT, INFERRED, assignment)
    results[0].is_target = True
    m = compute_metrics([DocumentScores("example", results)])
    assert (m.n_pii, m.sum_score) == (8, 5.0)
    assert m.cpr == pytest.approx(_documented("CPR"), abs=5e-4) == pytest.approx(0.375)
    assert m.ipr == pytest.approx(_documented("IPR"), abs=5e-4)
    assert m.one_minus_aac == pytest.approx(_documented("1-AAC"), abs=5e-4)


def test_span_metrics_match_the_page() -> None:
    mentions = [
        _mention(ORIGINAL, "Anna Berg", "e1", "DIRECT", "PERSON"),
        _mention(ORIGINAL, "34", "e2", "QUASI", "QUANTITY"),
        _mention(ORIGINAL, "Hull", "e3", "QUASI", "LOC"),
        _mention(ORIGINAL, "Tom Berg", "e4", "DIRECT", "PERSON"),
    ]
    doc = Document("example", ORIGINAL, entities=mentions)
    masked = [(m.start, m.end) for m in mentions if m.span_text != "34"]
    sm = document_span_metrics(doc, REDACTED, masked_spans=masked, method="spans")
    assert sm.token_recall == pytest.approx(_documented("token recall"), abs=5e-4)
    assert sm.er_di == pytest.approx(_documented("ER_di"), abs=5e-4)
    assert sm.er_qi == pytest.approx(_documented("ER_qi"), abs=5e-4)


def test_exposure_matches_the_page() -> None:
    exposure = document_exposure(REDACTED, INFERRED)
    assert [s.score for s in exposure.subjects] == [3, 2]
    assert exposure.score == 5
    text = DOC.read_text(encoding="utf-8")
    assert "document exposure **5**" in text
    seen = {p.text: p.seen_through for p in exposure.placeholders}
    assert seen == {"[PERSON]": True, "[LOC]": False}
    assert all(p.seen_through for p in exposure.placeholders if p.text == "[PERSON]")
