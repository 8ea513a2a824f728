"""FakeLLM: a scripted provider for tests (no network), with the real retry/JSON machinery.

Script items are answered in order: a ``str`` is the model's raw text, a ``dict``/``list`` is
sent as JSON text, an ``Exception`` is raised by the "API" (use :class:`FakeAPIError` for a
classified, possibly transient failure) and a callable ``(messages, schema) -> item`` computes
the answer. A ``responder`` callable answers when the script is exhausted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spia_core.llm.base import Message
from spia_core.llm.catalog import ModelSpec
from spia_core.llm.provider import ErrorInfo, ProviderLLM, RawCompletion

FAKE_SPEC = ModelSpec(
    id="fake",
    provider="openai-compatible",
    model="fake-model",
    display_name="Fake (tests)",
    structured_output="json_schema",
    context_tokens=100_000,
    max_output_tokens=8192,
    input_price_per_mtok=1.0,
    output_price_per_mtok=2.0,
    max_concurrency=8,
)


class FakeAPIError(Exception):
    """A scripted API failure: ``status`` 429/5xx are transient, others are not."""

    def __init__(self, status: int, retry_after: float | None = None, message: str = "") -> None:
        super().__init__(message or f"HTTP {status}")
        self.status = status
        self.retry_after = retry_after


@dataclass
class FakeCall:
    messages: list[Message]
    schema: dict[str, Any] | None
    params: dict[str, Any]

    @property
    def user(self) -> str:
        return "\n".join(m.content for m in self.messages if m.role == "user")

    @property
    def system(self) -> str:
        return "\n".join(m.content for m in self.messages if m.role == "system")


Responder = Callable[[list[Message], "dict[str, Any] | None"], Any]


class FakeLLM(ProviderLLM):
    """Scripted LLM recording every API call in :attr:`calls`."""

    provider = "fake"

    def __init__(
        self,
        script: list[Any] | None = None,
        *,
        responder: Responder | None = None,
        spec: ModelSpec = FAKE_SPEC,
        tokens: tuple[int, int] = (100, 20),
        **options: Any,
    ) -> None:
        options.setdefault("sleep", lambda _s: None)
        super().__init__(spec, **options)
        self.script = list(script or [])
        self.responder = responder
        self.tokens = tokens
        self.calls: list[FakeCall] = []

    def _send(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> RawCompletion:
        self.calls.append(FakeCall(list(messages), schema, dict(params)))
        if self.script:
            item = self.script.pop(0)
        elif self.responder is not None:
            item = self.responder
        else:
            raise AssertionError(f"FakeLLM script exhausted at call {len(self.calls)}")
        if callable(item) and not isinstance(item, Exception):
            item = item(messages, schema)
        if isinstance(item, Exception):
            raise item
        if isinstance(item, RawCompletion):
            return item
        text = item if isinstance(item, str) else json.dumps(item)
        return RawCompletion(text=text, input_tokens=self.tokens[0], output_tokens=self.tokens[1])

    def _classify(self, exc: Exception) -> ErrorInfo | None:
        if not isinstance(exc, FakeAPIError):
            return None
        transient = exc.status == 429 or exc.status >= 500
        reason = "rate_limit" if exc.status == 429 else "server" if transient else "bad_request"
        return ErrorInfo(transient, reason, str(exc), exc.retry_after)
