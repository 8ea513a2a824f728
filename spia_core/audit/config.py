"""What one audit runs: :class:`AuditConfig` (names and options) and its :class:`Components`.

Every swappable stage is found by name in a registry (anonymizers, adversaries, matchers,
judges); an implementation that declares ``needs_backbone`` gets the LLM of its backbone from
one :class:`~spia_core.llm.runtime.LLMRuntime` (keys, base URL, response cache).
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from spia_core.adversary.base import Adversary
from spia_core.anonymizers.base import Anonymizer
from spia_core.llm.connection import CallPolicy
from spia_core.llm.runtime import LLMRuntime, cache_for, stage_backbone


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
    connection = _runtime(runtime).connection(backbone, base_url)
    return {"connection": connection} if _takes_connection(factory) else {"llm": connection.make()}


def _takes_connection(factory: Any) -> bool:
    """True when ``factory`` (or, for a class, any ``__init__`` in its MRO) names ``connection``."""
    import inspect

    targets = [c.__init__ for c in inspect.getmro(factory)] if inspect.isclass(factory) else []
    for target in [factory, *targets]:
        try:
            if "connection" in inspect.signature(target).parameters:
                return True
        except (TypeError, ValueError):
            continue
    return False


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


def _needs_llm(registry: Any, name: str) -> bool:
    return bool(getattr(registry.factory(name), "needs_backbone", False))


def build_matcher(config: AuditConfig, runtime: LLMRuntime | None = None) -> Any:
    """The subject matcher registered as ``config.matcher`` (``local``, ``llm``, ...)."""
    from spia_core.evaluation.matching import MATCHERS

    options: dict[str, Any] = {}
    if _needs_llm(MATCHERS, config.matcher):
        backbone = stage_backbone("matcher", config.matcher_backbone)
        factory = MATCHERS.factory(config.matcher)
        options.update(_llm_option(runtime, backbone, config.base_url, factory))
    return MATCHERS.create(config.matcher, **options)


def build_judge(config: AuditConfig, runtime: LLMRuntime | None = None) -> Any:
    """The judge registered as ``config.judge`` (``rules``: never overturns; ``llm``, ...)."""
    from spia_core.evaluation.judge import JUDGES

    name = config.judge or "rules"
    options: dict[str, Any] = {}
    if _needs_llm(JUDGES, name):
        backbone = stage_backbone("judge", config.judge_backbone)
        options.update(_llm_option(runtime, backbone, config.base_url, JUDGES.factory(name)))
    return JUDGES.create(name, **options)


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
    from spia_core.evaluation.judge import JUDGES
    from spia_core.evaluation.matching import MATCHERS

    return (
        anonymizer_info(config.anonymizer)["is_local"]
        and config.adversary == "local"
        and not _needs_llm(MATCHERS, config.matcher)
        and not _needs_llm(JUDGES, config.judge or "rules")
        and not config.utility_llm
    )


def llm_destinations(config: AuditConfig, *, has_gt: bool = True) -> list[dict[str, Any]]:
    """Where text goes, per LLM stage: stage, backbone, where, cloud (bool), what is sent."""
    from spia_core.anonymizers.registry import anonymizer_info
    from spia_core.evaluation.judge import JUDGES
    from spia_core.evaluation.matching import MATCHERS
    from spia_core.llm.runtime import SENT, destination

    stages: list[tuple[str, str | None]] = []
    if anonymizer_info(config.anonymizer)["needs_backbone"] and config.anonymizer_backbone:
        stages.append(("anonymize", config.anonymizer_backbone))
    if config.adversary != "local":
        backbone = stage_backbone("adversary", config.adversary_backbone)
        if not has_gt:
            stages.append(("adversary_original", backbone))
        stages.append(("adversary", backbone))
    if _needs_llm(MATCHERS, config.matcher):
        stages.append(("matcher", stage_backbone("matcher", config.matcher_backbone)))
    if _needs_llm(JUDGES, config.judge or "rules"):
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
