"""Rows of audits and runs for the Benchmarks overlay (no Streamlit)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from spia_core.model import AuditReport

METRIC_COLUMNS = ("token_recall", "er_di", "er_qi", "one_minus_aac", "cpr", "ipr", "utility")
ROW_COLUMNS = ("dataset", "method", "backbone", *METRIC_COLUMNS, "source", "adversary", "label")


def dataset_family(name: str) -> str:
    """TAB, PANORAMA or the name itself (the paper's dataset of a data id or dataset name)."""
    upper = name.upper()
    if upper.startswith("TAB"):
        return "TAB"
    if upper.startswith("PAN"):
        return "PANORAMA"
    return name


def report_row(report: AuditReport, label: str) -> dict[str, Any]:
    """One overlay row of an audit report."""
    sm = report.span_metrics
    family = dataset_family(report.data_id)
    return {
        "dataset": family if family in ("TAB", "PANORAMA") else "own",
        "method": report.anonymizer,
        "backbone": report.config.get("anonymizer_backbone"),
        "token_recall": sm.token_recall if sm else None,
        "er_di": sm.er_di if sm else None,
        "er_qi": sm.er_qi if sm else None,
        "one_minus_aac": report.metrics.one_minus_aac,
        "cpr": report.metrics.cpr,
        "ipr": report.metrics.ipr,
        "utility": report.utility.rouge_l if report.utility else None,
        "source": "own",
        "adversary": report.adversary,
        "label": label,
    }


def metric_values(report: AuditReport) -> dict[str, Any]:
    """The overlay metrics of a report (the Run page's per-document columns)."""
    row = report_row(report, "")
    return {k: row[k] for k in METRIC_COLUMNS}


def store_run_rows(store: Any) -> list[dict[str, Any]]:
    """Runs and audits of the results store as overlay rows (empty when no store)."""
    if store is None:
        return []
    out = []
    for run in store.list_runs():
        summ, cfg = dict(run.summary or {}), run.config or {}
        if summ.get("cpr") is None:
            continue
        if run.kind == "audit" and summ.get("token_recall") is None:
            summ.update(_stored_audit_extras(store, run.id))
        out.append(
            {
                "dataset": dataset_family(run.dataset_name),
                "method": cfg.get("anonymizer"),
                "backbone": cfg.get("anonymizer_backbone"),
                **{k: summ.get(k) for k in METRIC_COLUMNS if k != "utility"},
                "utility": summ.get("rouge_l"),
                "source": "own",
                "adversary": cfg.get("adversary"),
                "label": f"{run.kind} #{run.id} {run.dataset_name}",
            }
        )
    return out


@functools.lru_cache(maxsize=512)
def _stored_audit_extras(store: Any, run_id: int) -> dict[str, Any]:
    """Span metrics and ROUGE-L of a stored audit (its summary holds the inference metrics
    only); a stored audit never changes, so this is cached by store and run id."""
    docs = store.load_documents(run_id)
    result = docs[0].result if docs else {}
    span = result.get("span_metrics") or {}
    utility = result.get("utility") or {}
    return {
        "token_recall": span.get("token_recall"),
        "er_di": span.get("er_di"),
        "er_qi": span.get("er_qi"),
        "rouge_l": utility.get("rouge_l"),
    }


def own_rows(session_reports: Iterable[tuple[AuditReport, str]], store: Any) -> list[dict]:
    """This session's unsaved audits (report, label) and the store's runs, one row each."""
    return [report_row(r, label) for r, label in session_reports] + store_run_rows(store)
