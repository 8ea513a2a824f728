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
    "unchanged": "the model returned the previous version unchanged (ours: a further step "
    "would only repeat it)",
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
