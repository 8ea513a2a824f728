"""Score a corpus of predictions against ground truth: join, match, score, aggregate."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from spia_core.evaluation.judge import Judge
from spia_core.model import Document, Failure, Metrics, ScoreOverride, to_dict


@dataclass
class CorpusScore:
    """The outcome of :func:`score_corpus`."""

    metrics: Metrics
    summary: dict[str, Any]
    table: str
    documents: list[Any] = field(default_factory=list)  # list[DocumentScores]
    extra_pred_ids: list[str] = field(default_factory=list)


def score_one(
    gt: Document,
    pred: Document,
    *,
    mode: str = "default",
    min_certainty: int = 3,
    matcher: str = "local",
    judge: Judge | None = None,
    target_override: int | None = None,
):
    """Match and score one document; returns ``DocumentScores``."""
    from spia_core.evaluation.matching import MATCHERS
    from spia_core.evaluation.metrics import DocumentScores
    from spia_core.evaluation.scoring import score_document
    from spia_core.evaluation.target import target_subject_id

    assignment = MATCHERS.create(matcher).match(
        gt.subjects,
        pred.subjects,
        original_text=gt.text,
        anonymized_text=pred.metadata.get("anonymized_text", pred.text),
    )
    results = score_document(
        gt.subjects,
        pred.subjects,
        assignment,
        mode=mode,
        min_certainty=min_certainty,
        aggregation="reference" if mode == "reference" else "per-pii",
        judge=judge,
    )
    target = target_subject_id(gt, target_override)
    for r in results:
        r.is_target = r.gt_subject_id == target
    return DocumentScores(
        data_id=gt.data_id,
        subject_results=results,
        n_extra_subjects=len(assignment.extra_pred_subject_ids),
    )


def score_corpus(
    gt_docs: list[Document],
    pred_docs: list[Document],
    *,
    mode: str = "default",
    min_certainty: int = 3,
    matcher: str = "local",
    judge: Judge | None = None,
    overrides: Sequence[ScoreOverride] = (),
) -> CorpusScore:
    """Join predictions to GT by data_id and score every document.

    A GT document without predictions is a failed document (reported in coverage, never
    scored as protected); predictions without GT are listed in ``extra_pred_ids``.
    ``overrides`` (human decisions, each naming its ``data_id``) are applied before the
    metrics; one that matches no scored PII raises ValueError.
    """
    from spia_core.evaluation.metrics import (
        DocumentScores,
        compute_metrics,
        format_metrics_table,
        metrics_summary,
    )

    preds = {d.data_id: d for d in pred_docs}
    gt_ids = {d.data_id for d in gt_docs}
    scored: list[DocumentScores] = []
    for gt in gt_docs:
        pred = preds.get(gt.data_id)
        if pred is None:
            failure = Failure(gt.data_id, "inference", "document missing from the predictions")
            scored.append(DocumentScores(gt.data_id, [], failures=[failure], failed=True))
            continue
        try:
            scored.append(
                score_one(
                    gt, pred, mode=mode, min_certainty=min_certainty, matcher=matcher, judge=judge
                )
            )
        except Exception as exc:  # recorded, never silently dropped or counted as protected
            failure = Failure(gt.data_id, "scoring", f"{type(exc).__name__}: {exc}")
            scored.append(DocumentScores(gt.data_id, [], failures=[failure], failed=True))
    scored = _with_overrides(scored, overrides)
    metrics = compute_metrics(scored)
    extra = sorted(i for i in preds if i not in gt_ids)
    summary = metrics_summary(metrics)
    summary["per_tag"] = {
        tag: {"protection": g.protection, "inferred": g.sum_score, "n_pii": g.n_pii}
        for tag, g in metrics.per_tag.items()
    }
    cov = metrics.coverage
    summary["coverage"] = {
        "n_docs": cov.n_docs,
        "n_docs_scored": cov.n_docs_scored,
        "n_docs_failed": cov.n_docs_failed,
        "n_subjects": cov.n_subjects,
        "n_subjects_scored": cov.n_subjects_scored,
        "n_pii": cov.n_pii,
        "n_pii_scored": cov.n_pii_scored,
        "failures": [to_dict(f) for f in cov.failures],
    }
    summary["n_docs_missing_predictions"] = sum(
        1 for d in scored if d.failed and d.failures and d.failures[0].stage == "inference"
    )
    summary["pred_docs_without_gt"] = extra
    table = format_metrics_table(metrics)
    if extra:
        table += f"\n{len(extra)} predicted document(s) have no GT and were not scored."
    if overrides:
        summary["n_overrides"] = len(overrides)
    return CorpusScore(metrics, summary, table, scored, extra)


def _with_overrides(scored: list[Any], overrides: Sequence[ScoreOverride]) -> list[Any]:
    """Documents with the overrides naming them applied (every override must name one)."""
    from spia_core.evaluation.adjudication import apply_overrides

    if not overrides:
        return scored
    ids = {d.data_id for d in scored}
    for i, o in enumerate(overrides, start=1):
        if o.data_id not in ids:
            named = repr(o.data_id) if o.data_id else "no document"
            raise ValueError(f"override {i} names {named}; a corpus override needs a GT data_id")
    out = []
    for doc in scored:
        mine = [o for o in overrides if o.data_id == doc.data_id]
        if mine:
            try:
                doc = dataclasses.replace(
                    doc, subject_results=apply_overrides(doc.subject_results, mine)
                )
            except ValueError as exc:
                raise ValueError(f"override for {doc.data_id!r}: {exc}") from None
        out.append(doc)
    return out
