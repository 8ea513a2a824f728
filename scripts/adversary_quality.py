"""Measure the local adversary against the SPIA ground truth (original and NER-masked text).

Usage: /work/venv/bin/python scripts/adversary_quality.py [--sets tab,panorama] [--limit N]
       [--half dev|test|all] [--no-masked] [--json out.json] [--tags]

For each set: runs ``LocalAdversary`` on (a) the original text and (b) the text masked by the
``ner-mask`` anonymizer, matches the inferred subjects to the GT with ``LocalMatcher``, scores
with the project's scorer in reference mode (Table 9 comparison), and reports subject match,
accuracy over matched subjects, end-to-end inferred share, CPR, per-tag figures, a null test
(each document gets another document's predictions) and time per document. Figures are given
separately for the development half (even positions of the sorted data_ids) and the held-out
half (odd positions).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spia_core.adversary.local import LocalAdversary  # noqa: E402
from spia_core.datasets import read_spia_jsonl  # noqa: E402
from spia_core.evaluation.matching import LocalMatcher  # noqa: E402
from spia_core.evaluation.metrics import (  # noqa: E402
    DocumentScores,
    compute_metrics,
    inference_stats,
)
from spia_core.evaluation.scoring import score_document  # noqa: E402
from spia_core.model import Document, Subject  # noqa: E402
from spia_core.taxonomy import TAGS  # noqa: E402

SETS = {"tab": "spia_tab_144.jsonl", "panorama": "spia_panorama_151.jsonl"}
CACHE = Path("/tmp/spia_adversary_quality_cache")


def masked_text(text: str) -> str:
    """The ner-mask anonymizer's output (cached on disk: it is deterministic)."""
    key = hashlib.sha256(text.encode()).hexdigest()[:24]
    path = CACHE / f"{key}.txt"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    from spia_core.anonymizers.registry import create_anonymizer

    out = create_anonymizer("ner-mask").anonymize(text).text
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(out, encoding="utf-8")
    return out


def score(
    docs: list[Document], preds: list[list[Subject]], texts: list[str]
) -> list[DocumentScores]:
    matcher = LocalMatcher()
    out = []
    for doc, pred, text in zip(docs, preds, texts, strict=True):
        assignment = matcher.match(doc.subjects, pred, original_text=doc.text, anonymized_text=text)
        results = score_document(
            doc.subjects, pred, assignment, mode="reference", aggregation="reference"
        )
        out.append(DocumentScores(doc.data_id, results, len(assignment.extra_pred_subject_ids)))
    return out


def figures(scored: list[DocumentScores]) -> dict[str, object]:
    stats = inference_stats(scored)
    m = compute_metrics(scored)
    per_tag = {
        t: (round(1 - g.protection, 3) if g.protection is not None else None, g.n_pii)
        for t, g in m.per_tag.items()
    }
    return {
        "subject_match": stats["subject_match_rate"],
        "accuracy_matched": stats["inference_accuracy"],
        "inferred_share": stats["end_to_end_accuracy"],
        "cpr": m.cpr,
        "ipr": m.ipr,
        "n_subjects": stats["n_subjects"],
        "n_pii": stats["n_pii"],
        "per_tag_inferred_share": per_tag,
    }


def run_set(name: str, args: argparse.Namespace, adv: LocalAdversary) -> dict[str, object]:
    docs = sorted(read_spia_jsonl(ROOT / "data" / "spia" / SETS[name]), key=lambda d: d.data_id)
    halves = {"dev": docs[0::2], "test": docs[1::2], "all": docs}
    docs = halves[args.half][: args.limit or None]
    report: dict[str, object] = {"set": name, "n_docs": len(docs)}
    variants = ["original"] + ([] if args.no_masked else ["masked"])
    for variant in variants:
        texts = [d.text if variant == "original" else masked_text(d.text) for d in docs]
        preds, times = [], []
        for text in texts:
            t0 = time.perf_counter()
            preds.append(adv.infer(text).subjects)
            times.append(time.perf_counter() - t0)
        scored = score(docs, preds, texts)
        ids = {d.data_id for d in docs[0::2]} if args.half == "all" else None
        block: dict[str, object] = {"all": figures(scored)}
        if ids is not None:
            block["dev"] = figures([s for s in scored if s.data_id in ids])
            block["test"] = figures([s for s in scored if s.data_id not in ids])
        rotated = preds[1:] + preds[:1]
        block["null_test"] = figures(score(docs, rotated, texts))
        block["seconds_per_doc"] = {
            "median": round(statistics.median(times), 3),
            "p90": round(sorted(times)[int(0.9 * (len(times) - 1))], 3),
            "mean_chars": round(statistics.mean(len(t) for t in texts)),
        }
        report[variant] = block
    return report


def _fmt(v: object) -> str:
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def print_report(rep: dict[str, object], show_tags: bool) -> None:
    print(f"\n=== {rep['set']} ({rep['n_docs']} docs)")
    for variant in ("original", "masked"):
        block = rep.get(variant)
        if not isinstance(block, dict):
            continue
        print(f"-- {variant}: time/doc {block['seconds_per_doc']}")
        for part in ("all", "dev", "test", "null_test"):
            f = block.get(part)
            if not isinstance(f, dict):
                continue
            keys = (
                "subject_match",
                "accuracy_matched",
                "inferred_share",
                "cpr",
                "ipr",
                "n_subjects",
                "n_pii",
            )
            print(f"  {part:9s} " + "  ".join(f"{k}={_fmt(f[k])}" for k in keys))
        if show_tags:
            tags = block["all"]["per_tag_inferred_share"]  # type: ignore[index]
            print(
                "  per-tag inferred share (n): "
                + ", ".join(f"{t}={_fmt(tags[t][0])}({tags[t][1]})" for t in TAGS if t in tags)
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="tab,panorama")
    ap.add_argument("--half", choices=["dev", "test", "all"], default="all")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--no-masked", action="store_true")
    ap.add_argument("--tags", action="store_true", help="print per-tag figures")
    ap.add_argument("--json", type=Path, help="write the full report as JSON")
    args = ap.parse_args()
    tracemalloc.start()
    adv = LocalAdversary()
    adv.infer("Warm-up: Mr John Smith lives in Paris.")
    reports = [run_set(s.strip(), args, adv) for s in args.sets.split(",") if s.strip()]
    _, peak = tracemalloc.get_traced_memory()
    for rep in reports:
        print_report(rep, args.tags)
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS {rss:.0f} MB (python-traced peak {peak / 2**20:.0f} MB)")
    if args.json:
        args.json.write_text(json.dumps({"reports": reports, "peak_rss_mb": rss}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
