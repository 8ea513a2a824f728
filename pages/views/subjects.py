"""Subjects tab: one card per GT subject (paged), then the subjects the GT lacks."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.components.paging import page_of
from pages.components.text import md
from pages.components.tiles import fmt
from pages.views.audit_run import target
from pages.views.exposure import WHY, explanation_details, explanation_text
from spia_core import render
from spia_core.model import AuditReport, SubjectResult
from spia_core.taxonomy import DISPLAY_NAMES


def _match_caption(report: AuditReport, r: SubjectResult) -> str:
    if r.pred_subject_id is None:
        return "Not found by the adversary: every PII counts as protected."
    pred = next((s for s in report.inferred_subjects if s.id == r.pred_subject_id), None)
    desc = f" ({md(pred.description[:80])})" if pred is not None else ""
    return f"Matched to inferred subject #{r.pred_subject_id}{desc}: {md(r.match_reason)}"


def _explanations(report: AuditReport, pred_id: int | None) -> dict[str, str]:
    """Tag -> the rule or reasoning behind the matched inferred subject's value."""
    pred = next((s for s in report.inferred_subjects if s.id == pred_id), None)
    return {p.tag: explanation_text(p) for p in pred.piis} if pred is not None else {}


def _card(
    report: AuditReport, r: SubjectResult, label: str, colour: dict[str, str], p: float | None
) -> None:
    key = f"gt:{r.gt_subject_id}"
    with st.container(border=True):
        flag = "" if p is None or p >= target().min_subject else " · below the target"
        st.html(render.legend_html({key: label}, colour))
        st.markdown(f"**Protection {fmt(p)}**{flag}")
        st.caption(md(r.description))
        st.caption(_match_caption(report, r))
        why = _explanations(report, r.pred_subject_id)
        rows = [
            {
                "Tag": DISPLAY_NAMES.get(s.tag, s.tag),
                "GT PII": s.gt_keyword,
                "GT certainty": s.certainty,
                "Inferred PII": s.pred_keyword,
                "Certainty": s.pred_certainty if s.pred_keyword else None,
                "Score": s.effective_score,
                "Deciding rule": s.rule + (" (overridden)" if s.override else ""),
                WHY: why.get(s.tag, "") if s.pred_keyword else "",
            }
            for s in r.scores
        ]
        table = pd.DataFrame(rows)
        if not table.empty and not table[WHY].any():
            table = table.drop(columns=[WHY])
        st.dataframe(table, hide_index=True, width="stretch")
        explanation_details([r for r in rows if r[WHY]], tag="Tag", value="Inferred PII")


def subject_cards(report: AuditReport, labels: dict[str, str], colours: dict[str, str]) -> None:
    """One card per GT subject: GT PII against inferred PII, score and deciding rule."""
    prot = {p.gt_subject_id: p.protection for p in report.metrics.per_subject}
    for r in page_of(report.subject_results, "subject_page"):
        key = f"gt:{r.gt_subject_id}"
        _card(report, r, labels.get(key, key), colours, prot.get(r.gt_subject_id))


def extra_subjects(report: AuditReport) -> None:
    """The subjects the adversary found that the GT lacks, identical ones on one line."""
    groups = render.extra_subject_groups(report)
    if not groups:
        return
    n = sum(len(g.subjects) for g in groups)
    st.subheader(f"Found by the adversary, absent from the GT ({n})")
    st.caption(
        "Identical subjects are grouped. They are not scored, but each is someone the "
        "adversary could single out."
    )
    lines = []
    for g in page_of(groups, "extra_page", 100):
        head = render.subject_head(g.subjects[0])
        count = f"{len(g.subjects)} × " if len(g.subjects) > 1 else ""
        ids = ", ".join(f"#{i}" for i in g.ids)
        piis = sorted({p.tag for s in g.subjects for p in s.piis if not p.is_empty})
        tags = f"; inferred: {', '.join(DISPLAY_NAMES.get(t, t) for t in piis)}" if piis else ""
        desc = "" if g.description.strip() == head.strip() else f": {md(g.description)}"
        lines.append(f"- {count}{md(head)}{desc} \\({ids}\\){tags}")
    st.markdown("\n".join(lines))


def subjects_tab(report: AuditReport, labels: dict[str, str], colours: dict[str, str]) -> None:
    subject_cards(report, labels, colours)
    extra_subjects(report)
