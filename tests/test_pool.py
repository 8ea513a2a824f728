"""The fork pool: same results as one process, workers inherit the model, none outlives a kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spia_core.scale import pool

ROOT = Path(__file__).resolve().parents[1]


def test_resolve_workers() -> None:
    assert pool.resolve_workers("auto") == pool.available_cores()
    assert pool.resolve_workers(None) == pool.available_cores()
    assert pool.resolve_workers("3") == 3
    for bad in ("0", "-1", "many"):
        with pytest.raises(ValueError, match="--workers"):
            pool.resolve_workers(bad)


def _strip_timings(record: dict) -> dict:
    out = {k: v for k, v in record.items() if k not in {"timings"}}
    out["summary"] = {k: v for k, v in record["summary"].items() if k != "elapsed_s"}
    return out


def test_two_workers_match_one_process(tmp_path: Path) -> None:
    from spia_core.batch import BatchConfig, result_record, run_batch
    from spia_core.pipeline import AuditConfig

    config = AuditConfig(anonymizer="ner-mask", dataset="TAB-144")
    runs = {}
    for workers in (1, 2):
        cfg = BatchConfig(
            dataset="TAB-144",
            audit=config,
            limit=4,
            workers=workers,
            resume=False,
            data_dir=tmp_path / f"w{workers}",
        )
        result = run_batch(cfg, progress=False)
        runs[workers] = [_strip_timings(result_record(o)) for o in result.outcomes]
    assert [r["data_id"] for r in runs[1]] == [r["data_id"] for r in runs[2]]
    assert runs[1] == runs[2]


def test_run_forked_inherits_parent_state() -> None:
    marker = {"loaded": os.getpid()}  # built in the parent, read in the children

    def work(i: int) -> tuple[int, int, int]:
        return i, marker["loaded"], os.getpid()

    got = sorted(pool.run_forked(range(6), work, workers=2))
    assert [g[0] for g in got] == list(range(6))
    assert {g[1] for g in got} == {os.getpid()}
    assert {g[2] for g in got} - {os.getpid()}  # ran in other processes


def test_run_forked_starts_the_biggest_items_first() -> None:
    def work(n: int) -> tuple[int, float]:
        started = time.monotonic()
        time.sleep(0.3)
        return n, started

    got = list(pool.run_forked([1, 5, 2, 9, 3], work, workers=2, size=lambda n: n))
    by_start = [n for n, _ in sorted(got, key=lambda g: g[1])]
    assert sorted(by_start[:2]) == [5, 9] and sorted(n for n, _ in got) == [1, 2, 3, 5, 9]


def _children(pid: int) -> set[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return set()
    return {int(x) for x in text.split()}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and prctl")
def test_workers_die_when_the_parent_is_killed(tmp_path: Path) -> None:
    cmd = [
        sys.executable,
        "-m",
        "spia_core",
        "evaluate",
        "--dataset",
        "TAB-144",
        "--anonymizer",
        "ner-mask",
        "--limit",
        "40",
        "--workers",
        "2",
        "--quiet",
        "--out",
        str(tmp_path / "out"),
        "--data-dir",
        str(tmp_path / "store"),
    ]
    parent = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            workers = {c for c in _children(parent.pid) if _alive(c)}
            time.sleep(0.2)
        assert len(workers) >= 2, "the pool never started"
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "pool workers outlived their killed parent"
