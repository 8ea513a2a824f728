"""Shared provider machinery: parameter filtering, retries, concurrency, JSON, usage and cost.

A concrete provider implements only :meth:`ProviderLLM._send` (one API call) and
:meth:`ProviderLLM._classify` (which failures are transient). Everything else, including the
one JSON repair retry and the key redaction of error messages, lives here.
"""

from __future__ import annotations

import email.utils
import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spia_core.llm.base import LLMError, LLMResponse, Message, Usage
from spia_core.llm.jsonparse import JSONParseError, parse_and_validate
from spia_core.llm.model_spec import ModelSpec
from spia_core.llm.urls import redact_urls_in
from spia_core.prompts import load_prompt

log = logging.getLogger(__name__)

_KEY_PATTERN = re.compile(r"\b(?:sk|sk-ant|sk-proj|key)-[A-Za-z0-9_\-]{6,}")
_SEMAPHORES: dict[tuple[str, ...], threading.BoundedSemaphore] = {}
_SEMAPHORES_LOCK = threading.Lock()


@dataclass
class RawCompletion:
    """One provider answer before JSON handling."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    refusal: str | None = None
    finish_reason: str = ""
    #: Requests made on the way to this answer besides the answering one (a structured-output
    #: probe, a request in a format the server rejected); their tokens are in the counts above.
    extra_calls: int = 0


class MalformedResponse(Exception):
    """An HTTP 200 whose body is not a usable completion (bad JSON, no choices, wrong shape)."""


#: What a malformed answer is treated as: transient (the next try usually parses).
MALFORMED = "malformed_response"


def classify_malformed(exc: Exception) -> ErrorInfo | None:
    """A broken 200 body (the SDK's JSON decoding, or our own shape checks): retried."""
    if isinstance(exc, (MalformedResponse, json.JSONDecodeError, UnicodeDecodeError)):
        return ErrorInfo(True, MALFORMED, f"the server sent an unusable answer: {exc}"[:300])
    return None


def as_tokens(value: Any) -> int:
    """A token count from a usage field (0 for anything that is not a non-negative integer)."""
    return value if isinstance(value, int) and value >= 0 else 0


@dataclass
class ErrorInfo:
    """How to treat a failed call: retry or not, after how long, and a short reason."""

    retryable: bool
    reason: str
    detail: str = ""
    retry_after: float | None = None


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or HTTP-date); None if absent/bad."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def provider_semaphore(key: tuple[str, ...], limit: int) -> threading.BoundedSemaphore:
    """One shared semaphore per (provider, endpoint, limit): caps concurrent calls process-wide.

    The limit is part of the key, so a run asking for another ``--concurrency`` gets its own
    cap instead of the one the first client of the process happened to create."""
    with _SEMAPHORES_LOCK:
        if key not in _SEMAPHORES:
            _SEMAPHORES[key] = threading.BoundedSemaphore(max(1, limit))
        return _SEMAPHORES[key]


class ProviderLLM:
    """Base class of every provider (and of the scripted FakeLLM)."""

    provider = "base"

    def __init__(
        self,
        spec: ModelSpec,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 4,
        max_concurrency: int | None = None,
        backoff_base: float = 1.0,
        backoff_cap: float = 60.0,
        default_max_tokens: int = 8192,
        retry_timeouts: bool | None = None,
        sleep: Callable[[float], None] = time.sleep,
        seed: int | None = None,
    ) -> None:
        self.spec = spec
        self.model = spec.model
        self.base_url = base_url or spec.base_url
        self.timeout = timeout
        self.max_retries = max_retries
        #: Retry a timed-out call? None = yes for a cloud API, no for a local server.
        self.retry_timeouts = retry_timeouts
        self.backoff_base = backoff_base
        self.backoff_cap = backoff_cap
        self.default_max_tokens = min(default_max_tokens, spec.max_output_tokens)
        self._sleep = sleep
        self._rng = random.Random(seed)
        self._secrets = [api_key] if api_key else []
        limit = max_concurrency or spec.max_concurrency
        key = (self.provider, self.base_url or "", str(limit))
        self._semaphore = provider_semaphore(key, limit)

    # ----------------------------------------------------------------- to implement

    def _send(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> RawCompletion:
        """Make ONE API call (no retries); raise the SDK's exception on failure."""
        raise NotImplementedError

    def _classify(self, exc: Exception) -> ErrorInfo | None:
        """ErrorInfo for a provider failure; None for anything that is not one (re-raised)."""
        return None

    # ----------------------------------------------------------------- shared behaviour

    def params_for(
        self, temperature: float | None, top_p: float | None, max_tokens: int | None
    ) -> dict[str, Any]:
        """The parameters actually sent: those the model rejects are dropped."""
        limit = self.spec.max_output_tokens
        params: dict[str, Any] = {"max_tokens": min(max_tokens or self.default_max_tokens, limit)}
        if temperature is not None and self.spec.temperature:
            params["temperature"] = temperature
        if top_p is not None and self.spec.top_p:
            params["top_p"] = top_p
        return params

    def _retries_timeouts(self) -> bool:
        if self.retry_timeouts is not None:
            return self.retry_timeouts
        return not self.spec.is_local

    def redact(self, text: str) -> str:
        """``text`` without any API key (the known one, or anything key-shaped)."""
        for secret in self._secrets:
            text = text.replace(secret, "[REDACTED]")
        return _KEY_PATTERN.sub("[REDACTED]", redact_urls_in(text))

    def _error(self, reason: str, detail: str, *, retryable: bool = False) -> LLMError:
        message = self.redact(f"{self.provider}/{self.model}: {reason}: {detail}"[:600])
        return LLMError(
            message, provider=self.provider, model=self.model, reason=reason, retryable=retryable
        )

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        backoff = min(self.backoff_cap, self.backoff_base * 2**attempt)
        jittered = backoff * (0.5 + 0.5 * self._rng.random())
        if retry_after is not None:
            return min(self.backoff_cap, max(retry_after, 0.0)) + 0.1 * jittered
        return jittered

    def _call_with_retries(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> RawCompletion:
        attempt = 0
        while True:
            try:
                with self._semaphore:
                    raw = self._send(messages, schema, params)
            except Exception as exc:  # classified below; unknown errors propagate
                info = classify_malformed(exc) or self._classify(exc)
                if info is None:
                    raise
                if info.reason == "timeout" and not self._retries_timeouts():
                    raise self._error(
                        "timeout",
                        f"no answer within {self.timeout:g} s; a local server is not asked "
                        "again (its slot is likely still busy with the abandoned answer). "
                        "Raise --llm-timeout for a slow model",
                    ) from None
                if not info.retryable or attempt >= self.max_retries:
                    tries = f" after {attempt + 1} attempt(s)" if info.retryable else ""
                    raise self._error(info.reason, info.detail + tries) from None
                delay = self._delay(attempt, info.retry_after)
                log.warning(
                    "%s/%s: %s, retrying in %.1fs", self.provider, self.model, info.reason, delay
                )
                self._sleep(delay)
                attempt += 1
                continue
            if raw.refusal:
                raise self._error("refusal", raw.refusal[:300])
            return raw

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
        """One completion with retries; with ``schema``, parse + validate + at most ONE repair."""
        params = self.params_for(temperature, top_p, max_tokens)
        return self.complete_with(self._call_with_retries, messages, schema, params, self.spec.cost)

    def complete_with(
        self,
        call: Callable[[list[Message], dict[str, Any] | None, dict[str, Any]], RawCompletion],
        messages: list[Message],
        schema: dict[str, Any] | None,
        params: dict[str, Any],
        price: Callable[[int, int], float],
    ) -> LLMResponse:
        """A completion whose API calls go through ``call`` and are priced by ``price``.

        ``complete`` passes the interactive call with retries and the list price; the batch
        path (llm.batch_broker) passes answers of a provider batch and the batch price, so
        JSON validation, the one repair and the usage accounting are the same in both modes.
        """
        started = time.monotonic()
        raw = call(messages, schema, params)
        usage = Usage(raw.input_tokens, raw.output_tokens)
        calls = 1 + raw.extra_calls
        parsed: Any = None
        if schema is None:
            if not raw.text.strip():
                raise self._error("empty", "the model returned an empty answer")
        else:
            try:
                parsed = parse_and_validate(raw.text, schema)
            except JSONParseError as first:
                repair = self._repair_messages(messages, raw.text, str(first), schema)
                raw = call(repair, schema, params)
                usage.input_tokens += raw.input_tokens
                usage.output_tokens += raw.output_tokens
                calls += 1 + raw.extra_calls
                try:
                    parsed = parse_and_validate(raw.text, schema)
                except JSONParseError as second:
                    error = self._error(
                        "invalid_json", f"{second} (after one repair; first: {first})"
                    )
                    error.calls, error.usage = calls, usage
                    raise error from None
        return LLMResponse(
            text=raw.text,
            parsed=parsed,
            usage=usage,
            model=self.model,
            latency_s=time.monotonic() - started,
            cost_usd=price(usage.input_tokens, usage.output_tokens),
            calls=calls,
        )

    @staticmethod
    def _repair_messages(
        messages: list[Message], reply: str, error: str, schema: dict[str, Any]
    ) -> list[Message]:
        prompt = load_prompt("json_repair").render(
            error=error if reply.strip() else "it was empty",
            schema=json.dumps(schema, separators=(",", ":")),
        )
        previous = [Message("assistant", reply)] if reply.strip() else []
        return [*messages, *previous, *prompt]


def split_system(messages: list[Message]) -> tuple[str, list[Message]]:
    """(joined system text, the other messages): for APIs that take the system prompt apart."""
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    return system, [m for m in messages if m.role != "system"]


def classify_sdk_error(exc: Exception, sdk: Any) -> ErrorInfo | None:
    """Classify an exception of the openai or anthropic SDK (both share these class names)."""
    if isinstance(exc, sdk.APITimeoutError):
        return ErrorInfo(True, "timeout", "the request timed out")
    if isinstance(exc, sdk.APIConnectionError):
        return ErrorInfo(True, "connection", "the connection failed or was dropped")
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        headers = exc.response.headers if exc.response is not None else {}
        retry_after = parse_retry_after(headers.get("retry-after"))
        if retry_after is None and headers.get("retry-after-ms"):
            ms = parse_retry_after(headers.get("retry-after-ms"))
            retry_after = None if ms is None else ms / 1000
        detail = f"HTTP {status}: {_short_message(exc)}"
        if status == 429:
            return ErrorInfo(True, "rate_limit", detail, retry_after)
        if status in (408, 409) or status >= 500:
            return ErrorInfo(True, "server", detail, retry_after)
        if status in (401, 403):
            return ErrorInfo(False, "auth", detail)
        return ErrorInfo(False, "bad_request", detail)
    if isinstance(exc, sdk.APIError):
        return ErrorInfo(False, "api", _short_message(exc))
    return None


def _short_message(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and isinstance(err.get("message"), str):
            return err["message"][:300]
    return str(getattr(exc, "message", "") or exc)[:300]
