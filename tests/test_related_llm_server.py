"""RUPTA and SEAL-style refinement through the real openai SDK against the local test server.

The whole audit runs offline: the anonymizer's LLM calls go to tests/llm_test_server.py on
127.0.0.1, the privacy role of RUPTA's SPIA-subject objective is the local adversary. Usage is
accounted under the ``anonymize`` stage and the response cache makes a rerun call nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from llm_test_server import Reply, ScriptedServer

from spia_core.llm.cache import ResponseCache
from spia_core.llm.catalog import make_llm
from spia_core.pipeline import AuditConfig, audit

BACKBONE = "llama-3.1-8b"
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "samples" / "forum_post.txt"


def _user(body: dict[str, Any]) -> str:
    return next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")


def _block(text: str, tag: str) -> str:
    match = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return match.group(1) if match else ""


def answer(body: dict[str, Any]) -> str:
    """A scripted model for RUPTA's and SEAL's prompts, routed on the JSON schema name."""
    name = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
    user = _user(body)
    if name == "guesses":
        return json.dumps({"guesses": ["Ravi Patel", "Dana Holt", "Ana Ruiz"]})
    if name == "clues":
        return json.dumps({"clues": ["Ravi"]})
    if name == "confidence":
        return json.dumps({"confidence": 80, "reason": "the topic is kept"})
    if name == "seal_attributes":
        doc = _block(user, "document")
        found = "nurse" in doc
        attrs = [{"type": "occupation", "inference": "says so", "guess": ["nurse"], "certainty": 5}]
        return json.dumps({"attributes": attrs if found else []})
    if name == "seal_utility":
        part = {"explanation": "fine", "score": 8}
        return json.dumps(
            {
                "readability": part,
                "meaning": part,
                "hallucinations": {"explanation": "-", "score": 1},
            }
        )
    source = _block(user, "history") or _block(user, "document")
    if "<history>" in user:
        source = re.findall(r"Version \d+:\n(.*?)\nPrivacy score", source, re.DOTALL)[-1]
    redacted = re.sub(r"\b[A-Z][a-z]+\b|\d+", "[redacted]", source).replace("nurse", "worker")
    return f"Plan: generalise.\n<anonymized>\n{redacted}\n</anonymized>"


@pytest.fixture
def server():
    with ScriptedServer() as srv:
        srv.responder = lambda body: Reply(content=answer(body))
        yield srv


@pytest.mark.parametrize(
    ("anonymizer", "options"),
    [("rupta", {"iterations": 2}), ("seal", {"rounds": 2})],
)
def test_audit_runs_offline_and_a_rerun_calls_nothing(
    server: ScriptedServer, tmp_path: Path, anonymizer: str, options: dict[str, Any]
) -> None:
    config = AuditConfig(
        anonymizer=anonymizer,
        anonymizer_backbone=BACKBONE,
        anonymizer_options=options,
        base_url=server.base_url,
    )
    text = SAMPLE.read_text(encoding="utf-8")
    cache = tmp_path / "cache.sqlite3"
    first = audit(text, config, cache=cache)
    assert not first.failures, first.failures
    usage = first.usage["anonymize"]
    assert usage.calls == len(server.requests) > 0 and usage.input_tokens > 0
    trace = first.anonymizer_trace
    assert trace["stopped"] in ("max_iterations", "goals_met", "nothing_inferable", "unchanged")
    best = next(s for s in trace["trajectory"] if s["index"] == trace["best"])
    assert first.anonymized_text == best["text"]
    n = len(server.requests)
    second = audit(text, config, cache=cache)
    assert len(server.requests) == n  # not one HTTP request
    assert second.usage["anonymize"].calls == 0 and second.usage["anonymize"].cache_hits > 0
    assert second.anonymized_text == first.anonymized_text


def test_rupta_target_mode_over_http(server: ScriptedServer, tmp_path: Path) -> None:
    from spia_core.anonymizers.rupta import RuptaAnonymizer

    cache = ResponseCache(tmp_path / "c.sqlite3")
    llm = make_llm(BACKBONE, base_url=server.base_url, cache=cache)
    text = SAMPLE.read_text(encoding="utf-8")
    result = RuptaAnonymizer(llm, target="Ravi Patel", label="nurse", iterations=1).anonymize(text)
    steps = result.trace["trajectory"]
    assert steps[0]["scores"]["privacy"] == 1  # the first guess is the truth
    assert steps[0]["feedback"]["clues"] == ["Ravi"]
    bodies = [r.body for r in server.requests]
    clue_turn = next(b for b in bodies if "clues" in json.dumps(b.get("response_format", {})))
    assert [m["role"] for m in clue_turn["messages"]] == ["system", "user", "assistant", "user"]


@pytest.mark.parametrize("anonymizer", ["rupta", "seal"])
def test_evaluate_cli_with_rupta_and_seal(
    server: ScriptedServer, tmp_path: Path, anonymizer: str, capsys: Any
) -> None:
    from spia_core.cli import main

    args = [
        "evaluate",
        "--dataset",
        "PANORAMA-151",
        "--anonymizer",
        anonymizer,
        "--backbone",
        BACKBONE,
        "--base-url",
        server.base_url,
        "--limit",
        "1",
        "--anonymizer-option",
        "iterations=1" if anonymizer == "rupta" else "rounds=1",
        "--out",
        str(tmp_path / "out"),
        "--data-dir",
        str(tmp_path / "store"),
        "--quiet",
    ]
    assert main(args) == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["n_failed"] == 0 and summary["usage"]["anonymize"]["calls"] > 0
    assert any(k.startswith(f"{anonymizer}_") for k in summary["prompt_versions"])
    n = len(server.requests)
    assert main([*args, "--no-resume"]) == 0
    assert len(server.requests) == n  # the rerun is served from the cache
    capsys.readouterr()


def test_rupta_with_the_llm_adversary_counts_its_calls_under_anonymize(
    server: ScriptedServer, tmp_path: Path
) -> None:
    from test_llm_integration import spia_answer

    def both(body: dict[str, Any]) -> Reply:
        name = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
        spia = name in ("subjects", "code_profile", "non_code_profile")
        return Reply(content=spia_answer(body) if spia else answer(body))

    server.responder = both
    config = AuditConfig(
        anonymizer="rupta",
        anonymizer_backbone=BACKBONE,
        anonymizer_options={"adversary": "llm", "iterations": 1},
        base_url=server.base_url,
    )
    report = audit(SAMPLE.read_text(encoding="utf-8"), config, cache=tmp_path / "c.sqlite3")
    assert not report.failures, report.failures
    # the SPIA adversary inside RUPTA: 3 calls on the original, 3 per iterate
    sent = [
        ((r.body.get("response_format") or {}).get("json_schema") or {}).get("name")
        for r in server.requests
    ]
    assert sent.count("subjects") >= 2
    assert report.usage["anonymize"].calls == len(server.requests)
    assert report.anonymizer_trace["adversary"] == "llm"
