"""Run benchmark page: evaluate one configuration on a SPIA dataset, in the background."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pandas as pd
import streamlit as st

from pages import _widgets as w

st.title("Run a benchmark")
st.caption(
    "Evaluates one configuration on a SPIA test set. The run continues in the background: "
    "reload this page or come back later to see its progress and results."
)
runs = w.run_registry()

if w.engine("pipeline") is None or w.engine("datasets") is None:
    w.missing("pipeline", "Batch runs")
else:
    with st.form("run_form"):
        c = st.columns(3)
        source = c[0].selectbox("Dataset", [*w.BUNDLED, "Upload SPIA JSONL"], key="r_ds")
        up = c[0].file_uploader("SPIA JSONL", type=["jsonl"], key="r_up")
        anonymizers = [a for a in w.registered("anonymizer") if a != "provided"]
        anonymizer = c[1].selectbox("Anonymizer", anonymizers or ["(none)"], key="r_anon")
        adversaries = w.registered("adversary")
        adversary = c[1].selectbox("Adversary", adversaries or ["(none)"], key="r_adv")
        size = c[2].number_input("Subset size (0 = all)", 0, 1000, 5, key="r_n")
        submitted = st.form_submit_button("Start run", type="primary")
    if submitted:
        docs = None
        try:
            if source == "Upload SPIA JSONL":
                if up is None:
                    st.error("Choose a SPIA JSONL file to upload.")
                else:
                    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as fh:
                        fh.write(up.getvalue())
                    docs = w.engine("datasets").read_spia_jsonl(Path(fh.name))
            else:
                docs = w.bundled_dataset(source)
        except Exception as exc:  # DatasetError names file, line and field
            st.error(f"Cannot read the dataset: {exc}")
        if docs:
            docs = docs[: int(size)] if size else docs
            cfg = {"anonymizer": anonymizer, "adversary": adversary}
            run = w.start_run(source, docs, cfg)
            st.success(f"Run {run.run_id} started on {len(docs)} documents.")

if not runs:
    st.info("No run in this server session yet.")
for run in sorted(runs.values(), key=lambda r: r.started, reverse=True):
    with st.container(border=True):
        done, total = run.done, run.total
        eta = run.eta()
        st.markdown(f"**Run {run.run_id}**: {run.dataset}, {run.config} · {run.status}")
        st.progress(
            done / total if total else 1.0,
            text=f"{done}/{total} documents"
            + (f", ETA {eta:.0f}s" if eta is not None and run.status == "running" else "")
            + (f", {len(run.errors)} failed" if run.errors else ""),
        )
        if run.status == "running" and st.button("Cancel", key=f"cancel_{run.run_id}"):
            run.cancel.set()
        if run.rows:
            st.dataframe(pd.DataFrame(run.rows), hide_index=True)
        for err in run.errors:
            st.error(err)
if any(r.status == "running" for r in runs.values()):
    time.sleep(1.0)
    st.rerun()
