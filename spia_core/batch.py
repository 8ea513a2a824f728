"""Dataset runs: audit every document of a dataset with one configuration, resumably.

Each finished document is committed to the results store at once; rerunning the same
configuration on the same dataset (same hash) skips documents already done. A document that
fails is recorded with its error and counted in ``n_failed``, never dropped. Local
configurations run sequentially or in a small process pool; configurations with an LLM stage
run documents in threads (``concurrency``), the provider seam doing the waiting.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spia_core.identity import code_fingerprint
from spia_core.model import AuditReport, Document, Failure, SpanMetrics
from spia_core.pipeline import (
    AuditConfig,
    Components,
    audit,
    build_components,
    is_local_config,
)
from spia_core.scale.pool import available_cores
from spia_core.scale.record import progress_bar, save_each

#: Files written to the output directory.
RESULTS_FILE = "results.jsonl"
SUMMARY_FILE = "summary.json"
PREDICTIONS_FILE = "predictions.jsonl"
#: Default process count of the CLI for local configurations (``--workers auto``: every core).
DEFAULT_WORKERS = available_cores()
#: Stages whose failure means there is no inference to write to predictions.jsonl.
_NO_INFERENCE = frozenset({"anonymize", "infer"})


@dataclass
class DatasetRef:
    """A loaded dataset: its documents, display name and content hash."""

    name: str
    documents: list[Document]
    hash: str


@dataclass
class BatchConfig:
    """What to run: a dataset, an audit configuration and how to run it."""

    dataset: str  # bundled name (TAB-144, PANORAMA-151) or a SPIA JSONL path
    audit: AuditConfig = field(default_factory=AuditConfig)
    entities: str | None = None
    limit: int | None = None
    out_dir: str | Path | None = None
    data_dir: str | Path | None = None
    workers: int = 1  # processes, for local configurations
    concurrency: int = 4  # threads, for configurations with an LLM stage
    resume: bool = True
    #: The user's own anonymized texts (SPIA-style JSONL, one per data_id) for "provided".
    anonymized: str | Path | None = None
    #: provider (or env) name -> API key; memory only, never saved or hashed.
    api_keys: dict[str, str] = field(default_factory=dict, repr=False)
    #: True = the shared response cache under the data dir; a path; False = no cache.
    cache: Any = True
    #: Timeout and retries of LLM calls (llm.connection.CallPolicy); None = defaults.
    llm_policy: Any = None
    #: "local" (this machine: fork pool or threads) or "ray" (Ray actors; see scale/ray_engine).
    engine: str = "local"
    #: Ray cluster address for engine "ray" (None: a local Ray instance for the run).
    ray_address: str | None = None
    #: "interactive" (one API call per request) or "batch" (provider batch APIs, in rounds;
    #: see scale/llm_batch). Not part of the run's configuration: a run resumes in either mode.
    llm_mode: str = "interactive"
    #: First wait between two polls of a provider batch, in seconds (then x1.5, at most 300).
    batch_poll: float = 10.0


@dataclass
class DocOutcome:
    """One document's outcome (report is None when audit() itself raised)."""

    data_id: str
    status: str  # ok | failed
    error: str = ""
    report: AuditReport | None = None
    elapsed_s: float = 0.0


@dataclass
class BatchResult:
    run_id: int
    summary: dict[str, Any]
    outcomes: list[DocOutcome]
    out_dir: Path | None


# --------------------------------------------------------------------------- datasets


def load_dataset_ref(dataset: str, entities: str | None = None) -> DatasetRef:
    """A bundled dataset by name, or SPIA JSONL (+ optional entity JSONL) files."""
    from spia_core.datasets import BUNDLED, dataset_hash, load_bundled, load_dataset

    if dataset in BUNDLED and entities is None:
        paths = [p for p in BUNDLED[dataset]]
        docs = load_bundled(dataset)
        name = dataset
    else:
        path = Path(dataset)
        if not path.is_file():
            raise FileNotFoundError(
                f"dataset {dataset!r} is neither a bundled name ({', '.join(BUNDLED)}) "
                "nor an existing file"
            )
        paths = [path] + ([Path(entities)] if entities else [])
        docs = load_dataset(path, entities)
        name = path.name
    digest = hashlib.sha256("".join(dataset_hash(p) for p in paths).encode()).hexdigest()
    return DatasetRef(name=name, documents=docs, hash=digest)


# --------------------------------------------------------------------------- aggregation


def aggregate_span_metrics(spans: Iterable[SpanMetrics | None]) -> dict[str, float | None]:
    """Micro-averaged token recall, mention recall, ER_di and ER_qi from per-document results."""
    tot = {"tok": 0, "tok_m": 0.0, "men": 0, "men_m": 0.0, "di": 0, "di_m": 0.0, "qi": 0}
    tot["qi_m"] = 0.0
    for s in spans:
        if s is None:
            continue
        for key, n, rate in (
            ("tok", s.n_tokens, s.token_recall),
            ("men", s.n_mentions, s.mention_recall),
            ("di", s.n_direct_entities, s.er_di),
            ("qi", s.n_quasi_entities, s.er_qi),
        ):
            if n and rate is not None:
                tot[key] += n
                tot[f"{key}_m"] += round(rate * n)

    def ratio(key: str) -> float | None:
        return tot[f"{key}_m"] / tot[key] if tot[key] else None

    return {
        "token_recall": ratio("tok"),
        "mention_recall": ratio("men"),
        "er_di": ratio("di"),
        "er_qi": ratio("qi"),
    }


def _document_scores(outcome: DocOutcome) -> Any:
    from spia_core.evaluation.metrics import DocumentScores

    report = outcome.report
    if report is None:
        return DocumentScores(
            data_id=outcome.data_id,
            subject_results=[],
            failures=[Failure(outcome.data_id, "audit", outcome.error)],
            failed=True,
        )
    return DocumentScores(
        data_id=report.data_id,
        subject_results=report.subject_results,
        n_extra_subjects=len(report.assignment.extra_pred_subject_ids),
        failures=list(report.failures),
        failed=outcome.status != "ok",
    )


def summarise(outcomes: list[DocOutcome], elapsed_s: float) -> dict[str, Any]:
    """The run's headline figures (CPR, IPR, 1-AAC, span metrics, ROUGE-L, Table 9 stats)."""
    from spia_core.evaluation.metrics import compute_metrics, inference_stats, metrics_summary

    scores = [_document_scores(o) for o in outcomes]
    metrics = compute_metrics(scores)
    reports = [o.report for o in outcomes if o.report is not None]
    rouge = [r.utility.rouge_l for r in reports if r.utility is not None]
    summary: dict[str, Any] = {
        "cpr": metrics.cpr,
        "ipr": metrics.ipr,
        "one_minus_aac": metrics.one_minus_aac,
        **aggregate_span_metrics(r.span_metrics for r in reports),
        "rouge_l": sum(rouge) / len(rouge) if rouge else None,
    }
    stats = inference_stats(scores)
    summary.update(
        {
            "subject_match_rate": stats["subject_match_rate"],
            "inference_accuracy": stats["inference_accuracy"],
            "end_to_end_accuracy": stats["end_to_end_accuracy"],
            "n_docs": len(outcomes),
            "n_failed": sum(o.status != "ok" for o in outcomes),
            "n_anonymizer_refused": sum(_refused(o) for o in outcomes),
            "elapsed_s": round(elapsed_s, 3),
        }
    )
    summary.update({k: v for k, v in metrics_summary(metrics).items() if k not in summary})
    return summary


def _refused(outcome: DocOutcome) -> bool:
    """True when the anonymizer's output was rejected (refusal, empty or junk)."""
    from spia_core.model import NoticeKind

    notices = outcome.report.notices if outcome.report is not None else []
    return any(n.kind == NoticeKind.ANONYMIZER_REFUSED for n in notices)


def document_summary(outcome: DocOutcome) -> dict[str, Any]:
    """Flat per-document figures for the store and results.jsonl."""
    from spia_core.evaluation.metrics import metrics_summary

    out: dict[str, Any] = {"elapsed_s": round(outcome.elapsed_s, 3)}
    report = outcome.report
    if report is None:
        return out
    out.update(metrics_summary(report.metrics))
    span = report.span_metrics
    out.update(
        {
            "token_recall": span.token_recall if span else None,
            "er_di": span.er_di if span else None,
            "er_qi": span.er_qi if span else None,
            "rouge_l": report.utility.rouge_l if report.utility else None,
        }
    )
    return out


# --------------------------------------------------------------------------- running


def _run_one(
    doc: Document,
    config: AuditConfig,
    components: Components | None,
    provided: dict[str, Any] | None = None,
) -> DocOutcome:
    t0 = time.perf_counter()
    if provided is not None:
        record = provided.get(doc.data_id)
        if record is None:
            return DocOutcome(
                doc.data_id,
                "failed",
                f"anonymize: no anonymized text for data_id {doc.data_id!r} in the "
                "--anonymized file",
            )
        from spia_core.anonymizers.provided import ProvidedAnonymizer

        config = dataclasses.replace(config, provided_text=record.anonymized_text)
        if components is not None:
            components = dataclasses.replace(
                components,
                anonymizer=ProvidedAnonymizer(record.anonymized_text, record.masked_spans),
            )
    try:
        report = audit(doc, config, components=components)
    except Exception as exc:  # recorded and counted as failed, never dropped
        from spia_core.textio import InputError

        stage = "validate" if isinstance(exc, InputError) else "audit"
        return DocOutcome(
            doc.data_id,
            "failed",
            f"{stage}: {type(exc).__name__}: {exc}",
            None,
            time.perf_counter() - t0,
        )
    scored = report.metrics.coverage.n_docs_scored > 0
    error = "" if scored else "; ".join(f"{f.stage}: {f.reason}" for f in report.failures)
    return DocOutcome(
        doc.data_id, "ok" if scored else "failed", error, report, time.perf_counter() - t0
    )


class EvaluateWorker:
    """The stages of one configuration in one process or Ray actor, built from a plain spec."""

    def __init__(self, spec: dict[str, Any]) -> None:
        config = AuditConfig.from_dict(spec["config"])
        config.provided_text = spec.get("provided_text")
        self.config = config
        self.provided = spec.get("provided")
        self.components = build_components(
            config,
            api_keys=spec.get("api_keys") or {},
            cache=spec.get("cache", True),
            data_dir=spec.get("data_dir"),
            policy=spec.get("llm_policy"),
        )

    def __call__(self, doc: Document) -> DocOutcome:
        return _run_one(doc, self.config, self.components, self.provided)


def _on_ray(
    todo: list[Document], cfg: BatchConfig, cancel: threading.Event | None, provided: Any
) -> Iterable[DocOutcome]:
    from spia_core.scale.ray_engine import run_on_ray

    spec = {
        "config": cfg.audit.to_dict(),
        "provided_text": cfg.audit.provided_text,
        "provided": provided,
        "api_keys": dict(cfg.api_keys),
        "cache": cfg.cache,
        "data_dir": str(cfg.data_dir) if cfg.data_dir is not None else None,
        "llm_policy": cfg.llm_policy,
    }
    workers = cfg.workers if is_local_config(cfg.audit) else cfg.concurrency
    return run_on_ray(
        todo,
        EvaluateWorker,
        spec,
        workers=workers,
        address=cfg.ray_address,
        cancel=cancel,
        size=_doc_size,
    )


def _doc_size(doc: Document) -> int:
    """A document's cost estimate for scheduling: its length."""
    return len(doc.text)


def _outcomes(
    todo: list[Document],
    cfg: BatchConfig,
    cancel: threading.Event | None,
    provided: dict[str, Any] | None = None,
    broker: Any = None,
) -> Iterable[DocOutcome]:
    from spia_core.scale.pool import run_forked, run_threaded, warm_up

    if cfg.engine == "ray":
        yield from _on_ray(todo, cfg, cancel, provided)
        return
    config = cfg.audit
    local = is_local_config(config)
    components = build_components(
        config,
        api_keys=cfg.api_keys,
        cache=cfg.cache,
        data_dir=cfg.data_dir,
        policy=cfg.llm_policy,
    )
    if broker is not None:  # --llm-mode batch: rounds of provider batches
        from spia_core.scale.llm_batch import batch_components, run_in_rounds

        components = batch_components(components, broker)
        work = functools.partial(_run_one, config=config, components=components, provided=provided)
        yield from run_in_rounds(todo, work, broker, cancel=cancel)
        return
    work = functools.partial(_run_one, config=config, components=components, provided=provided)
    if local and cfg.workers > 1 and len(todo) > 1:
        # load the model, lexicons and stages once, then fork: the workers inherit them
        warm_up(lambda text: audit(Document("warm-up", text), config, components=components))
        yield from run_forked(todo, work, workers=cfg.workers, cancel=cancel, size=_doc_size)
        return
    if local or cfg.concurrency <= 1 or len(todo) <= 1:
        for doc in todo:
            if cancel is not None and cancel.is_set():
                return
            yield _run_one(doc, config, components, provided)
        return
    # LLM stages: documents in threads; each provider's semaphore caps its concurrent calls.
    from spia_core.scale.concurrency import warm_llm_clients

    warm_llm_clients(components)  # lazy SDK imports done here, not raced by the threads
    yield from run_threaded(todo, work, threads=cfg.concurrency, cancel=cancel)


def run_batch(
    cfg: BatchConfig,
    *,
    progress: bool = True,
    on_document: Callable[[DocOutcome, int, int], None] | None = None,
    cancel: threading.Event | None = None,
    dataset: DatasetRef | None = None,
) -> BatchResult:
    """Audit every document of the dataset (resuming a previous identical run) and summarise.

    ``on_document(outcome, n_done, n_total)`` is called as each document finishes.
    """
    from spia_core.store import ResultStore

    t0 = time.perf_counter()
    if cfg.limit is not None and (isinstance(cfg.limit, bool) or cfg.limit < 1):
        raise ValueError(f"limit must be a positive number of documents (or None), got {cfg.limit}")
    check_llm_mode(cfg)
    ref = dataset or load_dataset_ref(cfg.dataset, cfg.entities)
    docs = ref.documents[: cfg.limit] if cfg.limit is not None else ref.documents
    config_dict, provided = _run_config(cfg, docs)

    with ResultStore(cfg.data_dir) as store:
        run = store.start_run(
            "evaluate",
            config_dict,
            dataset_name=ref.name,
            dataset_hash=ref.hash,
            resume=cfg.resume,
            code_hash=code_fingerprint(),
        )
        hashes = {d.data_id: document_hash(d) for d in docs}
        done_rows, rejected = resumable_rows(store.load_documents(run.id), docs, hashes)
        for data_id, why in rejected.items():
            print(f"warning: stored result of {data_id!r} not resumed: {why}", file=sys.stderr)
        outcomes = _resumed_outcomes(done_rows)
        todo = [d for d in docs if d.data_id not in done_rows]
        bar = progress_bar(len(docs), len(done_rows), ref.name, progress)
        broker = _broker(cfg, store, run.id, cancel, quiet=not progress)

        def save(outcome: DocOutcome) -> None:
            outcomes[outcome.data_id] = outcome
            _save_outcome(store, run, outcome, hashes.get(outcome.data_id, ""))
            if bar is not None:
                bar.set_postfix(failed=sum(o.status != "ok" for o in outcomes.values()))
            if on_document is not None:
                on_document(outcome, len(outcomes), len(docs))

        found = _outcomes(todo, cfg, cancel, provided, broker)
        status = save_each(store, run.id, found, save, bar=bar, cancel=cancel)
        ordered = [outcomes[d.data_id] for d in docs if d.data_id in outcomes]
        summary = summarise(ordered, time.perf_counter() - t0)
        summary.update(
            {
                "run_id": run.id,
                "dataset": ref.name,
                "dataset_hash": ref.hash,
                "n_resumed": len(done_rows),
                "n_rows_rejected": len(rejected),
                "code_hash": run.code_hash,
                "status": status,
                "config": config_dict,
                **run_manifest(ordered, set(done_rows)),
                **_batch_summary(cfg, broker),
            }
        )
        coverage = {k: summary[k] for k in ("n_docs", "n_failed") if k in summary}
        coverage["n_requested"] = len(docs)
        store.finish_run(run.id, status=status, summary=summary, coverage=coverage)

    out_dir = Path(cfg.out_dir) if cfg.out_dir is not None else None
    if out_dir is not None:
        write_outputs(out_dir, ordered, summary)
    return BatchResult(run_id=run.id, summary=summary, outcomes=ordered, out_dir=out_dir)


def _broker(
    cfg: BatchConfig, store: Any, run_id: int, cancel: threading.Event | None, *, quiet: bool
) -> Any:
    """The batch broker of an ``llm_mode="batch"`` run (None in interactive mode)."""
    if cfg.llm_mode == "interactive":
        return None
    from spia_core.llm.batch_broker import BatchBroker

    notify = (lambda _message: None) if quiet else None
    options = {"notify": notify} if notify is not None else {}
    return BatchBroker(store, run_id, poll_interval=cfg.batch_poll, cancel=cancel, **options)


def check_llm_mode(cfg: BatchConfig) -> None:
    """Raise ValueError when ``cfg.llm_mode`` cannot apply to this run."""
    if cfg.llm_mode not in ("interactive", "batch"):
        raise ValueError(f"llm_mode must be 'interactive' or 'batch', got {cfg.llm_mode!r}")
    if cfg.llm_mode == "interactive":
        return
    if cfg.engine != "local":
        raise ValueError("--llm-mode batch runs on this machine: use --engine local")
    if is_local_config(cfg.audit):
        raise ValueError("--llm-mode batch: this configuration has no LLM stage to batch")


def _batch_summary(cfg: BatchConfig, broker: Any) -> dict[str, Any]:
    """llm_mode, and in batch mode the run's provider batches and any that ended badly."""
    if broker is None:
        return {"llm_mode": cfg.llm_mode}
    return {
        "llm_mode": cfg.llm_mode,
        "llm_batches": broker.summary(),
        "batch_requests_submitted": broker.submitted,
        "batch_problems": list(broker.problems),
    }


def _run_config(cfg: BatchConfig, docs: list[Document]) -> tuple[dict[str, Any], Any]:
    """The run's stored configuration (hashes of any user-given text) and the provided texts."""
    config_dict = cfg.audit.to_dict()
    if cfg.audit.provided_text:
        config_dict["provided_text_sha256"] = hashlib.sha256(
            cfg.audit.provided_text.encode("utf-8")
        ).hexdigest()
    provided = None
    if cfg.anonymized is not None:
        provided = load_provided(cfg.anonymized, docs)
        config_dict["anonymized_sha256"] = hashlib.sha256(
            Path(cfg.anonymized).read_bytes()
        ).hexdigest()
    return config_dict, provided


def _resumed_outcomes(done_rows: dict[str, Any]) -> dict[str, DocOutcome]:
    """Outcomes of the documents a previous identical run already finished."""
    from spia_core.model import report_from_dict

    return {
        data_id: DocOutcome(
            data_id,
            "ok",
            "",
            report_from_dict(row.result),
            float(row.summary.get("elapsed_s", 0.0)),
        )
        for data_id, row in done_rows.items()
    }


def _save_outcome(store: Any, run: Any, outcome: DocOutcome, input_sha256: str) -> None:
    """Store one document's outcome; record any prompt version the run had not seen yet."""
    store.save_document(
        run.id,
        outcome.data_id,
        status=outcome.status,
        result=_report_dict(outcome.report),
        summary=document_summary(outcome),
        error=outcome.error,
        input_sha256=input_sha256,
    )
    if outcome.report is None:
        return
    prompts = {k: v for k, v in outcome.report.versions.items() if k.startswith("prompt:")}
    if prompts and not set(prompts.items()) <= set(run.prompt_versions.items()):
        run.prompt_versions = {**run.prompt_versions, **prompts}
        store.set_prompt_versions(run.id, run.prompt_versions)


def document_hash(doc: Document) -> str:
    """sha256 of what decides a document's result: id, text (as audited) and annotations."""
    from spia_core.identity import input_sha256
    from spia_core.model import to_dict

    text = doc.text.replace("\r\n", "\n").replace("\r", "\n")
    return input_sha256(doc.data_id, text, [to_dict(doc.subjects), to_dict(doc.entities)])


def resumable_rows(
    rows: list[Any], docs: list[Document], hashes: dict[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """(ok rows whose result belongs to their document, data_id -> why a row was refused).

    A row is used only when its stored input hash matches the document's and its result
    names the same document with the same text: a swapped or stale row is re-audited.
    """
    texts = {d.data_id: d.text.replace("\r\n", "\n").replace("\r", "\n") for d in docs}
    good: dict[str, Any] = {}
    refused: dict[str, str] = {}
    for row in rows:
        if row.status != "ok" or row.data_id not in texts:
            continue
        result = row.result if isinstance(row.result, dict) else {}
        if row.input_sha256 != hashes[row.data_id]:
            refused[row.data_id] = "its input hash does not match the document (changed input?)"
        elif result.get("data_id") != row.data_id:
            refused[row.data_id] = f"the row holds the result of {result.get('data_id')!r}"
        elif result.get("original_text") != texts[row.data_id]:
            refused[row.data_id] = "the stored result was computed from another text"
        else:
            good[row.data_id] = row
    return good, refused


def load_provided(path: str | Path, docs: list[Document]) -> dict[str, Any]:
    """The user's anonymized texts by data_id (spans checked against the dataset's texts)."""
    from spia_core.datasets import read_anonymized_jsonl

    return read_anonymized_jsonl(path, {d.data_id: d.text for d in docs})


def _add_usage(total: dict[str, dict[str, float]], stage: str, usage: Any) -> None:
    row = total.setdefault(stage, {name: 0 for name in _USAGE_FIELDS})
    for name in _USAGE_FIELDS:
        row[name] += getattr(usage, name, 0)


_USAGE_FIELDS = ("calls", "cache_hits", "input_tokens", "output_tokens", "cost_usd", "latency_s")


def usage_totals(reports: Iterable[AuditReport]) -> dict[str, dict[str, float]]:
    """Per-stage LLM usage summed over ``reports``, plus a ``total`` row."""
    stages: dict[str, dict[str, float]] = {}
    for report in reports:
        for stage, usage in report.usage.items():
            _add_usage(stages, stage, usage)
    total: dict[str, float] = {name: 0 for name in _USAGE_FIELDS}
    for row in stages.values():
        for name in _USAGE_FIELDS:
            total[name] += row[name]
    out = {k: {n: round(v, 6) for n, v in row.items()} for k, row in sorted(stages.items())}
    if stages:
        out["total"] = {n: round(v, 6) for n, v in total.items()}
    return out


def run_manifest(outcomes: list[DocOutcome], resumed: set[str]) -> dict[str, Any]:
    """Prompt versions, models per stage and LLM usage (this invocation and the whole run)."""
    reports = [o.report for o in outcomes if o.report is not None]
    prompts: dict[str, str] = {}
    models: dict[str, str] = {}
    for report in reports:
        for key, value in report.versions.items():
            if key.startswith("prompt:"):
                prompts[key.removeprefix("prompt:")] = value
            elif key.startswith("model:"):
                models[key.removeprefix("model:")] = value
    return {
        "prompt_versions": dict(sorted(prompts.items())),
        "models": dict(sorted(models.items())),
        "usage": usage_totals(
            o.report for o in outcomes if o.report is not None and o.data_id not in resumed
        ),
        "usage_all_documents": usage_totals(reports),
    }


def _report_dict(report: AuditReport | None) -> dict[str, Any]:
    from spia_core.pipeline import report_to_dict

    return {} if report is None else report_to_dict(report)


# --------------------------------------------------------------------------- outputs


def result_record(outcome: DocOutcome) -> dict[str, Any]:
    """One results.jsonl line: status, error, figures, subject results, failures, timings."""
    from spia_core.model import to_dict

    record: dict[str, Any] = {
        "data_id": outcome.data_id,
        "status": outcome.status,
        "error": outcome.error,
        "summary": document_summary(outcome),
    }
    report = outcome.report
    if report is not None:
        record.update(
            {
                "gt_source": report.gt_source,
                "degraded": report.degraded,
                "subject_results": to_dict(report.subject_results),
                "assignment": to_dict(report.assignment),
                "span_metrics": to_dict(report.span_metrics),
                "failures": to_dict(report.failures),
                "warnings": report.warnings,
                "timings": report.timings,
            }
        )
    return record


def prediction_document(report: AuditReport) -> Document:
    """The adversary's inference on the anonymized text as a SPIA record (for ``score``)."""
    from spia_core.datasets import ANALYSED_KEY, ANONYMIZED_KEY

    return Document(
        data_id=report.data_id,
        text=report.original_text,
        subjects=report.inferred_subjects,
        metadata={
            "data_id": report.data_id,
            ANONYMIZED_KEY: report.anonymized_text,
            ANALYSED_KEY: ANONYMIZED_KEY,
            "anonymizer": report.anonymizer,
            "adversary": report.adversary,
        },
    )


def write_outputs(out_dir: Path, outcomes: list[DocOutcome], summary: dict[str, Any]) -> None:
    """results.jsonl, predictions.jsonl and summary.json in ``out_dir``."""
    from spia_core.datasets import write_spia_jsonl

    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / RESULTS_FILE).open("w", encoding="utf-8") as fh:
        for outcome in outcomes:
            fh.write(json.dumps(result_record(outcome), ensure_ascii=False, default=str) + "\n")
    inferred = [
        o.report
        for o in outcomes
        if o.report is not None and not any(f.stage in _NO_INFERENCE for f in o.report.failures)
    ]
    write_spia_jsonl([prediction_document(r) for r in inferred], out_dir / PREDICTIONS_FILE)
    (out_dir / SUMMARY_FILE).write_text(
        json.dumps(summary, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8"
    )
