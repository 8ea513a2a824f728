"""``python -m spia_core tria``: TRIA-lite re-identification risk (TRIR) of a collection."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tria",
        help="TRIA-lite re-identification risk (TRIR) of anonymized documents in a collection",
        description=(
            "Train a CPU re-identification attack (TF-IDF n-grams + linear SVM, sliding windows, "
            "summed scores) on the collection's background documents and their ner-mask copies, "
            "then report TRIR (correct re-identifications / protected documents) of the original "
            "texts (the ceiling) and of each anonymizer, with the maximum TRIR and chance level. "
            "Lite: not comparable to the TRIA paper's DistilBERT figures."
        ),
    )
    p.add_argument(
        "--dataset",
        required=True,
        help="'tria-demo' (bundled, from PANORAMA-151) or a collection JSONL "
        "(id, individual, background, text)",
    )
    p.add_argument(
        "--anonymizer",
        action="append",
        default=[],
        help="anonymizer name; repeat for several (the first gives 'trir')",
    )
    p.add_argument(
        "--anonymized",
        action="append",
        default=[],
        type=Path,
        metavar="JSONL",
        help="texts anonymized elsewhere (data_id, anonymized_text per line, e.g. evaluate's "
        "results.jsonl); repeatable",
    )
    p.add_argument("--out", required=True, type=Path, help="directory for tria.json")
    p.add_argument("--backbone", help="LLM backbone of LLM anonymizers")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint of a local LLM server")
    p.add_argument(
        "--anonymizer-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="option of the LLM anonymizers (repeatable)",
    )
    p.add_argument("--no-cache", action="store_true", help="do not use the LLM response cache")
    p.set_defaults(func=run)


def _check(args: argparse.Namespace) -> str | None:
    from spia_core.anonymizers.registry import anonymizer_info, anonymizer_names

    for name in args.anonymizer:
        if name not in anonymizer_names():
            return f"unknown anonymizer {name!r}; available: {', '.join(anonymizer_names())}"
        if name == "provided":
            return "the 'provided' anonymizer needs your own texts: put them in the collection"
        if anonymizer_info(name)["needs_backbone"] and not args.backbone:
            return f"anonymizer {name!r} needs --backbone (an LLM model id)"
    return None


def format_table(result: dict[str, Any]) -> str:
    rows = [("original texts (ceiling)", result["ceiling"])]
    rows += [(name, r["trir"]) for name, r in result["results"].items()]
    lines = [result["method"], f"{'texts':<28} TRIR"]
    lines += [f"{name:<28} {value:.3f}" for name, value in rows]
    for name, r in result["results"].items():
        if "ceiling_on_subset" in r:
            lines.append(
                f"  {name}: {r['n_protected']} documents covered; the original texts of those "
                f"give {r['ceiling_on_subset']:.3f}"
            )
    lines += [
        f"{'maximum possible':<28} {result['max_trir']:.3f}",
        f"{'chance (1/known)':<28} {result['chance']:.4f}",
        f"{result['n_protected']} protected documents, {result['n_individuals_known']} known "
        f"individuals; {result['timings_s']['total']:.1f} s",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from spia_core.commands.evaluate import parse_options
    from spia_core.related.tria_data import CollectionError, load_collection, read_anonymized
    from spia_core.related.tria_run import run_tria

    try:
        records = load_collection(args.dataset)
        options = parse_options(args.anonymizer_option)
        provided = {f"provided:{p.name}": read_anonymized(p) for p in args.anonymized}
    except (CollectionError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args.anonymizer and not provided:
        print("error: give --anonymizer NAME and/or --anonymized JSONL", file=sys.stderr)
        return 2
    if (problem := _check(args)) is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    result = run_tria(
        records,
        args.anonymizer,
        backbone=args.backbone,
        base_url=args.base_url,
        options=options,
        cache=not args.no_cache,
        provided=provided,
        progress=lambda m: print(m, file=sys.stderr),
    )
    result["dataset"] = args.dataset
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "tria.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(format_table(result))
    print(
        f"trir={result['trir']:.4f} ceiling={result['ceiling']:.4f} chance={result['chance']:.4f}"
    )
    failed = any(r["failures"] for r in result["results"].values())
    return 1 if failed else 0
