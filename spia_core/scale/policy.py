"""The release policy of ``check``: which per-document figures make a document fail the gate.

Rules (``--fail-on``, repeatable, or ``fail_on = [...]`` in a TOML file):

| rule | a document fails when |
| --- | --- |
| ``direct-identifier`` | the adversary recovers any direct identifier (name, ID/phone/email...) |
| ``direct-identifiers>N`` | it recovers more than N direct-identifier tags (all subjects) |
| ``subjects-exposed>N`` | more than N people have exposure > 0 |
| ``exposure>N`` | the document exposure (sum over people) exceeds N |
| ``inferred-share>X`` | the most exposed person has more than X (0-1) of the 15 tags inferred |
| ``seen-through>N`` | more than N placeholders are seen through |
| ``unsafe`` | the verdict is ``unsafe`` (any exposure at all) |

``>=`` works too. A document whose verdict is ``cannot_judge`` (unreadable language, failed
stage, degraded engine) fails unless ``cannot_judge = "pass"``: a gate fails closed. With no
rule given the policy is ``direct-identifier``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spia_core.taxonomy import TAGS

#: Rule name -> the per-document figure it compares (None: a yes/no rule).
METRICS: dict[str, str | None] = {
    "direct-identifier": None,
    "unsafe": None,
    "direct-identifiers": "n_direct_identifiers",
    "subjects-exposed": "n_exposed_subjects",
    "exposure": "exposure",
    "inferred-share": "max_inferred_share",
    "seen-through": "n_seen_through",
}
DEFAULT_RULES: tuple[str, ...] = ("direct-identifier",)
_RULE = re.compile(r"^\s*([a-z-]+)\s*(?:(>=|>)\s*([0-9]*\.?[0-9]+))?\s*$")
N_TAGS = len(TAGS)


class PolicyError(ValueError):
    """A rule or policy file that cannot be used (exit code 2)."""


@dataclass(frozen=True)
class Rule:
    name: str
    op: str = ""
    threshold: float = 0.0

    def __str__(self) -> str:
        return f"{self.name}{self.op}{self.threshold:g}" if self.op else self.name

    def broken_by(self, row: dict[str, Any]) -> bool:
        if self.name == "direct-identifier":
            return bool(row.get("n_direct_identifiers"))
        if self.name == "unsafe":
            return row.get("verdict") == "unsafe"
        value = row.get(METRICS[self.name] or "")
        if value is None:
            return False
        return value >= self.threshold if self.op == ">=" else value > self.threshold


def parse_rule(text: str) -> Rule:
    """``subjects-exposed>0`` -> Rule; PolicyError with the valid forms otherwise."""
    m = _RULE.match(text)
    if not m or m.group(1) not in METRICS:
        raise PolicyError(
            f"unknown policy rule {text!r}; use one of: direct-identifier, unsafe, "
            "direct-identifiers>N, subjects-exposed>N, exposure>N, inferred-share>X (0-1), "
            "seen-through>N (>= works too)"
        )
    name, op, num = m.group(1), m.group(2) or "", m.group(3)
    needs_number = METRICS[name] is not None
    if needs_number and not op:
        raise PolicyError(f"policy rule {name!r} needs a threshold, e.g. {name}>0")
    if not needs_number and op:
        raise PolicyError(f"policy rule {name!r} takes no threshold")
    threshold = float(num) if num is not None else 0.0
    if name == "inferred-share" and not 0.0 <= threshold <= 1.0:
        raise PolicyError(f"inferred-share is a share of the {N_TAGS} tags: give 0-1, not {num}")
    return Rule(name, op, threshold)


@dataclass(frozen=True)
class Policy:
    rules: tuple[Rule, ...] = field(default_factory=lambda: tuple(map(parse_rule, DEFAULT_RULES)))
    cannot_judge_fails: bool = True

    def describe(self) -> str:
        judge = "fail" if self.cannot_judge_fails else "pass"
        return f"fail on {', '.join(map(str, self.rules))}; cannot_judge documents {judge}"

    def evaluate(self, row: dict[str, Any]) -> list[str]:
        """The reasons ``row`` fails the policy (empty: it passes)."""
        if row.get("status") != "ok":
            return [f"not checked: {row.get('error') or row.get('status')}"]
        if row.get("verdict") == "cannot_judge":
            return ["cannot_judge"] if self.cannot_judge_fails else []
        return [str(rule) for rule in self.rules if rule.broken_by(row)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "fail_on": [str(r) for r in self.rules],
            "cannot_judge": "fail" if self.cannot_judge_fails else "pass",
        }


def _cannot_judge(value: Any, where: str) -> bool:
    if value not in ("fail", "pass"):
        raise PolicyError(f'{where}: cannot_judge must be "fail" or "pass", got {value!r}')
    return value == "fail"


def load_policy(
    fail_on: list[str] | None = None,
    path: str | Path | None = None,
    cannot_judge: str | None = None,
) -> Policy:
    """The policy from a TOML file (``fail_on``, ``cannot_judge``; top level or ``[policy]``)
    and/or ``--fail-on`` rules (added to the file's)."""
    rules: list[Rule] = []
    judge_fails = True
    if path is not None:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise PolicyError(f"policy file {path}: {exc}") from None
        data = data.get("policy", data)
        unknown = set(data) - {"fail_on", "cannot_judge"}
        if unknown:
            raise PolicyError(
                f"policy file {path}: unknown key(s) {', '.join(sorted(unknown))}; "
                "expected fail_on and cannot_judge"
            )
        listed = data.get("fail_on", [])
        if not isinstance(listed, list) or not all(isinstance(r, str) for r in listed):
            raise PolicyError(f"policy file {path}: fail_on must be a list of rule strings")
        rules.extend(parse_rule(r) for r in listed)
        if "cannot_judge" in data:
            judge_fails = _cannot_judge(data["cannot_judge"], f"policy file {path}")
    rules.extend(parse_rule(r) for r in fail_on or [])
    if cannot_judge is not None:
        judge_fails = _cannot_judge(cannot_judge, "--cannot-judge")
    if not rules:
        rules = [parse_rule(r) for r in DEFAULT_RULES]
    return Policy(tuple(dict.fromkeys(rules)), judge_fails)
