"""Worked run of RUPTA and SEAL-style refinement on a bundled sample, fully offline.

The LLM is tests/llm_test_server.py (a scripted OpenAI-compatible server on 127.0.0.1, driven
through the real openai SDK): its "rewrites" generalise exactly the evidence quotes it is
shown, and its utility scores fall with the number of generalised spans. It shows the loops'
control flow, feedback, stop rules, usage and caching, NOT the quality a real model reaches.
The privacy role is the real local SPIA adversary (RUPTA's subjects objective; SEAL with
adversary=local). Run: python scripts/related_worked_run.py [sample.txt]
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from llm_test_server import Reply, ScriptedServer  # noqa: E402

from spia_core.pipeline import AuditConfig, audit  # noqa: E402

MARK = "[generalised]"


def _user(body: dict[str, Any]) -> str:
    return next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")


def _block(text: str, tag: str) -> str:
    match = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return match.group(1) if match else ""


def _latest(user: str) -> str:
    history = _block(user, "history")
    if history:
        return re.findall(r"Version \d+:\n(.*?)\nPrivacy score", history, re.DOTALL)[-1]
    return _block(user, "document")


def _generalise(text: str, feedback: str) -> str:
    for quote in sorted(set(re.findall(r'"([^"]+)"', feedback)), key=len, reverse=True):
        text = text.replace(quote, MARK)
    return text


def _restore_one(original: str, text: str) -> str:
    """RUPTA's utility phase, scripted: put back the first generalised span of the original."""
    a, b = original.split(), text.split()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace" and MARK in " ".join(b[j1:j2]):
            return " ".join([*b[:j1], *a[i1:i2], *b[j2:]])
    return text


def answer(body: dict[str, Any]) -> str:
    name = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
    user = _user(body)
    if name == "confidence":
        n = _block(user, "anonymized_document").count(MARK)
        return json.dumps({"confidence": max(40, 100 - 4 * n), "reason": "scripted"})
    if name == "seal_utility":
        n = _block(user, "anonymized_document").count(MARK)
        part = {"explanation": "scripted", "score": max(3, 10 - n // 3)}
        return json.dumps(
            {
                "readability": part,
                "meaning": part,
                "hallucinations": {"explanation": "scripted", "score": 1},
            }
        )
    text = _latest(user)
    if "Privacy is at its maximum" in user:
        restored = _restore_one(_block(user, "original_document"), text)
        return f"Plan (scripted).\n<anonymized>\n{restored}\n</anonymized>"
    feedback = _block(user, "clues") or _block(user, "inferences")
    # with feedback: generalise what it quotes; the first plain rewrite: digits only
    text = _generalise(text, feedback) if feedback else re.sub(r"\d+", "#", text)
    return f"Plan (scripted).\n<anonymized>\n{text}\n</anonymized>"


def show(report: Any) -> None:
    trace = report.anonymizer_trace
    print(
        f"\n== {report.anonymizer}: stopped by '{trace['stopped']}', best iterate "
        f"{trace['best']} =="
    )
    for step in trace["trajectory"]:
        scores = {k: v for k, v in step["scores"].items() if k != "privacy_key"}
        print(f"  {step['index']} {step['phase']:<8} {len(step['diff']):>3} word changes  {scores}")
    u = report.usage.get("anonymize")
    print(
        f"  usage anonymize: {u.calls} calls, {u.cache_hits} cache hits, "
        f"{u.input_tokens} in / {u.output_tokens} out tokens, ${u.cost_usd:.4f}"
    )
    print(f"  CPR of the returned text (local adversary, automatic GT): {report.metrics.cpr}")


def main() -> None:
    sample = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data/samples/forum_post.txt"
    text = sample.read_text(encoding="utf-8")
    cache = Path(tempfile.mkdtemp(prefix="related_run_")) / "cache.sqlite3"
    with ScriptedServer() as server:
        server.responder = lambda body: Reply(content=answer(body), usage=(400, 120))
        for name, options in (("rupta", {}), ("seal", {"adversary": "local"})):
            config = AuditConfig(
                anonymizer=name,
                anonymizer_backbone="llama-3.1-8b",
                anonymizer_options=options,
                base_url=server.base_url,
            )
            before = len(server.requests)
            show(audit(text, config, cache=cache))
            print(f"  HTTP requests to the server: {len(server.requests) - before}")
            before = len(server.requests)
            rerun = audit(text, config, cache=cache)
            u = rerun.usage["anonymize"]
            print(
                f"  rerun: {u.calls} calls, {u.cache_hits} cache hits, HTTP requests "
                f"{len(server.requests) - before}"
            )


if __name__ == "__main__":
    main()
