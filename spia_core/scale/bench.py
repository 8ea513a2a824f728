"""``bench scale``: documents per second on one worker, every core and a local 2-worker Ray
instance; one audit beside one Presidio ``analyze``; LLM wall time at concurrency 1, 8 and 32
against the local OpenAI-compatible test server (300 ms per call). All measured in one run."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from spia_core.scale.pool import available_cores


def repeated_corpus(n: int, seed: int = 7) -> Any:
    """``n`` distinct documents: the bundled texts (TAB-144 and PANORAMA-151) repeated, each
    copy made a text of its own (:func:`copy_variant`), and shuffled."""
    from spia_core.batch import DatasetRef
    from spia_core.datasets import load_bundled
    from spia_core.model import Document

    base = load_bundled("TAB-144") + load_bundled("PANORAMA-151")
    rng = random.Random(seed)
    docs = []
    for i in range(n):
        src = base[i % len(base)]
        text = copy_variant(src.text, i // len(base))
        docs.append(Document(f"{src.data_id}~{i}", text, src.subjects, src.entities))
    rng.shuffle(docs)
    return DatasetRef(name=f"repeated-{n}", documents=docs, hash=f"repeated-{n}-{seed}-v2")


def copy_variant(text: str, k: int) -> str:
    """Copy ``k`` of ``text`` (0: the text itself): the spaces after its first ``k`` sentence
    ends (then after any word) become line breaks. Same length, so every ground-truth offset
    holds; same words, so the same meaning; but a different text, so no copy is served from
    another's spaCy parse (``nlp.parse``'s cache is keyed by text): each copy costs what a
    new document costs, whatever the order the runs take them in."""
    if k <= 0:
        return text
    ends = [i for i in range(1, len(text)) if text[i] == " " and text[i - 1] in ".!?"]
    spaces = ends + [i for i in range(len(text)) if text[i] == " " and i not in set(ends)]
    if len(spaces) < k:
        raise ValueError(f"a text with {len(spaces)} spaces has no copy {k}")
    chars = list(text)
    for i in spaces[:k]:
        chars[i] = "\n"
    return "".join(chars)


def _cpu_s() -> float:
    """CPU seconds of this process and its reaped children (the fork pool's workers)."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def machine_cpu_s() -> float | None:
    """CPU seconds every process of the machine has used since boot (/proc/stat; None where
    there is none): the difference over a run, minus the run's own CPU seconds, is what other
    processes took from it."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    except (OSError, ValueError):
        return None
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _others(machine0: float | None, own_cpu: float | None) -> float | None:
    """CPU seconds other processes used since ``machine0`` (None when unknown)."""
    machine1 = machine_cpu_s()
    if machine0 is None or machine1 is None:
        return None
    return round(machine1 - machine0 - (own_cpu or 0.0), 1)


def _run(ref: Any, workers: int, engine: str, tmp: Path) -> tuple[float, list[dict[str, Any]]]:
    from spia_core.batch import BatchConfig, result_record, run_batch
    from spia_core.pipeline import AuditConfig

    cfg = BatchConfig(
        dataset=ref.name,
        audit=AuditConfig(anonymizer="ner-mask", dataset=ref.name),
        workers=workers,
        engine=engine,
        resume=False,
        data_dir=tmp / f"{ref.name}-{engine}-{workers}",
    )
    t0 = time.perf_counter()
    result = run_batch(cfg, progress=False, dataset=ref)
    wall = time.perf_counter() - t0
    records = []
    for outcome in result.outcomes:
        rec = result_record(outcome)
        rec.pop("timings", None)
        rec["summary"].pop("elapsed_s", None)
        records.append(rec)
    return wall, records


def _cold_child(ref: Any, workers: int, tmp: str, conn: Any) -> None:
    c0 = _cpu_s()
    wall, records = _run(ref, workers, "local", Path(tmp))
    conn.send((wall, _cpu_s() - c0, records))
    conn.close()


def _run_cold(ref: Any, workers: int, tmp: Path) -> tuple[float, float, list[dict[str, Any]]]:
    """A local run in a fresh interpreter: like `evaluate`, it loads the model, lexicons and
    gazetteers itself (a run in this process would find them loaded by the run before it).
    Returns (wall seconds, CPU seconds of that process and its pool workers, records)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_cold_child, args=(ref, workers, str(tmp), child))
    proc.start()
    child.close()
    try:
        return parent.recv()
    finally:
        proc.join()


def _start_ray(workers: int) -> bool:
    """A local Ray instance started before the timing (the start itself is not the batch)."""
    from spia_core.scale.ray_engine import _ray, start

    return start(_ray(), workers, None)


def offline_scaling(ref: Any, tmp: Path) -> dict[str, Any]:
    """docs/s at 1 worker, every core and 2 Ray workers, efficiency, identical results. Each
    run starts cold, as `evaluate` does: the local ones in a fresh interpreter, Ray's actors
    in their own processes (its instance is started before the timing)."""
    cores = available_cores()
    m0 = machine_cpu_s()
    one_s, one_cpu, one = _run_cold(ref, 1, tmp)
    one_others, m0 = _others(m0, one_cpu), machine_cpu_s()
    all_s, all_cpu, every = _run_cold(ref, cores, tmp)
    all_others = _others(m0, all_cpu)
    out: dict[str, Any] = {
        "n_docs": len(ref.documents),
        "cores": cores,
        "one_worker_s": round(one_s, 1),
        "one_worker_docs_per_s": round(len(ref.documents) / one_s, 3),
        "all_cores_s": round(all_s, 1),
        "all_cores_docs_per_s": round(len(ref.documents) / all_s, 3),
        "all_cores_speedup": round(one_s / all_s, 2),
        "all_cores_efficiency": round(one_s / all_s / cores, 2),
        "all_cores_identical": every == one,
        # CPU seconds (the run's process + pool workers): what it cost, whatever else ran
        "one_worker_cpu_s": round(one_cpu, 1),
        "all_cores_cpu_s": round(all_cpu, 1),
        # CPU seconds other processes of the machine took during each run (/proc/stat)
        "one_worker_others_cpu_s": one_others,
        "all_cores_others_cpu_s": all_others,
    }
    try:
        started = _start_ray(2)
    except ImportError as exc:
        out["ray"] = f"not measured: {exc}"
        return out
    try:
        m0 = machine_cpu_s()
        ray_s, on_ray = _run(ref, 2, "ray", tmp)
        ray_machine = _others(m0, 0.0)
    finally:
        if started:
            import ray

            ray.shutdown()
    out.update(
        {
            "ray_2_workers_s": round(ray_s, 1),
            "ray_2_workers_docs_per_s": round(len(ref.documents) / ray_s, 3),
            "ray_2_workers_speedup": round(one_s / ray_s, 2),
            "ray_2_workers_efficiency": round(one_s / ray_s / 2, 2),
            "ray_identical": on_ray == one,
            # every process of the machine: Ray's driver, actors and anything else
            "ray_machine_cpu_s": ray_machine,
        }
    )
    return out


def audit_vs_presidio(docs: list[Any]) -> dict[str, Any]:
    """Median wall time of one full audit (ner-mask + local adversary) and of one Presidio
    ``analyze`` of the same documents, interleaved, after a warm-up of each."""
    from spia_core.anonymizers.presidio_anonymizer import _engines
    from spia_core.nlp import clear_parse_cache
    from spia_core.pipeline import AuditConfig, audit, build_components

    config = AuditConfig(anonymizer="ner-mask", dataset="TAB-144")
    comps = build_components(config)
    analyzer = _engines()[0]
    audit(docs[0], config, components=comps)
    analyzer.analyze(text=docs[0].text, language="en")
    ours, theirs, ours_cpu, theirs_cpu = [], [], [], []
    for doc in docs[1:]:
        clear_parse_cache()  # no help from an earlier parse of the same text
        t0, c0 = time.perf_counter(), time.process_time()
        audit(doc, config, components=comps)
        ours.append(time.perf_counter() - t0)
        ours_cpu.append(time.process_time() - c0)
        t0, c0 = time.perf_counter(), time.process_time()
        analyzer.analyze(text=doc.text, language="en")
        theirs.append(time.perf_counter() - t0)
        theirs_cpu.append(time.process_time() - c0)
    a, p = statistics.median(ours), statistics.median(theirs)
    a_cpu, p_cpu = statistics.median(ours_cpu), statistics.median(theirs_cpu)
    return {
        "n_docs": len(ours),
        "audit_median_s": round(a, 3),
        "presidio_analyze_median_s": round(p, 3),
        "ratio": round(a / p, 2),
        # CPU seconds: less sensitive than wall time to what else runs on the machine
        "audit_cpu_median_s": round(a_cpu, 3),
        "presidio_analyze_cpu_median_s": round(p_cpu, 3),
        "cpu_ratio": round(a_cpu / p_cpu, 2),
        "target_ratio": 1.2,
    }


#: Parts of ``bench scale`` (``--parts``), in the order they run.
PARTS: tuple[str, ...] = ("presidio", "tab", "corpus", "llm")


def parts_arg(value: str) -> tuple[str, ...]:
    """``--parts presidio,tab``: the parts to run (argparse type; unknown names are refused)."""
    parts = tuple(p.strip() for p in value.split(",") if p.strip())
    unknown = [p for p in parts if p not in PARTS]
    if unknown or not parts:
        raise argparse.ArgumentTypeError(
            f"unknown part(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(PARTS)}"
        )
    return parts


def machine_load() -> dict[str, Any]:
    """Load averages and cores: what else the machine was doing while the figures were taken."""
    one, five, fifteen = os.getloadavg()
    return {
        "utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "loadavg_1_5_15": [round(one, 2), round(five, 2), round(fifteen, 2)],
        "cores": available_cores(),
    }


def run_scale(args: argparse.Namespace) -> dict[str, Any]:
    """The whole ``bench scale`` (see the module docstring); ``args.parts`` picks parts."""
    from spia_core.batch import load_dataset_ref

    parts = getattr(args, "parts", None) or PARTS
    if getattr(args, "no_llm", False):
        parts = tuple(p for p in parts if p != "llm")
    out: dict[str, Any] = {"machine at start": machine_load()}
    tab = load_dataset_ref("TAB-144")
    if args.limit:
        tab.documents = tab.documents[: args.limit]
    if "presidio" in parts:
        out["audit_vs_presidio (TAB)"] = audit_vs_presidio(tab.documents[: args.timing_docs + 1])
    with tempfile.TemporaryDirectory(prefix="spia-bench-scale-") as tmp:
        if "tab" in parts:
            out[f"offline {tab.name} ({len(tab.documents)})"] = offline_scaling(tab, Path(tmp))
        if "corpus" in parts:
            corpus = repeated_corpus(args.corpus_size)
            out[f"offline repeated corpus ({args.corpus_size})"] = offline_scaling(
                corpus, Path(tmp)
            )
        if "llm" in parts:
            out["llm PANORAMA-151 (300 ms per call)"] = llm_concurrency(Path(tmp), args)
    out["machine at end"] = machine_load()
    return out


def llm_concurrency(tmp: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Wall time and calls per document at concurrency 1, 8, 32 on the local test server."""
    from spia_core.scale.llm_server import server_process

    out: dict[str, Any] = {"server": "tests/llm_test_server.py in a process of its own"}
    levels = [int(c) for c in args.concurrency_levels.split(",")]
    limit = args.llm_limit
    with server_process(delay=0.3) as server:
        if server is None:
            return {"skipped": "tests/llm_test_server.py is not importable (run from a checkout)"}
        for c in levels:
            out[f"concurrency_{c}"] = _llm_run(server, c, limit, tmp / f"llm-c{c}")
    base = out[f"concurrency_{levels[0]}"]["wall_s"]
    for c in levels[1:]:
        out[f"concurrency_{c}"][f"speedup_vs_c{levels[0]}"] = round(
            base / out[f"concurrency_{c}"]["wall_s"], 1
        )
    return out


def _llm_run(server: Any, concurrency: int, limit: int | None, tmp: Path) -> dict[str, Any]:
    from spia_core.batch import BatchConfig, run_batch
    from spia_core.llm.connection import CallPolicy
    from spia_core.pipeline import AuditConfig

    config = AuditConfig(
        anonymizer="none",
        adversary="llm",
        adversary_backbone="llama-3.1-8b",
        base_url=server.base_url,
        dataset="PANORAMA-151",
    )
    cfg = BatchConfig(
        dataset="PANORAMA-151",
        audit=config,
        limit=limit,
        concurrency=concurrency,
        resume=False,
        cache=False,
        data_dir=tmp,
        llm_policy=CallPolicy(max_concurrency=concurrency),
    )
    n0 = server.n_requests()
    t0 = time.perf_counter()
    result = run_batch(cfg, progress=False)
    wall = time.perf_counter() - t0
    calls = server.n_requests() - n0
    n = result.summary["n_docs"]
    return {
        "n_docs": n,
        "wall_s": round(wall, 1),
        "calls": calls,
        "calls_per_doc": round(calls / max(1, n), 2),
        "n_failed": result.summary["n_failed"],
    }


def print_json(result: dict[str, Any]) -> str:
    with contextlib.suppress(TypeError):
        return json.dumps(result, indent=2)
    return str(result)
