"""``--concurrency`` governs LLM calls for every backbone (the catalog cap included), a warning
says when it replaces a cap, and SDK clients are warmed before the threads start."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from spia_core.batch import BatchConfig, run_batch
from spia_core.llm.connection import CallPolicy
from spia_core.pipeline import AuditConfig, build_components
from spia_core.scale.concurrency import concurrency_notes, warm_llm_clients
from spia_core.scale.llm_server import answer
from tests.llm_test_server import Reply, ScriptedServer

LOCAL = "llama-3.1-8b"  # the catalog caps local backbones at 1 concurrent call


def _config(url: str) -> AuditConfig:
    return AuditConfig(
        anonymizer="none",
        adversary="llm",
        adversary_backbone=LOCAL,
        base_url=url,
        dataset="PANORAMA-151",
    )


def test_warning_names_the_catalog_cap_it_replaces() -> None:
    notes = concurrency_notes(_config("http://127.0.0.1:9/v1"), 8)
    assert len(notes) == 1 and LOCAL in notes[0] and "caps" in notes[0] and "8" in notes[0]


def test_clients_are_warmed_in_the_calling_thread() -> None:
    comps = build_components(_config("http://127.0.0.1:9/v1"), cache=False)
    assert warm_llm_clients(comps) >= 1


def test_concurrency_raises_the_local_backbone_cap(tmp_path: Path) -> None:
    state = {"now": 0, "peak": 0}
    lock = threading.Lock()

    def responder(body: dict[str, Any]) -> Reply:
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.2)
        with lock:
            state["now"] -= 1
        return Reply(content=answer(body))

    with ScriptedServer() as server:
        server.responder = responder
        cfg = BatchConfig(
            dataset="PANORAMA-151",
            audit=_config(server.base_url),
            limit=8,
            concurrency=8,
            resume=False,
            cache=False,
            data_dir=tmp_path,
            llm_policy=CallPolicy(max_concurrency=8),
        )
        result = run_batch(cfg, progress=False)
    assert result.summary["n_failed"] == 0
    assert state["peak"] > 1  # the catalog's cap of 1 no longer applies
