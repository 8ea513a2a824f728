"""``python -m spia_core span``: TAB span metrics of anonymized documents against entity GT."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

METHOD_CHOICES = ("auto", "spans", "alignment", "span_search", "offset_comparison")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "span",
        help="TAB span metrics (token/mention recall, ER_di, ER_qi, token precision)",
        description=(
            "Join ANON to the entity GT by data_id and compute the TAB evaluation script's span "
            "metrics, micro-averaged over documents. GT documents without an anonymized line "
            "are reported, never counted."
        ),
    )
    p.add_argument("--entities", required=True, type=Path, help="entity JSONL (TAB style)")
    p.add_argument(
        "--anonymized",
        required=True,
        type=Path,
        help="JSONL: data_id, anonymized_text and optionally masked_spans [[start, end], ...] "
        "(or the reference's entities with start_offset/end_offset) in ORIGINAL offsets",
    )
    p.add_argument(
        "--method",
        choices=METHOD_CHOICES,
        default="auto",
        help="how masked offsets are obtained (auto = the reported spans when a document has "
        "them, else a difflib alignment; span_search = the SPIA reference's rule)",
    )
    p.add_argument("--out", type=Path, help="write the JSON report here")
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from spia_core.datasets import DatasetError, read_anonymized_jsonl, read_entity_jsonl
    from spia_core.evaluation.span_metrics import MaskInput, compute_span_metrics
    from spia_core.model import to_dict

    started = time.perf_counter()
    try:
        docs = read_entity_jsonl(args.entities)
        texts = {d.data_id: d.text for d in docs}
        anon = read_anonymized_jsonl(args.anonymized, texts)
    except (DatasetError, OSError) as exc:
        return _fail(str(exc))
    for rec in anon.values():
        if rec.text is not None and rec.data_id in texts and rec.text != texts[rec.data_id]:
            return _fail(
                f"{args.anonymized.name}: data_id {rec.data_id!r}: its text differs from the "
                f"entity file's"
            )
        if args.method == "spans" and rec.masked_spans is None:
            return _fail(
                f"{args.anonymized.name}: data_id {rec.data_id!r} has no masked_spans "
                "(needed by --method spans; use auto or alignment)"
            )
    missing = [d.data_id for d in docs if d.data_id not in anon]
    extra = [k for k in anon if k not in texts]
    if len(missing) == len(docs):
        return _fail(f"no data_id of {args.anonymized.name} matches {args.entities.name}")
    masks = {k: MaskInput(r.anonymized_text, r.masked_spans) for k, r in anon.items()}
    try:
        metrics = compute_span_metrics(docs, masks, method=args.method)
    except ValueError as exc:
        return _fail(str(exc))
    elapsed = time.perf_counter() - started

    n_scored = len(docs) - len(missing)
    print(_table(metrics, n_scored, len(docs)))
    for w in metrics.warnings:
        print(f"warning: {w}", file=sys.stderr)
    print(f"\ncomputed in {elapsed:.2f} s")
    if args.out:
        report: dict[str, Any] = {
            **to_dict(metrics),
            "n_docs": len(docs),
            "n_docs_scored": n_scored,
            "missing_docs": missing,
            "extra_docs": extra,
            "entities_file": str(args.entities),
            "anonymized_file": str(args.anonymized),
            "elapsed_s": round(elapsed, 3),
        }
        try:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            return _fail(f"cannot write {args.out}: {exc.strerror or exc}")
        print(f"report written to {args.out}")
    return 0


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _table(m: Any, n_scored: int, n_docs: int) -> str:
    rows = [
        ("token recall (R_di+qi)", _fmt(m.token_recall), f"{m.n_tokens} tokens"),
        ("mention recall", _fmt(m.mention_recall), f"{m.n_mentions} mentions"),
        ("ER_di", _fmt(m.er_di), f"{m.n_direct_entities} direct entities"),
        ("ER_qi", _fmt(m.er_qi), f"{m.n_quasi_entities} quasi entities"),
        (
            "token precision",
            _fmt(m.token_precision),
            "" if m.token_precision is not None else "masked spans unknown",
        ),
    ]
    lines = [f"{name:<24}{value:>8}  {note}".rstrip() for name, value, note in rows]
    lines.append(f"{'method':<24}{m.method}")
    lines.append(f"{'tagger':<24}{m.tagger}")
    lines.append(f"{'GT source':<24}{m.gt_source}")
    lines.append(f"{'documents':<24}{n_scored} of {n_docs} scored")
    if n_scored < n_docs:
        lines.append(f"  {n_docs - n_scored} document(s) have no anonymized line (not scored)")
    if m.per_entity_type:
        lines.append("token recall by entity type:")
        lines += [f"  {t:<22}{v:>8.4f}" for t, v in m.per_entity_type.items()]
    return "\n".join(lines)
