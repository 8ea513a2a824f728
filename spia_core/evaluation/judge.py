"""The Judge interface: a second opinion on PII pairs the rules scored 0."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from spia_core.registry import Registry

#: Judge labels and their scores (SPIA: yes = 1.0, less precise = 0.5, no = 0.0).
LABEL_SCORES: dict[str, float] = {"yes": 1.0, "less precise": 0.5, "no": 0.0}


@dataclass(frozen=True)
class JudgeRequest:
    """One pair to judge, with its tag as context."""

    tag: str
    gt_keyword: str
    pred_keyword: str


@dataclass(frozen=True)
class JudgeVerdict:
    label: str  # "yes" | "less precise" | "no"
    rationale: str = ""

    @property
    def score(self) -> float:
        return LABEL_SCORES[self.label]


class Judge(Protocol):
    """Decides pairs the rules scored 0. Batched: one call judges all of a document's pairs."""

    name: str

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict | None]:
        """One verdict per request, in order; None when this judge cannot decide it."""
        ...


#: name -> judge; ``rules`` is built in, ``llm`` registers from its module on first use.
JUDGES: Registry[Judge] = Registry[Judge]("judge", builtins=("spia_core.evaluation.llm_judge",))


@JUDGES.register("rules")
class RulesOnlyJudge:
    """The offline judge: never overturns a rule decision."""

    name = "rules"

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict | None]:
        return [None for _ in requests]
