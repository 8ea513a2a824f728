"""``evaluate`` with LLM stages against the scripted local server, and with --anonymized.

The CLI runs in-process (``spia_core.cli.main``); the server runs in this process on 127.0.0.1
and answers through the real openai SDK. Checked: exact call counts, concurrency, the usage
lines and manifest, resume after a failure, a rerun served from the response cache.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from llm_test_server import Reply, ScriptedServer
from test_llm_integration import responder, spia_answer

from spia_core.cli import main
from spia_core.datasets import load_bundled
from spia_core.store import ResultStore

MODEL = "test-local"


@pytest.fixture
def catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A catalog with one local model allowing 4 concurrent calls."""
    path = tmp_path / "models.json"
    entry = {
        "id": MODEL,
        "provider": "openai-compatible",
        "model": "served-model",
        "structured_output": "json_schema",
        "max_concurrency": 4,
        "input_price_per_mtok": 1.0,
        "output_price_per_mtok": 2.0,
    }
    path.write_text(json.dumps({"models": [entry]}), encoding="utf-8")
    monkeypatch.setenv("SPIA_MODELS_JSON", str(path))
    return path


class Tracking:
    """A responder that counts concurrent requests and can fail one document's alignment."""

    def __init__(self, fail_text: str | None = None) -> None:
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        self.fail_text = fail_text

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self.lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            time.sleep(0.05)
            name = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
            user = body["messages"][-1]["content"]
            if name == "alignment" and self.fail_text and self.fail_text in user:
                return Reply(status=400, content=None)
            return Reply(content=spia_answer(body))
        finally:
            with self.lock:
                self.in_flight -= 1


def _evaluate(server: ScriptedServer, out: Path, store: Path, *extra: str) -> int:
    return main(
        [
            "evaluate",
            "--dataset",
            "PANORAMA-151",
            "--anonymizer",
            "deid-gpt",
            "--backbone",
            MODEL,
            "--adversary",
            "llm",
            "--adversary-backbone",
            MODEL,
            "--matcher",
            "llm",
            "--matcher-backbone",
            MODEL,
            "--judge",
            "llm",
            "--judge-backbone",
            MODEL,
            "--base-url",
            server.base_url,
            "--limit",
            "3",
            "--concurrency",
            "3",
            "--out",
            str(out),
            "--data-dir",
            str(store),
            "--quiet",
            *extra,
        ]
    )


def _usage_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("usage ", "n_", "cpr"))]


def test_evaluate_llm_resume_and_cache(catalog: Path, tmp_path: Path, capsys: Any) -> None:
    docs = load_bundled("PANORAMA-151")[:3]
    out, store = tmp_path / "out", tmp_path / "store"
    tracking = Tracking(fail_text=docs[1].text[:60])
    with ScriptedServer() as server:
        server.responder = tracking
        # run 1: the second document's alignment fails -> recorded, exit 1
        assert _evaluate(server, out, store) == 1
        first = capsys.readouterr()
        n1 = len(server.requests)
        summary = json.loads((out / "summary.json").read_text())
        with capsys.disabled():
            print(f"\nrun 1: {n1} HTTP calls", *_usage_lines(first.out), sep="\n  ")
        assert "LLM stage adversary: the anonymized text -> local server" in first.err
        assert summary["n_docs"] == 3 and summary["n_failed"] == 1
        assert summary["usage"]["total"]["calls"] == n1
        assert summary["usage"]["anonymize"]["calls"] == 3
        assert summary["usage"]["adversary"]["calls"] == 9
        assert summary["usage"]["matcher"]["calls"] == 3
        assert n1 == 15 + summary["usage"].get("judge", {}).get("calls", 0) <= 18
        total = summary["usage"]["total"]
        assert total["output_tokens"] == 10 * (n1 - 1)  # the failed call has no usage
        assert total["cost_usd"] == pytest.approx(
            (total["input_tokens"] * 1.0 + total["output_tokens"] * 2.0) / 1e6
        )
        assert tracking.max_in_flight >= 2, "documents were not processed concurrently"
        assert summary["prompt_versions"]["deid_gpt"] == "deid_gpt.v1"
        assert summary["models"]["adversary"] == "openai-compatible/served-model"
        results = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
        failed = [r for r in results if r["status"] == "failed"]
        assert [r["data_id"] for r in failed] == [docs[1].data_id]
        assert "match" in failed[0]["error"] and "bad_request" in failed[0]["error"]
        with ResultStore(store) as db:
            run = db.load_run(summary["run_id"])
        assert run.prompt_versions["prompt:subject_alignment"] == "subject_alignment.v1"
        assert run.summary["usage"]["total"]["calls"] == n1

        # run 2: healthy server; the two finished documents are resumed, the failed one is
        # retried: its anonymization and inference come from the cache, only the matcher
        # (and the judge) call the server
        tracking.fail_text = None
        assert _evaluate(server, out, store) == 0
        second = capsys.readouterr()
        n2 = len(server.requests) - n1
        summary = json.loads((out / "summary.json").read_text())
        with capsys.disabled():
            print(f"run 2: {n2} HTTP calls", *_usage_lines(second.out), sep="\n  ")
        assert summary["n_resumed"] == 2 and summary["n_failed"] == 0
        assert summary["usage"]["anonymize"] == pytest.approx(
            {**summary["usage"]["anonymize"], "calls": 0, "cache_hits": 1}
        )
        assert summary["usage"]["adversary"]["cache_hits"] == 3
        assert 1 <= n2 == summary["usage"]["total"]["calls"] <= 2
        assert "resumed run" in second.out

        # run 3: a new run of the same configuration is served entirely from the cache
        assert _evaluate(server, out, store, "--no-resume") == 0
        third = capsys.readouterr()
        n3 = len(server.requests) - n1 - n2
        summary = json.loads((out / "summary.json").read_text())
        with capsys.disabled():
            print(f"run 3 (--no-resume): {n3} HTTP calls", *_usage_lines(third.out), sep="\n  ")
        assert n3 == 0 and summary["usage"]["total"]["calls"] == 0
        assert summary["usage"]["total"]["cache_hits"] == n1 + n2 - 1  # the failed alignment
        assert summary["n_failed"] == 0 and summary["n_resumed"] == 0


def test_cloud_default_without_key_fails_fast(
    catalog: Path, tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("SPIA_MODELS_JSON")  # the real catalog: claude-sonnet-4-5 by default
    code = main(
        [
            *["evaluate", "--dataset", "PANORAMA-151", "--adversary", "llm", "--limit", "1"],
            *["--out", str(tmp_path / "o"), "--data-dir", str(tmp_path / "s"), "--quiet"],
        ]
    )
    assert code == 2 and "ANTHROPIC_API_KEY" in capsys.readouterr().err


def test_evaluate_provided_anonymized_jsonl(tmp_path: Path, capsys: Any) -> None:
    docs = load_bundled("PANORAMA-151")[:3]
    anon = tmp_path / "anon.jsonl"
    lines = [
        {"data_id": d.data_id, "anonymized_text": d.text.replace(d.text.split()[0], "[X]")}
        for d in docs[:2]
    ]
    anon.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    args = ["evaluate", "--dataset", "PANORAMA-151", "--anonymizer", "provided"]
    args += ["--anonymized", str(anon), "--limit", "3", "--out", str(out)]
    args += ["--data-dir", str(tmp_path / "store"), "--quiet"]
    assert main(args) == 1
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_docs"] == 3 and summary["n_failed"] == 1
    assert summary["config"]["anonymized_sha256"]
    results = {r["data_id"]: r for r in map(json.loads, (out / "results.jsonl").open())}
    assert results[docs[2].data_id]["status"] == "failed"
    assert "no anonymized text" in results[docs[2].data_id]["error"]
    for d in docs[:2]:
        assert results[d.data_id]["status"] == "ok"
    preds = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines()]
    assert [p["metadata"]["data_id"] for p in preds] == [d.data_id for d in docs[:2]]
    assert preds[0]["anonymized_text"].startswith("[X]")
    # --anonymized without provided (and the reverse) is refused
    capsys.readouterr()
    assert main([*args[:4], "none", *args[5:]]) == 2
    assert "--anonymized FILE goes with --anonymizer provided" in capsys.readouterr().err


def test_responder_is_shared() -> None:
    assert responder({"messages": [{"role": "user", "content": "Say OK. (ping)"}]}).content == "OK"
