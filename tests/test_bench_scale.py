"""bench scale: the repeated corpus, the --parts choice and the machine-load record."""

from __future__ import annotations

import argparse
import time

import pytest

from spia_core.scale.bench import PARTS, copy_variant, machine_load, parts_arg, repeated_corpus


def test_repeated_corpus_has_unique_ids_and_distinct_texts() -> None:
    ref = repeated_corpus(600)
    ids = [d.data_id for d in ref.documents]
    assert len(ids) == 600 == len(set(ids))
    # every copy is a text of its own (no copy is served from another's cached parse)
    assert len({d.text for d in ref.documents}) == 600
    first = {
        d.data_id.split("~")[0]: d.text
        for d in ref.documents
        if int(d.data_id.rsplit("~")[1]) < 295
    }
    assert len(first) == 295  # TAB-144 + PANORAMA-151 as bundled, then their copies
    for doc in ref.documents:  # ground-truth offsets still point at the same words
        text = first[doc.data_id.split("~")[0]]
        assert len(doc.text) == len(text)
        for m in doc.entities or []:
            assert doc.text[m.start : m.end].split() == text[m.start : m.end].split()
    assert ids != sorted(ids, key=lambda i: int(i.rsplit("~", 1)[1]))  # shuffled
    assert [d.data_id for d in repeated_corpus(600).documents] == ids  # same seed, same order


def test_copy_variant_keeps_length_and_words() -> None:
    text = "Ann moved to Leeds. She works nights! Does she like it? Yes a lot"
    assert copy_variant(text, 0) == text
    one, two = copy_variant(text, 1), copy_variant(text, 2)
    assert one == "Ann moved to Leeds.\nShe works nights! Does she like it? Yes a lot"
    assert two == "Ann moved to Leeds.\nShe works nights!\nDoes she like it? Yes a lot"
    assert len({text, one, two, copy_variant(text, 4)}) == 4
    assert all(len(v) == len(text) and v.split() == text.split() for v in (one, two))
    with pytest.raises(ValueError, match="no copy"):
        copy_variant("a b", 2)


def test_parts_are_checked() -> None:
    assert parts_arg("tab, llm") == ("tab", "llm")
    assert set(PARTS) == {"presidio", "tab", "corpus", "llm"}
    for bad in ("", "tab,gpu"):
        with pytest.raises(argparse.ArgumentTypeError, match="unknown part"):
            parts_arg(bad)


def test_machine_load_names_cores_and_load() -> None:
    load = machine_load()
    assert load["cores"] >= 1 and len(load["loadavg_1_5_15"]) == 3


def test_machine_cpu_seconds_grow_with_work_done() -> None:
    from spia_core.scale.bench import machine_cpu_s

    before = machine_cpu_s()
    if before is None:  # no /proc/stat (not Linux)
        return
    t0 = time.process_time()
    while time.process_time() - t0 < 0.3:
        pass
    assert machine_cpu_s() - before >= 0.2  # this process's own CPU is part of it


def test_the_test_server_runs_in_a_process_of_its_own_and_counts_requests() -> None:
    import json
    import os
    import urllib.request

    from spia_core.scale.llm_server import server_process

    with server_process(delay=0.0) as server:
        assert server is not None
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        req = urllib.request.Request(
            f"{server.base_url}/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            answer = json.loads(resp.read())
        assert answer["choices"][0]["message"]["content"] == "OK"
        assert server.n_requests() == 1
        assert server._process_id != os.getpid()
