"""The SPIA privacy of one rewrite: the CPR the two-stage adversary leaves on it.

Used as the privacy objective of RUPTA (extension: every subject, not one target) and as an
optional privacy role of SEAL-style refinement. The adversary's inference on the original
text is the ground truth (as in an audit without dataset GT); each iterate is inferred,
matched to it and scored with the project's scorer, so the figure is the audit's own CPR.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spia_core.adversary.base import Adversary
from spia_core.llm.base import LLMError
from spia_core.model import Subject


@dataclass
class SubjectPrivacyEval:
    """CPR of one text (None when nothing was scorable) and what is still inferable."""

    cpr: float | None
    exposed: list[dict[str, Any]] = field(default_factory=list)
    n_pii: int = 0
    failures: list[str] = field(default_factory=list)


def _failures(result: Any) -> list[str]:
    return [f"{f.stage}: {f.message}" for f in result.failures]


class SubjectPrivacy:
    """CPR of rewrites of one original text against ``adversary`` (built per document)."""

    def __init__(
        self,
        adversary: Adversary,
        original: str,
        *,
        min_certainty: int = 3,
        matcher: Any = None,
    ) -> None:
        from spia_core.evaluation.matching import MATCHERS

        self.adversary = adversary
        self.original = original
        self.min_certainty = min_certainty
        self.matcher = matcher or MATCHERS.create("local")
        result = adversary.infer(original)
        failures = _failures(result)
        if failures:
            raise LLMError(f"the adversary failed on the original text: {failures[0]}")
        self.gt: list[Subject] = result.subjects

    @property
    def n_gt_pii(self) -> int:
        return sum(
            1
            for s in self.gt
            for p in s.piis
            if not p.is_empty and p.certainty >= self.min_certainty
        )

    def evaluate(self, text: str) -> SubjectPrivacyEval:
        """Infer on ``text``, match to the original's subjects and score: CPR and the leaks."""
        from spia_core.evaluation.metrics import DocumentScores, compute_metrics
        from spia_core.evaluation.scoring import score_document

        result = self.adversary.infer(text)
        failures = _failures(result)
        if failures:
            return SubjectPrivacyEval(cpr=None, failures=failures)
        assignment = self.matcher.match(
            self.gt, result.subjects, original_text=self.original, anonymized_text=text
        )
        results = score_document(
            self.gt, result.subjects, assignment, min_certainty=self.min_certainty
        )
        metrics = compute_metrics(
            [DocumentScores(data_id="iterate", subject_results=results, failures=[])]
        )
        exposed = [
            {
                "subject": r.description,
                "tag": s.tag,
                "value": s.pred_keyword,
                "score": s.score,
                "evidence": [e.text for e in s.pred_evidence if e.text],
            }
            for r in results
            for s in r.scores
            if s.score
        ]
        return SubjectPrivacyEval(cpr=metrics.cpr, exposed=exposed, n_pii=metrics.n_pii)


def clues_of(exposed: list[dict[str, Any]]) -> list[str]:
    """Feedback lines for a rewrite: what is still inferable about whom, and from which words."""
    lines = []
    for item in exposed:
        quotes = "; ".join(f'"{q}"' for q in item["evidence"])
        where = f" (from {quotes})" if quotes else ""
        who = item["subject"] if len(item["subject"]) <= 60 else item["subject"][:57] + "..."
        lines.append(f"{who}: {item['tag']} = {item['value']}{where}")
    return lines
