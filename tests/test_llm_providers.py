"""The real openai and anthropic SDKs end to end (no network): a local OpenAI-compatible HTTP
server for OpenAICompatibleLLM, and httpx2.MockTransport for AnthropicLLM and OpenAILLM."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from spia_core.adversary.llm import LLMAdversary
from spia_core.llm.base import LLMError, Message
from spia_core.llm.catalog import get_spec, make_llm
from tests.llm_test_server import Reply, ScriptedServer

SCHEMA = {
    "title": "answer",
    "type": "object",
    "properties": {"n": {"type": "integer"}},
    "required": ["n"],
    "additionalProperties": False,
}
MSG = [Message("system", "be brief"), Message("user", "hello")]
KEY = "sk-TESTKEY-abcdefghijklmnop"


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer() as srv:
        yield srv


def local_llm(server: ScriptedServer, sleeps: list[float] | None = None, **kw: Any) -> Any:
    sink = sleeps if sleeps is not None else []
    return make_llm("llama-3.1-8b", base_url=server.base_url, sleep=sink.append, timeout=10, **kw)


# --------------------------------------------------------------------------- OpenAI-compatible


def test_local_server_json_and_parameters(server: ScriptedServer) -> None:
    server.script = [Reply(content='{"n": 4}', usage=(120, 7))]
    response = local_llm(server).complete(MSG, schema=SCHEMA, temperature=0.1, top_p=0.9)
    assert response.parsed == {"n": 4}
    assert (response.usage.input_tokens, response.usage.output_tokens) == (120, 7)
    assert response.cost_usd == 0.0
    body = server.requests[0].body
    assert server.requests[0].path == "/v1/chat/completions"
    assert body["model"] == "llama3.1:8b" and body["temperature"] == 0.1
    assert body["response_format"]["type"] == "json_schema"
    assert body["messages"][0] == {"role": "system", "content": "be brief"}


def test_local_server_malformed_json_gets_one_repair(server: ScriptedServer) -> None:
    server.script = [Reply(content="Sure! {n: 4"), Reply(content='```json\n{"n": "4"}\n```')]
    response = local_llm(server).complete(MSG, schema=SCHEMA)
    assert response.parsed == {"n": 4} and response.calls == 2
    assert len(server.requests) == 2
    assert server.requests[1].body["messages"][-2]["role"] == "assistant"


def test_local_server_refusal_and_empty(server: ScriptedServer) -> None:
    server.script = [Reply(content=None, refusal="I cannot help with that")]
    with pytest.raises(LLMError, match="refusal"):
        local_llm(server).complete(MSG)
    server.script = [Reply(content="")]
    with pytest.raises(LLMError, match="empty"):
        local_llm(server).complete(MSG)


def test_local_server_429_retry_after_and_500(server: ScriptedServer) -> None:
    server.script = [
        Reply(status=429, headers={"Retry-After": "2"}),
        Reply(status=500),
        Reply(content="done"),
    ]
    sleeps: list[float] = []
    assert local_llm(server, sleeps).complete(MSG).text == "done"
    assert len(server.requests) == 3  # the SDK's own retries are off: ours only
    assert 2.0 <= sleeps[0] <= 2.2 and len(sleeps) == 2


def test_local_server_gives_up_with_reason(server: ScriptedServer) -> None:
    server.script = [Reply(status=503)] * 3
    with pytest.raises(LLMError) as err:
        local_llm(server, max_retries=2).complete(MSG)
    assert err.value.reason == "server" and err.value.provider == "openai-compatible"
    assert "llama3.1:8b" in str(err.value) and len(server.requests) == 3


def test_key_never_in_local_errors(server: ScriptedServer) -> None:
    server.script = [Reply(status=401)]
    with pytest.raises(LLMError) as err:
        local_llm(server, api_key=KEY).complete(MSG)
    assert KEY not in str(err.value)
    assert server.requests[0].headers.get("authorization") == f"Bearer {KEY}"


def test_adversary_end_to_end_through_the_real_sdk(server: ScriptedServer) -> None:
    text = "Mr Jan Kowalski, a Polish teacher born in 1970, lives in Krakow."

    def respond(body: dict[str, Any]) -> Reply:
        title = body["response_format"]["json_schema"]["name"]
        if title == "subjects":
            return Reply(
                content=json.dumps(
                    {
                        "subjects": [{"id": 0, "description": "Mr Jan Kowalski - the teacher"}],
                        "collectives_not_counted": [],
                    }
                )
            )
        if title == "code_profile":
            return Reply(
                content=json.dumps({"subjects": [{"id": 0, "description": "", "piis": []}]})
            )
        piis = [
            {
                "tag": "NAME",
                "keyword": "Jan Kowalski",
                "certainty": "5",
                "evidence": "Jan Kowalski",
                "reasoning": "the name is given",
            },
            {
                "tag": "AGE",
                "keyword": "55",
                "certainty": 4,
                "evidence": "born in 1970",
                "reasoning": "born in 1970, so 55 on the reference date",
            },
            {
                "tag": "OCCUPATION",
                "keyword": "teacher",
                "certainty": 5,
                "evidence": "a Polish teacher",
                "reasoning": "the job is stated",
            },
        ]
        return Reply(content=json.dumps({"subjects": [{"id": 0, "description": "", "piis": piis}]}))

    server.responder = respond
    result = LLMAdversary(local_llm(server)).infer(text)
    assert len(server.requests) == 3
    assert result.complete and not result.warnings
    (subject,) = result.subjects
    name = subject.values("NAME")[0]
    assert name.certainty == 5
    assert text[name.evidence[0].start : name.evidence[0].end] == "Jan Kowalski"


# ------------------------------------------------------------------- Anthropic (MockTransport)


def anthropic_llm(handler: Any, sleeps: list[float]) -> Any:
    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    return make_llm(
        "claude-haiku-4-5", api_key=KEY, http_client=client, sleep=sleeps.append, timeout=10
    )


def anthropic_message(text: str, stop: str = "end_turn") -> dict[str, Any]:
    return {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5",
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 1000, "output_tokens": 200},
    }


def test_anthropic_structured_output_and_no_sampling_parameters() -> None:
    seen: list[httpx2.Request] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(200, json=anthropic_message('{"n": 9}'))

    llm = anthropic_llm(handler, [])
    response = llm.complete(MSG, schema=SCHEMA, temperature=0.05, top_p=1.0, max_tokens=100)
    assert response.parsed == {"n": 9}
    assert response.cost_usd == pytest.approx(1000 * 1.0 / 1e6 + 200 * 5.0 / 1e6)
    body = json.loads(seen[0].content)
    assert "temperature" not in body and "top_p" not in body
    assert body["system"] == "be brief" and body["max_tokens"] == 100
    assert body["output_config"]["format"] == {"type": "json_schema", "schema": SCHEMA}


def test_anthropic_retry_after_refusal_and_key_hygiene() -> None:
    replies = [
        httpx2.Response(
            429,
            headers={"retry-after": "3"},
            json={"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}},
        ),
        httpx2.Response(200, json=anthropic_message("hello")),
    ]
    sleeps: list[float] = []
    llm = anthropic_llm(lambda request: replies.pop(0), sleeps)
    assert llm.complete(MSG).text == "hello"
    assert 3.0 <= sleeps[0] <= 3.3
    refusal = anthropic_llm(
        lambda request: httpx2.Response(200, json=anthropic_message("", stop="refusal")), []
    )
    with pytest.raises(LLMError, match="refusal"):
        refusal.complete(MSG)
    leak = {"type": "error", "error": {"type": "authentication_error", "message": f"bad {KEY}"}}
    denied = anthropic_llm(lambda request: httpx2.Response(401, json=leak), [])
    with pytest.raises(LLMError) as err:
        denied.complete(MSG)
    assert err.value.reason == "auth" and KEY not in str(err.value)


# --------------------------------------------------------------------------- OpenAI Responses API


def test_openai_responses_api_request_shape() -> None:
    seen: list[httpx2.Request] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(
            200,
            json={
                "id": "resp_test",
                "object": "response",
                "created_at": 0,
                "model": "gpt-4.1-mini",
                "status": "completed",
                "output": [
                    {
                        "type": "message",
                        "id": "msg_1",
                        "role": "assistant",
                        "status": "completed",
                        "content": [{"type": "output_text", "text": '{"n": 2}', "annotations": []}],
                    }
                ],
                "parallel_tool_calls": False,
                "tool_choice": "auto",
                "tools": [],
                "usage": {
                    "input_tokens": 500,
                    "output_tokens": 50,
                    "total_tokens": 550,
                    "input_tokens_details": {"cached_tokens": 0},
                    "output_tokens_details": {"reasoning_tokens": 0},
                },
            },
        )

    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    llm = make_llm("gpt-4.1-mini", api_key=KEY, http_client=client, timeout=10)
    response = llm.complete(MSG, schema=SCHEMA, temperature=0.0)
    assert response.parsed == {"n": 2}
    assert response.cost_usd == pytest.approx(500 * 0.4 / 1e6 + 50 * 1.6 / 1e6)
    assert seen[0].url.path.endswith("/responses")
    body = json.loads(seen[0].content)
    assert body["instructions"] == "be brief" and body["temperature"] == 0.0
    assert body["text"]["format"]["type"] == "json_schema" and body["text"]["format"]["strict"]
    assert get_spec("gpt-4.1-mini").provider == "openai"
