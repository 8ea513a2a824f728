"""Structured output on OpenAI-compatible servers: which way of sending a schema works where.

Local servers differ: llama.cpp servers reject ``response_format: json_schema`` but accept a
schema inside ``json_object``; older vLLM takes ``guided_json``; Ollama takes ``format``; some
accept a mode and ignore it. :func:`request_fields` builds the request fields of each mode;
:class:`EndpointModes` remembers, per endpoint and model, the strongest mode that works: the
catalog's mode until the server rejects it (then the next one down the chain), or, for
``auto``, the first mode whose tiny probe answer parses against a probe schema.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

#: Strongest first. "none" = the prompt alone asks for JSON.
CHAIN: tuple[str, ...] = (
    "json_schema",
    "json_object_schema",
    "guided_json",
    "ollama_format",
    "json_object",
    "none",
)
PROBE_SCHEMA: dict[str, Any] = {
    "title": "probe",
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "required": ["ok"],
    "additionalProperties": False,
}
#: Words in a server's error that say it rejected the way the schema was sent.
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "guided", "schema", "format")


def request_fields(mode: str, schema: dict[str, Any], name: str) -> dict[str, Any]:
    """Keyword arguments of ``chat.completions.create`` that send ``schema`` in ``mode``."""
    if mode == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True},
            }
        }
    if mode == "json_object_schema":
        return {"response_format": {"type": "json_object", "schema": schema}}
    if mode == "guided_json":
        return {"extra_body": {"guided_json": schema}}
    if mode == "ollama_format":
        return {"extra_body": {"format": schema}}
    if mode == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


def rejects_format(status: int | None, message: str) -> bool:
    """True when an HTTP error says the server does not take this way of sending a schema."""
    if status not in (400, 422, 500, 501):
        return False
    lowered = message.lower()
    return any(word in lowered for word in _FORMAT_WORDS)


def weaker(mode: str) -> str:
    """The next mode down the chain ("none" stays "none")."""
    if mode not in CHAIN:
        return "none"
    return CHAIN[min(CHAIN.index(mode) + 1, len(CHAIN) - 1)]


class EndpointModes:
    """Thread-safe ``(base_url, model) -> mode`` memory, shared by every client of a process."""

    def __init__(self) -> None:
        self._modes: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str], declared: str, probe: Callable[[str], bool]) -> str:
        """The mode to use; ``auto`` is resolved once by ``probe(mode) -> works``."""
        with self._lock:
            if key in self._modes:
                return self._modes[key]
            if declared != "auto":
                return declared
            mode = next((m for m in CHAIN[:-1] if probe(m)), "none")
            self._modes[key] = mode
            return mode

    def downgrade(self, key: tuple[str, str], mode: str) -> str:
        """Record that ``mode`` was rejected; the weaker mode to try now."""
        with self._lock:
            current = self._modes.get(key, mode)
            if current in CHAIN and mode in CHAIN and CHAIN.index(current) > CHAIN.index(mode):
                return current  # another thread already went further down
            self._modes[key] = weaker(mode)
            return self._modes[key]

    def clear(self) -> None:
        with self._lock:
            self._modes.clear()


MODES = EndpointModes()
