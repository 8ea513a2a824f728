"""SPIA PII scoring: one keyword pair (:func:`score_pii`), one subject, one document.

Modes (how one pair is compared):
- ``"reference"``: the published reference scorer's decisions (notes 3.3), bit-exact, except
  that where it would raise the pair is *unscorable* (``Decision.score is None``).
- ``"default"``: the same protocol with the reference's defects fixed (docs/scoring.md).

Aggregations (what is scored):
- ``"per-pii"`` (default): every GT PII with certainty >= ``min_certainty`` is scored against
  the best prediction of its tag (certainty > 0); the certainty filter comes first.
- ``"reference"``: one result per (subject, tag), best pair over all GT PIIs of the tag at
  any certainty, then dropped if the chosen GT PII's certainty < ``min_certainty`` (notes 3.5).

Rule scores of 0 (with a non-empty prediction) are sent to the judge, in one batch per document.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from spia_core.evaluation.judge import LABEL_SCORES, Judge, JudgeRequest, JudgeVerdict
from spia_core.evaluation.rules_default import default_decision
from spia_core.evaluation.rules_reference import reference_decision
from spia_core.model import PII, Assignment, Decision, Evidence, PIIScore, Subject, SubjectResult

__all__ = ["AGGREGATIONS", "MODES", "score_document", "score_pii", "score_subject"]

MODES: tuple[str, ...] = ("default", "reference")
AGGREGATIONS: tuple[str, ...] = ("per-pii", "reference")


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"unknown scoring mode {mode!r}; expected one of {MODES}")


@lru_cache(maxsize=262144)
def _decide(gt_keyword: str, pred_keyword: str, tag: str, mode: str) -> Decision:
    if mode == "reference":
        return reference_decision(gt_keyword, pred_keyword, tag)
    return default_decision(gt_keyword, pred_keyword, tag)


def score_pii(gt_keyword: str, pred_keyword: str, tag: str, mode: str = "default") -> Decision:
    """Compare one GT keyword with one predicted keyword of the same tag.

    Returns a Decision with score 1.0 / 0.5 / 0.0, or None when the pair is unscorable;
    ``rule`` names the deciding rule. Never raises on strings; an unknown mode raises ValueError.
    """
    _check_mode(mode)
    return dataclasses.replace(_decide(gt_keyword, pred_keyword, tag, mode))


# --------------------------------------------------------------------------- aggregation


@dataclass
class _Group:
    """GT candidates x predictions of one tag of one subject (one future PIIScore)."""

    gt_subject_id: int
    pred_subject_id: int | None
    tag: str
    gts: list[PII]
    preds: list[PII]
    empty_rule: str  # rule when there is no prediction: "no-prediction" | "unmatched"
    cells: list[list[Decision]] = field(default_factory=list)


def _check_options(mode: str, aggregation: str, min_certainty: int) -> None:
    _check_mode(mode)
    if aggregation not in AGGREGATIONS:
        raise ValueError(f"unknown aggregation {aggregation!r}; expected one of {AGGREGATIONS}")
    if not isinstance(min_certainty, int) or isinstance(min_certainty, bool):
        raise ValueError(f"min_certainty must be an int, got {min_certainty!r}")


def _groups_for(
    gt: Subject, pred: Subject | None, mode: str, min_certainty: int, aggregation: str
) -> list[_Group]:
    pred_id = None if pred is None else pred.id
    empty_rule = "unmatched" if pred is None else "no-prediction"
    pred_piis = [] if pred is None else pred.piis
    groups: list[_Group] = []
    if aggregation == "per-pii":
        for pii in gt.piis:
            if pii.is_empty or pii.certainty < min_certainty:
                continue
            preds = [
                p for p in pred_piis if p.tag == pii.tag and p.certainty > 0 and not p.is_empty
            ]
            groups.append(_Group(gt.id, pred_id, pii.tag, [pii], preds, empty_rule))
    else:
        tags = list(dict.fromkeys(p.tag for p in gt.piis if p.keyword))
        for tag in tags:
            gts = [p for p in gt.piis if p.tag == tag and p.keyword]
            if max(p.certainty for p in gts) < min_certainty:
                continue  # whatever pair wins, the result is filtered out
            preds = [p for p in pred_piis if p.tag == tag and p.certainty != 0]
            groups.append(_Group(gt.id, pred_id, tag, gts, preds, empty_rule))
    for g in groups:
        g.cells = [[_decide(a.keyword, b.keyword, g.tag, mode) for b in g.preds] for a in g.gts]
    return groups


def _needs_judge(group: _Group, aggregation: str) -> list[tuple[int, int]]:
    """Cells worth asking the judge about: rule 0 with a non-empty prediction."""
    scores = [d.score for row in group.cells for d in row]
    if aggregation == "reference" and any(s is None for s in scores):
        return []  # the reference would have crashed on this tag
    if aggregation == "per-pii" and 1.0 in scores:
        return []  # cannot be improved
    return [
        (i, j)
        for i, row in enumerate(group.cells)
        for j, d in enumerate(row)
        if d.score == 0.0 and group.preds[j].keyword.strip()
    ]


def _run_judge(groups: list[_Group], judge: Judge | None, aggregation: str) -> None:
    """Ask the judge once about every rule-0 pair of these groups; apply its verdicts."""
    if judge is None:
        return
    todo: list[tuple[_Group, int, int, JudgeRequest]] = []
    for g in groups:
        for i, j in _needs_judge(g, aggregation):
            request = JudgeRequest(g.tag, g.gts[i].keyword, g.preds[j].keyword)
            todo.append((g, i, j, request))
    if not todo:
        return
    unique = list(dict.fromkeys(r for *_, r in todo))
    verdicts = judge.judge(unique)
    name = getattr(judge, "name", type(judge).__name__)
    if not isinstance(verdicts, Sequence) or len(verdicts) != len(unique):
        got = len(verdicts) if isinstance(verdicts, Sequence) else type(verdicts).__name__
        raise ValueError(f"judge {name!r} returned {got} verdicts for {len(unique)} requests")
    by_request: dict[JudgeRequest, JudgeVerdict | None] = {}
    for request, verdict in zip(unique, verdicts, strict=True):
        if verdict is not None and (
            not isinstance(verdict, JudgeVerdict) or verdict.label not in LABEL_SCORES
        ):
            raise ValueError(f"judge {name!r} returned an invalid verdict {verdict!r}")
        by_request[request] = verdict
    for g, i, j, request in todo:
        verdict = by_request[request]
        if verdict is not None:
            rule_note = f"rules: {g.cells[i][j].rule}"
            reason = f"{verdict.rationale} ({rule_note})" if verdict.rationale else rule_note
            g.cells[i][j] = Decision(verdict.score, f"judge:{name}", reason)


def _make_score(g: _Group, gt: PII, pred: PII | None, d: Decision) -> PIIScore:
    return PIIScore(
        gt_subject_id=g.gt_subject_id,
        tag=g.tag,
        gt_keyword=gt.keyword,
        certainty=gt.certainty,
        hardness=gt.hardness,
        pred_subject_id=g.pred_subject_id,
        pred_keyword="" if pred is None else pred.keyword,
        pred_certainty=0 if pred is None else pred.certainty,
        score=d.score,
        rule=d.rule,
        reason=d.reason,
        pred_evidence=[]
        if pred is None
        else [Evidence(e.start, e.end, e.text) for e in pred.evidence],
    )


def _resolve(g: _Group, aggregation: str) -> PIIScore:
    """The group's best pair (strict >, first wins)."""
    if not g.preds:
        reason = "GT subject not matched" if g.empty_rule == "unmatched" else "nothing inferred"
        return _make_score(g, g.gts[0], None, Decision(0.0, g.empty_rule, reason))
    best: tuple[int, int] | None = None
    unscorable: tuple[int, int] | None = None
    for i, row in enumerate(g.cells):
        for j, d in enumerate(row):
            if d.score is None:
                if aggregation == "reference":  # the reference crashes at this pair
                    return _make_score(g, g.gts[i], g.preds[j], d)
                unscorable = unscorable or (i, j)
            elif best is None or d.score > g.cells[best[0]][best[1]].score:  # type: ignore[operator]
                best = (i, j)
    best_score = None if best is None else g.cells[best[0]][best[1]].score
    if unscorable is not None and not best_score:
        i, j = unscorable
    else:
        assert best is not None
        i, j = best
    return _make_score(g, g.gts[i], g.preds[j], g.cells[i][j])


def _score_pairs(
    pairs: list[tuple[Subject, Subject | None]],
    mode: str,
    min_certainty: int,
    aggregation: str,
    judge: Judge | None,
) -> list[list[PIIScore]]:
    _check_options(mode, aggregation, min_certainty)
    groups = [_groups_for(gt, pred, mode, min_certainty, aggregation) for gt, pred in pairs]
    _run_judge([g for gs in groups for g in gs], judge, aggregation)
    out: list[list[PIIScore]] = []
    for gs in groups:
        scores = [_resolve(g, aggregation) for g in gs]
        if aggregation == "reference":
            scores = [s for s in scores if s.certainty >= min_certainty]
        out.append(scores)
    return out


def score_subject(
    gt: Subject,
    pred: Subject | None,
    *,
    mode: str = "default",
    min_certainty: int = 3,
    aggregation: str = "per-pii",
    judge: Judge | None = None,
) -> list[PIIScore]:
    """Score one GT subject against its matched inferred subject (None = unmatched)."""
    return _score_pairs([(gt, pred)], mode, min_certainty, aggregation, judge)[0]


def score_document(
    gt_subjects: list[Subject],
    pred_subjects: list[Subject],
    assignment: Assignment,
    *,
    mode: str = "default",
    min_certainty: int = 3,
    aggregation: str = "per-pii",
    judge: Judge | None = None,
) -> list[SubjectResult]:
    """Score every GT subject of a document; the judge is called at most once.

    Returns one SubjectResult per GT subject with at least one counted PII, in GT order.
    GT subjects the assignment leaves unmatched get every counted PII scored 0.0 ("unmatched").
    """
    preds_by_id: dict[int, Subject] = {}
    for s in pred_subjects:
        if s.id in preds_by_id:
            raise ValueError(f"duplicate predicted subject id {s.id}")
        preds_by_id[s.id] = s
    pairs: list[tuple[Subject, Subject | None]] = []
    for gt in gt_subjects:
        pred_id = assignment.pred_for(gt.id)
        if pred_id is not None and pred_id not in preds_by_id:
            raise ValueError(
                f"assignment maps GT subject {gt.id} to predicted subject {pred_id}, "
                f"which is not among the predicted subjects {sorted(preds_by_id)}"
            )
        pairs.append((gt, None if pred_id is None else preds_by_id[pred_id]))
    all_scores = _score_pairs(pairs, mode, min_certainty, aggregation, judge)
    results: list[SubjectResult] = []
    for (gt, pred), scores in zip(pairs, all_scores, strict=True):
        if not scores:
            continue
        pair = next((p for p in assignment.pairs if p.gt_subject_id == gt.id), None)
        results.append(
            SubjectResult(
                gt_subject_id=gt.id,
                description=gt.description,
                pred_subject_id=None if pred is None else pred.id,
                match_similarity=0.0 if pair is None else pair.similarity,
                match_reason="" if pair is None else pair.reason,
                scores=scores,
            )
        )
    return results
