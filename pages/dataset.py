"""Dataset page: browse the SPIA ground truth (documents, subjects, PII)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages.components.resources import BUNDLED, K_OPEN_DOC, bundled_dataset
from pages.components.text import md
from spia_core import charts
from spia_core.taxonomy import DISPLAY_NAMES

st.title("SPIA ground truth")

name = st.selectbox("Dataset", list(BUNDLED), key="d_ds")
docs = bundled_dataset(name)
piis = [
    {
        "data_id": d.data_id,
        "subject": s.id,
        "tag": p.tag,
        "keyword": p.keyword,
        "certainty": p.certainty,
        "hardness": p.hardness,
    }
    for d in docs
    for s in d.subjects
    for p in s.piis
    if not p.is_empty
]
n_subj = sum(len(d.subjects) for d in docs)
c = st.columns(3)
c[0].metric("Documents", len(docs))
c[1].metric("Subjects", n_subj)
c[2].metric("Non-empty PII", len(piis))
df = pd.DataFrame(piis)
c = st.columns(2)
#: The paper's scales (SPIA, appendix A.4): what 1 and 5 mean on each axis.
AXES = {
    "hardness": "hardness: effort to infer (1 very easy - 5 very hard)",
    "certainty": "certainty: confidence from the text (1 very uncertain - 5 very certain)",
}
for col, scale, key in ((c[0], "hardness", "d_h"), (c[1], "certainty", "d_c")):
    fig = charts.histogram(df[scale], f"{scale.capitalize()} distribution", AXES[scale], "GT PII")
    col.plotly_chart(fig, key=key)

ids = [d.data_id for d in docs]
data_id = st.selectbox("Document", ids, key="d_doc")
doc = docs[ids.index(data_id)]
if st.button("Open in the Audit page", type="primary", key="d_open"):
    st.session_state[K_OPEN_DOC] = (name, data_id)
    st.session_state["input_source"] = "SPIA dataset document"
    st.switch_page("pages/audit.py")
st.caption(f"{len(doc.text):,} characters, {len(doc.subjects)} subjects")
for s in doc.subjects:
    with st.expander(f"Subject {s.id}: {md(s.description[:90])}"):
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "tag": DISPLAY_NAMES.get(p.tag, p.tag),
                        "keyword": p.keyword,
                        "certainty": p.certainty,
                        "hardness": p.hardness,
                    }
                    for p in s.piis
                    if not p.is_empty
                ]
            ),
            hide_index=True,
        )
with st.expander("Text"):
    st.text(doc.text)
