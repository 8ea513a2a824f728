"""Building the LLM of each audit stage: backbones, keys, base URL, cache, usage and destinations.

An :class:`LLMRuntime` holds what must never be part of a configuration: the API keys (kept in
memory, passed to the SDK clients only) and the shared response cache. ``stage_backbone`` gives
the paper's defaults when a stage uses an LLM without naming one (adversary Claude Sonnet 4.5,
matcher / judge / utility GPT-4.1 mini). :func:`bind_usage` gives one audit its own usage
accounting on stages that are shared between concurrent audits.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spia_core.llm.base import LLM
from spia_core.llm.catalog import KEY_ENV, ModelSpec, get_spec, load_catalog
from spia_core.llm.connection import CallPolicy, LLMConnection
from spia_core.llm.urls import redact_url
from spia_core.llm.usage import UsageRecorder

#: The SPIA paper's backbones for a stage set to "llm" without a backbone (Appendix C).
DEFAULT_BACKBONES: dict[str, str] = {
    "adversary": "claude-sonnet-4-5",
    "matcher": "gpt-4.1-mini",
    "judge": "gpt-4.1-mini",
    "utility": "gpt-4.1-mini",
}
#: Session/env name of the optional key of a local OpenAI-compatible server.
LOCAL_KEY_ENV = "LOCAL_LLM_API_KEY"
PROVIDER_NAMES = {
    "anthropic": "Anthropic",
    "openai": "OpenAI",
    "openai-compatible": "local server",
}
#: What each stage sends to its backbone (for warnings and the CLI's notice).
SENT = {
    "anonymize": "the original text",
    "adversary_original": "the original text (no ground truth: automatic ground truth)",
    "adversary": "the anonymized text",
    "matcher": "both texts and both subject lists",
    "judge": "pairs of ground-truth and inferred PII values",
    "utility": "the original and the anonymized text",
}


def normalise_keys(keys: dict[str, str] | None) -> dict[str, str]:
    """``provider -> key`` from provider names or env names (ANTHROPIC_API_KEY, ...)."""
    by_env = {v: k for k, v in KEY_ENV.items()} | {LOCAL_KEY_ENV: "openai-compatible"}
    out: dict[str, str] = {}
    for name, value in (keys or {}).items():
        if value:
            out[by_env.get(name, name)] = value
    return out


@dataclass
class LLMRuntime:
    """API keys (provider -> key, memory only) and the response cache of a set of stages."""

    api_keys: dict[str, str] = field(default_factory=dict)
    cache: Any = None  # ResponseCache | None
    catalog: dict[str, ModelSpec] | None = None
    #: Timeout, retries and timeout retries of every call (None = the provider's defaults).
    policy: CallPolicy = field(default_factory=CallPolicy)

    def __post_init__(self) -> None:
        self.api_keys = normalise_keys(self.api_keys)

    def __repr__(self) -> str:  # never print a key
        return f"LLMRuntime(providers_with_key={sorted(self.api_keys)}, cache={self.cache!r})"

    def spec(self, backbone: str, base_url: str | None = None) -> ModelSpec:
        return get_spec(backbone, base_url=base_url, catalog=self._catalog())

    def _catalog(self) -> dict[str, ModelSpec]:
        if self.catalog is None:
            self.catalog = load_catalog()
        return self.catalog

    def connection(self, backbone: str, base_url: str | None = None) -> LLMConnection:
        """The connection spec of ``backbone`` (``base_url`` for local / unknown models only)."""
        url = stage_base_url(backbone, base_url, self._catalog())
        spec = self.spec(backbone, url)
        return LLMConnection(
            backbone,
            base_url=url,
            cache=self.cache,
            policy=self.policy,
            api_key=self.api_keys.get(spec.provider),
            options={"catalog": self._catalog()},
        )

    def make(self, backbone: str, base_url: str | None = None) -> LLM:
        """The cached LLM of ``backbone``; ``base_url`` applies to local / unknown models only."""
        return self.connection(backbone, base_url).make()


def stage_base_url(
    backbone: str, base_url: str | None, catalog: dict[str, ModelSpec] | None = None
) -> str | None:
    """``base_url`` for a local or unknown backbone; None for a cloud model of the catalog.

    So one ``--base-url`` never redirects a Claude or GPT stage to the local server.
    """
    if not base_url:
        return None
    catalog = load_catalog() if catalog is None else catalog
    spec = catalog.get(backbone) or next((s for s in catalog.values() if s.model == backbone), None)
    return base_url if spec is None or spec.is_local else None


def stage_backbone(stage: str, backbone: str | None) -> str:
    """The backbone of ``stage``: the one named, else the paper's default."""
    if backbone:
        return backbone
    if stage not in DEFAULT_BACKBONES:
        raise ValueError(f"the {stage} stage needs a backbone (an LLM model id)")
    return DEFAULT_BACKBONES[stage]


def destination(
    backbone: str, base_url: str | None = None, catalog: dict[str, ModelSpec] | None = None
) -> tuple[str, bool]:
    """(human description of where text goes, is cloud) for a backbone."""
    catalog = load_catalog() if catalog is None else catalog
    url = stage_base_url(backbone, base_url, catalog)
    spec = get_spec(backbone, base_url=url or base_url or "http://localhost", catalog=catalog)
    if spec.is_local:
        return f"local server {redact_url(url or spec.base_url)} (model {spec.model})", False
    return f"{PROVIDER_NAMES.get(spec.provider, spec.provider)} (cloud API, model {spec.id})", True


def bind_usage(component: Any, recorder: UsageRecorder, stage: str) -> Any:
    """A shallow copy of ``component`` whose ``llm`` (and nested adversary's) records usage.

    Components are built once and shared by concurrent audits; the copy routes this audit's
    completions to its own recorder under ``stage``. Objects without an ``llm`` are returned
    unchanged.
    """
    llm = getattr(component, "llm", None)
    nested = getattr(component, "adversary", None)
    if llm is None and getattr(nested, "llm", None) is None:
        return component
    bound = copy.copy(component)
    if llm is not None:
        bound.llm = recorder.wrap(llm, stage)
    if getattr(nested, "llm", None) is not None:
        bound.adversary = bind_usage(nested, recorder, stage)
    return bound


def model_label(component: Any) -> str | None:
    """``provider/model`` of a component's LLM (None when it has none)."""
    llm = getattr(component, "llm", None)
    if llm is None:
        return None
    return f"{getattr(llm, 'provider', '?')}/{getattr(llm, 'model', '?')}"


def prompt_versions(component: Any) -> dict[str, str]:
    """``prompt name -> version id`` of every prompt template a component holds."""
    found: dict[str, str] = {}
    versions = getattr(component, "prompt_versions", None)
    if isinstance(versions, dict):
        found.update({str(k): str(v) for k, v in versions.items()})
    for attr in ("prompt", "infer_prompt", "rewrite_prompt"):
        prompt = getattr(component, attr, None)
        if hasattr(prompt, "version_id"):
            found[getattr(prompt, "name", attr)] = prompt.version_id
    prompts = getattr(component, "prompts", None)
    if isinstance(prompts, dict):
        for name, prompt in prompts.items():
            if hasattr(prompt, "version_id"):
                found[str(name)] = prompt.version_id
    nested = getattr(component, "adversary", None)
    if nested is not None and nested is not component:
        found.update(prompt_versions(nested))
    return found


def cache_for(cache: Any, data_dir: str | Path | None = None) -> Any:
    """The ResponseCache to use: ``True`` = the shared one under the data dir, False/None = none."""
    from spia_core.llm.cache import ResponseCache, default_cache_path, shared_cache

    if cache is True:
        return shared_cache(default_cache_path(data_dir))
    if cache is False or cache is None:
        return None
    if isinstance(cache, ResponseCache):
        return cache
    return shared_cache(cache)
