"""Fault injection for the scripted OpenAI-compatible server (tests/llm_test_server.py).

:class:`FaultInjector` wraps a responder: a seeded share of the requests get a fault instead
of the answer, cycling through every kind the client must survive: 429 with Retry-After,
500, 503, a hang (longer than the client timeout), a dropped connection, a truncated body,
a malformed 200 body, an answer that breaks the schema, an empty ``choices`` list and a
refusal. Everything else is answered by the wrapped responder, so a faulty run and a
fault-free run see the same answers wherever a call succeeds.
"""

from __future__ import annotations

import collections
import json
import random
import threading
from collections.abc import Callable
from typing import Any

from llm_test_server import Reply

KINDS: tuple[str, ...] = (
    "rate_limit",
    "server_500",
    "server_503",
    "hang",
    "reset",
    "truncated",
    "malformed",
    "wrong_schema",
    "empty_choices",
    "refusal",
)


class FaultInjector:
    """A responder: ``rate`` of the requests get the next fault kind (seeded, thread-safe)."""

    def __init__(
        self,
        answer: Callable[[dict[str, Any]], Reply],
        *,
        rate: float,
        seed: int = 15,
        hang_s: float = 1.0,
        kinds: tuple[str, ...] = KINDS,
    ) -> None:
        self.answer = answer
        self.rate = rate
        self.hang_s = hang_s
        self.kinds = kinds
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._next = 0
        self.requests = 0
        self.injected: collections.Counter[str] = collections.Counter()

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests += 1
            kind = None
            if self._rng.random() < self.rate:
                kind = self.kinds[self._next % len(self.kinds)]
                self._next += 1
                self.injected[kind] += 1
        return self.answer(body) if kind is None else self.fault(kind, body)

    def fault(self, kind: str, body: dict[str, Any]) -> Reply:
        """The scripted reply of one fault kind."""
        if kind == "rate_limit":
            return Reply(status=429, content=None, headers={"Retry-After": "0.05"})
        if kind in ("server_500", "server_503"):
            return Reply(status=int(kind[-3:]), content=None)
        if kind == "hang":
            return Reply(content="{}", delay=self.hang_s)
        if kind == "reset":
            return Reply(reset=True)
        if kind == "truncated":
            return Reply(content=self.answer(body).content, truncate=True)
        if kind == "malformed":
            return Reply(raw='{"choices": [{"message": {"content": "')
        if kind == "wrong_schema":
            return Reply(content=json.dumps({"unexpected": True}))
        if kind == "empty_choices":
            return Reply(choices=False)
        if kind == "refusal":
            if body.get("response_format"):
                return Reply(content=None, refusal="I can't help with that request.")
            return Reply(content="I'm sorry, but I can't help with that.")
        raise ValueError(f"unknown fault kind {kind!r}")
