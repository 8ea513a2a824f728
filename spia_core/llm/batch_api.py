"""Provider batch APIs: what every adapter speaks, and the ids of batched requests.

A batch adapter (``llm.batch_anthropic``, ``llm.batch_openai``) turns a provider's batch
endpoints into three calls: :meth:`BatchAPI.submit` (requests in, batch id out),
:meth:`BatchAPI.status` (counts and a normalised state) and :meth:`BatchAPI.answers` (one
:class:`BatchAnswer` per result line, in whatever order the provider wrote them). The request
body is the provider's interactive request, so a batch answer is the answer the interactive
path would have cached under the same key.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from spia_core.llm.base import Message
from spia_core.llm.provider import (
    ErrorInfo,
    RawCompletion,
    classify_malformed,
    classify_sdk_error,
)
from spia_core.llm.urls import redact_url

#: Normalised batch states. ``in_progress`` covers every provider state before the end.
IN_PROGRESS = "in_progress"
ENDED = "ended"
EXPIRED = "expired"
CANCELLED = "cancelled"
FAILED = "failed"
#: States in which a batch ended without answering every request.
BROKEN = frozenset({EXPIRED, CANCELLED, FAILED})
#: Longest custom_id (Anthropic allows 64 characters of [A-Za-z0-9_-]).
MAX_CUSTOM_ID = 64


@dataclass(frozen=True)
class BatchRequest:
    """One request of a batch: its custom_id and the provider's request body."""

    custom_id: str
    body: dict[str, Any]


@dataclass
class BatchStatus:
    """A batch's state and request counts as the provider reports them."""

    state: str
    succeeded: int = 0
    errored: int = 0
    pending: int = 0
    #: The provider's explanation when the batch failed, expired or was cancelled.
    message: str = ""

    @property
    def finished(self) -> bool:
        return self.state != IN_PROGRESS

    def counts(self) -> dict[str, int]:
        return {"succeeded": self.succeeded, "errored": self.errored, "pending": self.pending}


@dataclass
class BatchAnswer:
    """One result line: a completion, or why the request has none (``reason``, ``detail``)."""

    custom_id: str
    raw: RawCompletion | None = None
    reason: str = ""
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The stored form (the store keeps it; never holds a key)."""
        if self.raw is None:
            return {"reason": self.reason, "detail": self.detail[:500]}
        raw = self.raw
        return {
            "text": raw.text,
            "input_tokens": raw.input_tokens,
            "output_tokens": raw.output_tokens,
            "refusal": raw.refusal,
            "finish_reason": raw.finish_reason,
        }


def answer_from_dict(custom_id: str, data: dict[str, Any]) -> BatchAnswer:
    """The inverse of :meth:`BatchAnswer.to_dict`."""
    if "text" not in data:
        reason, detail = str(data.get("reason", "")), str(data.get("detail", ""))
        return BatchAnswer(custom_id, None, reason, detail)
    raw = RawCompletion(
        text=str(data["text"]),
        input_tokens=int(data.get("input_tokens") or 0),
        output_tokens=int(data.get("output_tokens") or 0),
        refusal=data.get("refusal"),
        finish_reason=str(data.get("finish_reason") or ""),
    )
    return BatchAnswer(custom_id, raw)


def result_item(line: str) -> tuple[str, dict[str, Any]] | None:
    """(custom_id, the parsed line) of one JSONL result line; None when it names no request."""
    try:
        item = json.loads(line)
    except ValueError:
        return None
    if not isinstance(item, dict) or not isinstance(item.get("custom_id"), str):
        return None
    return item["custom_id"], item


def read_lines(
    lines: Iterable[str], read: Callable[[str, dict[str, Any]], BatchAnswer]
) -> tuple[list[BatchAnswer], int]:
    """(answers, number of unreadable lines) of JSONL result lines; ``read(custom_id, item)``
    turns one parsed line into its answer (a bad line loses only its own request)."""
    found: list[BatchAnswer] = []
    unreadable = 0
    for line in lines:
        if not line.strip():
            continue
        parsed = result_item(line)
        if parsed is None:
            unreadable += 1
        else:
            found.append(read(*parsed))
    return found, unreadable


class BatchAPI(Protocol):
    """A provider's batch endpoints, bound to one SDK client (key, base URL, HTTP client)."""

    provider: str
    #: The provider LLM whose client the adapter uses (its ``redact`` cleans messages).
    llm: Any
    #: Where requests go (redacted base URL or the provider's default); part of request keys.
    endpoint: str

    def body(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> dict[str, Any]:
        """The request body of one completion (the interactive call's arguments)."""
        ...

    def submit(self, requests: list[BatchRequest]) -> str:
        """Create one batch; returns its id."""
        ...

    def classify(self, exc: Exception) -> ErrorInfo | None:
        """Retry or not after a failed batch API call (None: not a provider error)."""
        ...

    def status(self, batch_id: str) -> BatchStatus: ...

    def answers(self, batch_id: str) -> tuple[list[BatchAnswer], int]:
        """(the answers found, the number of result lines that could not be read at all)."""
        ...


class SDKBatchAdapter:
    """What the provider adapters share: the LLM, its SDK client, the endpoint and error
    classification (subclasses name ``provider``, ``sdk`` and ``default_endpoint``)."""

    provider = ""
    #: The SDK's module name, whose exception classes ``classify`` reads.
    sdk = ""
    default_endpoint = ""

    def __init__(self, llm: Any, client: Any) -> None:
        self.llm = llm
        self._client = client
        self.endpoint = redact_url(llm.base_url) or self.default_endpoint

    def classify(self, exc: Exception) -> ErrorInfo | None:
        """How to treat a failed batch API call (retry or not), as for interactive calls."""
        return classify_malformed(exc) or classify_sdk_error(exc, importlib.import_module(self.sdk))


def unreadable(custom_id: str, what: str, exc: Exception) -> BatchAnswer:
    """The answer of a result whose completion could not be read."""
    return BatchAnswer(custom_id, None, "malformed_response", f"unreadable {what}: {exc}"[:300])


class BatchPending(BaseException):
    """A completion whose answer is not there yet: it waits for the next batch round.

    A BaseException on purpose: stages catch ``Exception`` (and ``LLMError``) to record
    failures, and a request waiting for its batch is not a failure. The batch driver catches
    it around each replayed audit.
    """

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class BatchError(RuntimeError):
    """A batch could not be submitted, polled or read (message says which and what to do)."""


def request_key(provider: str, endpoint: str, body: dict[str, Any]) -> str:
    """sha256 of provider, endpoint and the canonical request body (stable across runs)."""
    payload = {"provider": provider, "endpoint": endpoint, "body": body}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def custom_id(data_id: str, stage: str, key: str) -> str:
    """``<document>-<stage>-<request hash>``: [A-Za-z0-9_-], at most 64 characters.

    Unique because the hash part is 24 hex digits of the request key (the same request from
    two documents is one request, answered to both); the document and stage parts are for a
    human reading the provider's console.
    """
    doc = re.sub(r"[^A-Za-z0-9_]", "_", data_id)[:22] or "doc"
    tag = re.sub(r"[^A-Za-z0-9_]", "_", stage)[:14] or "llm"
    return f"{doc}-{tag}-{key[:24]}"[:MAX_CUSTOM_ID]
