"""The model catalog (data/models.json) and the ``make_llm`` factory.

The catalog says, per backbone, which provider serves it, which parameters it accepts and what
it costs. Keys are never stored here: they come from the caller or the environment.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from spia_core.llm.base import LLM, LLMError
from spia_core.llm.model_spec import ModelSpec
from spia_core.paths import DATA_DIR as BUNDLED_DATA_DIR

DEFAULT_CATALOG = BUNDLED_DATA_DIR / "models.json"
PROVIDERS = ("anthropic", "openai", "openai-compatible")
#: How a schema is sent. ``auto``: probed once per local endpoint (llm.structured); the
#: others name a mode (json_object_schema = llama.cpp servers, guided_json = vLLM,
#: ollama_format = Ollama's ``format``).
STRUCTURED_MODES = (
    "json_schema",
    "json_object_schema",
    "guided_json",
    "ollama_format",
    "json_object",
    "none",
    "auto",
)
#: Environment variable holding each cloud provider's key.
KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


def _spec_from_dict(data: dict[str, Any], where: str) -> ModelSpec:
    known = {f.name for f in fields(ModelSpec)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(unknown)}")
    for required in ("id", "provider", "model"):
        if not isinstance(data.get(required), str) or not data[required]:
            raise ValueError(f"{where}: field {required!r} must be a non-empty string")
    if data["provider"] not in PROVIDERS:
        raise ValueError(f"{where}: provider must be one of {', '.join(PROVIDERS)}")
    if data.get("structured_output", "none") not in STRUCTURED_MODES:
        raise ValueError(f"{where}: structured_output must be one of {', '.join(STRUCTURED_MODES)}")
    for price in ("input_price_per_mtok", "output_price_per_mtok"):
        if not isinstance(data.get(price, 0.0), (int, float)) or data.get(price, 0.0) < 0:
            raise ValueError(f"{where}: {price} must be a non-negative number")
    for price in ("batch_input_price_per_mtok", "batch_output_price_per_mtok"):
        value = data.get(price)
        if value is not None and (not isinstance(value, (int, float)) or value < 0):
            raise ValueError(f"{where}: {price} must be a non-negative number or absent")
    return ModelSpec(**data)


def load_catalog(path: str | Path | None = None) -> dict[str, ModelSpec]:
    """Read the catalog (``$SPIA_MODELS_JSON`` or data/models.json) into ``id -> ModelSpec``."""
    path = Path(path or os.environ.get("SPIA_MODELS_JSON") or DEFAULT_CATALOG)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    models = raw.get("models") if isinstance(raw, dict) else None
    if not isinstance(models, list):
        raise ValueError(f"{path}: expected an object with a 'models' list")
    catalog: dict[str, ModelSpec] = {}
    for i, item in enumerate(models):
        if not isinstance(item, dict):
            raise ValueError(f"{path}: models[{i}] must be an object")
        spec = _spec_from_dict(item, f"{path}: models[{i}]")
        if spec.id in catalog:
            raise ValueError(f"{path}: models[{i}]: duplicate id {spec.id!r}")
        catalog[spec.id] = spec
    return catalog


def save_catalog(catalog: dict[str, ModelSpec], path: str | Path) -> None:
    """Write a catalog (e.g. after the settings page edited prices)."""
    models = [{k: v for k, v in asdict(s).items() if v is not None} for s in catalog.values()]
    Path(path).write_text(json.dumps({"models": models}, indent=2) + "\n", encoding="utf-8")


def get_spec(
    model_id: str, *, base_url: str | None = None, catalog: dict[str, ModelSpec] | None = None
) -> ModelSpec:
    """The catalog entry for ``model_id`` (matched on id or API model name).

    An unknown model with a ``base_url`` is treated as a local OpenAI-compatible model whose
    structured-output support is probed on first use (``auto``; no price).
    """
    catalog = load_catalog() if catalog is None else catalog
    spec = catalog.get(model_id) or next((s for s in catalog.values() if s.model == model_id), None)
    if spec is None:
        if base_url:
            return ModelSpec(
                id=model_id,
                provider="openai-compatible",
                model=model_id,
                display_name=f"{model_id} (local server)",
                base_url=base_url,
                structured_output="auto",
            )
        raise LLMError(
            f"unknown model {model_id!r}; known: {', '.join(sorted(catalog))} "
            "(or pass a base URL for a model on a local OpenAI-compatible server)",
            model=model_id,
            reason="unknown_model",
        )
    return spec


def api_key_for(provider: str, api_key: str | None = None) -> str | None:
    """The caller's key, else the provider's environment variable (None for local servers)."""
    if api_key:
        return api_key
    env = KEY_ENV.get(provider)
    return os.environ.get(env) if env else None


def make_llm(
    model_id: str,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    cache: Any = None,
    catalog: dict[str, ModelSpec] | None = None,
    **options: Any,
) -> LLM:
    """Build the provider for ``model_id``; wrap it in a :class:`CachedLLM` when ``cache`` is set.

    ``cache`` is a :class:`~spia_core.llm.cache.ResponseCache` or a path to its SQLite file.
    ``options`` go to the provider (timeout, max_retries, max_concurrency, http_client, ...).
    The SDK of a provider is imported only here, when that provider is used.
    """
    spec = get_spec(model_id, base_url=base_url, catalog=catalog)
    key = api_key_for(spec.provider, api_key)
    llm: LLM
    if spec.provider == "anthropic":
        from spia_core.llm.anthropic_llm import AnthropicLLM

        llm = AnthropicLLM(spec, api_key=key, base_url=base_url, **options)
    elif spec.provider == "openai":
        from spia_core.llm.openai_llm import OpenAILLM

        llm = OpenAILLM(spec, api_key=key, base_url=base_url, **options)
    else:
        from spia_core.llm.openai_llm import OpenAICompatibleLLM

        llm = OpenAICompatibleLLM(spec, api_key=key, base_url=base_url, **options)
    if cache is not None:
        from spia_core.llm.cache import CachedLLM, ResponseCache

        store = cache if isinstance(cache, ResponseCache) else ResponseCache(cache)
        llm = CachedLLM(llm, store)
    return llm


def resolve_llm(
    llm: LLM | None = None,
    *,
    backbone: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    cache: Any = None,
) -> LLM:
    """A ready LLM: ``llm`` itself, or one built from ``backbone`` (used by registry factories)."""
    if llm is not None:
        return llm
    if not backbone:
        raise ValueError("this method needs an LLM: pass llm=... or backbone='<model id>'")
    return make_llm(backbone, api_key=api_key, base_url=base_url, cache=cache)
