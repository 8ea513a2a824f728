"""Lenient JSON extraction from model text, light coercion, and JSON Schema validation."""

from __future__ import annotations

import json
import re
from typing import Any

from jsonschema import Draft202012Validator

_FENCE = re.compile(r"^```[a-zA-Z0-9_-]*\s*\n?|\n?```\s*$")


class JSONParseError(ValueError):
    """Model text that is not valid JSON for the schema (message says why)."""


def extract_json(text: str) -> Any:
    """Parse the JSON value in ``text``: strip code fences, slice first {/[ to last }/].

    Control characters inside strings are accepted (grammar-constrained small models emit
    raw newlines and tabs there; the value is still unambiguous).
    """
    stripped = _FENCE.sub("", text.strip()).strip()
    try:  # strict=False: a raw newline or tab inside a string (small local models) is kept
        return json.loads(stripped, strict=False)
    except json.JSONDecodeError:
        pass
    starts = [i for i in (stripped.find("{"), stripped.find("[")) if i >= 0]
    if not starts:
        raise JSONParseError("no JSON object or array in the response")
    start = min(starts)
    end = max(stripped.rfind("}"), stripped.rfind("]"))
    if end <= start:
        raise JSONParseError("unterminated JSON in the response")
    try:
        return json.loads(stripped[start : end + 1], strict=False)
    except json.JSONDecodeError as exc:
        raise JSONParseError(f"invalid JSON: {exc.msg} (char {exc.pos})") from None


def coerce(value: Any, schema: dict[str, Any]) -> Any:
    """Coerce obvious type slips the schema rules out (``"5"`` -> 5 for an integer field)."""
    types = schema.get("type")
    types = types if isinstance(types, list) else [types]
    if isinstance(value, str) and "string" not in types:
        text = value.strip()
        if "integer" in types and re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        if "number" in types and re.fullmatch(r"[+-]?\d+(\.\d+)?", text):
            return float(text)
    if isinstance(value, float) and "integer" in types and value.is_integer():
        return int(value)
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        props = schema["properties"]
        return {k: coerce(v, props[k]) if k in props else v for k, v in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [coerce(v, schema["items"]) for v in value]
    return value


def validate(value: Any, schema: dict[str, Any]) -> Any:
    """Coerce then validate ``value``; raise :class:`JSONParseError` naming the first problem."""
    value = coerce(value, schema)
    errors = sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.path) or "(root)"
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        raise JSONParseError(f"schema violation at {where}: {err.message[:200]}{more}")
    return value


def parse_and_validate(text: str, schema: dict[str, Any]) -> Any:
    """``extract_json`` then ``validate``."""
    return validate(extract_json(text), schema)
