"""Answering LLM completions from provider batches (``--llm-mode batch``).

:class:`BatchLLM` stands where the provider stood (under the response cache), so a stage asks
for a completion exactly as in interactive mode. The :class:`BatchBroker` answers it from the
run's stored batch results; when there is no answer yet it queues the request and raises
:class:`~spia_core.llm.batch_api.BatchPending`, which suspends the document. The batch driver
(``spia_core.scale.llm_batch``) replays every suspended document after each round: one
provider batch per stage and backbone, submitted once, polled until it ends, its answers
stored in the run (``store_batches``) and mapped back by custom_id.

A request answered from the response cache never reaches the broker, so it is never
submitted. JSON validation and the one repair request are the provider's own
(``ProviderLLM.complete_with``); a repair is simply a new request of the next round.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spia_core.llm.base import LLMResponse, Message
from spia_core.llm.batch_api import (
    BROKEN,
    BatchAnswer,
    BatchAPI,
    BatchError,
    BatchPending,
    BatchRequest,
    BatchStatus,
    answer_from_dict,
    custom_id,
    request_key,
)
from spia_core.llm.provider import ProviderLLM, RawCompletion

log = logging.getLogger(__name__)

#: Most requests and bytes of one submitted batch (Anthropic allows 100,000 requests and
#: 256 MB, OpenAI 50,000 requests and 200 MB per input file).
MAX_REQUESTS = 10_000
MAX_BYTES = 100 * 1024 * 1024
#: Why a request of a batch that ended badly has no answer.
_NO_ANSWER = {
    "expired": "batch_expired",
    "cancelled": "batch_cancelled",
    "failed": "batch_failed",
}


class BatchUnsupported(ValueError):
    """A stage's backbone has no batch API (a local server, or no batch price in the catalog)."""


@dataclass
class _Queued:
    api: BatchAPI
    model: str
    stage: str
    custom_id: str
    body: dict[str, Any]
    data_id: str


@dataclass
class _Live:
    """A submitted batch that has not ended yet."""

    row: int
    api: BatchAPI
    batch_id: str
    stage: str
    round: int
    keys: dict[str, str] = field(default_factory=dict)  # custom_id -> request key
    last: dict[str, int] = field(default_factory=dict)  # counts last reported


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class BatchBroker:
    """Queues unanswered requests, submits them per round, polls, and answers from results."""

    def __init__(
        self,
        store: Any,
        run_id: int,
        *,
        poll_interval: float = 10.0,
        poll_cap: float = 300.0,
        max_attempts: int = 8,
        sleep: Callable[[float], None] = time.sleep,
        notify: Callable[[str], None] = _stderr,
        cancel: threading.Event | None = None,
    ) -> None:
        self.store = store
        self.run_id = run_id
        self.poll_interval = max(0.0, poll_interval)
        self.poll_cap = max(self.poll_interval, poll_cap)
        self.max_attempts = max(1, max_attempts)
        self._sleep = sleep
        self.notify = notify
        self.cancel = cancel
        #: The document being replayed (the driver sets it; custom_ids name it).
        self.document = ""
        #: One line per batch that expired, was cancelled or failed (for the run's summary).
        self.problems: list[str] = []
        self.submitted = 0
        self._lock = threading.Lock()
        self._apis: dict[tuple[str, str], BatchAPI] = {}
        self._answers: dict[str, BatchAnswer] = {}
        self._waiting: dict[str, int] = {}
        self._new: dict[str, _Queued] = {}
        self._live: dict[int, _Live] = {}
        self._stored: dict[int, Any] = {}
        self._round = 0
        self._load()

    # ----------------------------------------------------------------- state

    def _load(self) -> None:
        """Answers and pending requests of this run's stored batches (a restarted run)."""
        dropped = self.store.forget_llm_batch_errors(self.run_id)
        if dropped:
            self.notify(f"batch: {dropped} errored request(s) of an earlier attempt are sent again")
        rows = {b.id: b for b in self.store.llm_batches(self.run_id)}
        self._round = max((b.round for b in rows.values()), default=0)
        for req in self.store.llm_batch_requests(self.run_id):
            if req.state != "pending":
                self._answers[req.request_key] = answer_from_dict(req.custom_id, req.result)
            else:  # not collected yet (even if the batch was seen ending): poll it again
                self._waiting[req.request_key] = req.batch
        self._stored = rows

    def wrap(self, llm: Any, stage: str) -> BatchLLM:
        """``llm`` (a provider, or a CachedLLM around one) answered through batches."""
        api = batch_api_of(llm, stage)
        batched = BatchLLM(llm, self, stage)
        self._apis[(batched.inner.provider, batched.inner.model)] = api
        self._resume_live(batched.inner.provider, batched.inner.model, api)
        return batched

    def _resume_live(self, provider: str, model: str, api: BatchAPI) -> None:
        """Poll (not resubmit) this backbone's stored batches that had not ended."""
        waiting = set(self._waiting.values())
        for row in self._stored.values():
            mine = row.provider == provider and row.model == model
            if mine and row.id in waiting and row.id not in self._live:
                self._live[row.id] = _Live(row.id, api, row.batch_id, row.stage, row.round)
        if self._live:
            for req in self.store.llm_batch_requests(self.run_id):
                if req.batch in self._live and req.state == "pending":
                    self._live[req.batch].keys[req.custom_id] = req.request_key

    def answer(
        self,
        llm: ProviderLLM,
        stage: str,
        messages: list[Message],
        schema: dict[str, Any] | None,
        params: dict[str, Any],
    ) -> RawCompletion:
        """The batch answer of one call; raises BatchPending (queued) or LLMError (errored)."""
        api = self._apis[(llm.provider, llm.model)]
        body = api.body(messages, schema, params)
        key = request_key(api.provider, api.endpoint, body)
        with self._lock:
            found = self._answers.get(key)
            if found is None:
                if key not in self._waiting and key not in self._new:
                    cid = custom_id(self.document, stage, key)
                    self._new[key] = _Queued(api, llm.model, stage, cid, body, self.document)
                raise BatchPending(key)
        if found.raw is None:
            raise llm._error(found.reason or "batch_errored", found.detail)
        if found.raw.refusal:
            raise llm._error("refusal", found.raw.refusal[:300])
        return found.raw

    def answered(
        self,
        llm: ProviderLLM,
        messages: list[Message],
        schema: dict[str, Any] | None,
        params: dict[str, Any],
    ) -> bool:
        """True when this run's batches hold the answer (or error) of this call."""
        api = self._apis[(llm.provider, llm.model)]
        key = request_key(api.provider, api.endpoint, api.body(messages, schema, params))
        with self._lock:
            return key in self._answers

    def has_work(self) -> bool:
        """True when a round would submit or poll something."""
        return bool(self._new or self._live)

    # ----------------------------------------------------------------- rounds

    def run_round(self) -> None:
        """Submit the queued requests (one batch per backbone and stage), then wait for every
        live batch to end and store its answers."""
        self._round += 1
        self._submit_queued()
        self._wait()

    def _submit_queued(self) -> None:
        groups: dict[tuple[str, str, str], list[tuple[str, _Queued]]] = {}
        for key, queued in self._new.items():
            group = (queued.api.provider, queued.model, queued.stage)
            groups.setdefault(group, []).append((key, queued))
        for (provider, model, stage), group in groups.items():
            for items in _chunks(group):
                self._submit(provider, model, stage, items)
        self._new.clear()

    def _submit(
        self, provider: str, model: str, stage: str, items: list[tuple[str, _Queued]]
    ) -> None:
        """Submit one batch and store it with its custom_id -> request key map at once."""
        api = items[0][1].api
        requests = [BatchRequest(q.custom_id, q.body) for _, q in items]
        batch_id = self._control(
            api, f"submit a {stage} batch", functools.partial(api.submit, requests)
        )
        row = self.store.add_llm_batch(
            self.run_id,
            provider=provider,
            model=model,
            batch_id=batch_id,
            stage=stage,
            round=self._round,
            requests=[(q.custom_id, key, q.data_id) for key, q in items],
        )
        live = _Live(row, api, batch_id, stage, self._round)
        for key, queued in items:
            live.keys[queued.custom_id] = key
            self._waiting[key] = row
        self._live[row] = live
        self.submitted += len(items)
        self.notify(
            f"batch: submitted {provider} batch {batch_id} ({stage}, round {self._round}): "
            f"{len(items)} request(s)"
        )

    def _wait(self) -> None:
        delay = self.poll_interval
        while self._live:
            if self.cancel is not None and self.cancel.is_set():
                return  # the batches stay stored: a rerun polls them
            for row, live in list(self._live.items()):
                poll = functools.partial(live.api.status, live.batch_id)
                status = self._control(live.api, f"poll batch {live.batch_id}", poll)
                self._report(live, status)
                if status.finished:
                    self._collect(live, status)
                    del self._live[row]
            if self._live:
                self._sleep(delay)
                delay = min(self.poll_cap, delay * 1.5)

    def _report(self, live: _Live, status: BatchStatus) -> None:
        counts = status.counts()
        if counts != live.last or status.finished:
            live.last = counts
            self.notify(
                f"batch: {live.api.provider} {live.batch_id} ({live.stage}, round {live.round}) "
                f"{status.state}: {status.succeeded} succeeded, {status.errored} errored, "
                f"{status.pending} pending"
            )
        self.store.update_llm_batch(
            live.row, status=status.state, counts=counts, error=status.message
        )

    def _collect(self, live: _Live, status: BatchStatus) -> None:
        """Store every request's answer; a request without one gets the reason why."""
        found, unreadable = self._control(
            live.api,
            f"read the results of {live.batch_id}",
            lambda: live.api.answers(live.batch_id),
        )
        answers: dict[str, BatchAnswer] = {}
        for answer in found:
            if answer.custom_id in live.keys:
                answers.setdefault(answer.custom_id, answer)
        reason = _NO_ANSWER.get(status.state, "malformed_response")
        detail = status.message or (
            f"the batch results had no readable line for this request "
            f"({unreadable} unreadable line(s))"
        )
        missing = [cid for cid in live.keys if cid not in answers]
        for cid in missing:
            answers[cid] = BatchAnswer(cid, None, reason, detail)
        self.store.save_llm_batch_answers(
            live.row,
            [(cid, "succeeded" if a.raw else "errored", a.to_dict()) for cid, a in answers.items()],
        )
        with self._lock:
            for cid, answer in answers.items():
                key = live.keys[cid]
                self._answers[key] = answer
                self._waiting.pop(key, None)
        if status.state in BROKEN:
            unanswered = sum(a.raw is None for a in answers.values())
            self.problems.append(
                f"{live.api.provider} batch {live.batch_id} ({live.stage}) {status.state}: "
                f"{status.message}; {unanswered} of {len(live.keys)} request(s) got no answer "
                "and their documents are recorded as failed. Run the same command again to "
                "submit those requests in a new batch."
            )
            self.notify(f"error: {self.problems[-1]}")

    def _control(self, api: BatchAPI, what: str, call: Callable[[], Any]) -> Any:
        """One batch API call with retries on transient errors (with backoff).

        A submission is retried only when the provider answered with a rate-limit or server
        status (it did not take the batch); a timeout or a dropped connection is not retried,
        so a batch the provider did accept is never paid twice.
        """
        submit = what.startswith("submit")
        for attempt in range(self.max_attempts):
            try:
                return call()
            except Exception as exc:
                info = api.classify(exc)
                ambiguous = submit and info is not None and info.reason in ("timeout", "connection")
                last = attempt + 1 >= self.max_attempts
                if info is None or not info.retryable or ambiguous or last:
                    detail = info.detail if info is not None else f"{type(exc).__name__}: {exc}"
                    raise BatchError(api.llm.redact(_failure(api, what, detail, submit))) from None
                delay = min(self.poll_cap, self.poll_interval * 2**attempt)
                log.warning(
                    "%s: could not %s (%s), retrying in %.0fs",
                    api.provider,
                    what,
                    info.reason,
                    delay,
                )
                self._sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    def summary(self) -> list[dict[str, Any]]:
        """The run's batches (provider, id, stage, round, status, counts) for summary.json."""
        return [
            {
                "provider": b.provider,
                "model": b.model,
                "batch_id": b.batch_id,
                "stage": b.stage,
                "round": b.round,
                "status": b.status,
                "counts": b.counts,
                "submitted_at": b.submitted_at,
            }
            for b in self.store.llm_batches(self.run_id)
        ]


def batch_api_of(llm: Any, stage: str) -> BatchAPI:
    """The batch API of a stage's LLM (under any response cache); BatchUnsupported if none."""
    inner = getattr(llm, "inner", None)
    if inner is not None and not isinstance(llm, ProviderLLM):
        return batch_api_of(inner, stage)
    spec = getattr(llm, "spec", None)
    adapter = _ADAPTERS.get(llm.provider) if isinstance(llm, ProviderLLM) else None
    if adapter is None or spec is None or not spec.has_batch_api:
        local = getattr(spec, "is_local", False)
        where = "a local OpenAI-compatible server" if local else getattr(llm, "provider", "?")
        raise BatchUnsupported(
            f"--llm-mode batch: the {stage} backbone {getattr(llm, 'model', '?')} ({where}) "
            "has no batch API; batch mode supports the Anthropic and OpenAI cloud models of "
            "the catalog. Use --llm-mode interactive."
        )
    return adapter(llm)


def _anthropic_batches(llm: Any) -> BatchAPI:
    from spia_core.llm.batch_anthropic import AnthropicBatchAPI

    return AnthropicBatchAPI(llm, llm.client)


def _openai_batches(llm: Any) -> BatchAPI:
    from spia_core.llm.batch_openai import OpenAIBatchAPI

    return OpenAIBatchAPI(llm, llm.client)


#: provider -> its batch adapter, built on the provider's own SDK client (key, URL, HTTP).
#: OpenAI-compatible local servers have none: llama.cpp and Ollama serve no /v1/batches.
_ADAPTERS: dict[str, Callable[[Any], BatchAPI]] = {
    "anthropic": _anthropic_batches,
    "openai": _openai_batches,
}


def _chunks(items: list[tuple[str, _Queued]]) -> list[list[tuple[str, _Queued]]]:
    """``items`` cut into batches within both providers' limits (requests and bytes)."""
    chunks: list[list[tuple[str, _Queued]]] = [[]]
    size = 0
    for item in items:
        cost = len(json.dumps(item[1].body, ensure_ascii=False).encode("utf-8")) + 200
        if chunks[-1] and (len(chunks[-1]) >= MAX_REQUESTS or size + cost > MAX_BYTES):
            chunks.append([])
            size = 0
        chunks[-1].append(item)
        size += cost
    return [c for c in chunks if c]


def _failure(api: BatchAPI, what: str, detail: str, submit: bool) -> str:
    advice = (
        "nothing was stored as submitted; if the provider's console shows the batch anyway, "
        "cancel it before rerunning"
        if submit
        else "the batch id is stored: rerun the same command to poll it again"
    )
    return f"{api.provider}: could not {what}: {detail}; {advice}"


class BatchLLM:
    """A stage's LLM answered by batches: ``complete`` as the provider's, at the batch price.

    An answer of this run's batches comes first (fresh, priced, then written to the response
    cache), so a document replayed after each round accounts for every batched request
    once; a request the batches do not know is answered from the cache when it can be (and
    then never submitted); anything else is queued for the next round.
    """

    def __init__(self, llm: Any, broker: BatchBroker, stage: str) -> None:
        from spia_core.llm.cache import CachedLLM

        self.cached = llm if isinstance(llm, CachedLLM) else None
        self.inner: ProviderLLM = llm.inner if self.cached is not None else llm
        self.broker = broker
        self.stage = stage
        self.provider = self.inner.provider
        self.model = self.inner.model
        self.base_url = self.inner.base_url

    @property
    def spec(self) -> Any:
        return self.inner.spec

    def params_for(
        self, temperature: float | None, top_p: float | None, max_tokens: int | None
    ) -> dict[str, Any]:
        return self.inner.params_for(temperature, top_p, max_tokens)

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
        params = self.inner.params_for(temperature, top_p, max_tokens)
        key = None
        if self.cached is not None:
            key = self.cached.key(messages, schema, params, prompt_version)
            if not self.broker.answered(self.inner, messages, schema, params):
                hit = self.cached.lookup(key, schema)
                if hit is not None:
                    return hit
        call = functools.partial(self.broker.answer, self.inner, self.stage)
        response = self.inner.complete_with(
            call, messages, schema, params, self.inner.spec.batch_cost
        )
        if self.cached is not None and key is not None:
            self.cached.cache.put(key, self.provider, prompt_version, response)
        return response
