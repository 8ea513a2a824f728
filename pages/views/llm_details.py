"""LLM usage per stage and the rounds of an iterative LLM anonymizer."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from pages.components.text import md
from spia_core.model import AuditReport


def llm_usage(report: AuditReport) -> None:
    """Calls, cache hits, tokens, cost and latency of each LLM stage."""
    if not report.usage:
        return
    rows = [
        {
            "stage": stage,
            "calls": u.calls,
            "cache hits": u.cache_hits,
            "input tokens": u.input_tokens,
            "output tokens": u.output_tokens,
            "cost (USD)": round(u.cost_usd, 5),
            "latency (s)": round(u.latency_s, 2),
        }
        for stage, u in report.usage.items()
    ]
    with st.expander(f"LLM usage: {sum(r['calls'] for r in rows)} call(s)", expanded=False):
        st.dataframe(pd.DataFrame(rows), hide_index=True)
        models = {k: v for k, v in report.versions.items() if k.startswith(("model:", "prompt:"))}
        if models:
            st.caption(md(", ".join(f"{k} = {v}" for k, v in models.items())))


def _inference_rows(inferences: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table rows of one round's inferences (subject-aware: SPIA subjects; adversarial:
    attribute guesses)."""
    rows = []
    for item in inferences:
        if "piis" in item:
            for pii in item.get("piis", []):
                rows.append(
                    {
                        "subject": f"{item.get('id')}: {item.get('description', '')}",
                        "tag": pii.get("tag"),
                        "inferred": pii.get("keyword"),
                        "certainty": pii.get("certainty"),
                    }
                )
        else:
            rows.append(
                {
                    "subject": "target",
                    "tag": item.get("type"),
                    "inferred": "; ".join(map(str, item.get("guesses", []))),
                    "certainty": item.get("certainty"),
                }
            )
    return rows


def _round(entry: dict[str, Any], vid: str) -> None:
    n = entry.get("round", "?")
    with st.expander(f"Round {n}", expanded=False):
        inferences = entry.get("inferences") or []
        st.markdown(f"**Inferences the adversary made ({len(inferences)})**")
        rows = _inference_rows(inferences)
        if rows:
            st.dataframe(pd.DataFrame(rows), hide_index=True)
        for failure in entry.get("adversary_failures") or []:
            st.error(f"Adversary failure: {md(failure)}")
        diff = entry.get("diff") or []
        if diff:
            st.markdown(f"**Rewrite: {len(diff)} change(s)**")
            st.dataframe(pd.DataFrame(diff), hide_index=True)
        if entry.get("text"):
            st.text_area(
                "Rewritten text", entry["text"], height=120, disabled=True, key=f"rt_{n}_{vid}"
            )


def anonymizer_rounds(report: AuditReport, vid: str) -> None:
    """The per-round trace of an iterative LLM anonymizer (subject-aware, adversarial)."""
    rounds = report.anonymizer_trace.get("rounds") or []
    if not rounds:
        return
    st.subheader("Anonymization rounds")
    stopped = report.anonymizer_trace.get("stopped")
    if stopped:
        st.caption(f"Stopped: {md(str(stopped).replace('_', ' '))}.")
    for entry in rounds:
        _round(entry, vid)
