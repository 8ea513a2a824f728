"""``--concurrency`` for every LLM backbone, and SDK clients warmed before threads start.

``--concurrency N`` is the number of documents in flight and, through
``CallPolicy.max_concurrency``, the number of concurrent calls per provider endpoint: it
replaces the model catalog's ``max_concurrency`` (1 for local backbones), which used to cap a
run silently. :func:`concurrency_notes` says when it does so. :func:`warm_llm_clients` touches
every SDK client's lazily imported parts in the calling thread: the first calls of a fresh
process, made from many threads at once, otherwise race on half-imported modules.
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any

#: Modules the SDKs import lazily on their first request (imported once, up front).
LAZY_MODULES: tuple[str, ...] = (
    "httpx",
    "httpcore",
    "httpcore._sync.http11",
    "httpcore._sync.connection_pool",
    "h11",
    "anyio",
    "sniffio",
    "certifi",
    "openai.resources.chat.completions",
    "openai.resources.responses",
    "openai.types.chat",
    "anthropic.resources.messages",
    "anthropic.types",
)
#: Client attributes that import their resource module on first access.
_CLIENT_PARTS = ("chat", "responses", "messages", "completions")


def concurrency_notes(config: Any, concurrency: int, *, has_gt: bool = True) -> list[str]:
    """One warning per LLM backbone whose catalog cap ``--concurrency`` replaces."""
    from spia_core.llm.runtime import LLMRuntime, stage_base_url
    from spia_core.pipeline import llm_destinations

    runtime = LLMRuntime()
    notes: dict[str, str] = {}
    for dest in llm_destinations(config, has_gt=has_gt):
        backbone = str(dest["backbone"])
        spec = runtime.spec(backbone, stage_base_url(backbone, config.base_url) or config.base_url)
        if spec.max_concurrency != concurrency:
            notes[backbone] = (
                f"warning: the model catalog caps {backbone} at {spec.max_concurrency} "
                f"concurrent call(s); --concurrency {concurrency} applies instead (the provider "
                f"or local server must accept {concurrency} parallel requests)"
            )
    return list(notes.values())


def _llms(component: Any, seen: set[int]) -> list[Any]:
    if component is None or id(component) in seen:
        return []
    seen.add(id(component))
    found = []
    llm = getattr(component, "llm", None)
    while llm is not None and id(llm) not in seen:  # provider, cache and usage wrappers
        seen.add(id(llm))
        found.append(llm)
        llm = getattr(llm, "inner", None)
    found.extend(_llms(getattr(component, "adversary", None), seen))
    return found


def warm_llm_clients(components: Any) -> int:
    """Import the SDKs' lazy modules and touch every client's resources; returns clients seen."""
    for name in LAZY_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    seen: set[int] = set()
    llms = []
    for part in ("anonymizer", "adversary", "matcher", "judge", "utility"):
        llms.extend(_llms(getattr(components, part, None), seen))
    n = 0
    for llm in llms:
        client = getattr(llm, "_client", None)
        if client is None:
            continue
        n += 1
        for attr in _CLIENT_PARTS:
            with contextlib.suppress(Exception):
                resource = getattr(client, attr)
                getattr(resource, "completions", None)
    return n
