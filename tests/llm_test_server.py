"""A scripted OpenAI-compatible HTTP server on 127.0.0.1 for end-to-end tests of the real SDK.

Each POST to ``/v1/chat/completions`` pops the next scripted reply (or asks ``responder``):
- ``Reply(content="...")``: a normal completion;
- ``Reply(status=429, headers={"Retry-After": "1"})``, ``Reply(status=500)``: errors;
- ``Reply(refusal="...")``: a refusal; ``Reply(raw="{not json")``: a broken HTTP body;
- ``Reply(choices=False)``: HTTP 200 with an empty ``choices`` list;
- ``Reply(truncate=True)``: the body stops half-way (Content-Length promises more);
- ``Reply(reset=True)``: the connection is closed without an answer;
- ``Reply(delay=2.0)``: the answer comes after 2 s (a hang, against a shorter client timeout).
Every request body and its headers are recorded in ``requests``.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    content: str | None = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    refusal: str | None = None
    raw: str | None = None
    usage: tuple[int, int] = (50, 10)
    choices: bool = True
    truncate: bool = False
    reset: bool = False
    delay: float = 0.0


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ScriptedServer:
    """Start with ``with ScriptedServer() as server:``; ``server.base_url`` ends in /v1."""

    def __init__(self, script: list[Reply] | None = None) -> None:
        self.script: list[Reply] = list(script or [])
        self.responder: Callable[[dict[str, Any]], Reply] | None = None
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                try:
                    self._answer()
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    self.close_connection = True

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                headers = {k.lower(): v for k, v in self.headers.items()}
                reply = server._next(Recorded(self.path, headers, body))
                if reply.delay:
                    server._stopped.wait(reply.delay)
                if reply.reset:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                payload = reply.raw if reply.raw is not None else json.dumps(_body(reply, body))
                data = payload.encode("utf-8")
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                if reply.truncate:
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def _next(self, request: Recorded) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self.script:
                return self.script.pop(0)
        if self.responder is not None:
            return self.responder(request.body)
        return Reply(status=500, content=None)

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopped.set()  # ends any scripted hang
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def _body(reply: Reply, request: dict[str, Any]) -> dict[str, Any]:
    if reply.status != 200:
        return {"error": {"message": f"scripted HTTP {reply.status}", "type": "server_error"}}
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", ""),
        "choices": []
        if not reply.choices
        else [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": reply.content,
                    "refusal": reply.refusal,
                },
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": reply.usage[0],
            "completion_tokens": reply.usage[1],
            "total_tokens": sum(reply.usage),
        },
    }
