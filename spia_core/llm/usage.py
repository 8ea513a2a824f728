"""Per-stage usage accounting: calls, cache hits, tokens, cost and latency (model.StageUsage)."""

from __future__ import annotations

import threading
from typing import Any

from spia_core.llm.base import LLM, LLMError, LLMResponse, Message
from spia_core.model import StageUsage


class UsageRecorder:
    """Collects :class:`StageUsage` per stage name; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stages: dict[str, StageUsage] = {}

    def record(self, stage: str, response: LLMResponse) -> None:
        with self._lock:
            usage = self._stages.setdefault(stage, StageUsage())
            usage.latency_s += response.latency_s
            if response.cached:
                usage.cache_hits += 1
                return
            usage.calls += response.calls
            usage.input_tokens += response.usage.input_tokens
            usage.output_tokens += response.usage.output_tokens
            usage.cost_usd += response.cost_usd

    def record_failure(self, stage: str, error: BaseException) -> None:
        """Count the calls (and tokens, when known) of a completion that failed."""
        with self._lock:
            usage = self._stages.setdefault(stage, StageUsage())
            usage.calls += int(getattr(error, "calls", 1))
            tokens = getattr(error, "usage", None)
            usage.input_tokens += getattr(tokens, "input_tokens", 0)
            usage.output_tokens += getattr(tokens, "output_tokens", 0)

    def wrap(self, llm: LLM, stage: str) -> RecordingLLM:
        """``llm`` with every completion recorded under ``stage``."""
        return RecordingLLM(llm, self, stage)

    def snapshot(self) -> dict[str, StageUsage]:
        """A copy of the per-stage usage (for AuditReport.usage)."""
        with self._lock:
            return {k: StageUsage(**vars(v)) for k, v in self._stages.items()}

    def total(self) -> StageUsage:
        total = StageUsage()
        for usage in self.snapshot().values():
            for name, value in vars(usage).items():
                setattr(total, name, getattr(total, name) + value)
        return total


class RecordingLLM:
    """An LLM wrapper that reports each completion to a :class:`UsageRecorder`."""

    def __init__(self, inner: LLM, recorder: UsageRecorder, stage: str) -> None:
        self.inner = inner
        self.recorder = recorder
        self.stage = stage
        self.provider = inner.provider
        self.model = inner.model

    @property
    def spec(self) -> Any:
        return getattr(self.inner, "spec", None)

    def complete(self, messages: list[Message], **kwargs: Any) -> LLMResponse:
        try:
            response = self.inner.complete(messages, **kwargs)
        except LLMError as exc:
            self.recorder.record_failure(self.stage, exc)
            raise
        self.recorder.record(self.stage, response)
        return response
