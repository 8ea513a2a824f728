"""Anthropic models through the Messages API (anthropic SDK 2.x, imported only when used).

SDK 2.x speaks API version 2026-10-21, which has no sampling parameters: the catalog marks
Claude models ``temperature: false`` / ``top_p: false`` so they are never sent.
"""

from __future__ import annotations

from typing import Any

from spia_core.llm.base import Message
from spia_core.llm.model_spec import ModelSpec
from spia_core.llm.provider import (
    ErrorInfo,
    MalformedResponse,
    ProviderLLM,
    RawCompletion,
    as_tokens,
    classify_sdk_error,
    split_system,
)


class AnthropicLLM(ProviderLLM):
    """Claude via ``client.messages.create``; JSON via ``output_config.format`` (json_schema)."""

    provider = "anthropic"

    def __init__(
        self,
        spec: ModelSpec,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: Any = None,
        **options: Any,
    ) -> None:
        super().__init__(spec, api_key=api_key, base_url=base_url, **options)
        if not api_key:
            raise self._error("no_api_key", "set ANTHROPIC_API_KEY or enter a key in Settings")
        import anthropic

        self._sdk = anthropic
        kwargs: dict[str, Any] = {
            "api_key": api_key,
            "timeout": self.timeout,
            "max_retries": 0,
            "http_client": http_client,
        }
        if self.base_url:
            kwargs["base_url"] = self.base_url
        self._client = anthropic.Anthropic(**kwargs)

    def _classify(self, exc: Exception) -> ErrorInfo | None:
        return classify_sdk_error(exc, self._sdk)

    @property
    def client(self) -> Any:
        """The SDK client (it holds the key: never log or store it)."""
        return self._client

    def request(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> dict[str, Any]:
        """The ``messages.create`` arguments of one call (also a batch request's ``params``)."""
        system, rest = split_system(messages)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": params["max_tokens"],
            "messages": [{"role": m.role, "content": m.content} for m in rest],
        }
        if system:
            kwargs["system"] = system
        # temperature/top_p are absent from the SDK 2.x surface; extra_body only if a catalog
        # entry explicitly says the model accepts them (older API versions).
        extra = {k: params[k] for k in ("temperature", "top_p") if k in params}
        if extra:
            kwargs["extra_body"] = extra
        if schema is not None and self.spec.structured_output == "json_schema":
            kwargs["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
        return kwargs

    def _send(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> RawCompletion:
        return read_message(self._client.messages.create(**self.request(messages, schema, params)))


def read_message(message: Any) -> RawCompletion:
    """A Messages API answer (interactive, or one succeeded batch result) as a RawCompletion."""
    if not isinstance(getattr(message, "content", None), list):
        raise MalformedResponse("HTTP 200 without a content list")
    text = "".join(block.text for block in message.content if getattr(block, "type", "") == "text")
    refusal = None
    if message.stop_reason == "refusal":
        refusal = text.strip() or "the model refused to answer"
    return RawCompletion(
        text=text,
        input_tokens=as_tokens(getattr(message.usage, "input_tokens", 0)),
        output_tokens=as_tokens(getattr(message.usage, "output_tokens", 0)),
        refusal=refusal,
        finish_reason=str(message.stop_reason or ""),
    )
