"""On-disk response cache (SQLite, WAL) and the CachedLLM wrapper.

The key is the sha256 of provider, endpoint (base URL without credentials), model,
parameters, prompt version, messages and schema, so a rerun of the same configuration makes
zero calls and another server never answers from this one's entries. A hit is re-validated
(its text must still parse against the schema, or be non-empty): a garbage row is dropped and
fetched again. The file carries a schema version and is integrity-checked at open. Only
responses are stored, never a key.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spia_core.llm.base import LLM, LLMResponse, Message, Usage
from spia_core.llm.jsonparse import JSONParseError, parse_and_validate
from spia_core.llm.provider import as_tokens
from spia_core.llm.urls import redact_url
from spia_core.sqlite_files import open_checked

#: Schema version of the cache file (PRAGMA user_version).
SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    text TEXT NOT NULL,
    parsed TEXT,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cost_usd REAL NOT NULL,
    created_at REAL NOT NULL
)
"""


@dataclass
class CacheStats:
    entries: int
    hits: int
    misses: int
    size_bytes: int


def cache_key(
    provider: str,
    model: str,
    params: dict[str, Any],
    prompt_version: str,
    messages: list[Message],
    schema: dict[str, Any] | None,
    endpoint: str = "",
) -> str:
    """sha256 over a canonical JSON of everything that determines the answer."""
    payload = {
        "provider": provider,
        "endpoint": endpoint,
        "model": model,
        "params": params,
        "prompt_version": prompt_version,
        "messages": [[m.role, m.content] for m in messages],
        "schema": schema,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """A thread-safe SQLite cache of LLM responses."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = open_checked(
            self.path,
            what="the LLM response cache",
            version=SCHEMA_VERSION,
            migrate=lambda conn, _found: conn.execute(_SCHEMA),
        )
        self.hits = 0
        self.misses = 0
        #: Rows found unusable (garbage, or no longer valid for the schema) and dropped.
        self.dropped = 0

    def get(self, key: str) -> LLMResponse | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT text, parsed, input_tokens, output_tokens, model FROM responses "
                "WHERE key = ?",
                (key,),
            ).fetchone()
            if row is None:
                self.misses += 1
                return None
        text, parsed, tin, tout, model = row
        try:
            value = None if parsed is None else json.loads(parsed)
        except (TypeError, ValueError):
            self.drop(key)
            return None
        if not isinstance(text, str):
            self.drop(key)
            return None
        with self._lock:
            self.hits += 1
        return LLMResponse(
            text=text,
            parsed=value,
            usage=Usage(as_tokens(tin), as_tokens(tout)),
            model=str(model),
            cached=True,
            calls=0,
        )

    def drop(self, key: str) -> None:
        """Delete one entry (an unusable answer), counted as a miss."""
        with self._lock:
            self._conn.execute("DELETE FROM responses WHERE key = ?", (key,))
            self._conn.commit()
            self.dropped += 1
            self.misses += 1

    def put(self, key: str, provider: str, prompt_version: str, response: LLMResponse) -> None:
        parsed = None if response.parsed is None else json.dumps(response.parsed)
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO responses VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    key,
                    provider,
                    response.model,
                    prompt_version,
                    response.text,
                    parsed,
                    response.usage.input_tokens,
                    response.usage.output_tokens,
                    response.cost_usd,
                    time.time(),
                ),
            )
            self._conn.commit()

    def stats(self) -> CacheStats:
        with self._lock:
            (entries,) = self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()
        size = sum(
            p.stat().st_size
            for p in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm"))
            if p.exists()
        )
        return CacheStats(entries=entries, hits=self.hits, misses=self.misses, size_bytes=size)

    def clear(self) -> None:
        """Delete every cached response."""
        with self._lock:
            self._conn.execute("DELETE FROM responses")
            self._conn.commit()
            self._conn.execute("VACUUM")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class CachedLLM:
    """An LLM that answers from the cache when it can and stores what the inner LLM returns."""

    def __init__(self, inner: LLM, cache: ResponseCache) -> None:
        self.inner = inner
        self.cache = cache
        self.provider = inner.provider
        self.model = inner.model

    @property
    def spec(self) -> Any:
        return getattr(self.inner, "spec", None)

    def key(
        self,
        messages: list[Message],
        schema: dict[str, Any] | None,
        params: dict[str, Any],
        prompt_version: str,
    ) -> str:
        """The cache key of one completion (``params`` as :meth:`params` gives them)."""
        endpoint = redact_url(getattr(self.inner, "base_url", None) or "")
        return cache_key(
            self.provider, self.model, params, prompt_version, messages, schema, endpoint
        )

    def params(
        self, temperature: float | None, top_p: float | None, max_tokens: int | None
    ) -> dict[str, Any]:
        """The parameters the inner LLM sends (what the key is computed from)."""
        params_for = getattr(self.inner, "params_for", None)
        if params_for:
            return params_for(temperature, top_p, max_tokens)
        return {"temperature": temperature, "top_p": top_p, "max_tokens": max_tokens}

    def lookup(self, key: str, schema: dict[str, Any] | None) -> LLMResponse | None:
        """The cached answer of ``key`` if it is still valid (an invalid one is dropped)."""
        hit = self.cache.get(key)
        if hit is None:
            return None
        valid = revalidate(hit, schema)
        if valid is None:
            self.cache.drop(key)
        return valid

    def complete(
        self,
        messages: list[Message],
        *,
        schema: dict[str, Any] | None = None,
        temperature: float | None = None,
        top_p: float | None = None,
        max_tokens: int | None = None,
        prompt_version: str = "",
    ) -> LLMResponse:
        key = self.key(
            messages, schema, self.params(temperature, top_p, max_tokens), prompt_version
        )
        hit = self.lookup(key, schema)
        if hit is not None:
            return hit
        response = self.inner.complete(
            messages,
            schema=schema,
            temperature=temperature,
            top_p=top_p,
            max_tokens=max_tokens,
            prompt_version=prompt_version,
        )
        self.cache.put(key, self.provider, prompt_version, response)
        return response


def revalidate(hit: LLMResponse, schema: dict[str, Any] | None) -> LLMResponse | None:
    """The cached answer if it is still a valid answer (parsed again from its text), else None."""
    if schema is None:
        return hit if hit.text.strip() else None
    try:
        hit.parsed = parse_and_validate(hit.text, schema)
    except JSONParseError:
        return None
    return hit


#: File name of the response cache in the data directory (next to results.sqlite3).
CACHE_NAME = "llm_cache.sqlite3"
_SHARED: dict[Path, ResponseCache] = {}
_SHARED_LOCK = threading.Lock()


def default_cache_path(data_dir: str | Path | None = None) -> Path:
    """``<data dir>/llm_cache.sqlite3``; the data dir defaults to $SPIA_DATA_DIR or ./spia_data."""
    from spia_core.store import default_data_dir

    return Path(data_dir if data_dir is not None else default_data_dir()) / CACHE_NAME


def shared_cache(path: str | Path | None = None) -> ResponseCache:
    """One :class:`ResponseCache` per file and process (so hit/miss counters are shared)."""
    resolved = Path(path if path is not None else default_cache_path()).resolve()
    with _SHARED_LOCK:
        cache = _SHARED.get(resolved)
        if cache is None:
            cache = _SHARED[resolved] = ResponseCache(resolved)
        return cache
