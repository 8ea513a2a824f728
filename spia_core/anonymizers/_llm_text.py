"""Helpers shared by the LLM anonymizers: one-call rewrites, the attribute-guess schema,
extracting the rewritten text, token budgets, diffs."""

from __future__ import annotations

import difflib
import re
from typing import Any

from spia_core.anonymizers.base import AnonymizedText
from spia_core.llm.base import LLM
from spia_core.prompts import PromptTemplate, data_block

OPEN, CLOSE = "<anonymized>", "</anonymized>"
_FENCE = re.compile(r"^```[a-zA-Z]*\n|\n```$")


def extract_rewrite(reply: str) -> tuple[str, list[str]]:
    """The text between the LAST ``<anonymized>`` ... ``</anonymized>`` pair, and warnings.

    Never splits on '#' or any other marker that can occur inside the document. Without tags,
    the whole reply is used (with a warning); an opening tag without its closing one means the
    output was probably cut off (warned).
    """
    warnings: list[str] = []
    end = reply.rfind(CLOSE)
    if end >= 0:
        start = reply.rfind(OPEN, 0, end)
        if start >= 0:
            return _clean(reply[start + len(OPEN) : end]), warnings
        warnings.append("reply has a closing </anonymized> tag without an opening one")
        return _clean(reply[:end]), warnings
    start = reply.rfind(OPEN)
    if start >= 0:
        warnings.append("reply has no closing </anonymized> tag: the output may be truncated")
        return _clean(reply[start + len(OPEN) :]), warnings
    warnings.append("reply has no <anonymized> tags: the whole reply was used as the text")
    return _clean(reply), warnings


def _clean(text: str) -> str:
    return _FENCE.sub("", text.strip("\n")).strip("\n")


def rewrite_budget(text: str) -> int:
    """max_tokens for a full rewrite of ``text`` (about 4 characters per token, 2x margin)."""
    return len(text) // 2 + 512


def word_diff(before: str, after: str, limit: int = 200) -> list[dict[str, Any]]:
    """Word-level changes from ``before`` to ``after`` (at most ``limit`` entries)."""
    a, b = before.split(), after.split()
    changes = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            changes.append({"op": op, "before": " ".join(a[i1:i2]), "after": " ".join(b[j1:j2])})
    return changes[:limit]


def attribute_schema(title: str, types: list[str], guess_key: str) -> dict[str, Any]:
    """JSON schema of an adversary's answer: a list of {type (one of ``types``), inference,
    ``guess_key`` (up to a few guesses), certainty}."""
    return {
        "title": title,
        "type": "object",
        "properties": {
            "attributes": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "enum": list(types)},
                        "inference": {"type": "string"},
                        guess_key: {"type": "array", "items": {"type": "string"}},
                        "certainty": {"type": "integer"},
                    },
                    "required": ["type", "inference", guess_key, "certainty"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["attributes"],
        "additionalProperties": False,
    }


def single_rewrite(
    llm: LLM,
    prompt: PromptTemplate,
    text: str,
    *,
    method: str,
    max_tokens: int,
    trace: dict[str, Any] | None = None,
    warnings: list[str] | None = None,
    **sampling: float,
) -> AnonymizedText:
    """One call: ``prompt`` with ``text`` as the delimited document, the rewrite read from its
    ``<anonymized>`` tags; the model, the prompt version and ``trace`` go into the trace."""
    response = llm.complete(
        prompt.render(document=data_block("document", text)),
        max_tokens=max_tokens,
        prompt_version=prompt.version_id,
        **sampling,
    )
    rewritten, found = extract_rewrite(response.text)
    model = f"{llm.provider}/{llm.model}"
    return AnonymizedText(
        text=rewritten,
        masked_spans=None,
        method=method,
        trace={"model": model, "prompt": prompt.version_id, **(trace or {})},
        warnings=found + list(warnings or []),
    )
