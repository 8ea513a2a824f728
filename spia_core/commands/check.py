"""``spia-audit check PATH...``: a release gate for folders of redacted documents."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from spia_core.scale.pool import workers_arg
from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY

#: Columns of the riskiest-documents table.
_TABLE = (
    ("policy", "policy", 6),
    ("verdict", "verdict", 17),
    ("exposure", "exposure", 8),
    ("n_exposed_subjects", "people", 6),
    ("direct_identifiers", "direct identifiers", 24),
    ("data_id", "document", 40),
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="release gate: audit redacted documents (no original needed) against a policy",
        description=(
            "Audit every redacted document in PATH... (files, folders, globs; .txt, .md, .docx, "
            ".pdf, and .jsonl of {id, text}) with the redacted-only audit: one report.json and "
            "report.html per document under OUT/reports/, summary.csv (+ summary.parquet with "
            "pyarrow) and summary.json. Exit code 0: every document passes the policy; 1: at "
            "least one exceeds it; 2: bad input or configuration. Rerunning resumes."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or glob patterns")
    p.add_argument("--out", required=True, type=Path, help="output directory")
    p.add_argument(
        "--fail-on",
        action="append",
        default=[],
        metavar="RULE",
        help="policy rule (repeatable): direct-identifier, unsafe, subjects-exposed>N, "
        "exposure>N, inferred-share>X, seen-through>N, direct-identifiers>N "
        "(default: direct-identifier)",
    )
    p.add_argument("--policy", type=Path, help="TOML policy file (fail_on = [...], cannot_judge)")
    p.add_argument(
        "--cannot-judge",
        choices=("fail", "pass"),
        help="what a document the engine cannot judge does to the gate (default: fail)",
    )
    p.add_argument("--adversary", default="local", help="adversary name (default: local)")
    p.add_argument("--adversary-backbone", help="LLM backbone of the adversary (--adversary llm)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint of a local LLM server")
    p.add_argument("--min-certainty", type=int, default=DEFAULT_MIN_CERTAINTY)
    p.add_argument(
        "--workers",
        type=workers_arg,
        default="auto",
        help="processes (local adversary) or Ray actors: auto (every core, default) or N",
    )
    p.add_argument(
        "--concurrency", type=int, default=8, help="documents in flight with an LLM adversary"
    )
    p.add_argument("--engine", choices=("local", "ray"), default="local", help="where to run")
    p.add_argument("--ray-address", help="Ray cluster address (--engine ray; default: local)")
    p.add_argument(
        "--data-dir", type=Path, help="resume state (default: OUT/.spia-check, next to results)"
    )
    p.add_argument("--no-cache", action="store_true", help="no LLM response cache")
    p.add_argument("--no-resume", action="store_true", help="check every document again")
    p.add_argument("--top", type=int, default=10, help="rows of the riskiest-documents table")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _config(args: argparse.Namespace) -> Any:
    from spia_core.pipeline import AuditConfig

    return AuditConfig(
        anonymizer="provided",
        adversary=args.adversary,
        adversary_backbone=args.adversary_backbone,
        base_url=args.base_url,
        min_certainty=args.min_certainty,
    )


def run(args: argparse.Namespace) -> int:
    from spia_core.commands.preflight import check_out_dir
    from spia_core.llm.connection import CallPolicy
    from spia_core.pipeline import build_components
    from spia_core.registry import UnknownNameError
    from spia_core.scale.check import CheckConfig
    from spia_core.scale.check_run import run_check
    from spia_core.scale.discover import DiscoveryError, discover
    from spia_core.scale.policy import PolicyError, load_policy
    from spia_core.store import RunVersionMismatch

    if not 0 <= args.min_certainty <= 5:
        return _error("--min-certainty must be between 0 and 5")
    if args.concurrency < 1 or args.top < 0:
        return _error("--concurrency must be at least 1 and --top at least 0")
    if args.ray_address and args.engine != "ray":
        return _error("--ray-address goes with --engine ray")
    problem = check_out_dir(args.out)
    if problem:
        return _error(problem)
    try:
        policy = load_policy(args.fail_on, args.policy, args.cannot_judge)
        inputs = discover(args.paths, skip=args.out)
        config = _config(args)
        policy_llm = CallPolicy(max_concurrency=args.concurrency)
        build_components(config, cache=not args.no_cache, policy=policy_llm)  # fail fast
    except (PolicyError, DiscoveryError, UnknownNameError, ValueError, RuntimeError) as exc:
        return _error(str(exc))
    except ImportError as exc:
        return _error(f"missing dependency: {exc}")
    if config.adversary != "local":
        from spia_core.scale.concurrency import concurrency_notes

        for note in concurrency_notes(config, args.concurrency, has_gt=True):
            print(note, file=sys.stderr)
    print(f"check: {len(inputs)} document(s); policy: {policy.describe()}", file=sys.stderr)
    cfg = CheckConfig(
        inputs=inputs,
        out_dir=args.out,
        audit=config,
        policy=policy,
        data_dir=args.data_dir,
        workers=args.workers,
        concurrency=args.concurrency,
        engine=args.engine,
        ray_address=args.ray_address,
        resume=not args.no_resume,
        cache=not args.no_cache,
    )
    try:
        result = run_check(cfg, progress=not args.quiet)
    except (RunVersionMismatch, ImportError, ConnectionError) as exc:
        return _error(str(exc))
    _print_table(result.rows, args.top)
    _print_unjudged(result.rows, args.top)
    _print_lenient(result.rows)
    _print_stale(args.out, [i.data_id for i in inputs])
    return _print_outcome(result.summary, args.out)


def _print_table(rows: list[dict[str, Any]], top: int) -> None:
    if not top or not rows:
        return
    ranked = sorted(
        rows,
        key=lambda r: (r.get("policy") != "fail", -(r.get("exposure") or 0), r["data_id"]),
    )[:top]
    print("riskiest documents:")
    print("  ".join(label.ljust(width) for _, label, width in _TABLE))
    for row in ranked:
        cells = []
        for name, _, width in _TABLE:
            value = row.get(name)
            text = "" if value is None else str(value)
            cells.append((text[: width - 1] + "…" if len(text) > width else text).ljust(width))
        print("  ".join(cells).rstrip())


def _unjudged_reason(row: dict[str, Any]) -> str:
    """Why a document has no verdict: its read or run error, else the verdict's reason."""
    text = str(row.get("error") or row.get("headline") or "")
    for prefix in (f"{row['data_id']}: ", "cannot judge: "):
        text = text.removeprefix(prefix)
    return text


def _print_unjudged(rows: list[dict[str, Any]], top: int) -> None:
    """Name the documents that could not be read, failed or cannot be judged, and why."""
    unjudged = [r for r in rows if r.get("status") != "ok" or r.get("verdict") == "cannot_judge"]
    if not unjudged:
        return
    print(f"not judged ({len(unjudged)}; see the error column of summary.csv):")
    for row in sorted(unjudged, key=lambda r: r["data_id"])[: max(top, 1)]:
        print(f"  {row['data_id']}: {_unjudged_reason(row)}")
    if len(unjudged) > max(top, 1):
        print(f"  ... and {len(unjudged) - max(top, 1)} more")


def _print_stale(out: Path, data_ids: list[str]) -> None:
    """Say when OUT/reports holds reports of documents this run did not check."""
    from spia_core.scale.check import stale_reports

    stale = stale_reports(out, data_ids)
    if stale:
        names = ", ".join(p.name for p in stale[:3]) + (", ..." if len(stale) > 3 else "")
        print(
            f"note: {len(stale)} report folder(s) in {out / 'reports'} are from documents not "
            f"in this run (left as they were; summary.csv lists only this run): {names}"
        )


def _print_lenient(rows: list[dict[str, Any]]) -> None:
    """Say when documents pass the policy although their verdict is unsafe."""
    n = sum(r.get("policy") == "pass" and r.get("verdict") == "unsafe" for r in rows)
    if n:
        print(
            f"note: {n} document(s) pass the policy although their verdict is unsafe (people "
            "in them are still exposed by inference); a stricter gate: --fail-on "
            "subjects-exposed>0"
        )


def _print_outcome(summary: dict[str, Any], out: Path) -> int:
    from spia_core.scale.check_run import exit_code

    counts = summary["counts"]
    code = exit_code(summary)
    print(
        f"{counts['n_checked']}/{counts['n_documents']} checked "
        f"({counts['n_resumed']} resumed), {counts['n_policy_fail']} exceed the policy, "
        f"{counts['n_input_errors']} unreadable, {counts['n_failed']} failed; verdicts: "
        + ", ".join(f"{k} {v}" for k, v in sorted(summary["verdicts"].items()))
    )
    print(f"summary.parquet: {summary.get('parquet')}")
    print(f"reports and summary.csv in {out}; exit code {code}")
    return code
