"""``python -m spia_core bench NAME``: speed, memory and quality benchmarks.

Sub-benchmarks live in :data:`BENCHMARKS` (name -> function(args) -> result dict), so new
ones (e.g. ``adversary``) are added by registering a function and, if needed, arguments.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spia_core.batch import DEFAULT_WORKERS

#: Targets of the offline benchmark (reported next to the measured figures).
OFFLINE_TARGETS: dict[str, float] = {
    "audit_median_s": 1.0,
    "evaluate_total_s": 90.0,
    "peak_rss_mb": 1536.0,
}


def peak_rss_mb() -> float:
    """Peak resident memory of this process and its finished children, in MB (Linux: KB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _per_document_timing(docs: list[Any], config: Any) -> dict[str, Any]:
    """Warm per-document audit time (wall and CPU), after one warm-up document."""
    from spia_core.pipeline import audit, build_components

    components = build_components(config)
    t0 = time.perf_counter()
    audit(docs[0], config, components=components)  # warm-up: model loading, caches
    warmup = time.perf_counter() - t0
    walls: list[float] = []
    cpus: list[float] = []
    chars: list[int] = []
    for doc in docs[1:] or docs:
        w0, c0 = time.perf_counter(), time.process_time()
        audit(doc, config, components=components)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        chars.append(len(doc.text))
    return {
        "n_timed_docs": len(walls),
        "warmup_s": round(warmup, 3),
        "median_chars": statistics.median(chars),
        "audit_median_s": round(statistics.median(walls), 3),
        "audit_mean_s": round(statistics.fmean(walls), 3),
        "audit_p90_s": round(_percentile(walls, 0.9), 3),
        "audit_cpu_median_s": round(statistics.median(cpus), 3),
        "audit_s_per_4000_chars": round(4000 * sum(walls) / max(1, sum(chars)), 3),
    }


def _evaluate(ref: Any, config: Any, limit: int | None, data_dir: Path, workers: int) -> dict:
    from spia_core.batch import BatchConfig, run_batch

    cfg = BatchConfig(
        dataset=ref.name,
        audit=config,
        limit=limit,
        data_dir=data_dir,
        workers=workers,
        resume=False,
    )
    c0 = time.process_time()
    result = run_batch(cfg, progress=False, dataset=ref)
    summary = dict(result.summary)
    summary["cpu_s_main_process"] = round(time.process_time() - c0, 3)
    return summary


def bench_offline(args: argparse.Namespace) -> dict[str, Any]:
    """Offline audit speed, evaluate-path total time, peak memory, and quality figures."""
    from spia_core.batch import load_dataset_ref
    from spia_core.pipeline import AuditConfig

    ref = load_dataset_ref(args.dataset or "TAB-144")
    docs = ref.documents[: args.limit] if args.limit else ref.documents
    timing_docs = docs[: args.timing_docs + 1]
    masked = AuditConfig(anonymizer="ner-mask", dataset=ref.name)
    plain = AuditConfig(anonymizer="none", dataset=ref.name)
    out: dict[str, Any] = {"dataset": ref.name, "n_docs": len(docs)}
    out.update(_per_document_timing(timing_docs, masked))
    with tempfile.TemporaryDirectory(prefix="spia-bench-") as tmp:
        masked_run = _evaluate(ref, masked, args.limit, Path(tmp) / "masked", args.workers)
        plain_run = _evaluate(ref, plain, args.limit, Path(tmp) / "plain", args.workers)
    out.update(
        {
            "evaluate_total_s": masked_run["elapsed_s"],
            "evaluate_total_s_anonymizer_none": plain_run["elapsed_s"],
            "peak_rss_mb": round(peak_rss_mb(), 1),
            "quality_none": {
                k: plain_run.get(k)
                for k in (
                    "subject_match_rate",
                    "inference_accuracy",
                    "end_to_end_accuracy",
                    "cpr",
                    "n_failed",
                )
            },
            "quality_ner_mask": {
                k: masked_run.get(k)
                for k in (
                    "token_recall",
                    "er_di",
                    "er_qi",
                    "cpr",
                    "ipr",
                    "one_minus_aac",
                    "rouge_l",
                    "subject_match_rate",
                    "n_failed",
                )
            },
            "targets": OFFLINE_TARGETS,
        }
    )
    return out


def bench_adversary(args: argparse.Namespace) -> dict[str, Any]:
    """Local adversary quality on original and ner-mask text, with the paper's figures beside."""
    from spia_core.bench.adversary_quality import adversary_quality
    from spia_core.evaluation.local_calibration import (
        HELD_OUT_PATH,
        calibration_record,
        write_calibration,
    )

    datasets = [args.dataset] if args.dataset else ["TAB-144", "PANORAMA-151"]
    if getattr(args, "ablate", False):
        return _bench_ablation(args, datasets)
    out: dict[str, Any] = {}
    records: dict[str, dict[str, Any]] = {}
    for name in datasets:
        rep = adversary_quality(name, half=args.half, limit=args.limit, masked=not args.no_masked)
        out[name] = _adversary_summary(rep, show_tags=args.tags)
        if getattr(args, "save_calibration", False):
            records[name] = calibration_record(rep)
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    if records:
        if not HELD_OUT_PATH.is_file():
            raise SystemExit(f"error: --save-calibration needs {HELD_OUT_PATH} (a source checkout)")
        held = adversary_quality(str(HELD_OUT_PATH))
        held_record = calibration_record(held)
        out["held_out_written"] = {
            "original": held_record["original"],
            "masked_ner_mask": held_record["masked_ner_mask"],
        }
        out["calibration_written_to"] = str(write_calibration(records, held_out=held_record))
    return out


def _bench_ablation(args: argparse.Namespace, datasets: list[str]) -> dict[str, Any]:
    """Per-rule ablation of the local adversary (see bench.rule_ablation); prints the
    table, returns the figures."""
    from spia_core.bench.rule_ablation import ablate, format_ablation

    only = set(args.rules.split(",")) if getattr(args, "rules", None) else None
    reports = [
        ablate(name, half=args.half, limit=args.limit, masked=not args.no_masked, only=only)
        for name in datasets
    ]
    print(format_ablation(reports))
    return {
        r["dataset"]: {v: r[v]["baseline"] for v in ("original", "masked") if v in r}
        for r in reports
    }


def _adversary_summary(rep: dict[str, Any], *, show_tags: bool) -> dict[str, Any]:
    """Flatten an adversary_quality report for printing."""
    from spia_core.evaluation.local_calibration import HEADLINE_FIGURES

    summary: dict[str, Any] = {"n_docs": rep["n_docs"], "half": rep["half"]}
    for variant in ("original", "masked"):
        block = rep.get(variant)
        if block is None:
            continue
        rows: dict[str, Any] = {}
        for part in ("all", "dev", "test", "null_test"):
            if part in block:
                rows[part] = {k: block[part][k] for k in HEADLINE_FIGURES}
        rows["seconds_per_doc"] = block["seconds_per_doc"]
        if show_tags:
            rows["per_tag_inferred_share"] = {
                tag: share for tag, (share, _n) in block["all"]["per_tag_inferred_share"].items()
            }
        summary[variant] = rows
    paper = rep["paper"]
    summary["paper_table9_original (subject match, accuracy)"] = {
        model: f"{sm:.3f}, {acc:.3f}" for model, (sm, acc) in paper["table9_original"].items()
    }
    if paper["table4_longformer_masked"]:
        summary["paper_table4_longformer (LLM adversary on masked text)"] = paper[
            "table4_longformer_masked"
        ]
    return summary


def bench_subjects(args: argparse.Namespace) -> dict[str, Any]:
    """Subject precision/recall of the local adversary on the written-for-purpose set.
    Per-document errors are printed for the dev part; held-out errors only with --half test."""
    from spia_core.evaluation.subject_quality import TARGETS, local_subjects, subject_quality

    if getattr(args, "ablate", False):
        from spia_core.bench.rule_ablation import ablate_written

        return {"all (on minus off)": ablate_written()}
    t0 = time.perf_counter()
    rep = subject_quality(local_subjects)
    out: dict[str, Any] = {part: rep[part] for part in ("all", "dev", "heldout")}
    out["targets"] = TARGETS
    out["seconds"] = round(time.perf_counter() - t0, 2)
    show = {"all": "dev", "dev": "dev", "test": "heldout"}[args.half]
    errors: dict[str, Any] = {}
    for s in rep["scores"]:
        if s.split == show and (s.missed or s.extra):
            errors[s.doc_id] = {"missed": "; ".join(s.missed), "extra": "; ".join(s.extra)}
    out[f"errors ({show})"] = errors
    return out


#: Sub-benchmarks: name -> function(args) -> JSON-safe result.
BENCHMARKS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "offline": bench_offline,
    "adversary": bench_adversary,
    "subjects": bench_subjects,
    "redacted": lambda args: _bench_redacted(args),
    "scale": lambda args: _bench_scale(args),
}


def _bench_scale(args: argparse.Namespace) -> dict[str, Any]:
    from spia_core.scale.bench import run_scale

    return run_scale(args)


def _scale_parts(value: str) -> tuple[str, ...]:
    from spia_core.scale.bench import parts_arg

    return parts_arg(value)


def _bench_redacted(args: argparse.Namespace) -> dict[str, Any]:
    """Redacted-only audit speed: 4k-character median, one 200k-character document, matching."""
    from spia_core.redacted_bench import bench_redacted

    return bench_redacted(args)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmarks: offline audit speed, memory and quality; local adversary quality; "
        "redacted-only audit speed",
        description="Run a benchmark and print its figures (JSON with --json).",
    )
    p.add_argument("name", choices=sorted(BENCHMARKS), help="which benchmark")
    p.add_argument(
        "--dataset",
        help="bundled dataset name (offline: default TAB-144; adversary: default both)",
    )
    p.add_argument(
        "--half",
        choices=("all", "dev", "test"),
        default="all",
        help="adversary: documents at even (dev) or odd (test) positions of the sorted ids",
    )
    p.add_argument("--no-masked", action="store_true", help="adversary: original text only")
    p.add_argument("--tags", action="store_true", help="adversary: per-tag inferred shares")
    p.add_argument(
        "--ablate",
        action="store_true",
        help="adversary: per rule and subject pass, the documents it fires on, the "
        "correct/wrong/neutral PIIs (or subjects) it produces and the CPR change when it is "
        "switched off; subjects: precision/recall change per subject pass",
    )
    p.add_argument(
        "--rules", help="adversary --ablate: only these rule ids (comma-separated)", default=None
    )
    p.add_argument("--limit", type=int, help="only the first N documents")
    p.add_argument(
        "--timing-docs",
        type=int,
        default=20,
        help="documents timed one by one after the warm-up document (default 20)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help=f"processes for the evaluate path (default: {DEFAULT_WORKERS})",
    )
    p.add_argument(
        "--chars",
        type=int,
        default=200_000,
        help="redacted: length of the long document (default 200000)",
    )
    p.add_argument(
        "--corpus-size",
        type=int,
        default=2000,
        help="scale: documents of the repeated-and-shuffled corpus (default 2000)",
    )
    p.add_argument(
        "--concurrency-levels",
        default="1,8,32",
        help="scale: LLM concurrency levels timed on the local test server (default 1,8,32)",
    )
    p.add_argument("--llm-limit", type=int, help="scale: PANORAMA documents for the LLM part")
    p.add_argument("--no-llm", action="store_true", help="scale: skip the LLM part")
    p.add_argument(
        "--parts",
        type=_scale_parts,
        help="scale: comma-separated parts to run, of presidio (audit vs Presidio analyze), tab "
        "(TAB-144 scaling), corpus (repeated corpus scaling), llm (default: all)",
    )
    p.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    p.add_argument(
        "--save-calibration",
        action="store_true",
        help="adversary: write data/benchmarks/local_adversary_calibration.json (the measured "
        "local-vs-LLM gap an offline audit shows); needs every document of both datasets",
    )
    p.set_defaults(func=run)


def _print(result: dict[str, Any], indent: str = "") -> None:
    width = max((len(k) for k in result), default=0)
    for key, value in result.items():
        if isinstance(value, dict):
            print(f"{indent}{key}:")
            _print(value, indent + "  ")
        elif isinstance(value, float):
            print(f"{indent}{key:<{width}}  {value:.3f}")
        else:
            print(f"{indent}{key:<{width}}  {value}")


def run(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 2:
        print("error: --limit must be at least 2 (one warm-up document)", file=sys.stderr)
        return 2
    if getattr(args, "save_calibration", False) and (
        args.name != "adversary"
        or args.dataset
        or args.limit
        or args.half != "all"
        or args.no_masked
    ):
        print(
            "error: --save-calibration needs `bench adversary` on every document of both "
            "datasets (no --dataset, --limit, --half or --no-masked)",
            file=sys.stderr,
        )
        return 2
    from spia_core.commands.preflight import check_dataset, check_out_file, first_problem

    problem = first_problem(check_dataset(args.dataset), check_out_file(args.json, "--json"))
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    result = BENCHMARKS[args.name](args)
    _print(result)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    return 0
