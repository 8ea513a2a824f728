"""Settings-page services: test a local endpoint, the response cache (no Streamlit)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from spia_core.llm import catalog as llm_catalog
from spia_core.llm.base import Message
from spia_core.llm.cache import ResponseCache, default_cache_path, shared_cache


def test_endpoint(base_url: str, model: str, api_key: str | None) -> tuple[bool, str]:
    """One tiny completion against a local OpenAI-compatible endpoint: (ok, message)."""
    t0 = time.perf_counter()
    try:
        llm = llm_catalog.make_llm(
            model or "local-model",
            base_url=base_url,
            api_key=api_key,
            max_retries=0,
            timeout=15.0,
        )
        reply = llm.complete([Message("user", "Reply with the word OK. (ping)")], max_tokens=8)
    except Exception as exc:  # LLMError (key redacted) or a bad URL
        return False, f"Connection to {base_url} failed: {exc}"
    return True, (
        f"Connected to {base_url}: model {model or '(default)'} answered "
        f"{reply.text.strip()[:40]!r} in {time.perf_counter() - t0:.2f}s."
    )


def response_cache(data_dir: Path) -> ResponseCache:
    """The shared LLM response cache of this app (under the data directory)."""
    return shared_cache(default_cache_path(data_dir))


def cache_stats(data_dir: Path) -> dict[str, Any]:
    """Entries, hits and misses (this server process), size on disk of the response cache."""
    cache = response_cache(data_dir)
    stats = cache.stats()
    return {
        "file": str(cache.path),
        "entries": stats.entries,
        "hits": stats.hits,
        "misses": stats.misses,
        "size_kb": round(stats.size_bytes / 1024, 1),
    }
