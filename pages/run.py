"""Run benchmark page: evaluate one configuration on a SPIA dataset, in the background."""

from __future__ import annotations

import tempfile
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

if w.engine("batch") is None:
    w.missing("batch", "Batch runs")
else:
    with st.form("run_form"):
        c = st.columns(3)
        source = c[0].selectbox("Dataset", [*w.BUNDLED, "Upload SPIA JSONL"], key="r_ds")
        up = c[0].file_uploader("SPIA JSONL", type=["jsonl"], key="r_up")
        anonymizers = [a for a in w.registered("anonymizer") if a != "provided"]
        anonymizer = c[1].selectbox(
            "Anonymizer",
            anonymizers or ["(none)"],
            key="r_anon",
            index=anonymizers.index("ner-mask") if "ner-mask" in anonymizers else 0,
        )
        adversaries = w.registered("adversary")
        adversary = c[1].selectbox(
            "Adversary",
            adversaries or ["(none)"],
            key="r_adv",
            index=adversaries.index("local") if "local" in adversaries else 0,
        )
        size = c[2].number_input("Subset size (0 = all)", 0, 1000, 5, key="r_n")
        submitted = st.form_submit_button("Start run", type="primary")
    if submitted:
        dataset: str | None = source
        if source == "Upload SPIA JSONL":
            dataset = None
            if up is None:
                st.error("Choose a SPIA JSONL file to upload.")
            else:
                w.store_dir().mkdir(parents=True, exist_ok=True)
                with tempfile.NamedTemporaryFile(
                    suffix=f"_{Path(up.name).name}", dir=w.store_dir(), delete=False
                ) as fh:
                    fh.write(up.getvalue())
                dataset = fh.name
        if dataset is not None:
            try:
                cfg = {"anonymizer": anonymizer, "adversary": adversary}
                run = w.start_run(dataset, cfg, int(size) or None)
                st.success(f"Run {run.run_id} started on {run.total} documents.")
            except Exception as exc:  # DatasetError names file, line and field
                st.error(f"Cannot start the run: {exc}")


@st.fragment(run_every=2.0)
def _runs_view() -> None:
    """Progress of every run of this server; refreshes itself every 2 s."""
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
            if run.summary:
                keys = ("cpr", "ipr", "one_minus_aac", "token_recall", "er_di", "er_qi", "rouge_l")
                st.dataframe(pd.DataFrame([{k: run.summary.get(k) for k in keys}]), hide_index=True)
            if run.rows:
                st.dataframe(pd.DataFrame(run.rows), hide_index=True)
            for err in run.errors:
                st.error(err)


_runs_view()
