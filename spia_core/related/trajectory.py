"""What the iterative anonymizers (RUPTA, SEAL-style) share: one rewrite call, stop reasons,
and the trace shape the dashboard's trajectory view reads.

``trace["trajectory"]`` is a list of iterates ``{"index", "phase", "text", "diff", "scores",
"feedback"}``; ``trace["best"]`` is the index returned and ``trace["stopped"]`` the rule that
ended the loop (a key of :data:`STOP_REASONS`).
"""

from __future__ import annotations

from typing import Any

from spia_core.anonymizers._llm_text import extract_rewrite, rewrite_budget
from spia_core.llm.base import LLM, LLMError
from spia_core.prompts import PromptTemplate

#: Why a loop stopped (key in the trace) -> what the dashboard says.
STOP_REASONS: dict[str, str] = {
    "goals_met": "both objectives reached their goal (privacy at its maximum, utility above "
    "its threshold)",
    "max_iterations": "the iteration limit was reached",
    "nothing_inferable": "the model could infer no attribute with enough certainty",
    "utility_floor": "utility fell below the floor",
    "llm_failed": "an LLM call failed; the best iterate so far is kept",
    "empty_rewrite": "the model returned an empty rewrite; the best iterate so far is kept",
    "refused": "the model refused or returned something that is not a rewrite",
    "unchanged": "the model returned a version it had already produced (ours: further steps "
    "would repeat or cycle)",
}


def rewrite(
    llm: LLM,
    prompt: PromptTemplate,
    source: str,
    *,
    temperature: float | None,
    **values: str,
) -> tuple[str, list[str]]:
    """One rewriting call: the text between ``<anonymized>`` tags and any warnings.

    Raises LLMError (reason ``empty``) when the reply holds no text.
    """
    reply = llm.complete(
        prompt.render(**values),
        temperature=temperature,
        max_tokens=rewrite_budget(source) + 1024,
        prompt_version=prompt.version_id,
    ).text
    text, warnings = extract_rewrite(reply)
    if not text.strip():
        raise LLMError("the model returned an empty rewrite", reason="empty")
    return text, warnings


def refusal(original: str, output: str, anonymizer: str) -> str | None:
    """The output validator's message when ``output`` is no rewrite of ``original``, else None.

    Uses ``spia_core.anonymizers.validation.check_rewrite`` when it is installed.
    """
    try:
        from spia_core.anonymizers.validation import check_rewrite
    except ImportError:
        return None
    notice = check_rewrite(original, output, anonymizer=anonymizer)
    return None if notice is None else notice.message


def stop_reason_text(reason: str) -> str:
    return STOP_REASONS.get(reason, reason)


def lex_best(keys: list[tuple[Any, ...]]) -> int:
    """Index of the lexicographically largest key (the first one on a tie)."""
    if not keys:
        raise ValueError("no iterate to choose from")
    best = 0
    for i, key in enumerate(keys):
        if key > keys[best]:
            best = i
    return best


def make_adversary(adversary: Any, llm: LLM, method: str) -> Any:
    """A SPIA adversary for a privacy role: "local" (offline), "llm" (the same model), or as is."""
    if not isinstance(adversary, str):
        return adversary
    if adversary == "local":
        from spia_core.adversary.local import LocalAdversary

        return LocalAdversary()
    if adversary == "llm":
        from spia_core.adversary.llm import LLMAdversary

        return LLMAdversary(llm)
    raise ValueError(f"{method}: unknown adversary {adversary!r}; use 'local' or 'llm'")


def trajectory_rows(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """One flat row per iterate of a RUPTA/SEAL trace (for tables and charts)."""
    rows = []
    for step in trace.get("trajectory") or []:
        scores = {k: v for k, v in (step.get("scores") or {}).items() if k != "privacy_key"}
        rows.append(
            {
                "iterate": step.get("index"),
                "phase": step.get("phase"),
                "best": step.get("index") == trace.get("best"),
                "word changes": len(step.get("diff") or []),
                **scores,
            }
        )
    return rows


def feedback_rows(step: dict[str, Any]) -> list[dict[str, Any]]:
    """The feedback an iterate produced: RUPTA clues/guesses or SEAL inferences, as rows."""
    feedback = step.get("feedback") or {}
    rows: list[dict[str, Any]] = []
    for item in feedback.get("inferences") or []:
        rows.append(
            {
                "kind": "inference",
                "type": item.get("type"),
                "guess": "; ".join(map(str, item.get("guess", []))),
                "certainty": item.get("certainty"),
                "why": item.get("inference"),
            }
        )
    rows += [{"kind": "clue", "why": c} for c in feedback.get("clues") or []]
    guesses = feedback.get("guesses") or []
    if guesses:
        rank = feedback.get("rank")
        found = f"truth at rank {rank}" if rank else "truth not among them"
        rows.append({"kind": f"top-{len(guesses)} guesses ({found})", "why": "; ".join(guesses)})
    if feedback.get("utility_reason"):
        rows.append({"kind": "utility judge", "why": feedback["utility_reason"]})
    return rows
