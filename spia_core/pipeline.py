"""audit(): one document end to end -> :class:`AuditReport` (see docs/offline_engine.md).

Stages: validate -> anonymize -> ground truth -> infer -> match -> score -> metrics ->
span metrics -> utility. A stage that fails is recorded in ``AuditReport.failures`` and the
metrics say the document was not scored; nothing is ever counted as protected because it
failed. ``on_stage(name, fraction)`` reports progress; ``cancel`` aborts between stages.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spia_core.adversary.base import Adversary, InferenceResult
from spia_core.anonymizers.base import AnonymizedText, Anonymizer
from spia_core.anonymizers.validation import check_rewrite
from spia_core.llm.connection import CallPolicy
from spia_core.llm.runtime import (
    LLMRuntime,
    bind_usage,
    cache_for,
    model_label,
    prompt_versions,
    stage_backbone,
)
from spia_core.llm.usage import UsageRecorder
from spia_core.model import (
    Assignment,
    AuditReport,
    Document,
    Failure,
    Metrics,
    Notice,
    SpanMetrics,
    StageUsage,
    Subject,
    SubjectResult,
    UtilityScores,
)
from spia_core.model import report_from_dict as report_from_dict  # public API
from spia_core.model import report_to_dict as report_to_dict  # public API

#: Stages in order, with the progress fraction reached when each one starts.
STAGES: tuple[str, ...] = (
    "validate",
    "anonymize",
    "ground_truth",
    "infer",
    "match",
    "score",
    "metrics",
    "span_metrics",
    "utility",
)

StageCallback = Callable[[str, float], None]


class AuditCancelled(RuntimeError):
    """The caller set the cancel event; the audit stopped between two stages."""


@dataclass
class AuditConfig:
    """Everything that chooses how one audit runs (serialised into the report and the store).

    Never put API keys here: pass them to :func:`build_components` / :func:`audit`
    (``api_keys=``) or set them in the environment. A stage set to ``llm`` without a backbone
    uses the paper's model (adversary claude-sonnet-4-5, matcher / judge / utility
    gpt-4.1-mini); ``base_url`` applies to local (OpenAI-compatible) and unknown backbones only.
    """

    anonymizer: str = "none"
    anonymizer_options: dict[str, Any] = field(default_factory=dict)
    anonymizer_backbone: str | None = None
    adversary: str = "local"
    adversary_options: dict[str, Any] = field(default_factory=dict)
    adversary_backbone: str | None = None
    matcher: str = "local"  # "local" | "llm"
    matcher_backbone: str | None = None
    judge: str = "rules"  # "rules" | "llm"
    judge_backbone: str | None = None
    #: LLM utility scores (readability, meaning, hallucination) next to ROUGE-L; off by default.
    utility_llm: bool = False
    utility_backbone: str | None = None
    scoring_mode: str = "default"  # "default" | "reference"
    aggregation: str = "per-pii"  # "per-pii" | "reference"
    min_certainty: int = 3
    target_subject: int | None = None
    #: The user's own redaction (anonymizer "provided"); kept out of ``to_dict``.
    provided_text: str | None = None
    base_url: str | None = None
    span_method: str = "auto"
    compute_span_metrics: bool = True
    #: Dataset name for published comparisons ("TAB-144", ...); "" = infer from data_id.
    dataset: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe configuration, without the provided text (it is the anonymized text)."""
        from spia_core.llm.urls import redact_url
        from spia_core.store import strip_secrets

        data = dataclasses.asdict(self)
        data.pop("provided_text", None)
        data["base_url"] = redact_url(data.get("base_url"))  # never user:password@
        return strip_secrets(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AuditConfig:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"unknown audit configuration keys: {', '.join(unknown)}")
        return cls(**data)


@dataclass
class Components:
    """The stage implementations of one configuration (built once, reused across documents)."""

    anonymizer: Anonymizer | None
    adversary: Adversary
    matcher: Any
    judge: Any = None
    #: LLMUtilityJudge when ``utility_llm`` is on.
    utility: Any = None


# --------------------------------------------------------------------------- building stages


def _runtime(runtime: LLMRuntime | None) -> LLMRuntime:
    return runtime if runtime is not None else LLMRuntime(cache=cache_for(True))


def _llm_option(
    runtime: LLMRuntime | None, backbone: str, base_url: str | None, factory: Any
) -> dict[str, Any]:
    """``connection=`` for a stage that takes the connection spec, else a built ``llm=``."""
    import inspect

    connection = _runtime(runtime).connection(backbone, base_url)
    try:
        takes = "connection" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        takes = False
    return {"connection": connection} if takes else {"llm": connection.make()}


def build_anonymizer(config: AuditConfig, runtime: LLMRuntime | None = None) -> Anonymizer | None:
    """The configured anonymizer; an LLM anonymizer gets its backbone's (cached) LLM."""
    from spia_core.anonymizers.registry import anonymizer_info, create_anonymizer

    options = dict(config.anonymizer_options)
    if config.anonymizer == "provided":
        options.setdefault("redacted_text", config.provided_text or "")
    needs = anonymizer_info(config.anonymizer)["needs_backbone"]
    if needs and "llm" not in options and "connection" not in options:
        if not config.anonymizer_backbone:
            raise ValueError(
                f"anonymizer {config.anonymizer!r} needs an LLM backbone "
                "(--backbone MODEL, e.g. gpt-4.1-mini or a model on --base-url)"
            )
        from spia_core.anonymizers.registry import ANONYMIZERS

        factory = ANONYMIZERS._factories.get(config.anonymizer)
        options.update(_llm_option(runtime, config.anonymizer_backbone, config.base_url, factory))
    return create_anonymizer(config.anonymizer, **options)


def build_adversary(config: AuditConfig, runtime: LLMRuntime | None = None) -> Adversary:
    """The configured adversary; an LLM adversary gets its backbone's (cached) LLM."""
    import importlib

    from spia_core.adversary.registry import ADVERSARIES

    if config.adversary not in ADVERSARIES:
        # Adversary modules register on import (e.g. spia_core.adversary.llm -> "llm").
        with contextlib.suppress(ImportError):
            importlib.import_module(f"spia_core.adversary.{config.adversary}")
    options = dict(config.adversary_options)
    factory = ADVERSARIES._factories.get(config.adversary)
    if factory is None:
        return ADVERSARIES.create(config.adversary, **options)  # unknown: the registry says so
    needs_llm = config.adversary != "local" and getattr(factory, "needs_backbone", True)
    if needs_llm and "llm" not in options and "connection" not in options:
        backbone = stage_backbone("adversary", config.adversary_backbone)
        options.update(_llm_option(runtime, backbone, config.base_url, factory))
    return ADVERSARIES.create(config.adversary, **options)


def build_matcher(config: AuditConfig, runtime: LLMRuntime | None = None) -> Any:
    """The subject matcher: ``local`` (rules) or ``llm`` (one call per document)."""
    from spia_core.evaluation.matching import MATCHERS

    if config.matcher == "llm":
        from spia_core.evaluation.llm_matcher import LLMMatcher

        backbone = stage_backbone("matcher", config.matcher_backbone)
        return LLMMatcher(connection=_runtime(runtime).connection(backbone, config.base_url))
    return MATCHERS.create(config.matcher)


def build_judge(config: AuditConfig, runtime: LLMRuntime | None = None) -> Any:
    """None for the rules-only judge, an :class:`LLMJudge` for ``llm``."""
    if config.judge in ("rules", "", None):
        return None
    if config.judge != "llm":
        raise ValueError(f"unknown judge {config.judge!r}; available: rules, llm")
    from spia_core.evaluation.llm_judge import LLMJudge

    backbone = stage_backbone("judge", config.judge_backbone)
    return LLMJudge(connection=_runtime(runtime).connection(backbone, config.base_url))


def build_utility(config: AuditConfig, runtime: LLMRuntime | None = None) -> Any:
    """An :class:`LLMUtilityJudge` when ``utility_llm`` is on, else None."""
    if not config.utility_llm:
        return None
    from spia_core.evaluation.llm_utility import LLMUtilityJudge

    backbone = stage_backbone("utility", config.utility_backbone)
    return LLMUtilityJudge(connection=_runtime(runtime).connection(backbone, config.base_url))


def build_components(
    config: AuditConfig,
    *,
    api_keys: dict[str, str] | None = None,
    cache: Any = True,
    data_dir: str | None = None,
    policy: CallPolicy | None = None,
) -> Components:
    """Build every stage of ``config`` (raises with a clear message on an unknown name).

    ``api_keys``: provider (or env) name -> key, kept in the SDK clients only. ``cache``: True
    = the shared response cache under ``data_dir`` (``$SPIA_DATA_DIR`` or ./spia_data), a path
    or a ResponseCache, False = no cache. ``policy``: timeout and retries of every LLM call.
    """
    runtime = LLMRuntime(api_keys=api_keys or {}, cache=None, policy=policy or CallPolicy())
    if not is_local_config(config):
        runtime.cache = cache_for(cache, data_dir)
    return Components(
        anonymizer=build_anonymizer(config, runtime),
        adversary=build_adversary(config, runtime),
        matcher=build_matcher(config, runtime),
        judge=build_judge(config, runtime),
        utility=build_utility(config, runtime),
    )


def is_local_config(config: AuditConfig) -> bool:
    """True when no stage of the configuration calls an LLM."""
    from spia_core.anonymizers.registry import anonymizer_info

    return (
        anonymizer_info(config.anonymizer)["is_local"]
        and config.adversary == "local"
        and config.matcher == "local"
        and config.judge in ("rules", "", None)
        and not config.utility_llm
    )


def llm_destinations(config: AuditConfig, *, has_gt: bool = True) -> list[dict[str, Any]]:
    """Where text goes, per LLM stage: stage, backbone, where, cloud (bool), what is sent."""
    from spia_core.anonymizers.registry import anonymizer_info
    from spia_core.llm.runtime import SENT, destination

    stages: list[tuple[str, str | None]] = []
    if anonymizer_info(config.anonymizer)["needs_backbone"] and config.anonymizer_backbone:
        stages.append(("anonymize", config.anonymizer_backbone))
    if config.adversary != "local":
        backbone = stage_backbone("adversary", config.adversary_backbone)
        if not has_gt:
            stages.append(("adversary_original", backbone))
        stages.append(("adversary", backbone))
    if config.matcher == "llm":
        stages.append(("matcher", stage_backbone("matcher", config.matcher_backbone)))
    if config.judge == "llm":
        stages.append(("judge", stage_backbone("judge", config.judge_backbone)))
    if config.utility_llm:
        stages.append(("utility", stage_backbone("utility", config.utility_backbone)))
    out = []
    for stage, backbone in stages:
        where, cloud = destination(str(backbone), config.base_url)
        out.append(
            {
                "stage": stage,
                "backbone": backbone,
                "where": where,
                "cloud": cloud,
                "sent": SENT[stage],
            }
        )
    return out


# --------------------------------------------------------------------------- helpers


def adversary_is_local(adversary: Any, name: str) -> bool:
    return bool(getattr(adversary, "is_local", name == "local"))


def lower_bound_warning(dataset: str, anonymizer: str) -> str:
    """Why a local adversary's figures are a lower bound, with the closest published figure."""
    from spia_core.data.published import (
        closest_published,
        paper_dataset,
        published_adversary_results,
    )
    from spia_core.evaluation.local_calibration import gap_sentence

    text = (
        "Offline result: the local rule-and-lexicon adversary infers less than an LLM "
        "adversary, so these protection figures are an upper bound on protection (a lower "
        "bound on what can be inferred)."
    )
    datasets = [paper_dataset(dataset)] if paper_dataset(dataset) in ("TAB", "PANORAMA") else []
    for ds in datasets or ["TAB", "PANORAMA"]:
        row = closest_published(ds, anonymizer)
        if row:
            text += (
                f" Paper ({ds}, {row['method']}, LLM adversary): CPR {row['cpr']:.3f}, "
                f"IPR {row['ipr']:.3f}, 1-AAC {row['one_minus_aac']:.3f}."
            )
        else:
            best = max(
                (r for r in published_adversary_results() if r["dataset"] == ds),
                key=lambda r: r["subject_match"],
                default=None,
            )
            if best:
                text += (
                    f" Paper ({ds}): the {best['model']} adversary matches "
                    f"{best['subject_match']:.1%} of subjects and infers "
                    f"{best['pii_accuracy']:.1%} of their PII."
                )
    gap = gap_sentence(dataset)
    return f"{text} {gap}" if gap else text


def _rewrites(anonymizer: Any, name: str) -> bool:
    """True for an anonymizer whose output is a model's rewrite (validated before scoring)."""
    from spia_core.anonymizers.registry import anonymizer_info

    flag = getattr(anonymizer, "rewrites", None)
    if flag is not None:
        return bool(flag)
    try:
        return bool(anonymizer_info(name)["needs_backbone"]) and name != "provided"
    except Exception:  # an anonymizer given as a component, not registered
        return False


def _usage_of(trace: dict[str, Any]) -> StageUsage | None:
    usage = trace.get("usage")
    if isinstance(usage, StageUsage):
        return usage
    if isinstance(usage, dict):
        known = {f.name for f in dataclasses.fields(StageUsage)}
        return StageUsage(**{k: v for k, v in usage.items() if k in known})
    return None


def _doc_id(text: str) -> str:
    return "doc-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def _versions(parts: Components) -> dict[str, str]:
    """Package, spaCy model, every prompt version and the model of every LLM stage."""
    from spia_core import __version__
    from spia_core.nlp import load_pipeline

    versions = {"spia_core": __version__, "spacy_model": load_pipeline().model_name}
    stages = (
        ("anonymize", parts.anonymizer),
        ("adversary", parts.adversary),
        ("matcher", parts.matcher),
        ("judge", parts.judge),
        ("utility", parts.utility),
    )
    for stage, component in stages:
        if component is None:
            continue
        versions.update({f"prompt:{k}": v for k, v in prompt_versions(component).items()})
        label = model_label(component)
        if label:
            versions[f"model:{stage}"] = label
    return versions


def empty_metrics() -> Metrics:
    return Metrics(cpr=None, ipr=None, one_minus_aac=None, n_subjects=0, n_pii=0, sum_score=0.0)


# --------------------------------------------------------------------------- audit


class _Run:
    """Mutable state of one audit: timings, failures, warnings, progress."""

    def __init__(
        self,
        data_id: str,
        on_stage: StageCallback | None,
        cancel: threading.Event | None,
    ) -> None:
        self.data_id = data_id
        self.on_stage = on_stage
        self.cancel = cancel
        self.timings: dict[str, float] = {}
        self.failures: list[Failure] = []
        self.warnings: list[str] = []
        self.usage: dict[str, StageUsage] = {}
        self.notices: list[Notice] = []

    def start(self, stage: str) -> float:
        if self.cancel is not None and self.cancel.is_set():
            raise AuditCancelled(f"audit of {self.data_id!r} cancelled before stage {stage!r}")
        if self.on_stage is not None:
            self.on_stage(stage, STAGES.index(stage) / len(STAGES))
        return time.perf_counter()

    def done(self, stage: str, t0: float) -> None:
        self.timings[stage] = self.timings.get(stage, 0.0) + time.perf_counter() - t0

    def fail(self, stage: str, exc: BaseException | str) -> None:
        reason = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
        self.failures.append(Failure(self.data_id, stage, reason))

    def record_inference(self, stage: str, result: InferenceResult) -> bool:
        """Record warnings, partial failures and usage; False when the inference is incomplete.

        An incomplete inference (a failed LLM call) cannot be scored: a tag it could not infer
        would otherwise count as protected.
        """
        self.warnings.extend(w for w in result.warnings if w not in self.warnings)
        failures = result.trace.get("failures", []) or []
        for item in failures:
            detail = (
                item if isinstance(item, str) else "; ".join(f"{k}={v}" for k, v in item.items())
            )
            self.failures.append(
                Failure(self.data_id, stage, f"partial inference failure: {detail}")
            )
        usage = _usage_of(result.trace)
        if usage is not None:
            self.usage[stage] = usage
        complete = not failures and result.trace.get("complete", True) is not False
        if not complete:
            self.failures.append(
                Failure(
                    self.data_id,
                    stage,
                    "inference incomplete: the document is not scored (a PII the adversary "
                    "could not infer would otherwise count as protected)",
                )
            )
        return complete


def _as_document(document: Document | str, config: AuditConfig) -> Document:
    from spia_core.textio import validate_text

    if not isinstance(document, Document):  # str; anything else is refused by validate_text
        text = validate_text(document)
        return Document(data_id=_doc_id(text), text=text)
    text = validate_text(document.text, document.data_id)
    if text != document.text and not document.subjects and not document.entities:
        document = dataclasses.replace(document, text=text)  # newline normalisation only
    return document


def audit(
    document: Document | str,
    config: AuditConfig,
    *,
    on_stage: StageCallback | None = None,
    cancel: threading.Event | None = None,
    components: Components | None = None,
    api_keys: dict[str, str] | None = None,
    cache: Any = True,
) -> AuditReport:
    """Audit one document: anonymize, infer, match, score, span metrics, utility.

    Raises :class:`spia_core.textio.InputError` on unusable input (empty, whitespace only,
    too long), :class:`AuditCancelled` when ``cancel`` is set, and a registry error on an
    unknown stage name. Every other stage failure (an LLM error included) is recorded in the
    report, and the document is then not scored. ``api_keys`` and ``cache`` are used only
    when ``components`` is not given (see :func:`build_components`); ``report.usage`` has the
    LLM usage per stage (anonymize, adversary_original, adversary, matcher, judge, utility).
    """
    from spia_core.evaluation.metrics import DocumentScores, compute_metrics

    run = _Run(getattr(document, "data_id", "text"), on_stage, cancel)
    t0 = run.start("validate")
    doc = _as_document(document, config)
    run.data_id = doc.data_id
    if config.anonymizer == "provided":
        from spia_core.textio import validate_text

        validate_text(config.provided_text or "", "redacted text")
    run.done("validate", t0)
    run.warnings.extend(doc.warnings)

    built = components or build_components(config, api_keys=api_keys, cache=cache)
    recorder = UsageRecorder()
    parts = Components(
        anonymizer=bind_usage(built.anonymizer, recorder, "anonymize"),
        adversary=bind_usage(built.adversary, recorder, "adversary"),
        matcher=bind_usage(built.matcher, recorder, "matcher"),
        judge=bind_usage(built.judge, recorder, "judge"),
        utility=bind_usage(built.utility, recorder, "utility"),
    )
    gt_adversary = bind_usage(built.adversary, recorder, "adversary_original")
    adversary_name = getattr(parts.adversary, "name", config.adversary)
    is_local = adversary_is_local(parts.adversary, config.adversary)
    degraded = False

    # ---- anonymize
    t0 = run.start("anonymize")
    anonymized: AnonymizedText | None = None
    try:
        if parts.anonymizer is None:
            raise ValueError(f"no anonymizer built for {config.anonymizer!r}")
        anonymized = parts.anonymizer.anonymize(doc.text)
        run.warnings.extend(anonymized.warnings)
        usage = _usage_of(anonymized.trace)
        if usage is not None:
            run.usage["anonymize"] = usage
    except Exception as exc:  # recorded, the document is reported as not scored
        run.fail("anonymize", exc)
    rejected: AnonymizedText | None = None
    if anonymized is not None and _rewrites(parts.anonymizer, config.anonymizer):
        notice = check_rewrite(doc.text, anonymized.text, anonymizer=config.anonymizer)
        if notice is not None:  # a refusal or junk is never protection: not scored
            notice.data_id = doc.data_id
            run.notices.append(notice)
            run.fail("anonymize", f"{notice.kind}: {notice.message}")
            rejected, anonymized = anonymized, None
    run.done("anonymize", t0)
    shown = anonymized if anonymized is not None else rejected
    anonymized_text = shown.text if shown is not None else ""

    # ---- ground truth
    t0 = run.start("ground_truth")
    gt_source = "dataset" if doc.subjects else "automatic"
    gt_subjects: list[Subject] | None = list(doc.subjects) if doc.subjects else None
    original_inference: InferenceResult | None = None
    if gt_subjects is None:
        try:
            original_inference = gt_adversary.infer(doc.text)
            complete = run.record_inference("ground_truth", original_inference)
            degraded |= original_inference.degraded
            gt_subjects = original_inference.subjects if complete else None
        except Exception as exc:
            run.fail("ground_truth", exc)
    run.done("ground_truth", t0)

    # ---- infer on the anonymized text
    t0 = run.start("infer")
    inferred: InferenceResult | None = None
    inference_complete = False
    if anonymized is not None:
        try:
            if original_inference is not None and anonymized_text == doc.text:
                inferred = original_inference  # same text, same inference
                inference_complete = gt_subjects is not None
            else:
                inferred = parts.adversary.infer(anonymized_text)
                inference_complete = run.record_inference("infer", inferred)
            degraded |= inferred.degraded
        except Exception as exc:
            run.fail("infer", exc)
    run.done("infer", t0)
    inferred_subjects = inferred.subjects if inferred is not None else []

    # ---- match
    t0 = run.start("match")
    assignment: Assignment | None = None
    if gt_subjects is not None and inferred is not None and inference_complete:
        try:
            assignment = parts.matcher.match(
                gt_subjects,
                inferred_subjects,
                original_text=doc.text,
                anonymized_text=anonymized_text,
            )
            run.warnings.extend(getattr(parts.matcher, "warnings", None) or [])
        except Exception as exc:
            run.fail("match", exc)
    run.done("match", t0)

    # ---- score
    t0 = run.start("score")
    subject_results: list[SubjectResult] = []
    scored = False
    if assignment is not None and gt_subjects is not None:
        try:
            from spia_core.evaluation.scoring import score_document

            subject_results = score_document(
                gt_subjects,
                inferred_subjects,
                assignment,
                mode=config.scoring_mode,
                min_certainty=config.min_certainty,
                aggregation=config.aggregation,
                judge=parts.judge,
            )
            _mark_target(doc, gt_subjects, subject_results, config.target_subject, gt_source)
            scored = True
        except Exception as exc:
            run.fail("score", exc)
    run.done("score", t0)

    # ---- metrics
    t0 = run.start("metrics")
    try:
        metrics = compute_metrics(
            [
                DocumentScores(
                    data_id=doc.data_id,
                    subject_results=subject_results,
                    n_extra_subjects=len(assignment.extra_pred_subject_ids) if assignment else 0,
                    failures=list(run.failures),
                    failed=not scored,
                )
            ]
        )
    except Exception as exc:
        run.fail("metrics", exc)
        metrics = empty_metrics()
    run.done("metrics", t0)

    # ---- span metrics
    t0 = run.start("span_metrics")
    span: SpanMetrics | None = None
    if config.compute_span_metrics and anonymized is not None:
        try:
            span = _span_metrics(doc, anonymized, config.span_method)
            degraded |= span.tagger == "blank"
        except Exception as exc:
            run.fail("span_metrics", exc)
    run.done("span_metrics", t0)

    # ---- utility
    t0 = run.start("utility")
    utility: UtilityScores | None = None
    if anonymized is not None:
        try:
            from spia_core.evaluation.utility import rouge_l_f1

            utility = UtilityScores(rouge_l=rouge_l_f1(doc.text, anonymized_text))
        except Exception as exc:
            run.fail("utility", exc)
        if utility is not None and parts.utility is not None:
            try:
                from spia_core.evaluation.llm_utility import with_llm_scores

                assessed = parts.utility.assess(doc.text, anonymized_text)
                run.warnings.extend(f"utility: {w}" for w in assessed.warnings)
                utility = with_llm_scores(utility, assessed)
            except Exception as exc:  # privacy figures stand; the LLM utility is missing
                run.fail("utility", exc)
    run.done("utility", t0)
    for stage, usage in recorder.snapshot().items():
        run.usage[stage] = usage

    from spia_core.nlp import load_pipeline

    degraded |= load_pipeline().degraded
    if degraded:
        run.warnings.append(
            "degraded: no trained spaCy model is installed, so names, places and POS tags "
            "come from patterns only; figures are less reliable"
        )
    if is_local:
        run.warnings.append(lower_bound_warning(config.dataset or doc.data_id, config.anonymizer))
    if gt_source == "automatic":
        run.warnings.append(
            "no ground truth: the adversary's inference on the original text is used as the "
            "ground truth (gt_source=automatic)"
        )
    if on_stage is not None:
        on_stage("done", 1.0)
    return AuditReport(
        data_id=doc.data_id,
        config=config.to_dict(),
        original_text=doc.text,
        anonymized_text=anonymized_text,
        masked_spans=None if shown is None else shown.masked_spans,
        anonymizer=config.anonymizer,
        adversary=adversary_name,
        adversary_is_local=is_local,
        gt_subjects=gt_subjects or [],
        gt_source=gt_source,
        inferred_subjects=inferred_subjects,
        assignment=assignment or Assignment(matcher=config.matcher),
        subject_results=subject_results,
        metrics=metrics,
        span_metrics=span,
        utility=utility,
        timings=run.timings,
        usage=run.usage,
        degraded=degraded,
        warnings=list(dict.fromkeys(run.warnings)),
        failures=run.failures,
        anonymizer_trace={} if shown is None else dict(shown.trace),
        notices=list(run.notices),
        versions=_versions(built),
        created_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    )


def _mark_target(
    doc: Document,
    gt_subjects: list[Subject],
    results: list[SubjectResult],
    override: int | None,
    gt_source: str,
) -> None:
    from spia_core.evaluation.target import target_subject_id

    probe = doc if gt_source == "dataset" else dataclasses.replace(doc, subjects=gt_subjects)
    target = target_subject_id(probe, override)
    for result in results:
        result.is_target = result.gt_subject_id == target


def _span_metrics(doc: Document, anonymized: AnonymizedText, method: str) -> SpanMetrics:
    from spia_core.evaluation.span_metrics import automatic_gt_mentions, document_span_metrics

    if doc.entities:
        return document_span_metrics(
            doc, anonymized.text, masked_spans=anonymized.masked_spans, method=method
        )
    probe = dataclasses.replace(doc, entities=automatic_gt_mentions(doc.text))
    span = document_span_metrics(
        probe, anonymized.text, masked_spans=anonymized.masked_spans, method=method
    )
    span.gt_source = "automatic"
    return span


def audit_redacted(
    text: str,
    config: AuditConfig,
    *,
    on_stage: StageCallback | None = None,
    cancel: threading.Event | None = None,
    components: Components | None = None,
    api_keys: dict[str, str] | None = None,
    cache: Any = True,
    data_id: str | None = None,
) -> AuditReport:
    """Audit a redacted text alone: the adversary reads it without the original.

    The report has ``mode == "redacted_only"``, ``original_text == ""``, ``anonymized_text ==
    text``, no ground truth and no CPR (``metrics.cpr is None``), the inferred subjects with
    their evidence, and ``report.exposure`` (per-subject and document exposure, placeholders
    seen through; docs/exposure.md). Failures, an unreadable language, no subjects in a text
    about people and the lower-bound caveat are ``report.notices``. ``data_id`` names the
    document (default: a hash of the text).
    """
    from spia_core.redacted_audit import audit_redacted as _audit_redacted

    return _audit_redacted(
        text,
        config,
        on_stage=on_stage,
        cancel=cancel,
        components=components,
        api_keys=api_keys,
        cache=cache,
        data_id=data_id,
    )
