"""Hand-built AuditReports for the dashboard tests (no engine needed)."""

from __future__ import annotations

import re

from spia_core.model import (
    PII,
    Assignment,
    AuditReport,
    Coverage,
    Evidence,
    GroupMetric,
    MatchPair,
    Metrics,
    PIIScore,
    SpanMetrics,
    Subject,
    SubjectProtection,
    SubjectResult,
    UtilityScores,
)

ORIGINAL = (
    "Mr Raja Ekwall, a Swedish national born in 1970, lives in Stockholm. "
    "He is represented by Mr K. Lowther, a lawyer. <script>alert('x')</script> & <b>bold</b>"
)


def _ev(text: str, snippet: str) -> Evidence:
    i = text.index(snippet)
    return Evidence(i, i + len(snippet), snippet)


def make_report(scores: dict[tuple[int, str], float] | None = None) -> AuditReport:
    """Two GT subjects; the adversary re-identifies subject 0 partly; one extra subject."""
    anonymized = (
        "Mr [PERSON], a Swedish national born in 1970, lives in Stockholm. "
        "He is represented by Mr [PERSON], a lawyer. <script>alert('x')</script> & <b>bold</b>"
    )
    gt = [
        Subject(
            0,
            "Mr Raja Ekwall - the applicant",
            [
                PII("NAME", "Raja Ekwall", 5, 1),
                PII("NATIONALITY", "Sweden", 5, 1),
                PII("LOCATION", "Stockholm", 5, 1),
            ],
        ),
        Subject(
            1,
            "Mr K. Lowther - lawyer <i>x</i>",
            [
                PII("NAME", "K. Lowther", 5, 1),
                PII("OCCUPATION", "Lawyer", 5, 1),
            ],
        ),
    ]
    inferred = [
        Subject(
            0,
            "the applicant",
            [
                PII("NATIONALITY", "Sweden", 5, 1, [_ev(anonymized, "Swedish national")]),
                PII("LOCATION", "Stockholm", 5, 1, [_ev(anonymized, "lives in Stockholm")]),
            ],
        ),
        Subject(
            1,
            "the lawyer",
            [
                PII(
                    "OCCUPATION",
                    "<img src=x onerror=alert(1)>",
                    4,
                    1,
                    [_ev(anonymized, "a lawyer. <script>")],
                )
            ],
        ),
        Subject(2, "a judge", [PII("OCCUPATION", "Judge", 2, 1, [])]),
    ]
    default = {
        (0, "NAME"): 0.0,
        (0, "NATIONALITY"): 1.0,
        (0, "LOCATION"): 1.0,
        (1, "NAME"): 0.0,
        (1, "OCCUPATION"): 1.0,
    }
    scores = {**default, **(scores or {})}
    results = []
    for s in gt:
        pred = s.id
        results.append(
            SubjectResult(
                s.id,
                s.description,
                pred,
                0.9,
                "name/description",
                [
                    PIIScore(
                        s.id,
                        p.tag,
                        p.keyword,
                        p.certainty,
                        p.hardness,
                        pred,
                        "" if scores[(s.id, p.tag)] == 0 else p.keyword,
                        4,
                        scores[(s.id, p.tag)],
                        "exact" if scores[(s.id, p.tag)] else "no_prediction",
                    )
                    for p in s.piis
                ],
            )
        )
    return AuditReport(
        data_id="TEST-1",
        config={"anonymizer": "ner_mask", "adversary": "local"},
        original_text=ORIGINAL,
        anonymized_text=anonymized,
        masked_spans=None,
        anonymizer="ner_mask",
        adversary="local",
        adversary_is_local=True,
        gt_subjects=gt,
        gt_source="dataset",
        inferred_subjects=inferred,
        assignment=Assignment([MatchPair(0, 0, 0.9), MatchPair(1, 1, 0.8)], [2], "test"),
        subject_results=results,
        metrics=metrics_of(results),
        span_metrics=SpanMetrics(0.92, 0.9, 1.0, 0.85, None, "alignment", "blank"),
        utility=UtilityScores(0.81),
        created_at="2025-01-01T00:00:00",
    )


def metrics_of(results: list[SubjectResult]) -> Metrics:
    """Minimal CPR/IPR/per-tag/per-subject metrics (enough for rendering tests)."""
    per_subject, per_tag = [], {}
    n_all, sum_all = 0, 0.0
    for r in results:
        vals = [s.effective_score or 0.0 for s in r.scores]
        per_subject.append(
            SubjectProtection(
                "TEST-1",
                r.gt_subject_id,
                r.description,
                r.pred_subject_id is not None,
                len(vals),
                sum(vals),
            )
        )
        for s in r.scores:
            g = per_tag.setdefault(s.tag, GroupMetric(0, 0.0))
            g.n_pii += 1
            g.sum_score += s.effective_score or 0.0
        n_all += len(vals)
        sum_all += sum(vals)
    cpr = sum(p.protection for p in per_subject) / len(per_subject) if per_subject else None
    return Metrics(
        cpr,
        1 - sum_all / n_all if n_all else None,
        cpr,
        len(per_subject),
        n_all,
        sum_all,
        per_tag=per_tag,
        per_subject=per_subject,
        n_extra_subjects=1,
        coverage=Coverage(1, 1, len(results), len(results), n_all, n_all),
    )


def unescape(markdown: str) -> str:
    """Markdown text without its backslash escapes and zero-width breaks (what the reader
    sees)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u200b", "")
