"""bench scale: the repeated corpus, the --parts choice and the machine-load record."""

from __future__ import annotations

import argparse

import pytest

from spia_core.scale.bench import PARTS, machine_load, parts_arg, repeated_corpus


def test_repeated_corpus_has_unique_ids_and_every_bundled_text() -> None:
    ref = repeated_corpus(600)
    ids = [d.data_id for d in ref.documents]
    assert len(ids) == 600 == len(set(ids))
    texts = {d.text for d in ref.documents}
    assert len(texts) == 295  # TAB-144 + PANORAMA-151, each at least twice
    assert ids != sorted(ids, key=lambda i: int(i.rsplit("~", 1)[1]))  # shuffled
    assert [d.data_id for d in repeated_corpus(600).documents] == ids  # same seed, same order


def test_parts_are_checked() -> None:
    assert parts_arg("tab, llm") == ("tab", "llm")
    assert set(PARTS) == {"presidio", "tab", "corpus", "llm"}
    for bad in ("", "tab,gpu"):
        with pytest.raises(argparse.ArgumentTypeError, match="unknown part"):
            parts_arg(bad)


def test_machine_load_names_cores_and_load() -> None:
    load = machine_load()
    assert load["cores"] >= 1 and len(load["loadavg_1_5_15"]) == 3


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
