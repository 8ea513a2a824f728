"""Fake Anthropic Message Batches and OpenAI Batch endpoints behind an httpx2.MockTransport.

The real anthropic and openai SDK clients talk to :class:`FakeBatchProvider` as to the
providers: a batch is accepted, reported ``in_progress`` for ``ready_after`` polls, then
``ended`` / ``completed`` (or expired), and its results come back as JSONL in reverse order
of submission (providers do not keep the order). Per request, a test can make the answer an
error, a garbage line or a malformed message. Interactive calls (``/v1/messages``,
``/v1/responses``) are counted so a test can assert that batch mode made none.

The scripted "model" answers the SPIA prompts by the schema title of the request: one
subject (the writer), no code PII, the writer's name read from "Posted by <First Last>" in the
document, a fixed occupation (so the judge gets a pair), and "yes" for every judged pair.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2

#: A request's (schema title, full request body as JSON text) -> should this happen?
Rule = Callable[[str, str], bool]
NEVER: Rule = lambda _title, _body: False  # noqa: E731
OCCUPATION = "artisan"
USAGE_ANTHROPIC = (1000, 100)
USAGE_OPENAI = (500, 50)


def model_answer(title: str, body_text: str) -> str:
    """The scripted model's JSON answer to one SPIA request (routed on the schema title)."""
    if title == "subjects":
        subjects = [{"id": 0, "description": "the writer of the post"}]
        return json.dumps({"subjects": subjects, "collectives_not_counted": []})
    if title == "code_profile":
        return json.dumps({"subjects": [{"id": 0, "description": "the writer", "piis": []}]})
    if title == "non_code_profile":
        name = re.search(r"Posted by ([A-Z][a-z]+ [A-Z][a-z]+)", body_text)
        piis = [
            {
                "tag": "NAME",
                "keyword": name.group(1) if name else "unknown",
                "certainty": 5,
                "evidence": name.group(1) if name else "",
                "reasoning": "the post is signed",
            },
            {
                "tag": "OCCUPATION",
                "keyword": OCCUPATION,
                "certainty": 4,
                "evidence": "",
                "reasoning": "the post describes a trade",
            },
        ]
        return json.dumps({"subjects": [{"id": 0, "description": "the writer", "piis": piis}]})
    if title == "verdicts":
        n = len(re.findall(r"\d+\. tag:", body_text))
        verdicts = [{"index": i, "label": "yes", "rationale": "same"} for i in range(n)]
        return json.dumps({"verdicts": verdicts})
    if title == "alignment":
        pairs = [{"a_id": 0, "b_id": 0, "confidence": 5, "reason": "the writer in both"}]
        return json.dumps({"pairs": pairs, "unmatched_a": [], "unmatched_b": []})
    if title == "utility":
        scores = {"score": 9, "rationale": "unchanged"}
        return json.dumps({"readability": scores, "meaning": scores, "hallucination": scores})
    if not title:  # a plain-text request
        return "OK"
    raise AssertionError(f"the fake model has no answer for schema {title!r}")


@dataclass
class FakeBatch:
    provider: str
    id: str
    requests: list[tuple[str, dict[str, Any]]]  # (custom_id, body) in submission order
    polls: int = 0


@dataclass
class FakeBatchProvider:
    """The MockTransport handler (``httpx2.MockTransport(fake)``); see the module doc."""

    ready_after: int = 1
    error_if: Rule = NEVER
    garbage_if: Rule = NEVER
    malformed_if: Rule = NEVER
    #: "" (ends normally), "expired" (no request answered) or "failed" (OpenAI: input rejected).
    ending: str = ""
    #: Raise KeyboardInterrupt (a kill) on this poll of any batch (0: never).
    kill_on_poll: int = 0
    #: Raise KeyboardInterrupt (a kill) when the results of a batch are fetched, this often.
    kill_on_results: int = 0
    #: Answer this many status polls with an overloaded / server error first.
    poll_errors: int = 0
    batches: dict[str, FakeBatch] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    interactive_calls: int = 0
    seen_keys: list[str] = field(default_factory=list)
    _ids: Any = field(default_factory=itertools.count)

    # ----------------------------------------------------------------- bookkeeping

    def submitted(self, provider: str | None = None) -> list[str]:
        """Every custom_id submitted (in every batch) of ``provider`` (or both)."""
        return [
            cid
            for b in self.batches.values()
            if provider is None or b.provider == provider
            for cid, _ in b.requests
        ]

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.seen_keys.append(
            request.headers.get("x-api-key") or request.headers.get("authorization", "")
        )
        host, path, method = request.url.host, request.url.path, request.method
        if "anthropic" in host:
            return self._anthropic(method, path, request)
        return self._openai(method, path, request)

    def _poll(self, batch: FakeBatch) -> bool:
        batch.polls += 1
        if self.kill_on_poll and batch.polls >= self.kill_on_poll:
            raise KeyboardInterrupt("killed while polling")
        return batch.polls > self.ready_after

    def _results_fetched(self) -> None:
        if self.kill_on_results:
            self.kill_on_results -= 1
            raise KeyboardInterrupt("killed while reading the results")

    def _outcome(self, title: str, body: dict[str, Any]) -> str:
        text = json.dumps(body, ensure_ascii=False)
        for kind, rule in (
            ("error", self.error_if),
            ("garbage", self.garbage_if),
            ("malformed", self.malformed_if),
        ):
            if rule(title, text):
                return kind
        return "ok"

    # ----------------------------------------------------------------- Anthropic

    def _anthropic(self, method: str, path: str, request: httpx2.Request) -> httpx2.Response:
        if path == "/v1/messages":
            self.interactive_calls += 1
            return httpx2.Response(500, json={"type": "error", "error": {"type": "api_error"}})
        if method == "POST" and path == "/v1/messages/batches":
            items = json.loads(request.content)["requests"]
            batch = FakeBatch("anthropic", f"msgbatch_{next(self._ids):04d}", [])
            batch.requests = [(r["custom_id"], r["params"]) for r in items]
            self.batches[batch.id] = batch
            return httpx2.Response(200, json=self._message_batch(batch, ended=False))
        match = re.fullmatch(r"/v1/messages/batches/([^/]+)(/results)?", path)
        if match is None:
            return httpx2.Response(404, json={"type": "error", "error": {"type": "not_found"}})
        batch = self.batches[match.group(1)]
        if match.group(2):
            self._results_fetched()
            return httpx2.Response(200, content=self._anthropic_results(batch).encode())
        if self.poll_errors:
            self.poll_errors -= 1
            error = {"type": "overloaded_error", "message": "Overloaded"}
            return httpx2.Response(529, json={"type": "error", "error": error})
        ended = self._poll(batch)
        return httpx2.Response(200, json=self._message_batch(batch, ended=ended))

    def _message_batch(self, batch: FakeBatch, *, ended: bool) -> dict[str, Any]:
        n = len(batch.requests)
        counts = {"processing": n, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        if ended and self.ending == "expired":
            counts.update(processing=0, expired=n)
        elif ended:
            kinds = [self._outcome(_title_anthropic(b), b) for _, b in batch.requests]
            errored = sum(k == "error" for k in kinds)
            counts.update(processing=0, errored=errored, succeeded=n - errored)
        return {
            "id": batch.id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": counts,
            "created_at": "2026-11-23T10:00:00Z",
            "expires_at": "2026-11-24T10:00:00Z",
            "ended_at": "2026-11-23T10:05:00Z" if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": (
                f"https://api.anthropic.com/v1/messages/batches/{batch.id}/results"
                if ended
                else None
            ),
        }

    def _anthropic_results(self, batch: FakeBatch) -> str:
        lines = []
        for cid, params in reversed(batch.requests):
            title = _title_anthropic(params)
            kind = "expired" if self.ending == "expired" else self._outcome(title, params)
            if kind == "garbage":
                lines.append('{"custom_id": "' + cid[:10] + "... not json")
                continue
            if kind == "expired":
                result: dict[str, Any] = {"type": "expired"}
            elif kind == "error":
                error = {"type": "invalid_request_error", "message": "prompt is too long"}
                result = {"type": "errored", "error": {"type": "error", "error": error}}
            else:
                text = model_answer(title, json.dumps(params, ensure_ascii=False))
                message = _anthropic_message(params["model"], text)
                if kind == "malformed":
                    message.pop("content")
                result = {"type": "succeeded", "message": message}
            lines.append(json.dumps({"custom_id": cid, "result": result}))
        return "\n".join(lines) + "\n"

    # ----------------------------------------------------------------- OpenAI

    def _openai(self, method: str, path: str, request: httpx2.Request) -> httpx2.Response:
        if path == "/v1/responses":
            self.interactive_calls += 1
            return httpx2.Response(500, json={"error": {"message": "interactive call"}})
        if method == "POST" and path == "/v1/files":
            file_id = f"file-in-{next(self._ids):04d}"
            lines = [
                line
                for line in request.content.decode("utf-8").splitlines()
                if line.startswith('{"custom_id"')
            ]
            self.files[file_id] = "\n".join(lines)
            return httpx2.Response(200, json=_file_object(file_id))
        if method == "POST" and path == "/v1/batches":
            sent = json.loads(request.content)
            assert sent["endpoint"] == "/v1/responses" and sent["completion_window"] == "24h"
            batch = FakeBatch("openai", f"batch_{next(self._ids):04d}", [])
            for line in self.files[sent["input_file_id"]].splitlines():
                item = json.loads(line)
                assert item["method"] == "POST" and item["url"] == "/v1/responses"
                batch.requests.append((item["custom_id"], item["body"]))
            self.batches[batch.id] = batch
            return httpx2.Response(200, json=self._openai_batch(batch, ended=False))
        match = re.fullmatch(r"/v1/batches/([^/]+)", path)
        if match:
            batch = self.batches[match.group(1)]
            return httpx2.Response(200, json=self._openai_batch(batch, ended=self._poll(batch)))
        match = re.fullmatch(r"/v1/files/([^/]+)/content", path)
        if match:
            self._results_fetched()
            return httpx2.Response(200, content=self.files[match.group(1)].encode())
        return httpx2.Response(404, json={"error": {"message": f"no route {path}"}})

    def _openai_batch(self, batch: FakeBatch, *, ended: bool) -> dict[str, Any]:
        n = len(batch.requests)
        data: dict[str, Any] = {
            "id": batch.id,
            "object": "batch",
            "endpoint": "/v1/responses",
            "completion_window": "24h",
            "created_at": 1,
            "input_file_id": "file-in",
            "status": "in_progress",
            "request_counts": {"total": n, "completed": 0, "failed": 0},
        }
        if not ended:
            return data
        if self.ending == "expired":
            data.update(status="expired", request_counts={"total": n, "completed": 0, "failed": n})
            return data
        if self.ending == "failed":  # the provider rejected the input file
            errors = {"data": [{"code": "invalid_request", "message": "line 1: bad body"}]}
            data.update(status="failed", errors=errors)
            return data
        output, errors = self._openai_results(batch)
        data.update(
            status="completed",
            request_counts={"total": n, "completed": n - len(errors), "failed": len(errors)},
        )
        for kind, lines in (("output", output), ("error", errors)):
            if lines:
                file_id = f"file-{kind}-{batch.id}"
                self.files[file_id] = "\n".join(lines) + "\n"
                data[f"{kind}_file_id"] = file_id
        return data

    def _openai_results(self, batch: FakeBatch) -> tuple[list[str], list[str]]:
        output: list[str] = []
        errors: list[str] = []
        for cid, body in reversed(batch.requests):
            title = body.get("text", {}).get("format", {}).get("name", "")
            kind = self._outcome(title, body)
            if kind == "garbage":
                output.append("<html>502 Bad Gateway</html>")
            elif kind == "error":
                error = {"error": {"message": "Invalid schema", "type": "invalid_request_error"}}
                response = {"status_code": 400, "request_id": "req_x", "body": error}
                errors.append(json.dumps({"id": "r", "custom_id": cid, "response": response}))
            else:
                text = model_answer(title, json.dumps(body, ensure_ascii=False))
                answer = _openai_response(body["model"], text)
                if kind == "malformed":
                    answer["output"] = "not a list"
                response = {"status_code": 200, "request_id": "req_x", "body": answer}
                output.append(
                    json.dumps({"id": "r", "custom_id": cid, "response": response, "error": None})
                )
        return output, errors


def _title_anthropic(params: dict[str, Any]) -> str:
    fmt = (params.get("output_config") or {}).get("format") or {}
    return str((fmt.get("schema") or {}).get("title", ""))


def _anthropic_message(model: str, text: str) -> dict[str, Any]:
    tin, tout = USAGE_ANTHROPIC
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": tin, "output_tokens": tout},
    }


def _openai_response(model: str, text: str) -> dict[str, Any]:
    tin, tout = USAGE_OPENAI
    return {
        "id": "resp_fake",
        "object": "response",
        "created_at": 0,
        "model": model,
        "status": "completed",
        "output": [
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        ],
        "parallel_tool_calls": False,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": tin,
            "output_tokens": tout,
            "total_tokens": tin + tout,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }


def _file_object(file_id: str) -> dict[str, Any]:
    return {
        "id": file_id,
        "object": "file",
        "bytes": 1,
        "created_at": 0,
        "filename": "spia-batch.jsonl",
        "purpose": "batch",
        "status": "processed",
    }
