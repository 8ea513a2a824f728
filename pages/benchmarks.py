"""Benchmarks page: published SPIA results (paper Table 4) beside your own audits and runs."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.components.resources import audit_session, open_store
from pages.views.related import render_reference_figures
from spia_core import charts
from spia_core.data import published
from spia_core.service.results import ROW_COLUMNS, own_rows

st.title("Benchmarks")
st.caption(
    "Published results of the SPIA paper (Table 4: GPT-4.1 adversary) and your own audits and "
    "runs. Your numbers come from the adversary you chose: a different adversary's numbers are "
    "**not directly comparable** with the paper's (the local adversary infers less, so its CPR "
    "is higher)."
)

table = pd.DataFrame(published.published_results())
own = pd.DataFrame(
    own_rows(
        # this session's versions that the store does not hold
        (
            (v.report, f"audit {v.report.data_id} {v.label}")
            for v in audit_session().versions
            if v.store_id is None
        ),
        open_store(),
    ),
    columns=list(ROW_COLUMNS),
)
c = st.columns(3)
datasets = c[0].multiselect(
    "Dataset", sorted(table["dataset"].dropna().astype(str).unique()), key="b_ds"
)
methods = c[1].multiselect(
    "Method", sorted(table["method"].dropna().astype(str).unique()), key="b_m"
)
backbones = c[2].multiselect(
    "Backbone", sorted(table["backbone"].dropna().astype(str).unique()), key="b_bb"
)
view = table
for col, sel in (("dataset", datasets), ("method", methods), ("backbone", backbones)):
    if sel:
        view = view[view[col].isin(sel)]
st.dataframe(view.dropna(axis=1, how="all"), hide_index=True, width="stretch")

show_own = st.checkbox(f"Overlay my audits and runs ({len(own)})", value=True, key="b_own")
data = (
    pd.concat([view.assign(source="published"), own], ignore_index=True)
    if show_own and len(own)
    else view.assign(source="published")
)
if show_own and len(own):
    st.dataframe(own, hide_index=True)
    advs = ", ".join(sorted(own["adversary"].astype(str).unique()))
    st.info(
        f"Your points (stars, one series per adversary) were produced by adversary: {advs}. "
        "The paper's points come from a GPT-4.1 adversary: the two are not directly "
        "comparable (a weaker adversary makes protection look higher)."
    )

t1, t2, t3 = st.tabs(["Span vs inference (Fig. 3)", "1-AAC vs CPR (Fig. 4)", "Privacy vs utility"])
with t1:
    x = st.selectbox("Span metric", ["token_recall", "er_di", "er_qi"], key="b_x")
    y = st.selectbox("Inference metric", ["cpr", "ipr", "one_minus_aac"], key="b_y")
    st.plotly_chart(charts.metric_scatter(data, x, y), key="fig3")
with t2:
    st.plotly_chart(charts.metric_scatter(data, "one_minus_aac", "cpr"), key="fig4")
with t3:
    st.plotly_chart(
        charts.metric_scatter(
            data, "cpr", "utility", title="Privacy (CPR) vs utility", diagonal=False
        ),
        key="fig16",
    )
render_reference_figures()  # RUPTA, SEAL, TRIA published figures (related's module)
