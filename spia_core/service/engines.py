"""Components, catalog and configuration for the UI (no Streamlit).

The one door from the service layer to the audit pipeline: :data:`pipeline` is the engine
module every service call goes through (tests replace it with a stand-in).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spia_core import pipeline
from spia_core.adversary.registry import ADVERSARIES
from spia_core.anonymizers.registry import anonymizer_info, anonymizer_names
from spia_core.llm import catalog as llm_catalog
from spia_core.llm.cache import default_cache_path

#: Backbone option: no LLM.
OFFLINE = "(offline: none)"
#: Backbone option: the local OpenAI-compatible endpoint set in Settings.
LOCAL_ENDPOINT = "local OpenAI-compatible endpoint"
PROVIDER_NAMES = {"anthropic": "Anthropic", "openai": "OpenAI"}
ROLES = ("anonymizer", "adversary", "matcher", "judge", "utility")


@dataclass(frozen=True)
class Endpoint:
    """A local OpenAI-compatible server chosen in Settings (empty: none)."""

    base_url: str = ""
    model: str = ""

    @classmethod
    def of(cls, values: dict[str, Any] | None) -> Endpoint:
        values = values or {}
        return cls(str(values.get("base_url") or ""), str(values.get("model") or ""))


# --------------------------------------------------------------------------- components


def registered(kind: str) -> list[str]:
    """Names registered for ``anonymizer`` or ``adversary``."""
    return anonymizer_names() if kind == "anonymizer" else ADVERSARIES.names()


def component_info(kind: str, name: str) -> dict[str, Any]:
    """Display info of one anonymizer or adversary: display_name, is_local, needs_backbone,
    description."""
    if kind == "anonymizer":
        return anonymizer_info(name)
    factory = ADVERSARIES._factories.get(name)
    needs = bool(getattr(factory, "needs_backbone", False))
    return {
        "name": name,
        "display_name": getattr(factory, "display_name", name),
        "is_local": bool(getattr(factory, "is_local", not needs)),
        "needs_backbone": needs,
        "description": getattr(factory, "description", (factory.__doc__ or "") if factory else ""),
    }


def catalog() -> dict[str, Any]:
    """The model catalog (id -> ModelSpec); raises OSError/ValueError when unreadable."""
    return llm_catalog.load_catalog()


def backbone_label(backbone: str, models: dict[str, Any]) -> str:
    """``name (where)`` for a backbone selector."""
    spec = models.get(backbone)
    if spec is None:
        return backbone
    where = "local server" if spec.is_local else f"{spec.provider} cloud"
    return f"{spec.display_name or spec.id} ({where})"


def destination(backbone: str, models: dict[str, Any], endpoint: Endpoint) -> str | None:
    """Where text goes for ``backbone``: None offline, else a human description."""
    if backbone == OFFLINE:
        return None
    if backbone == LOCAL_ENDPOINT:
        return f"your local server at {endpoint.base_url or '?'} (stays on your network)"
    spec = models.get(backbone)
    if spec is not None and spec.is_local:
        return f"your local server at {endpoint.base_url or spec.base_url} (model {spec.model})"
    provider = PROVIDER_NAMES.get(spec.provider, spec.provider) if spec else "an unknown provider"
    return f"{provider} (cloud API, model {backbone})"


def is_cloud(backbone: str, models: dict[str, Any]) -> bool:
    spec = models.get(backbone)
    return backbone not in (OFFLINE, LOCAL_ENDPOINT) and not (spec is not None and spec.is_local)


# --------------------------------------------------------------------------- configuration


def make_config(**values: Any) -> Any:
    """An ``AuditConfig`` from the values its dataclass accepts (others are dropped)."""
    cls = pipeline.AuditConfig
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in values.items() if k in names and v is not None})


def audit_config(
    choices: dict[str, Any], provided_text: str | None = None, endpoint: Endpoint | None = None
) -> Any:
    """The pipeline's ``AuditConfig`` for the page's choices (keys are never part of it).

    The Settings endpoint becomes ``base_url`` (used by local backbones only); choosing it as
    a backbone means its model name.
    """
    endpoint = endpoint or Endpoint()
    values = dict(choices)
    if provided_text is not None:
        values.update(anonymizer="provided", provided_text=provided_text)
    for role in ROLES:
        backbone = values.get(f"{role}_backbone")
        if backbone in (OFFLINE, ""):
            values[f"{role}_backbone"] = None
        elif backbone == LOCAL_ENDPOINT:
            values[f"{role}_backbone"] = endpoint.model or "local-model"
    if endpoint.base_url:
        values["base_url"] = endpoint.base_url
    return make_config(**values)


def is_local_config(config: Any) -> bool:
    """True when no stage of ``config`` calls an LLM."""
    return pipeline.is_local_config(config)


def lower_bound_warning(dataset: str, anonymizer: str, *, with_gap: bool = True) -> str:
    return pipeline.lower_bound_warning(dataset, anonymizer, with_gap=with_gap)


class ComponentCache:
    """The stages of each configuration, built once per process and key set (LRU).

    The cache key holds a hash of the keys, never a key. A configuration that carries the
    user's redacted text gets its own ``provided`` anonymizer each time.
    """

    def __init__(self, data_dir: Path, max_entries: int = 8) -> None:
        self.data_dir = data_dir
        self.max_entries = max_entries
        self._built: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def _key(self, config: Any, keys: dict[str, str]) -> str:
        cfg = dataclasses.asdict(config)
        cfg.pop("provided_text", None)
        digest = hashlib.sha256(json.dumps(keys, sort_keys=True).encode()).hexdigest()
        return json.dumps(cfg, sort_keys=True, default=str) + digest

    def get(self, config: Any, keys: dict[str, str]) -> Any:
        key = self._key(config, keys)
        with self._lock:
            parts = self._built.get(key)
            if parts is None:
                parts = pipeline.build_components(
                    config, api_keys=keys, cache=default_cache_path(self.data_dir)
                )
                self._built[key] = parts
                while len(self._built) > self.max_entries:
                    self._built.popitem(last=False)
            self._built.move_to_end(key)
        if config.anonymizer == "provided":
            parts = dataclasses.replace(parts, anonymizer=pipeline.build_anonymizer(config))
        return parts
