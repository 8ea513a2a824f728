"""``check``: audit redacted documents without ground truth, one report each, resumably.

Each document goes through :func:`spia_core.pipeline.audit_redacted` (the redacted-only audit),
gets ``reports/<id>/report.json`` and ``report.html`` (:func:`report_export.write_report`, the
same writer as ``audit``) and one row of figures; the rows make ``summary.csv`` (and
``summary.parquet`` when pyarrow is installed). Rows are committed to a results store as each
document finishes (``OUT/.spia-check`` unless ``data_dir`` is given): a rerun skips documents
whose input is unchanged, so a killed run loses nothing and counts nothing twice. The policy
is applied to the rows at the end, so changing it needs no new audit.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spia_core.llm.connection import CallPolicy
from spia_core.scale.discover import CheckInput
from spia_core.scale.policy import N_TAGS, Policy

#: The store's run configuration marks check runs apart from evaluate runs.
COMMAND = "check"
STATE_DIR = ".spia-check"
REPORTS_DIR = "reports"
SUMMARY_CSV = "summary.csv"
SUMMARY_PARQUET = "summary.parquet"
SUMMARY_JSON = "summary.json"
#: Columns of summary.csv, in order.
COLUMNS: tuple[str, ...] = (
    "data_id",
    "source",
    "status",
    "verdict",
    "policy",
    "policy_reasons",
    "exposure",
    "n_subjects",
    "n_exposed_subjects",
    "n_direct_identifiers",
    "direct_identifiers",
    "max_inferred_share",
    "n_placeholders",
    "n_seen_through",
    "chars",
    "file_notes",
    "elapsed_s",
    "report_json",
    "report_html",
    "error",
    "headline",
)


@dataclass
class CheckConfig:
    """What ``check`` runs: the inputs, the audit configuration and how to run it."""

    inputs: list[CheckInput]
    out_dir: Path
    audit: Any  # AuditConfig
    policy: Policy = field(default_factory=Policy)
    data_dir: Path | None = None
    workers: int = 1
    concurrency: int = 4
    engine: str = "local"
    ray_address: str | None = None
    resume: bool = True
    api_keys: dict[str, str] = field(default_factory=dict, repr=False)
    cache: Any = True


@dataclass
class CheckResult:
    rows: list[dict[str, Any]]
    summary: dict[str, Any]
    run_id: int


# --------------------------------------------------------------------------- one document


def report_dir(out_dir: Path, data_id: str) -> Path:
    """``OUT/reports/<readable id>-<hash>``: unique, filesystem-safe, stable across runs."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", data_id).strip("._")[:80] or "doc"
    digest = hashlib.sha1(data_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return out_dir / REPORTS_DIR / f"{slug}-{digest}"


def stale_reports(out_dir: Path, data_ids: list[str]) -> list[Path]:
    """Report folders under ``OUT/reports`` of documents that are not among ``data_ids`` (left
    by an earlier run over other documents; never deleted)."""
    folder = out_dir / REPORTS_DIR
    if not folder.is_dir():
        return []
    current = {report_dir(out_dir, d).name for d in data_ids}
    return sorted(p for p in folder.iterdir() if p.is_dir() and p.name not in current)


def read_input(item: CheckInput) -> Any:
    """The document's text and notes (a :class:`~spia_core.textio.FileText`: a JSONL record's
    text, or the file read once like an upload)."""
    from spia_core.textio import FileText, read_file, validate_text

    if item.text is not None:  # checked like a file, and named by its record id
        return FileText(validate_text(item.text, item.data_id))
    path = Path(item.source)
    return read_file(path.read_bytes(), path.name)


def row_of(report: Any, verdict: Any) -> dict[str, Any]:
    """The per-document figures the policy and summary.csv read (blank when there is no
    exposure or the engine could not judge the text: zeros would read as "nothing found")."""
    row: dict[str, Any] = {"verdict": verdict.status, "headline": verdict.headline}
    exposure = report.exposure
    if exposure is None or verdict.status == "cannot_judge":
        return row | dict.fromkeys(_FIGURES)
    subjects = exposure.subjects
    return row | {
        "exposure": exposure.score,
        "n_subjects": len(subjects),
        "n_exposed_subjects": exposure.n_exposed_subjects,
        "n_direct_identifiers": sum(len(s.direct) for s in subjects),
        "direct_identifiers": " ".join(sorted({t for s in subjects for t in s.direct})),
        "max_inferred_share": round(max((s.score for s in subjects), default=0) / N_TAGS, 4),
        "n_placeholders": len(exposure.placeholders),
        "n_seen_through": exposure.n_seen_through,
    }


#: The figures of ``row_of`` (blank for a text the engine could not judge).
_FIGURES = COLUMNS[COLUMNS.index("exposure") : COLUMNS.index("n_seen_through") + 1]


def write_files(report: Any, out_dir: Path, data_id: str) -> tuple[dict[str, Any], Any]:
    """Write the document's report.json and report.html; its row (figures + paths) and verdict."""
    from spia_core.report_export import write_report
    from spia_core.verdict import assess

    paths = write_report(report, report_dir(out_dir, data_id))
    row = row_of(report, assess(report))
    row["report_json"] = paths["json"].relative_to(out_dir).as_posix()
    row["report_html"] = paths["html"].relative_to(out_dir).as_posix()
    return row, report


class CheckWorker:
    """Audits one document end to end; built once per process (or Ray actor)."""

    def __init__(self, spec: dict[str, Any], components: Any = None) -> None:
        from spia_core.pipeline import AuditConfig, build_components

        self.out_dir = Path(spec["out_dir"])
        self.config = AuditConfig.from_dict(spec["config"])
        self.components = components or build_components(
            self.config,
            api_keys=spec.get("api_keys") or {},
            cache=spec.get("cache", True),
            policy=spec.get("llm_policy"),
        )

    #: The audit's progress callback (set when the documents run in this process).
    on_stage: Any = None

    def audit(self, text: str, data_id: str) -> Any:
        from spia_core.pipeline import audit_redacted

        return audit_redacted(
            text, self.config, components=self.components, data_id=data_id, on_stage=self.on_stage
        )

    def __call__(self, item: CheckInput) -> dict[str, Any]:
        from spia_core.pipeline import report_to_dict
        from spia_core.textio import InputError

        t0 = time.perf_counter()
        row: dict[str, Any] = {"data_id": item.data_id, "source": item.source}
        row["input_sha256"] = item.sha256
        try:
            if item.error:
                raise InputError(f"{item.data_id}: {item.error}")
            read = read_input(item)
            row["chars"] = len(read.text)
            row["file_notes"] = " | ".join(read.notes)
            report = self.audit(read.text, item.data_id)
            add_file_notes(report, read.notes)
            figures, report = write_files(report, self.out_dir, item.data_id)
        except (InputError, OSError) as exc:
            row.update(status="input_error", error=str(exc), verdict="cannot_judge")
            return _timed(row, t0)
        except Exception as exc:  # recorded as a failed document, never dropped
            row.update(status="failed", error=f"{type(exc).__name__}: {exc}")
            row["verdict"] = "cannot_judge"
            return _timed(row, t0)
        row.update(figures, status="ok", error="")
        row["_report"] = report_to_dict(report)
        return _timed(row, t0)


def add_file_notes(report: Any, notes: list[str]) -> None:
    """What the user should know of how the file was read (unapplied PDF redactions, comments,
    tracked deletions, a Windows-1252 text), as warning notices of its report (report.json,
    report.html)."""
    from spia_core.model import Notice, NoticeKind, Severity

    for note in notes:
        report.notices.append(
            Notice(NoticeKind.INPUT_QUIRK, "validate", note, Severity.WARNING, report.data_id)
        )
        report.warnings.append(note)


def _timed(row: dict[str, Any], t0: float) -> dict[str, Any]:
    row["elapsed_s"] = round(time.perf_counter() - t0, 3)
    return row


def worker_spec(cfg: CheckConfig) -> dict[str, Any]:
    """What a worker needs to build itself (picklable; API keys stay in memory only)."""
    return {
        "out_dir": str(cfg.out_dir),
        "config": cfg.audit.to_dict(),
        "api_keys": dict(cfg.api_keys),
        "cache": cfg.cache,
        "llm_policy": CallPolicy(max_concurrency=cfg.concurrency),
    }
