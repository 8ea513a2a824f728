"""Running ``check`` over many documents: engines, the resumable store, the summary files."""

from __future__ import annotations

import csv
import json
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from spia_core.scale.check import (
    COLUMNS,
    COMMAND,
    REPORTS_DIR,
    STATE_DIR,
    SUMMARY_CSV,
    SUMMARY_JSON,
    SUMMARY_PARQUET,
    CheckConfig,
    CheckResult,
    CheckWorker,
    worker_spec,
    write_files,
)
from spia_core.scale.discover import CheckInput
from spia_core.scale.record import progress_bar, save_each


def _rows(
    cfg: CheckConfig, todo: list[CheckInput], cancel: threading.Event | None, bar: Any = None
) -> Iterator:
    """Each document's row as it finishes, on the configured engine (with ``bar``, when the
    documents run in this process: the stage of the one in progress beside the bar)."""
    from spia_core.pipeline import is_local_config
    from spia_core.scale.pool import run_forked, run_threaded, warm_up

    spec = worker_spec(cfg)
    if cfg.engine == "ray":
        from spia_core.scale.ray_engine import run_on_ray

        yield from run_on_ray(todo, CheckWorker, spec, workers=cfg.workers, address=cfg.ray_address)
        return
    worker = CheckWorker(spec)
    if is_local_config(cfg.audit):
        warm_up(lambda text: worker.audit(text, "warm-up"))  # load before the fork
        if bar is not None and (cfg.workers <= 1 or len(todo) <= 1):  # run_forked: inline
            worker.on_stage = stage_postfix(bar)
        yield from run_forked(todo, worker, workers=cfg.workers, cancel=cancel)
    else:
        from spia_core.scale.concurrency import warm_llm_clients

        warm_llm_clients(worker.components)
        yield from run_threaded(todo, worker, threads=cfg.concurrency, cancel=cancel)


def stage_postfix(bar: Any) -> Any:
    """An audit's progress callback that shows its stage beside the bar ('infer people
    120/450'): a long document is not a bar frozen at 0."""

    def show(stage: str, fraction: float, counts: dict[str, Any] | None = None) -> None:
        steps = counts and counts["total"] > 1
        extra = f" {counts['unit']} {counts['done']}/{counts['total']}" if steps else ""
        bar.set_postfix_str(f"{stage}{extra}", refresh=True)

    return show


def _store_config(cfg: CheckConfig) -> dict[str, Any]:
    return {"command": COMMAND, "audit": cfg.audit.to_dict()}


def _reuse(store: Any, run_id: int, cfg: CheckConfig) -> dict[str, dict[str, Any]]:
    """Rows of documents already checked with this input; report files rewritten if gone."""
    from spia_core.pipeline import report_from_dict

    wanted = {i.data_id: i for i in cfg.inputs}
    done: dict[str, dict[str, Any]] = {}
    for row in store.load_documents(run_id):
        item = wanted.get(row.data_id)
        if row.status != "ok" or item is None or row.input_sha256 != item.sha256:
            continue
        summary = dict(row.summary)
        paths = [cfg.out_dir / summary.get(k, "") for k in ("report_json", "report_html")]
        if not all(p.is_file() for p in paths):
            figures, _ = write_files(report_from_dict(row.result), cfg.out_dir, row.data_id)
            summary.update(figures)
        done[row.data_id] = summary
    return done


def run_check(
    cfg: CheckConfig, *, progress: bool = True, cancel: threading.Event | None = None
) -> CheckResult:
    """Check every input (resuming), apply the policy, write the summaries."""
    from spia_core.identity import code_fingerprint
    from spia_core.store import ResultStore

    cfg.out_dir.mkdir(parents=True, exist_ok=True)
    (cfg.out_dir / REPORTS_DIR).mkdir(exist_ok=True)
    data_dir = cfg.data_dir or cfg.out_dir / STATE_DIR
    with ResultStore(data_dir) as store:
        run = store.start_run(
            "check",
            _store_config(cfg),
            dataset_name=COMMAND,
            resume=cfg.resume,
            code_hash=code_fingerprint(),
        )
        rows = _reuse(store, run.id, cfg)
        n_resumed = len(rows)
        todo = [i for i in cfg.inputs if i.data_id not in rows]
        bar = progress_bar(len(cfg.inputs), n_resumed, "check", progress)

        def save(row: dict[str, Any]) -> None:
            _save(store, run.id, row)
            rows[row["data_id"]] = row

        rows_done = _rows(cfg, todo, cancel, bar)
        status = save_each(store, run.id, rows_done, save, bar=bar, cancel=cancel)
        ordered = [rows[i.data_id] for i in cfg.inputs if i.data_id in rows]
        summary = summarise(ordered, cfg, n_resumed, status)
        store.finish_run(run.id, status=status, summary=summary, coverage=summary["counts"])
    write_summaries(cfg.out_dir, ordered, summary)
    return CheckResult(rows=ordered, summary=summary, run_id=run.id)


def _save(store: Any, run_id: int, row: dict[str, Any]) -> None:
    report = row.pop("_report", None)
    store.save_document(
        run_id,
        row["data_id"],
        status="ok" if row["status"] == "ok" else "failed",
        result=report or {},
        summary=row,
        error=row.get("error", ""),
        input_sha256=row.get("input_sha256", ""),
    )


def summarise(
    rows: list[dict[str, Any]], cfg: CheckConfig, n_resumed: int, status: str
) -> dict[str, Any]:
    """Policy outcome per row (in place) and the run's counts."""
    for row in rows:
        reasons = cfg.policy.evaluate(row)
        row["policy"] = "fail" if reasons else "pass"
        row["policy_reasons"] = "; ".join(reasons)
    verdicts: dict[str, int] = {}
    for row in rows:
        verdicts[row.get("verdict", "")] = verdicts.get(row.get("verdict", ""), 0) + 1
    counts = {
        "n_documents": len(cfg.inputs),
        "n_checked": len(rows),
        "n_resumed": n_resumed,
        "n_input_errors": sum(r["status"] == "input_error" for r in rows),
        "n_failed": sum(r["status"] == "failed" for r in rows),
        "n_policy_fail": sum(r["policy"] == "fail" for r in rows),
    }
    return {
        "status": status,
        "policy": cfg.policy.to_dict(),
        "counts": counts,
        "verdicts": verdicts,
        "config": _store_config(cfg),
    }


def exit_code(summary: dict[str, Any]) -> int:
    """2: a document could not be read (bad input) or the run did not finish; 1: a document
    exceeds the policy; 0: every document passes."""
    counts = summary["counts"]
    if counts["n_input_errors"] or counts["n_checked"] < counts["n_documents"]:
        return 2
    return 1 if counts["n_policy_fail"] else 0


def write_summaries(out_dir: Path, rows: Iterable[dict[str, Any]], summary: dict[str, Any]) -> None:
    """summary.csv, summary.json and (with pyarrow) summary.parquet."""
    from spia_core.export_safety import neutralise_cell

    rows = list(rows)
    with (out_dir / SUMMARY_CSV).open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: neutralise_cell(row.get(k)) for k in COLUMNS})
    summary["parquet"] = write_parquet(out_dir / SUMMARY_PARQUET, rows)
    (out_dir / SUMMARY_JSON).write_text(
        json.dumps(summary, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8"
    )


def write_parquet(path: Path, rows: list[dict[str, Any]]) -> str:
    """Write the rows as Parquet; returns the path, or why not (pyarrow not installed)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return "not written: pyarrow is not installed (pip install 'spia-audit[parquet]')"
    table = pa.Table.from_pylist([{k: row.get(k) for k in COLUMNS} for row in rows])
    pq.write_table(table, path)
    return str(path)
