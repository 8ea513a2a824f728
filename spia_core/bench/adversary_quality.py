"""Quality of an adversary against the SPIA ground truth, on original and NER-masked text.

The measure of the paper's Table 9 (subject match, accuracy over matched subjects) plus the
end-to-end inferred share (summed scores / all GT PIIs, unmatched = 0), which no matcher can
inflate, and a null test (each document scored against another document's predictions).
Scoring is reference mode (the published rules and aggregation) for comparability.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from spia_core.model import Document, Subject

#: Development half (even positions of the sorted data_ids) and held-out half (odd positions).
HALVES: tuple[str, ...] = ("dev", "test", "all")


def split_half(docs: list[Document], half: str) -> list[Document]:
    """Documents of one half, by position in data_id order."""
    ordered = sorted(docs, key=lambda d: d.data_id)
    if half == "dev":
        return ordered[0::2]
    if half == "test":
        return ordered[1::2]
    if half == "all":
        return ordered
    raise ValueError(f"half must be one of {', '.join(HALVES)}, not {half!r}")


def score_predictions(
    docs: list[Document], preds: list[list[Subject]], texts: list[str]
) -> list[Any]:
    """Match (local matcher) and score (reference mode) predictions; returns DocumentScores."""
    from spia_core.evaluation.scoring_run import score_one

    return [
        score_one(doc, Document(doc.data_id, text, pred), mode="reference")
        for doc, pred, text in zip(docs, preds, texts, strict=True)
    ]


def figures(scored: list[Any]) -> dict[str, Any]:
    """Subject match, accuracy over matched, inferred share, CPR/IPR and per-tag shares."""
    from spia_core.evaluation.metrics import compute_metrics, inference_stats

    stats = inference_stats(scored)
    m = compute_metrics(scored)
    return {
        "subject_match": stats["subject_match_rate"],
        "accuracy_matched": stats["inference_accuracy"],
        "inferred_share": stats["end_to_end_accuracy"],
        "cpr": m.cpr,
        "ipr": m.ipr,
        "n_subjects": stats["n_subjects"],
        "n_pii": stats["n_pii"],
        "per_tag_inferred_share": {
            t: (None if g.protection is None else round(1 - g.protection, 3), g.n_pii)
            for t, g in m.per_tag.items()
        },
    }


def measure(
    docs: list[Document],
    infer: Callable[[str], list[Subject]],
    texts: list[str],
    *,
    dev_ids: set[str] | None = None,
) -> dict[str, Any]:
    """Run ``infer`` on every text, then score: all, dev/test halves, null test, timing."""
    preds: list[list[Subject]] = []
    times: list[float] = []
    for text in texts:
        t0 = time.perf_counter()
        preds.append(infer(text))
        times.append(time.perf_counter() - t0)
    scored = score_predictions(docs, preds, texts)
    block: dict[str, Any] = {"all": figures(scored)}
    if dev_ids is not None:
        block["dev"] = figures([s for s in scored if s.data_id in dev_ids])
        block["test"] = figures([s for s in scored if s.data_id not in dev_ids])
    rotated = preds[1:] + preds[:1]
    block["null_test"] = figures(score_predictions(docs, rotated, texts))
    block["seconds_per_doc"] = {
        "median": round(statistics.median(times), 3) if times else None,
        "p90": round(sorted(times)[int(0.9 * (len(times) - 1))], 3) if times else None,
        "mean_chars": round(statistics.mean(len(t) for t in texts)) if texts else 0,
    }
    return block


def paper_reference(dataset: str) -> dict[str, Any]:
    """The paper's figures to print beside ours (Table 9 on original text; Table 4 masked)."""
    from spia_core.data.published import published_adversary_results, published_anonymizer_results

    key = "TAB" if dataset.upper().startswith("TAB") else "PANORAMA"
    table9 = {
        r["model"]: (float(r["subject_match"]), float(r["pii_accuracy"]))
        for r in published_adversary_results()
        if r["dataset"] == key
    }
    longformer = next(
        (
            r
            for r in published_anonymizer_results()
            if r["dataset"] == key and r["method"] == "Longformer"
        ),
        None,
    )
    return {
        "table9_original": {
            m: table9[m]
            for m in ("Claude-Sonnet-4.5", "Claude-Haiku-4.5", "Llama-3.1-8B")
            if m in table9
        },
        "table4_longformer_masked": None
        if longformer is None
        else {k: float(longformer[k]) for k in ("token_recall", "cpr", "ipr")},
    }


def load_documents(dataset: str) -> list[Document]:
    """A bundled dataset by name, or a SPIA JSONL file (tests/fixtures/written/blind_pii.jsonl)."""
    from spia_core.datasets import BUNDLED, load_bundled, read_spia_jsonl

    return load_bundled(dataset) if dataset in BUNDLED else read_spia_jsonl(dataset)


def adversary_quality(
    dataset: str,
    *,
    half: str = "all",
    limit: int | None = None,
    masked: bool = True,
    adversary: str = "local",
    mask: Callable[[str], str] | None = None,
) -> dict[str, Any]:
    """The full report for one dataset, bundled or a SPIA JSONL path (module docstring)."""
    from spia_core.adversary.registry import ADVERSARIES

    adv = ADVERSARIES.create(adversary)
    adv.infer("Warm-up: Mr John Smith lives in Paris.")
    docs = split_half(load_documents(dataset), half)[: limit or None]
    dev_ids = {d.data_id for d in split_half(docs, "dev")} if half == "all" else None
    report: dict[str, Any] = {"dataset": dataset, "half": half, "n_docs": len(docs)}

    def infer(text: str) -> list[Subject]:
        return adv.infer(text).subjects

    report["original"] = measure(docs, infer, [d.text for d in docs], dev_ids=dev_ids)
    if masked:
        if mask is None:
            from spia_core.anonymizers.registry import create_anonymizer

            anonymizer = create_anonymizer("ner-mask")

            def mask(text: str) -> str:
                return anonymizer.anonymize(text).text

        report["masked"] = measure(docs, infer, [mask(d.text) for d in docs], dev_ids=dev_ids)
    report["paper"] = paper_reference(dataset)
    return report
