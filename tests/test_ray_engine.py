"""``--engine ray``: a local two-worker Ray instance gives the local run's results, and a lost
worker is restarted and its document retried without counting anything twice."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray") if os.environ.get("SPIA_ALLOW_NO_RAY") else __import__("ray")

from spia_core.scale.check import CheckWorker  # noqa: E402
from spia_core.scale.discover import discover  # noqa: E402
from spia_core.scale.ray_engine import run_on_ray  # noqa: E402
from tests._redacted_corpus import DiesOnce, write_corpus  # noqa: E402


def _strip(record: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in record.items() if k not in {"timings", "elapsed_s", "_report"}}
    if isinstance(out.get("summary"), dict):
        out["summary"] = {k: v for k, v in out["summary"].items() if k != "elapsed_s"}
    return out


def test_evaluate_on_two_ray_workers_matches_local(tmp_path: Path) -> None:
    from spia_core.batch import BatchConfig, result_record, run_batch
    from spia_core.pipeline import AuditConfig

    config = AuditConfig(anonymizer="ner-mask", dataset="TAB-144")
    records = {}
    for engine, workers in (("local", 1), ("ray", 2)):
        cfg = BatchConfig(
            dataset="TAB-144",
            audit=config,
            limit=6,
            workers=workers,
            engine=engine,
            resume=False,
            data_dir=tmp_path / engine,
        )
        result = run_batch(cfg, progress=False)
        records[engine] = [_strip(result_record(o)) for o in result.outcomes]
        assert result.summary["n_docs"] == 6 and result.summary["n_failed"] == 0
    assert records["ray"] == records["local"]


def test_check_on_ray_survives_a_lost_worker(tmp_path: Path) -> None:
    write_corpus(tmp_path / "in", 10)
    inputs = discover([str(tmp_path / "in")])
    spec = {
        "out_dir": str(tmp_path / "out"),
        "config": {"anonymizer": "provided", "adversary": "local"},
    }
    (tmp_path / "out").mkdir()
    on_ray = list(run_on_ray(inputs, DiesOnce, spec, workers=2))
    assert (tmp_path / "out" / "killed-once").is_file()  # a worker really died
    local_worker = CheckWorker({**spec, "out_dir": str(tmp_path / "local")})
    local = [local_worker(i) for i in inputs]
    by_id = {r["data_id"]: _strip(r) for r in on_ray}
    assert len(on_ray) == len(by_id) == len(inputs)  # each document once
    for row in local:
        got = by_id[row["data_id"]]
        assert got["status"] == "ok"
        assert {k: v for k, v in got.items() if k != "source"} == {
            k: v for k, v in _strip(row).items() if k != "source"
        }
