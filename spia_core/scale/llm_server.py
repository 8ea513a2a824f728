"""The local OpenAI-compatible test server (tests/llm_test_server.py) answering every SPIA
prompt with a fixed, valid answer after a delay: what ``bench scale`` times the LLM path on.

Only available from a source checkout (the server lives with the tests)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

#: Answers by response-schema name (the adversary's three prompts); anything else: "OK".
_ANSWERS: dict[str, Any] = {
    "subjects": {
        "subjects": [{"id": 0, "description": "the author"}],
        "collectives_not_counted": [],
    },
    "code_profile": {"subjects": [{"id": 0, "description": "", "piis": []}]},
    "non_code_profile": {
        "subjects": [
            {
                "id": 0,
                "description": "",
                "piis": [
                    {
                        "tag": "OCCUPATION",
                        "keyword": "baker",
                        "certainty": 3,
                        "evidence": "",
                        "reasoning": "mentions the ovens",
                    }
                ],
            }
        ]
    },
}


def answer(body: dict[str, Any]) -> str:
    fmt = body.get("response_format") or {}
    name = (fmt.get("json_schema") or {}).get("name", "")
    return json.dumps(_ANSWERS[name]) if name in _ANSWERS else "OK"


@contextlib.contextmanager
def scripted_server(delay: float) -> Iterator[Any]:
    """The running server (``.base_url``, ``.requests``), or None outside a checkout."""
    try:
        from tests.llm_test_server import Reply, ScriptedServer
    except ImportError:
        yield None
        return
    with ScriptedServer() as server:
        server.responder = lambda body: Reply(content=answer(body), delay=delay)
        yield server
