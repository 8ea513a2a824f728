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


class ServerProcess:
    """The test server in a forked process of its own, as a remote endpoint would be: its
    request handling does not share the client's interpreter lock. ``n_requests()`` counts
    the requests it answered."""

    def __init__(self, base_url: str, counter: Any, process_id: int) -> None:
        self.base_url = base_url
        self._counter = counter
        self._process_id = process_id

    def n_requests(self) -> int:
        return int(self._counter.value)


def _serve(delay: float, counter: Any, conn: Any, stop: Any) -> None:
    with scripted_server(delay) as server:
        if server is None:
            conn.send(None)
            return
        inner = server.responder

        def counted(body: dict[str, Any]) -> Any:
            with counter.get_lock():
                counter.value += 1
            return inner(body)

        server.responder = counted
        conn.send(server.base_url)
        stop.wait()


@contextlib.contextmanager
def server_process(delay: float) -> Iterator[ServerProcess | None]:
    """:func:`scripted_server` in a child process (None outside a checkout)."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    counter, stop = ctx.Value("l", 0), ctx.Event()
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_serve, args=(delay, counter, child, stop), daemon=True)
    proc.start()
    try:
        url = parent.recv() if parent.poll(60) else None
        yield None if url is None else ServerProcess(url, counter, proc.pid or 0)
    finally:
        stop.set()
        proc.join(timeout=10)
        if proc.is_alive():
            proc.kill()
