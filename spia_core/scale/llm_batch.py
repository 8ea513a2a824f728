"""``--llm-mode batch``: a dataset run whose LLM requests go through provider batch APIs.

The SPIA adversary is two-stage (Stage A finds the subjects, Stage B infers their PII from
Stage A's answer), and the judge needs the inference, so the run goes in rounds. Every
waiting document is audited (replayed) with batch-backed LLMs: a document whose next request
has no answer yet is suspended, its request queued. Then one provider batch per backbone and
stage is submitted, polled until it ends, and its answers stored; the suspended documents are
replayed. Round 1 is Stage A of every document, round 2 Stage B, round 3 the judge, and so
on, until every document has finished. Replays recompute only local work; an answer is
never requested twice (cache, then the run's stored batches). The anonymizer (if an LLM)
runs interactively, answered from the response cache in later replays.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from spia_core.llm.batch_api import BatchError, BatchPending
from spia_core.llm.batch_broker import BatchBroker, BatchUnsupported, batch_api_of

#: The stages whose LLM requests are batched (the anonymizer is not: see the module doc).
BATCH_STAGES = ("adversary", "matcher", "judge", "utility")
#: Most rounds one document may need (Stage A, Stage B, judge, matcher, utility, repairs);
#: more means a request changes between replays, which batching cannot answer.
MAX_ROUNDS = 16


def batch_components(components: Any, broker: BatchBroker) -> Any:
    """A copy of ``components`` whose inference, matcher, judge and utility LLMs are batched."""
    check_batchable(components)
    changes = {stage: _batched(getattr(components, stage), broker, stage) for stage in BATCH_STAGES}
    return dataclasses.replace(components, **changes)


def check_batchable(components: Any) -> None:
    """Raise :class:`BatchUnsupported` for a batched stage whose backbone has no batch API,
    and for an LLM anonymizer without the response cache (asked again in every round)."""
    from spia_core.llm.cache import CachedLLM

    anonymizer_llm = getattr(components.anonymizer, "llm", None)
    if anonymizer_llm is not None and not isinstance(anonymizer_llm, CachedLLM):
        raise BatchUnsupported(
            "--llm-mode batch with an LLM anonymizer needs the response cache (the anonymizer "
            "runs interactively and each document is replayed once per round): drop --no-cache"
        )
    for stage in BATCH_STAGES:
        llm = getattr(getattr(components, stage), "llm", None)
        if llm is not None:
            batch_api_of(llm, stage)


def _batched(component: Any, broker: BatchBroker, stage: str) -> Any:
    llm = getattr(component, "llm", None)
    if llm is None:
        return component
    bound = copy.copy(component)
    bound.llm = broker.wrap(llm, stage)
    return bound


def run_in_rounds(
    todo: Iterable[Any],
    work: Callable[[Any], Any],
    broker: BatchBroker,
    *,
    cancel: threading.Event | None = None,
) -> Iterator[Any]:
    """``work(doc)`` for every document, replayed after each batch round until it finishes.

    Outcomes are yielded as documents finish (each is saved at once by the caller), so a
    killed run keeps every finished document and its stored batches.
    """
    waiting = list(todo)
    for round_no in range(1, MAX_ROUNDS + 2):
        suspended = []
        for doc in waiting:
            if cancel is not None and cancel.is_set():
                return
            broker.document = doc.data_id
            try:
                outcome = work(doc)
            except BatchPending:
                suspended.append(doc)
                continue
            yield outcome
        if not suspended:
            return
        if round_no > MAX_ROUNDS or not broker.has_work():
            raise BatchError(
                f"{len(suspended)} document(s) still wait for LLM answers after {round_no} "
                "batch round(s): a request changes between replays (a non-deterministic "
                "stage?); run them with --llm-mode interactive"
            )
        broker.run_round()
        waiting = suspended


__all__ = [
    "BATCH_STAGES",
    "BatchUnsupported",
    "batch_components",
    "check_batchable",
    "run_in_rounds",
]
