"""Ablation of the local adversary's rules (``bench adversary --ablate``).

One inference per document records every candidate finding of every subject (``rules.recording``).
For each rule it reports: the documents it fires on (a candidate of it exists), the PIIs it
produces (it won the tag) split into correct / wrong / neutral against the matched ground-truth
subject (neutral: no counted GT value for that tag, or an unmatched subject), and the change of
the headline figures when it is switched off: each subject's tags are re-chosen among the other
rules' candidates and the documents it fired on are re-scored. Subjects, their descriptions and
the rules that read other rules' findings are held fixed, so the change is that of the value
choice alone. Positive ``cpr_off_minus_on`` = the rule lowers CPR (it helps the adversary).

Subject-finding passes (rules of tag SUBJECT) are switched off one at a time and the whole
inference re-run on every document (a pass changes who the subjects are, so nothing can be
held fixed). A pass "fires" on a document when switching it off changes the output; its
correct / wrong columns are the ground-truth subjects it gets matched and the predicted
subjects left unmatched that it adds (on minus off, summed; neutral is 0).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from spia_core.model import Document, Subject


def _infer_with_candidates(adv: Any, text: str) -> tuple[list[Subject], list[dict]]:
    from spia_core.adversary.local import rules

    with rules.recording() as rec:
        subjects = adv.infer(text).subjects
    return subjects, rec


def _without(subjects: list[Subject], cands: list[dict], rule_id: str) -> list[Subject]:
    """The subjects with every tag re-chosen among candidates of the other rules."""
    from spia_core.adversary.local.attributes.stage import choose

    out = []
    for s, per_tag in zip(subjects, cands, strict=False):
        kept = {t: [f for f in fs if f.rule != rule_id] for t, fs in per_tag.items()}
        out.append(Subject(id=s.id, description=s.description, piis=choose(kept)))
    return out + subjects[len(cands) :]


def _outcomes(score: Any, subjects: list[Subject]) -> dict[str, list[str]]:
    """rule id -> outcome ('correct' / 'wrong' / 'neutral') of each PII it produced."""
    by_pred: dict[tuple[int, str], Any] = {}
    for r in score.subject_results:
        for p in r.scores:
            if p.pred_subject_id is not None:
                by_pred[(p.pred_subject_id, p.tag)] = p
    out: dict[str, list[str]] = defaultdict(list)
    for s in subjects:
        for pii in s.piis:
            if not pii.keyword or pii.explanation is None:
                continue
            p = by_pred.get((s.id, pii.tag))
            if p is None or p.score is None or p.pred_keyword != pii.keyword:
                kind = "neutral"
            else:
                kind = "correct" if p.score >= 0.5 else "wrong"
            out[pii.explanation.rule].append(kind)
    return out


def ablate_variant(
    docs: list[Document],
    texts: list[str],
    adv: Any,
    figures_of: Any,
    *,
    subject_passes: bool = True,
    only: set[str] | None = None,
) -> dict[str, Any]:
    """The ablation table of one text variant (original or masked); ``only``: these rule ids."""
    from spia_core.bench.adversary_quality import score_predictions

    preds, cands = [], []
    for text in texts:
        subjects, c = _infer_with_candidates(adv, text)
        preds.append(subjects)
        cands.append(c)
    scored = score_predictions(docs, preds, texts)
    base = figures_of(scored)
    fired: dict[str, set[int]] = defaultdict(set)
    produced: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for i, (c, s) in enumerate(zip(cands, scored, strict=True)):
        for per_tag in c:
            for fs in per_tag.values():
                for f in fs:
                    fired[f.rule].add(i)
        for rid, kinds in _outcomes(s, preds[i]).items():
            for k in kinds:
                produced[rid][k] += 1
    table: dict[str, Any] = {}
    for rid in sorted(r for r in fired if only is None or r in only):
        rescored = list(scored)
        for i in fired[rid]:
            alt = _without(preds[i], cands[i], rid)
            rescored[i] = score_predictions([docs[i]], [alt], [texts[i]])[0]
        off = figures_of(rescored)
        table[rid] = {
            "docs": len(fired[rid]),
            "correct": produced[rid]["correct"],
            "wrong": produced[rid]["wrong"],
            "neutral": produced[rid]["neutral"],
            "cpr_off_minus_on": round(off["cpr"] - base["cpr"], 4),
            "share_on_minus_off": round(base["inferred_share"] - off["inferred_share"], 4),
        }
    if subject_passes:
        table.update(_ablate_passes(docs, texts, adv, preds, scored, figures_of, base, only))
    values = [p for subjects in preds for s in subjects for p in s.piis if p.keyword]
    explained = sum(1 for p in values if p.explanation is not None)
    baseline = {k: base[k] for k in ("cpr", "inferred_share", "accuracy_matched")}
    baseline["inferred_values"] = len(values)
    baseline["explained_share"] = round(explained / len(values), 4) if values else None
    return {"baseline": baseline, "rules": table}


def _view(subjects: list[Subject]) -> list[tuple]:
    return [(s.description, [(p.tag, p.keyword, p.certainty) for p in s.piis]) for s in subjects]


def _matched(score: Any) -> tuple[int, int]:
    """(GT subjects matched, predicted subjects left unmatched) of one scored document."""
    hit = {r.pred_subject_id for r in score.subject_results if r.pred_subject_id is not None}
    return len(hit), score.n_extra_subjects


def subject_rules() -> list[str]:
    """Ids of the subject-finding rules (passes and mention readers), in table order."""
    from spia_core.adversary.local.rules import all_rules

    return [rid for rid, r in all_rules().items() if r.tag == "SUBJECT"]


def _ablate_passes(
    docs: list[Document],
    texts: list[str],
    adv: Any,
    preds: list[list[Subject]],
    scored: list[Any],
    figures_of: Any,
    base: dict[str, Any],
    only: set[str] | None = None,
) -> dict[str, Any]:
    """One row per subject pass: the documents whose output changes when it is off, the
    matched / unmatched subjects it adds and the figure change (see the module docstring)."""
    from spia_core.adversary.local import rules
    from spia_core.bench.adversary_quality import score_predictions

    ids = [r for r in subject_rules() if only is None or r in only]
    changed: dict[str, dict[int, Any]] = defaultdict(dict)
    for i, text in enumerate(texts):  # document by document: the parse is cached
        for rid in ids:
            with rules.disabled({rid}):
                alt = adv.infer(text).subjects
            if _view(alt) != _view(preds[i]):
                changed[rid][i] = score_predictions([docs[i]], [alt], [texts[i]])[0]
    table: dict[str, Any] = {}
    for rid in ids:
        rescored = [changed[rid].get(i, s) for i, s in enumerate(scored)]
        off = figures_of(rescored)
        gained = [0, 0]
        for i, alt in changed[rid].items():
            on_m, on_x = _matched(scored[i])
            off_m, off_x = _matched(alt)
            gained[0] += on_m - off_m
            gained[1] += on_x - off_x
        table[rid] = {
            "docs": len(changed[rid]),
            "correct": gained[0],
            "wrong": gained[1],
            "neutral": 0,
            "cpr_off_minus_on": round(off["cpr"] - base["cpr"], 4),
            "share_on_minus_off": round(base["inferred_share"] - off["inferred_share"], 4),
        }
    return table


def ablate(
    dataset: str,
    *,
    half: str = "all",
    limit: int | None = None,
    masked: bool = True,
    subject_passes: bool = True,
    only: set[str] | None = None,
) -> dict[str, Any]:
    """Per-rule ablation on one dataset (bundled, or a SPIA JSONL file), original and ner-mask
    text."""
    from spia_core.adversary.registry import ADVERSARIES
    from spia_core.bench.adversary_quality import figures, load_documents, split_half

    adv = ADVERSARIES.create("local")
    docs = split_half(load_documents(dataset), half)[: limit or None]
    out = {"dataset": dataset, "n_docs": len(docs)}
    opts = {"subject_passes": subject_passes, "only": only}
    out["original"] = ablate_variant(docs, [d.text for d in docs], adv, figures, **opts)
    if masked:
        from spia_core.anonymizers.registry import create_anonymizer

        anonymizer = create_anonymizer("ner-mask")
        texts = [anonymizer.anonymize(d.text).text for d in docs]
        out["masked"] = ablate_variant(docs, texts, adv, figures, **opts)
    return out


def ablate_written() -> dict[str, dict[str, float]]:
    """Subject precision / recall on the written-for-purpose set with each subject pass
    switched off (``bench subjects --ablate``): the pass's gain is on minus off."""
    from spia_core.adversary.local import rules
    from spia_core.evaluation.subject_quality import local_subjects, subject_quality

    base = subject_quality(local_subjects)["all"]
    out = {}
    for rid in subject_rules():
        with rules.disabled({rid}):
            off = subject_quality(local_subjects)["all"]
        out[rid] = {
            "precision_on_minus_off": round(base["precision"] - off["precision"], 3),
            "recall_on_minus_off": round(base["recall"] - off["recall"], 3),
        }
    return out


def format_ablation(reports: list[dict[str, Any]]) -> str:
    """One line per rule and dataset: docs, correct/wrong/neutral, figure change (orig | mask)."""
    lines = []
    for rep in reports:
        lines.append(f"{rep['dataset']} ({rep['n_docs']} documents)")
        head = (
            f"  {'rule':38} {'docs':>5} {'ok/wrong/neutral':>17} {'dCPR off':>9} "
            f"| {'docs':>5} {'ok/wrong/neutral':>17} {'dCPR off':>9}  (original | ner-mask)"
        )
        lines.append(head)
        orig = rep["original"]["rules"]
        mask = rep.get("masked", {}).get("rules", {})
        for rid in sorted(set(orig) | set(mask)):
            cells = []
            for t in (orig.get(rid), mask.get(rid)):
                if t is None:
                    cells.append(f"{'-':>5} {'-':>17} {'-':>9}")
                else:
                    cwn = f"{t['correct']}/{t['wrong']}/{t['neutral']}"
                    cells.append(f"{t['docs']:>5} {cwn:>17} {t['cpr_off_minus_on']:>+9.4f}")
            lines.append(f"  {rid:38} {cells[0]} | {cells[1]}")
    return "\n".join(lines)
