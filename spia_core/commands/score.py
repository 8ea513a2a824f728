"""``python -m spia_core score``: score SPIA inference output against subject ground truth."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="score SPIA-format predictions against SPIA ground truth (CPR, IPR, 1-AAC)",
        description=(
            "Join PRED to GT by data_id, match subjects one-to-one, score every GT PII and "
            "print CPR, IPR, 1-AAC with per-tag figures and coverage. Documents missing from "
            "PRED are reported as failed, never counted as protected."
        ),
    )
    p.add_argument("--gt", required=True, type=Path, help="SPIA ground-truth JSONL")
    p.add_argument("--pred", required=True, type=Path, help="SPIA-format inference JSONL")
    p.add_argument(
        "--entities",
        type=Path,
        help="entity JSONL of the same documents (its provenance names each target subject)",
    )
    p.add_argument(
        "--mode",
        choices=("default", "reference"),
        default="default",
        help="reference = the published scorer's rules and aggregation (parity); "
        "default = the same protocol with its defects fixed",
    )
    p.add_argument("--min-certainty", type=int, default=DEFAULT_MIN_CERTAINTY)
    p.add_argument("--matcher", default="local", help="subject matcher (default: local)")
    p.add_argument(
        "--overrides",
        type=Path,
        help="human score decisions to apply (JSON or JSONL ScoreOverride records, each with "
        "data_id, gt_subject_id, tag, score 0/0.5/1, reason; docs/adjudication.md)",
    )
    p.add_argument("--out", type=Path, help="write the JSON report here")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from spia_core.commands.preflight import check_out_file
    from spia_core.datasets import DatasetError, load_dataset, read_spia_jsonl
    from spia_core.evaluation.adjudication import read_overrides
    from spia_core.evaluation.scoring_run import score_corpus

    problem = check_out_file(args.out)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        gt_docs = load_dataset(args.gt, args.entities)
        pred_docs = read_spia_jsonl(args.pred)
        overrides = read_overrides(args.overrides) if args.overrides else []
    except (DatasetError, OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.min_certainty <= 5:
        print("error: --min-certainty must be between 0 and 5", file=sys.stderr)
        return 2
    try:
        result = score_corpus(
            gt_docs,
            pred_docs,
            mode=args.mode,
            min_certainty=args.min_certainty,
            matcher=args.matcher,
            overrides=overrides,
        )
    except ValueError as exc:
        if not overrides:
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    print(result.table)
    if overrides:
        print(f"\n{len(overrides)} human override(s) applied from {args.overrides}")
    print(f"\nscored in {elapsed:.2f} s")
    if args.out:
        report = dict(result.summary, elapsed_s=round(elapsed, 3), mode=args.mode)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
        print(f"report written to {args.out}")
    return 0
