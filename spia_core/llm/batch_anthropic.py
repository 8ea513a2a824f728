"""The Anthropic Message Batches API (``client.messages.batches``) as a :class:`BatchAPI`.

Requests are ``{"custom_id", "params"}`` where ``params`` are the interactive
``messages.create`` arguments. Results are read line by line from the batch's JSONL results,
so one unreadable line loses only its own request.
"""

from __future__ import annotations

from typing import Any

from spia_core.llm.base import Message
from spia_core.llm.batch_api import (
    CANCELLED,
    ENDED,
    EXPIRED,
    IN_PROGRESS,
    BatchAnswer,
    BatchRequest,
    BatchStatus,
    SDKBatchAdapter,
    read_lines,
    unreadable,
)
from spia_core.llm.provider import MalformedResponse


class AnthropicBatchAPI(SDKBatchAdapter):
    """Message Batches of one :class:`~spia_core.llm.anthropic_llm.AnthropicLLM`'s client."""

    provider = "anthropic"
    sdk = "anthropic"
    default_endpoint = "https://api.anthropic.com"

    def __init__(self, llm: Any, client: Any) -> None:
        super().__init__(llm, client)
        self._batches = client.messages.batches

    def body(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> dict[str, Any]:
        kwargs = self.llm.request(messages, schema, params)
        extra = kwargs.pop("extra_body", None) or {}
        return {**kwargs, **extra}

    def submit(self, requests: list[BatchRequest]) -> str:
        batch = self._batches.create(
            requests=[{"custom_id": r.custom_id, "params": r.body} for r in requests]
        )
        return str(batch.id)

    def status(self, batch_id: str) -> BatchStatus:
        batch = self._batches.retrieve(batch_id)
        counts = batch.request_counts
        if batch.processing_status != "ended":
            return BatchStatus(IN_PROGRESS, counts.succeeded, counts.errored, counts.processing)
        errored = counts.errored + counts.expired + counts.canceled
        state, message = ENDED, ""
        if counts.expired:
            state = EXPIRED
            message = f"{counts.expired} request(s) expired (not processed within 24 hours)"
        elif counts.canceled:
            state = CANCELLED
            message = f"the batch was cancelled; {counts.canceled} request(s) were not processed"
        return BatchStatus(state, counts.succeeded, errored, 0, message)

    def answers(self, batch_id: str) -> tuple[list[BatchAnswer], int]:
        with self._batches.with_streaming_response.results(batch_id) as response:
            return read_lines(response.iter_lines(), read_item)


def read_item(cid: str, item: dict[str, Any]) -> BatchAnswer:
    """The answer of one results line (``{"custom_id", "result": {"type", ...}}``)."""
    from anthropic.types import Message as SDKMessage

    from spia_core.llm.anthropic_llm import read_message

    result = item.get("result") if isinstance(item.get("result"), dict) else {}
    kind = result.get("type")
    if kind == "succeeded":
        message = result.get("message")
        try:
            if not isinstance(message, dict):
                raise MalformedResponse("the succeeded result has no message")
            # built as the SDK builds an interactive answer (construct: no strict validation)
            return BatchAnswer(cid, read_message(SDKMessage.construct(**message)))
        except (ValueError, TypeError, MalformedResponse) as exc:
            return unreadable(cid, "message", exc)
    if kind == "errored":
        error = result.get("error") if isinstance(result.get("error"), dict) else {}
        inner = error.get("error") if isinstance(error.get("error"), dict) else error
        detail = f"{inner.get('type', 'error')}: {inner.get('message', '')}".strip(": ")
        return BatchAnswer(cid, None, "batch_errored", detail[:300])
    if kind == "expired":
        return BatchAnswer(cid, None, "batch_expired", "the batch expired before this request ran")
    if kind == "canceled":
        return BatchAnswer(cid, None, "batch_cancelled", "the batch was cancelled before it ran")
    return BatchAnswer(cid, None, "malformed_response", f"unknown result type {kind!r}")
