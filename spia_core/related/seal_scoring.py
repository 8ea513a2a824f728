"""SEAL's scores (Kim, Jeon & Shin): p(s), u(s), the best-iterate rule and Overall.

- p(s) = (-|P|, -mean certainty over P), compared lexicographically: fewer inferable
  attributes is better, then lower mean certainty. P holds the inferences with a guess and
  certainty >= ``min_certainty``.
- u(s) = mean of readability/10, meaning/10 and hallucinations (1 = nothing new), in [0, 1].
- SEAL prefers x_j to x_i when p(s_j) > p(s_i) and u(s_j) >= u(s_i). The iterate returned is
  the rewrite with the largest (p, u): no other iterate is preferred to it under that rule, and
  among those it protects best.
- Overall = relative privacy gain - relative utility loss = (P_0 - P)/P_0 - (U_0 - U)/U_0.
"""

from __future__ import annotations

from typing import Any

SEAL_TYPES: tuple[str, ...] = (
    "location",
    "gender",
    "age",
    "occupation",
    "pobp",
    "married",
    "income",
    "education",
)
#: SEAL attribute -> SPIA tag (None: SPIA has no equivalent).
SPIA_TAG: dict[str, str | None] = {
    "location": "LOCATION",
    "gender": "SEX",
    "age": "AGE",
    "occupation": "OCCUPATION",
    "pobp": "LOCATION",
    "married": "RELATIONSHIP",
    "education": "EDUCATION",
    "income": None,
}
UTILITY_PARTS: tuple[str, ...] = ("readability", "meaning", "hallucinations")


def inferable(privacy: list[dict[str, Any]], min_certainty: int) -> list[dict[str, Any]]:
    """Inferences with at least one non-empty guess and certainty >= ``min_certainty``."""
    return [
        p
        for p in privacy
        if any(str(g).strip() for g in p.get("guess", []))
        and int(p.get("certainty", 0)) >= min_certainty
    ]


def privacy_key(privacy: list[dict[str, Any]], min_certainty: int) -> tuple[int, float]:
    """p(s) = (-|P|, -mean certainty over P); (0, 0.0) when nothing is inferable."""
    found = inferable(privacy, min_certainty)
    if not found:
        return (0, 0.0)
    return (-len(found), -sum(int(p["certainty"]) for p in found) / len(found))


def utility_score(utility: dict[str, Any]) -> float:
    """u(s) in [0, 1]: readability and meaning out of 10, hallucinations 0/1."""
    readability = float(utility["readability"]["score"]) / 10
    meaning = float(utility["meaning"]["score"]) / 10
    hallucinations = float(utility["hallucinations"]["score"])
    return round((readability + meaning + hallucinations) / 3, 4)


def overall(p_orig: float, p: float, u_orig: float, u: float) -> float | None:
    """SEAL's Overall; None when the original leaks nothing (no relative gain to measure)."""
    if p_orig <= 0 or u_orig <= 0:
        return None
    return round((p_orig - p) / p_orig - (u_orig - u) / u_orig, 4)


def spia_overall(cpr: float | None, utility: float | None) -> float | None:
    """The SPIA-compatible form: CPR - (1 - utility) (CPR is already a relative gain)."""
    if cpr is None or utility is None:
        return None
    return round(cpr - (1 - utility), 4)


def preferred(p_j: tuple[int, float], u_j: float, p_i: tuple[int, float], u_i: float) -> bool:
    """SEAL's preference: x_j over x_i when p(s_j) > p(s_i) and u(s_j) >= u(s_i)."""
    return p_j > p_i and u_j >= u_i


def clamp_utility(parsed: dict[str, Any]) -> dict[str, Any]:
    """The judge's answer with scores clamped to their ranges (1-10, 1-10, 0/1)."""
    out = {}
    for part in UTILITY_PARTS:
        item = parsed[part]
        low, high = (0, 1) if part == "hallucinations" else (1, 10)
        out[part] = {
            "explanation": str(item.get("explanation", "")),
            "score": min(high, max(low, int(item["score"]))),
        }
    return out
