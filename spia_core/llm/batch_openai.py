"""The OpenAI Batch API (``client.files`` + ``client.batches``) as a :class:`BatchAPI`.

The interactive OpenAI path uses the Responses API, so batches use the ``/v1/responses``
endpoint with the very same request body (the answer is interchangeable with a cached
interactive one). Requests go up as a JSONL file (purpose ``batch``); answers come back in the
batch's output file and failed requests in its error file, each read line by line.
"""

from __future__ import annotations

import json
from typing import Any

from spia_core.llm.base import Message
from spia_core.llm.batch_api import (
    CANCELLED,
    ENDED,
    EXPIRED,
    FAILED,
    IN_PROGRESS,
    BatchAnswer,
    BatchRequest,
    BatchStatus,
    SDKBatchAdapter,
    read_lines,
    unreadable,
)
from spia_core.llm.provider import MalformedResponse

#: The batch endpoint: the Responses API, as the interactive OpenAILLM.
ENDPOINT = "/v1/responses"
_STATES = {
    "completed": ENDED,
    "expired": EXPIRED,
    "cancelled": CANCELLED,
    "failed": FAILED,
}


class OpenAIBatchAPI(SDKBatchAdapter):
    """Batches of one :class:`~spia_core.llm.openai_llm.OpenAILLM`'s client."""

    provider = "openai"
    sdk = "openai"
    default_endpoint = "https://api.openai.com/v1"

    def body(
        self, messages: list[Message], schema: dict[str, Any] | None, params: dict[str, Any]
    ) -> dict[str, Any]:
        return self.llm.request(messages, schema, params)

    def submit(self, requests: list[BatchRequest]) -> str:
        lines = "".join(
            json.dumps(
                {"custom_id": r.custom_id, "method": "POST", "url": ENDPOINT, "body": r.body},
                ensure_ascii=False,
            )
            + "\n"
            for r in requests
        )
        upload = self._client.files.create(
            file=("spia-batch.jsonl", lines.encode("utf-8"), "application/jsonl"),
            purpose="batch",
        )
        batch = self._client.batches.create(
            input_file_id=upload.id,
            endpoint=ENDPOINT,
            completion_window="24h",
            metadata={"source": "spia-audit"},
        )
        return str(batch.id)

    def status(self, batch_id: str) -> BatchStatus:
        batch = self._client.batches.retrieve(batch_id)
        counts = batch.request_counts
        total = getattr(counts, "total", 0) or 0
        done = getattr(counts, "completed", 0) or 0
        failed = getattr(counts, "failed", 0) or 0
        state = _STATES.get(batch.status, IN_PROGRESS)
        pending = max(0, total - done - failed) if state == IN_PROGRESS else 0
        message = ""
        if state == FAILED:
            errors = getattr(getattr(batch, "errors", None), "data", None) or []
            message = "; ".join(str(getattr(e, "message", e)) for e in errors)[:300]
            message = message or "the provider rejected the batch"
        elif state == EXPIRED:
            message = "the batch did not finish within its 24-hour window"
        elif state == CANCELLED:
            message = "the batch was cancelled"
        return BatchStatus(state, done, failed, pending, message)

    def answers(self, batch_id: str) -> tuple[list[BatchAnswer], int]:
        batch = self._client.batches.retrieve(batch_id)
        lines: list[str] = []
        for file_id in (batch.output_file_id, batch.error_file_id):
            if file_id:
                lines.extend(self._client.files.content(file_id).text.splitlines())
        return read_lines(lines, read_item)


def read_item(cid: str, item: dict[str, Any]) -> BatchAnswer:
    """The answer of one output/error file line (``{"custom_id", "response", "error"}``)."""
    error = item.get("error")
    if isinstance(error, dict):
        code = str(error.get("code") or "error")
        reason = "batch_expired" if code == "batch_expired" else "batch_errored"
        return BatchAnswer(cid, None, reason, f"{code}: {error.get('message', '')}"[:300])
    response = item.get("response") if isinstance(item.get("response"), dict) else {}
    body = response.get("body")
    status = response.get("status_code")
    if status != 200:
        inner = body.get("error") if isinstance(body, dict) else None
        message = inner.get("message", "") if isinstance(inner, dict) else ""
        return BatchAnswer(cid, None, "batch_errored", f"HTTP {status}: {message}"[:300])
    return _completion(cid, body)


def _completion(cid: str, body: Any) -> BatchAnswer:
    from openai.types.responses import Response

    from spia_core.llm.openai_llm import read_response

    try:
        if not isinstance(body, dict):
            raise MalformedResponse("the result has no response body")
        # built as the SDK builds an interactive answer (construct: no strict validation)
        return BatchAnswer(cid, read_response(Response.construct(**body)))
    except (ValueError, TypeError, MalformedResponse) as exc:
        return unreadable(cid, "response", exc)
