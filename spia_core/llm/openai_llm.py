"""OpenAI (Responses API) and OpenAI-compatible local servers (Chat Completions).

The openai SDK is imported when a provider is built, never at module import. Its own retries
are disabled (``max_retries=0``): ours are the only ones.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from spia_core.llm.base import Message
from spia_core.llm.jsonparse import JSONParseError, parse_and_validate
from spia_core.llm.model_spec import ModelSpec
from spia_core.llm.provider import (
    ErrorInfo,
    MalformedResponse,
    ProviderLLM,
    RawCompletion,
    _short_message,
    as_tokens,
    classify_sdk_error,
    split_system,
)
from spia_core.llm.structured import MODES, PROBE_SCHEMA, rejects_format, request_fields
from spia_core.llm.urls import redact_url

log = logging.getLogger(__name__)


def schema_name(schema: dict[str, Any]) -> str:
    """A name for the response format (a-z, A-Z, 0-9, _ and -; at most 64 chars)."""
    title = str(schema.get("title") or "response")
    return re.sub(r"[^A-Za-z0-9_-]", "_", title)[:64]


class _OpenAIBase(ProviderLLM):
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
        import openai

        self._sdk = openai
        self._client = openai.OpenAI(
            api_key=api_key or self._missing_key(),
            base_url=self.base_url,
            timeout=self.timeout,
            max_retries=0,
            http_client=http_client,
        )

    @property
    def client(self) -> Any:
        """The SDK client (it holds the key: never log or store it)."""
        return self._client

    def _missing_key(self) -> str:
        raise self._error("no_api_key", "set OPENAI_API_KEY or enter a key in Settings")

    def _classify(self, exc: Exception) -> ErrorInfo | None:
        return classify_sdk_error(exc, self._sdk)


class OpenAILLM(_OpenAIBase):
    """OpenAI cloud models through the Responses API (the SDK's documented primary API)."""

    provider = "openai"

    def request(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> dict[str, Any]:
        """The ``responses.create`` arguments of one call (also a batch request's ``body``)."""
        system, rest = split_system(messages)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "input": [{"role": m.role, "content": m.content} for m in rest],
            "max_output_tokens": params["max_tokens"],
            "store": False,
        }
        if system:
            kwargs["instructions"] = system
        for name in ("temperature", "top_p"):
            if name in params:
                kwargs[name] = params[name]
        if schema is not None and self.spec.structured_output == "json_schema":
            kwargs["text"] = {
                "format": {
                    "type": "json_schema",
                    "name": schema_name(schema),
                    "schema": schema,
                    "strict": True,
                }
            }
        elif schema is not None and self.spec.structured_output == "json_object":
            kwargs["text"] = {"format": {"type": "json_object"}}
        return kwargs

    def _send(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> RawCompletion:
        kwargs = self.request(messages, schema, params)
        return read_response(self._client.responses.create(**kwargs))


def read_response(response: Any) -> RawCompletion:
    """A Responses API answer (interactive, or one batch output line's body) as a RawCompletion."""
    if not isinstance(getattr(response, "output", None), list):
        raise MalformedResponse("HTTP 200 without an output list")
    refusal = None
    for item in response.output or []:
        for part in getattr(item, "content", None) or []:
            if getattr(part, "type", "") == "refusal":
                refusal = part.refusal or "refused"
    usage = response.usage
    return RawCompletion(
        text=response.output_text or "",
        input_tokens=as_tokens(getattr(usage, "input_tokens", 0)),
        output_tokens=as_tokens(getattr(usage, "output_tokens", 0)),
        refusal=refusal,
        finish_reason=str(getattr(response, "status", "") or ""),
    )


class OpenAICompatibleLLM(_OpenAIBase):
    """A local OpenAI-compatible server (Ollama, vLLM, llama.cpp) through Chat Completions."""

    provider = "openai-compatible"

    def __init__(self, spec: ModelSpec, *, api_key: str | None = None, **options: Any) -> None:
        # Local servers ignore the key, but the SDK requires a non-empty one.
        super().__init__(spec, api_key=api_key or "not-needed", **options)
        if not self.base_url:
            raise self._error("no_base_url", "a local OpenAI-compatible model needs a base URL")

    def _send(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> RawCompletion:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "max_tokens": params["max_tokens"],
        }
        for name in ("temperature", "top_p"):
            if name in params:
                kwargs[name] = params[name]
        if schema is None:
            return chat_completion(self._client.chat.completions.create(**kwargs))
        overhead = RawCompletion("")  # probe and rejected requests: counted, not answers

        def probe(mode: str) -> bool:
            return self._probe(mode, overhead)

        mode = MODES.get(self._endpoint, self.spec.structured_output, probe)
        while True:
            fields = request_fields(mode, schema, schema_name(schema))
            try:
                raw = chat_completion(self._client.chat.completions.create(**kwargs, **fields))
            except self._sdk.APIStatusError as exc:
                overhead.extra_calls += 1
                if mode == "none" or not rejects_format(exc.status_code, _short_message(exc)):
                    raise
                weaker = MODES.downgrade(self._endpoint, mode)
                log.warning(
                    "%s at %s rejects structured output %r (%s); using %r from now on",
                    self.model,
                    redact_url(self.base_url),
                    mode,
                    _short_message(exc)[:120],
                    weaker,
                )
                mode = weaker
                continue
            raw.extra_calls += overhead.extra_calls
            raw.input_tokens += overhead.input_tokens
            raw.output_tokens += overhead.output_tokens
            return raw

    @property
    def _endpoint(self) -> tuple[str, str]:
        return (self.base_url or "", self.model)

    def _probe(self, mode: str, overhead: RawCompletion) -> bool:
        """Does the server constrain a tiny answer to PROBE_SCHEMA when asked in ``mode``?
        The request and its tokens are added to ``overhead``."""
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": "Answer with one JSON object and nothing else."},
                {"role": "user", "content": 'Is water wet? Answer {"ok": true} or {"ok": false}.'},
            ],
            "max_tokens": 16,
            **request_fields(mode, PROBE_SCHEMA, "probe"),
        }
        if self.spec.temperature:
            kwargs["temperature"] = 0.0
        overhead.extra_calls += 1
        try:
            answer = chat_completion(self._client.chat.completions.create(**kwargs))
            overhead.input_tokens += answer.input_tokens
            overhead.output_tokens += answer.output_tokens
            parse_and_validate(answer.text, PROBE_SCHEMA)
        except (self._sdk.APIStatusError, MalformedResponse, JSONParseError):
            return False
        return True


def chat_completion(completion: Any) -> RawCompletion:
    """The first choice of a Chat Completions answer; MalformedResponse when there is none."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise MalformedResponse("HTTP 200 without choices")
    message = getattr(choices[0], "message", None)
    content = getattr(message, "content", None)
    refusal = getattr(message, "refusal", None)
    if content is not None and not isinstance(content, str):
        raise MalformedResponse("the message content is not text")
    usage = getattr(completion, "usage", None)
    return RawCompletion(
        text=content or "",
        input_tokens=as_tokens(getattr(usage, "prompt_tokens", 0)),
        output_tokens=as_tokens(getattr(usage, "completion_tokens", 0)),
        refusal=refusal if isinstance(refusal, str) and refusal else None,
        finish_reason=str(getattr(choices[0], "finish_reason", "") or ""),
    )
