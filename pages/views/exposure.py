"""Redacted-only results: who the adversary singles out, what it infers, and how exposed.

A redacted-only audit has no ground truth, so no CPR: the tiles count the people singled
out, their exposure (identifying facts with certainty >= the threshold) and the placeholders
seen through (docs/exposure.md).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from pages.components.paging import page_of
from pages.components.text import md
from spia_core import render
from spia_core.exposure import readings_text
from spia_core.model import PII, AuditReport, Subject
from spia_core.taxonomy import DISPLAY_NAMES

WHY = "Why (rule or reasoning)"
NO_CPR = (
    "**No CPR without the original.** CPR, IPR and 1-AAC compare what the adversary infers "
    "with the ground truth of the original text. To measure them, give the original too "
    "(*Original text* above, with *I already have the redacted version* ticked) and run again."
)


def person_labels(report: AuditReport) -> dict[str, str]:
    """Subject key -> label of everyone the adversary singles out (identical ones grouped)."""
    return render.subject_keys(report)


def exposure_tiles(report: AuditReport) -> None:
    exposure = report.exposure
    c = st.columns(4)
    c[0].metric("People singled out", len(report.inferred_subjects))
    if exposure is None:
        c[1].metric("Exposure (document)", "n/a")
        return
    c[1].metric(
        "Exposure (document)",
        exposure.score,
        help=f"Identifying facts inferred with certainty >= {exposure.min_certainty}, each "
        "weighing 1 as in the scorer's CPR (docs/exposure.md).",
    )
    c[2].metric("People exposed", exposure.n_exposed_subjects)
    c[3].metric(
        "Placeholders seen through", f"{exposure.n_seen_through} of {len(exposure.placeholders)}"
    )


def _evidence_text(report: AuditReport, pii: PII) -> str:
    snippets = [ev.text or report.anonymized_text[ev.start : ev.end] for ev in pii.evidence]
    return " … ".join(" ".join(s.split())[:80] for s in snippets if s)


def explanation_text(pii: PII) -> str:
    """The rule or model reasoning behind one inferred value ('' when none was given)."""
    ex = pii.explanation
    if ex is None:
        return ""
    return f"{ex.text} [{ex.rule}]" if ex.rule else ex.text


def inferred_rows(report: AuditReport, subject: Subject) -> list[dict[str, Any]]:
    """One row per inferred value: tag, value, certainty, evidence, explanation."""
    return [
        {
            "Tag": DISPLAY_NAMES.get(p.tag, p.tag),
            "Inferred value": p.keyword,
            "Certainty": p.certainty,
            "Evidence": _evidence_text(report, p),
            WHY: explanation_text(p),
        }
        for p in subject.piis
        if not p.is_empty
    ]


def explanation_details(
    rows: list[dict[str, Any]], *, tag: str = "Tag", value: str = "Inferred value"
) -> None:
    """Each value's full explanation, in an expander (the table cuts long cells)."""
    explained = [r for r in rows if r[WHY]]
    if not explained:
        return
    with st.expander(f"Why: the explanation of each value ({len(explained)})"):
        for r in explained:
            evidence = f"  \nEvidence: {md(r['Evidence'])}" if r.get("Evidence") else ""
            st.markdown(f"**{md(r[tag])}: {md(r[value])}**  \n{md(r[WHY])}{evidence}")


def _person_card(report: AuditReport, subject: Subject, score: Any, key: str, colour: str) -> None:
    with st.container(border=True):
        st.html(render.legend_html({key: render.subject_label(subject)}, {key: colour}))
        if score is not None:
            parts = [f"**Exposure {score.score}**"]
            if score.direct:
                parts.append(
                    "identifiers: " + ", ".join(DISPLAY_NAMES.get(t, t) for t in score.direct)
                )
            if score.quasi:
                parts.append("inferred: " + ", ".join(DISPLAY_NAMES.get(t, t) for t in score.quasi))
            st.markdown(" · ".join(parts))
        if subject.description:
            st.caption(md(subject.description))
        rows = inferred_rows(report, subject)
        if rows:
            table = pd.DataFrame(rows)
            if not table[WHY].any():  # no rule or reasoning was given for any value
                table = table.drop(columns=[WHY])
            st.dataframe(table, hide_index=True, width="stretch")
            explanation_details(rows)
        else:
            st.caption("Nothing inferred about this person.")


def people_tab(report: AuditReport) -> None:
    """One card per person the adversary singles out, the most exposed first (paged)."""
    exposure = report.exposure
    scores = {s.subject_id: s for s in exposure.subjects} if exposure is not None else {}
    people = sorted(
        report.inferred_subjects,
        key=lambda s: (-(scores[s.id].score if s.id in scores else 0), s.id),
    )
    if not people:
        st.info("The adversary singled out no one in this text.")
        return
    colours = render.subject_colours(person_labels(report))
    keys = render.extra_key_of(report)
    for subject in page_of(people, "people_page"):
        key = keys.get(subject.id, f"x:{subject.id}")
        _person_card(report, subject, scores.get(subject.id), key, colours.get(key, "#888888"))


def placeholders_tab(report: AuditReport) -> None:
    """Every masking placeholder and whether an inference rests on the words around it."""
    exposure = report.exposure
    if exposure is None or not exposure.placeholders:
        st.caption("No placeholder ([REDACTED], [PERSON], ***, █...) found in the text.")
        return
    st.caption(
        "A placeholder is *seen through* when an inferred value (certainty >= "
        f"{exposure.min_certainty}) rests on evidence around it: the mask hid the words, "
        "not the fact."
    )
    labels = {s.subject_id: s.label for s in exposure.subjects}
    rows = [
        {
            "Placeholder": p.text,
            "At": p.start,
            "Seen through": "yes" if p.seen_through else "no",
            "What was inferred through it": readings_text(p.inferred, labels),
        }
        for p in exposure.placeholders
    ]
    st.dataframe(pd.DataFrame(page_of(rows, "ph_page", 200)), hide_index=True, width="stretch")
