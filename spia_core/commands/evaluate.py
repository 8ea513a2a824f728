"""``python -m spia_core evaluate``: run one configuration over a dataset (resumable)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from spia_core.commands.preflight import (
    check_data_dir,
    check_dataset,
    check_out_dir,
    first_problem,
)
from spia_core.scale.pool import workers_arg
from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY

#: Headline figures printed at the end of a run, in order.
HEADLINE: tuple[str, ...] = (
    "cpr",
    "ipr",
    "one_minus_aac",
    "token_recall",
    "er_di",
    "er_qi",
    "rouge_l",
    "subject_match_rate",
    "inference_accuracy",
    "end_to_end_accuracy",
    "n_docs",
    "n_failed",
    "elapsed_s",
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "evaluate",
        help="anonymize, infer and score every document of a dataset with one configuration",
        description=(
            "Audit every document of DATASET with one anonymizer/adversary configuration and "
            "write results.jsonl, predictions.jsonl (re-scorable with `score`) and "
            "summary.json to --out. Rerunning the same configuration on the same dataset "
            "resumes: finished documents are skipped. Failed documents are recorded and "
            "counted in n_failed, never dropped."
        ),
    )
    p.add_argument(
        "--dataset",
        required=True,
        help="bundled dataset name (TAB-144, PANORAMA-151) or a SPIA JSONL file",
    )
    p.add_argument("--entities", help="entity JSONL of the same documents (span metrics GT)")
    p.add_argument("--anonymizer", default="none", help="anonymizer name (default: none)")
    p.add_argument(
        "--anonymizer-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="anonymizer option, e.g. numbered=true (repeatable)",
    )
    p.add_argument("--adversary", default="local", help="adversary name (default: local)")
    p.add_argument(
        "--anonymized",
        type=Path,
        help="with --anonymizer provided: JSONL of your anonymized texts (data_id, "
        "anonymized_text, optional masked_spans); a document without one is a failure",
    )
    _add_llm_arguments(p)
    p.add_argument("--limit", type=int, help="only the first N documents")
    p.add_argument(
        "--scoring-mode",
        choices=("default", "reference"),
        default="default",
        help="reference = the published scorer's rules and aggregation",
    )
    p.add_argument("--min-certainty", type=int, default=DEFAULT_MIN_CERTAINTY)
    p.add_argument(
        "--data-dir",
        type=Path,
        help="results store directory (default: $SPIA_DATA_DIR or ./spia_data)",
    )
    p.add_argument("--out", required=True, type=Path, help="output directory")
    p.add_argument(
        "--workers",
        type=workers_arg,
        default="auto",
        help="processes for local configurations: auto (every core, the default) or N; the "
        "model is loaded once and inherited by the workers",
    )
    p.add_argument(
        "--concurrency",
        type=int,
        default=4,
        help="documents in flight for configurations with an LLM stage (default: 4)",
    )
    p.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local (this machine, the default) or ray (Ray actors; pip install 'spia-audit[ray]')",
    )
    p.add_argument("--ray-address", help="Ray cluster to join (--engine ray; default: local)")
    p.add_argument("--no-resume", action="store_true", help="start a new run even if one exists")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _add_llm_arguments(p: argparse.ArgumentParser) -> None:
    """Backbones, endpoint, cache and call policy of the LLM stages."""
    p.add_argument("--backbone", help="LLM backbone of the anonymizer (LLM anonymizers)")
    p.add_argument(
        "--adversary-backbone",
        help="LLM backbone of the adversary (llm; default claude-sonnet-4-5)",
    )
    p.add_argument(
        "--base-url",
        help="OpenAI-compatible endpoint of a local LLM server (used by local backbones and "
        "model ids not in data/models.json, never by cloud models)",
    )
    p.add_argument("--matcher", default="local", choices=("local", "llm"), help="subject matcher")
    p.add_argument("--matcher-backbone", help="LLM matcher backbone (default gpt-4.1-mini)")
    p.add_argument(
        "--judge",
        default="rules",
        choices=("rules", "llm"),
        help="judge for pairs the rules score 0 (default: rules)",
    )
    p.add_argument("--judge-backbone", help="LLM judge backbone (default gpt-4.1-mini)")
    p.add_argument(
        "--utility-llm",
        action="store_true",
        help="also score readability / meaning / hallucination with an LLM",
    )
    p.add_argument("--utility-backbone", help="LLM utility backbone (default gpt-4.1-mini)")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="do not use the LLM response cache (DATA_DIR/llm_cache.sqlite3)",
    )
    p.add_argument(
        "--llm-timeout",
        type=float,
        help="seconds before an LLM call times out (default 120; raise it for a slow local "
        "server: a timed-out call to a local server is not retried)",
    )
    p.add_argument("--llm-retries", type=int, help="retries of a failed LLM call (default 4)")
    p.add_argument(
        "--llm-mode",
        choices=("interactive", "batch"),
        default="interactive",
        help="interactive (one API call per request, the default) or batch: inference, "
        "matcher, judge and utility requests go through the Anthropic Message Batches / OpenAI "
        "Batch APIs at the batch price, in rounds (results within 24 h; a rerun polls the "
        "stored batches). Cloud backbones only; see docs/scale.md",
    )
    p.add_argument(
        "--batch-poll",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="--llm-mode batch: first wait between polls of a batch (then x1.5, at most 300 s)",
    )


def parse_options(pairs: list[str]) -> dict[str, object]:
    """KEY=VALUE strings -> options (true/false, integers and floats converted)."""
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"option {pair!r} is not KEY=VALUE")
        value: object = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        else:
            for cast in (int, float):
                try:
                    value = cast(raw)
                    break
                except ValueError:
                    continue
        options[key.strip()] = value
    return options


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return "n/a" if value is None else str(value)


def _argument_problem(args: argparse.Namespace) -> str | None:
    """The first problem with the arguments, found before any work starts (or None)."""
    if args.limit is not None and args.limit < 1:
        return "--limit must be at least 1"
    if not 0 <= args.min_certainty <= 5:
        return "--min-certainty must be between 0 and 5"
    if args.workers < 1 or args.concurrency < 1:
        return "--workers and --concurrency must be at least 1"
    if args.batch_poll < 0:
        return "--batch-poll must be at least 0 seconds"
    if (args.anonymized is not None) != (args.anonymizer == "provided"):
        return "--anonymized FILE goes with --anonymizer provided (and vice versa)"
    if args.engine == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            return "--engine ray needs Ray: pip install 'spia-audit[ray]'"
    elif args.ray_address:
        return "--ray-address goes with --engine ray"
    return first_problem(
        check_dataset(args.dataset),
        check_out_dir(args.out),
        check_data_dir(args.data_dir),
    )


def _audit_config(args: argparse.Namespace, options: dict[str, object]) -> Any:
    from spia_core.pipeline import AuditConfig

    return AuditConfig(
        anonymizer=args.anonymizer,
        anonymizer_options=options,
        anonymizer_backbone=args.backbone,
        adversary=args.adversary,
        adversary_backbone=args.adversary_backbone,
        matcher=args.matcher,
        matcher_backbone=args.matcher_backbone,
        judge=args.judge,
        judge_backbone=args.judge_backbone,
        utility_llm=args.utility_llm,
        utility_backbone=args.utility_backbone,
        scoring_mode=args.scoring_mode,
        min_certainty=args.min_certainty,
        base_url=args.base_url,
        dataset=args.dataset if not Path(args.dataset).is_file() else "",
    )


def _print_summary(result: Any, out: Path) -> None:
    summary = result.summary
    width = max(len(k) for k in HEADLINE)
    for key in HEADLINE:
        print(f"{key:<{width}}  {_fmt(summary.get(key))}")
    for stage, u in summary.get("usage", {}).items():
        print(
            f"usage {stage}: {u['calls']:.0f} calls, {u['cache_hits']:.0f} cache hits, "
            f"{u['input_tokens']:.0f} in / {u['output_tokens']:.0f} out tokens, "
            f"${u['cost_usd']:.4f}, {u['latency_s']:.2f}s"
        )
    if summary.get("n_anonymizer_refused"):
        print(
            f"{summary['n_anonymizer_refused']} document(s) failed because the anonymizer refused "
            "or returned no rewrite of the input (not scored, never counted as protected)"
        )
    for batch in summary.get("llm_batches", []):
        counts = ", ".join(f"{n} {k}" for k, n in batch["counts"].items())
        print(
            f"batch {batch['provider']} {batch['batch_id']} ({batch['stage']}, round "
            f"{batch['round']}): {batch['status']}; {counts}"
        )
    for problem in summary.get("batch_problems", []):
        print(f"error: {problem}", file=sys.stderr)
    if summary.get("n_resumed"):
        print(f"(resumed run {result.run_id}: {summary['n_resumed']} document(s) already done)")
    print(f"results written to {out}")


def _batch_config(args: argparse.Namespace, config: Any, cache: bool, policy: Any) -> Any:
    from spia_core.batch import BatchConfig

    return BatchConfig(
        dataset=args.dataset,
        audit=config,
        entities=args.entities,
        limit=args.limit,
        out_dir=args.out,
        data_dir=args.data_dir,
        workers=args.workers,
        engine=args.engine,
        ray_address=args.ray_address,
        concurrency=args.concurrency,
        resume=not args.no_resume,
        anonymized=args.anonymized,
        cache=cache,
        llm_policy=policy,
        llm_mode=args.llm_mode,
        batch_poll=args.batch_poll,
    )


def run(args: argparse.Namespace) -> int:
    from spia_core.batch import run_batch
    from spia_core.datasets import DatasetError
    from spia_core.llm.batch_api import BatchError
    from spia_core.llm.connection import CallPolicy
    from spia_core.pipeline import build_components, llm_destinations
    from spia_core.registry import UnknownNameError

    try:
        options = parse_options(args.anonymizer_option)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    problem = _argument_problem(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    config = _audit_config(args, options)
    cache = not args.no_cache
    try:
        policy = CallPolicy(
            timeout=args.llm_timeout,
            max_retries=args.llm_retries,
            max_concurrency=args.concurrency,
        )
        # fail fast on an unknown name, a missing dependency, backbone or key
        components = build_components(config, cache=cache, data_dir=args.data_dir, policy=policy)
        destinations = llm_destinations(config, has_gt=True)
        batch = _batch_config(args, config, cache, policy)
        if batch.llm_mode == "batch":
            from spia_core.batch import check_llm_mode
            from spia_core.scale.llm_batch import check_batchable

            check_llm_mode(batch)
            check_batchable(components)
    except (UnknownNameError, ValueError, RuntimeError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for d in destinations:
        print(f"LLM stage {d['stage']}: {d['sent']} -> {d['where']}", file=sys.stderr)
    if destinations:
        from spia_core.scale.concurrency import concurrency_notes

        for note in concurrency_notes(config, args.concurrency):
            print(note, file=sys.stderr)
    try:
        result = run_batch(batch, progress=not args.quiet)
    except (DatasetError, FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BatchError as exc:  # a batch could not be submitted, polled or read
        print(
            f"error: {exc}. Every finished document is in the results store; rerunning the "
            "same command resumes them and polls the stored batches.",
            file=sys.stderr,
        )
        return 1
    except OSError as exc:  # outputs could not be written after all: the store has the results
        print(
            f"error: {exc}; every finished document is in the results store, and a rerun with "
            "another --out resumes without recomputing them",
            file=sys.stderr,
        )
        return 2
    _print_summary(result, args.out)
    return 1 if result.summary.get("n_failed") or result.summary.get("batch_problems") else 0
