"""The LLM provider seam: chat messages in, text or a validated JSON object out, with usage.

Every LLM-backed stage talks to an ``LLM``; none knows which provider is behind it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass
class LLMResponse:
    """One completion. ``parsed`` holds the validated object when a schema was requested."""

    text: str
    parsed: Any = None
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    cached: bool = False
    latency_s: float = 0.0
    cost_usd: float = 0.0
    #: Provider API calls this completion took (a JSON repair adds one; 0 on a cache hit).
    calls: int = 1


class LLMError(RuntimeError):
    """A call that failed after retries (message says which provider/model and why; never a key)."""

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        model: str = "",
        reason: str = "",
        retryable: bool = False,
    ) -> None:
        super().__init__(message)
        self.provider = provider
        self.model = model
        #: Short machine-readable cause: "rate_limit", "server", "timeout", "refusal", ...
        self.reason = reason
        self.retryable = retryable
        #: Provider API calls made before failing, and the tokens they used (usage accounting).
        self.calls = 1
        self.usage = Usage()


class LLM(Protocol):
    """A chat model. Parameters a model rejects are dropped by the implementation, never sent."""

    provider: str
    model: str

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
        """Return the completion; with ``schema`` (JSON Schema), ``parsed`` is validated JSON.

        ``prompt_version`` names the prompt template (e.g. ``"pii_judge.v1"``); it is part of
        the cache key and the run manifest, never sent to the model.
        """
        ...
