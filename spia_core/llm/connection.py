"""One LLM connection spec: which backbone, where, with which cache and call policy.

Every LLM stage (the adversary, the matcher, the judge, the utility judge and the LLM
anonymizers) takes an :class:`LLMConnection` instead of repeating ``backbone``, ``base_url``,
``api_key``, ``cache``, timeouts and retries. The key is held in memory only: it is left out
of ``repr``, equality and :meth:`LLMConnection.describe`, and credentials inside the base URL
are never shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from spia_core.llm.base import LLM
from spia_core.llm.urls import redact_url


@dataclass(frozen=True)
class CallPolicy:
    """How calls are made: timeout, retries, and whether a timed-out call is retried.

    ``retry_timeouts=None`` retries timeouts on cloud APIs but not on a local server, whose
    one slot is usually still busy with the abandoned generation.
    """

    timeout: float | None = None
    max_retries: int | None = None
    retry_timeouts: bool | None = None
    #: Concurrent calls per provider endpoint (``--concurrency``); None = the catalog's cap.
    max_concurrency: int | None = None

    def __post_init__(self) -> None:
        if self.max_concurrency is not None and self.max_concurrency < 1:
            raise ValueError(f"LLM concurrency must be >= 1, got {self.max_concurrency}")
        if self.timeout is not None and self.timeout <= 0:
            raise ValueError(f"the LLM timeout must be positive, got {self.timeout}")
        if self.max_retries is not None and self.max_retries < 0:
            raise ValueError(f"LLM retries must be >= 0, got {self.max_retries}")

    def options(self) -> dict[str, Any]:
        """Provider options (only those set)."""
        out: dict[str, Any] = {}
        if self.timeout is not None:
            out["timeout"] = self.timeout
        if self.max_retries is not None:
            out["max_retries"] = self.max_retries
        if self.retry_timeouts is not None:
            out["retry_timeouts"] = self.retry_timeouts
        if self.max_concurrency is not None:
            out["max_concurrency"] = self.max_concurrency
        return out


@dataclass(frozen=True)
class LLMConnection:
    """Everything a stage needs to reach its model (see the module docstring)."""

    backbone: str
    base_url: str | None = None
    #: A ResponseCache, a path to one, or None (no cache).
    cache: Any = None
    policy: CallPolicy = field(default_factory=CallPolicy)
    api_key: str | None = field(default=None, repr=False, compare=False)
    #: Extra provider options (http_client, sleep, seed, ...; tests and tools).
    options: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def make(self) -> LLM:
        """The provider, wrapped in the cache when there is one."""
        from spia_core.llm.catalog import make_llm

        return make_llm(
            self.backbone,
            api_key=self.api_key,
            base_url=self.base_url,
            cache=self.cache,
            **{**self.policy.options(), **self.options},
        )

    def with_backbone(self, backbone: str, base_url: str | None = None) -> LLMConnection:
        """The same connection settings for another backbone."""
        return replace(self, backbone=backbone, base_url=base_url)

    def describe(self) -> dict[str, Any]:
        """JSON-safe description without the key or URL credentials."""
        return {
            "backbone": self.backbone,
            "base_url": redact_url(self.base_url),
            "cache": self.cache is not None,
            **self.policy.options(),
        }


def resolve(llm: LLM | None = None, connection: LLMConnection | None = None) -> LLM:
    """``llm`` itself, or the LLM of ``connection`` (every LLM stage's constructor uses it)."""
    if llm is not None:
        return llm
    if connection is None:
        raise ValueError("this method needs an LLM: pass llm=... or connection=LLMConnection(...)")
    return connection.make()
