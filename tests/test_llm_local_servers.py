"""Local OpenAI-compatible servers (issue 15, defect 8) and the one connection spec (issue 13.5).

The scripted server plays a llama.cpp server: it rejects ``response_format: json_schema``
with HTTP 500 ("Input should be 'text' or 'json_object'") and constrains output only when the
schema comes inside ``json_object``. The client downgrades once per endpoint (catalog mode) or
probes once (``auto``); max_tokens is bounded per stage; a timed-out call to a local server is
not retried blindly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from llm_test_server import Reply, ScriptedServer
from test_llm_integration import spia_answer

from spia_core.adversary.llm import LLMAdversary
from spia_core.llm import budgets
from spia_core.llm.base import LLMError, Message
from spia_core.llm.catalog import ModelSpec
from spia_core.llm.connection import CallPolicy, LLMConnection
from spia_core.llm.openai_llm import OpenAICompatibleLLM
from spia_core.llm.structured import MODES
from spia_core.pipeline import AuditConfig, build_components

SCHEMA = {
    "title": "answer",
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "required": ["ok"],
    "additionalProperties": False,
}
REJECTION = json.dumps(
    {
        "error": {
            "message": "1 validation error: ('body', 'response_format', 'type'): "
            "Input should be 'text' or 'json_object'",
            "type": "internal_server_error",
        }
    }
)


class LlamaCppLike:
    """Rejects json_schema; obeys a schema sent inside json_object; else rambles (no JSON)."""

    def __call__(self, body: dict[str, Any]) -> Reply:
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema":
            return Reply(status=500, raw=REJECTION)
        if fmt.get("type") == "json_object" and "schema" in fmt:
            title = fmt["schema"].get("title")
            if title in ("probe", "answer"):
                return Reply(content='{"ok": true}')
            fake = {"response_format": {"json_schema": {"name": title}}, **body}
            return Reply(content=spia_answer(fake))
        return Reply(content="Sure! Here is what I think about the question you asked me.")


@pytest.fixture(autouse=True)
def fresh_modes() -> None:
    MODES.clear()


def _llm(server: ScriptedServer, mode: str, model: str = "m", **options: Any) -> Any:
    spec = ModelSpec(id=model, provider="openai-compatible", model=model, structured_output=mode)
    options.setdefault("sleep", lambda _s: None)
    options.setdefault("timeout", 5)
    return OpenAICompatibleLLM(spec, base_url=server.base_url, **options)


def test_a_rejected_json_schema_is_downgraded_once_per_endpoint() -> None:
    """Before: HTTP 500 retried 5 times per call, then unconstrained generation."""
    with ScriptedServer() as server:
        server.responder = LlamaCppLike()
        llm = _llm(server, "json_schema")
        first = llm.complete([Message("user", "q")], schema=SCHEMA)
        second = _llm(server, "json_schema").complete([Message("user", "q2")], schema=SCHEMA)
        types = [r.body.get("response_format", {}).get("type") for r in server.requests]
    assert first.parsed == second.parsed == {"ok": True}
    assert types == ["json_schema", "json_object", "json_object"]
    assert (first.calls, second.calls) == (2, 1)  # the rejected request is counted
    assert server.requests[-1].body["response_format"]["schema"] == SCHEMA


def test_auto_probes_once_and_uses_the_strongest_mode_that_works() -> None:
    with ScriptedServer() as server:
        server.responder = LlamaCppLike()
        llm = _llm(server, "auto", model="some-gguf")
        answers = [llm.complete([Message("user", q)], schema=SCHEMA) for q in ("a", "b", "c")]
        assert all(a.parsed == {"ok": True} for a in answers)
        # the two probe requests are counted in the first answer's usage, once
        assert [a.calls for a in answers] == [3, 1, 1]
        sent = [r.body.get("response_format", {}) for r in server.requests]
    # probe: json_schema rejected, json_object+schema works; then 3 real calls in that mode
    assert [f.get("type") for f in sent] == ["json_schema"] + ["json_object"] * 4
    assert all("schema" in f for f in sent[1:])


def test_a_server_that_ignores_every_mode_falls_back_to_prompted_json() -> None:
    with ScriptedServer() as server:
        server.responder = lambda body: Reply(content="no json at all")
        llm = _llm(server, "auto", model="ignorant", max_retries=0)
        with pytest.raises(LLMError) as info:
            llm.complete([Message("user", "q")], schema=SCHEMA)
        bodies = [r.body for r in server.requests]
    assert info.value.reason == "invalid_json"
    assert len(bodies) == 5 + 2  # five probes, then the call and its one repair
    assert info.value.calls == len(bodies)  # every request is in the failure's usage
    assert "response_format" not in bodies[-1] and "extra_body" not in bodies[-1]


def test_a_local_timeout_is_not_retried_blindly() -> None:
    """Before: each timeout was retried 4 times against a server still busy generating."""
    with ScriptedServer() as server:
        server.responder = lambda body: Reply(content='{"ok": true}', delay=1.5)
        with pytest.raises(LLMError) as info:
            _llm(server, "json_schema", timeout=0.3).complete([Message("user", "q")])
        n_plain = len(server.requests)
        retried = _llm(server, "json_schema", timeout=0.3, max_retries=1, retry_timeouts=True)
        with pytest.raises(LLMError):
            retried.complete([Message("user", "q")])
        n_retried = len(server.requests) - n_plain
    assert info.value.reason == "timeout" and "--llm-timeout" in str(info.value)
    assert (n_plain, n_retried) == (1, 2)


def test_adversary_budgets_bound_max_tokens_per_stage() -> None:
    with ScriptedServer() as server:
        server.responder = lambda body: Reply(content=spia_answer(body))
        LLMAdversary(_llm(server, "json_schema")).infer("A lighthouse keeper wrote this.")
        sent = {
            r.body["response_format"]["json_schema"]["name"]: r.body["max_tokens"]
            for r in server.requests
        }
    assert sent == {
        "subjects": budgets.SUBJECTS,
        "code_profile": budgets.profile(1),
        "non_code_profile": budgets.profile(1),
    }


def test_one_connection_spec_reaches_every_llm_stage(tmp_path: Path) -> None:
    config = AuditConfig(
        anonymizer="deid-gpt",
        anonymizer_backbone="llama-3.1-8b",
        adversary="llm",
        adversary_backbone="llama-3.1-8b",
        matcher="llm",
        matcher_backbone="llama-3.1-8b",
        judge="llm",
        judge_backbone="llama-3.1-8b",
        utility_llm=True,
        utility_backbone="llama-3.1-8b",
        base_url="http://127.0.0.1:9/v1",
    )
    parts = build_components(
        config, cache=tmp_path / "c.sqlite3", policy=CallPolicy(timeout=7.5, max_retries=1)
    )
    for stage in (parts.anonymizer, parts.adversary, parts.matcher, parts.judge, parts.utility):
        inner = stage.llm.inner  # CachedLLM -> provider
        assert (inner.timeout, inner.max_retries, inner.base_url) == (7.5, 1, config.base_url)
    secret = LLMConnection("x", base_url="http://u:pw@h/v1", api_key="sk-abcdefghijkl")
    assert "sk-abc" not in repr(secret) and "pw" not in json.dumps(secret.describe())
