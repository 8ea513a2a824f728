"""Run benchmark page: evaluate one configuration on a SPIA dataset, in the background."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd
import streamlit as st

from pages.components.keys import api_keys, endpoint
from pages.components.resources import BUNDLED, batch_jobs, data_dir, open_store
from pages.components.stage_config import destinations_ok, llm_scoring_widgets, stage_widgets
from pages.components.text import md
from pages.components.tiles import fmt
from pages.views.related import render_trir
from spia_core import sqlite_files
from spia_core.service import RunState, engines
from spia_core.service.jobs import DAMAGED_STORE, VERSION_MISMATCH
from spia_core.sqlite_files import DamagedFileError

st.title("Run a benchmark")
st.caption(
    "Evaluates one configuration on a SPIA test set. The run continues in the background and "
    "every document is saved to the results store as it finishes: reload this page or come "
    "back later to see its progress and results."
)
jobs = batch_jobs()
SUMMARY_KEYS = ("cpr", "ipr", "one_minus_aac", "token_recall", "er_di", "er_qi", "rouge_l")
SUMMARY_LABELS = ("CPR", "IPR", "1-AAC", "Token recall", "ER_di", "ER_qi", "ROUGE-L")


def _dataset_source() -> str | None:
    """A bundled dataset name or the path of an uploaded SPIA JSONL (None: nothing yet)."""
    source = st.selectbox("Dataset", [*BUNDLED, "Upload SPIA JSONL"], key="r_ds")
    if source != "Upload SPIA JSONL":
        return source
    up = st.file_uploader("SPIA JSONL", type=["jsonl"], key="r_up")
    if up is None:
        return None
    data_dir().mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        suffix=f"_{Path(up.name).name}", dir=data_dir(), delete=False
    ) as fh:
        fh.write(up.getvalue())
    return fh.name


def _form() -> None:
    """The configuration (same widgets as the Audit page) and the Start button."""
    with st.container(border=True):
        c = st.columns(3)
        with c[0]:
            dataset = _dataset_source()
        size = c[1].number_input("Subset size (0 = all)", 0, 1000, 5, key="r_n")
        scoring = c[2].selectbox("Scoring", ["default", "reference"], key="r_scoring")
        stages = stage_widgets("r_")
        if stages is None:
            return
        cfg = {**stages, "scoring_mode": scoring, **llm_scoring_widgets("r_")}
        local = engines.is_local_config(engines.audit_config(cfg, endpoint=endpoint()))
        concurrency = 1
        if not local:
            concurrency = int(
                st.number_input(
                    "Documents audited concurrently (LLM stages)",
                    1,
                    16,
                    4,
                    key="r_conc",
                    help="Each provider's own limit still caps its concurrent calls.",
                )
            )
        consent = destinations_ok(cfg, has_gt=True, consent_key="r_consent")
        start = st.button(
            "Start run",
            type="primary",
            disabled=not consent or dataset is None,
            key="r_start",
        )
    if not start or dataset is None:
        return
    try:
        run = jobs.start(
            dataset,
            cfg,
            int(size) or None,
            concurrency,
            endpoint=endpoint(),
            api_keys=api_keys(),
        )
    except Exception as exc:  # DatasetError names file, line and field
        st.error(f"Cannot start the run: {md(exc)}")
        return
    st.success(f"Run {run.run_id} started on {run.total} documents.")


def _tiles(summary: dict) -> None:
    cols = st.columns(len(SUMMARY_KEYS))
    for col, key, label in zip(cols, SUMMARY_KEYS, SUMMARY_LABELS, strict=True):
        col.metric(label, fmt(summary.get(key)))


def _run_card(run: RunState) -> None:
    snap = run.snapshot()  # one consistent copy: the worker thread appends meanwhile
    with st.container(border=True):
        st.markdown(
            f"**Run {run.run_id}** · {md(run.dataset)} · {md(run.describe())} · "
            f"**{snap.status}**"
            + (f" · {run.concurrency} concurrent" if run.concurrency > 1 else "")
        )
        text = f"{snap.done}/{snap.total} documents · {snap.elapsed:.0f}s elapsed"
        if snap.eta is not None:
            text += f" · ETA {snap.eta:.0f}s"
        if snap.errors:
            text += f" · {len(snap.errors)} failed"
        st.progress(min(snap.done / snap.total, 1.0) if snap.total else 1.0, text=text)
        if snap.status == "running" and st.button("Cancel", key=f"cancel_{run.run_id}"):
            jobs.cancel(run.run_id)
            st.toast(f"Run {run.run_id}: cancelling after the documents in progress.")
        summary = snap.summary or run.live_summary()
        if summary:
            st.caption("Whole run" if snap.summary else f"So far ({snap.n_outcomes} documents)")
            _tiles(summary)
        if snap.rows:
            st.dataframe(pd.DataFrame(snap.rows), hide_index=True, width="stretch")
        for err in snap.errors[:20]:
            st.error(md(err))
        if snap.status == "failed" and run.fresh_start:
            _fresh_start_offer(run)
        if snap.store_run_id is not None:
            st.caption(f"Saved in the results store as run #{snap.store_run_id}.")


FRESH_START_TEXT = {
    VERSION_MISMATCH: (
        "The results store holds a run of this configuration made by other code: resuming it "
        "would mix results of two versions.",
        "Start fresh (the old run stays in the store)",
    ),
    DAMAGED_STORE: (
        "The results store cannot be read. A fresh start moves the damaged file aside (it is "
        "renamed, not deleted) and creates a new store.",
        "Move the damaged store aside and start fresh",
    ),
}


def _fresh_start_offer(run: RunState) -> None:
    """Explain why the run failed and offer the one action that mends it."""
    why, label = FRESH_START_TEXT[run.fresh_start]
    st.caption(why)
    if st.button(label, key=f"fresh_{run.run_id}"):
        try:
            new = jobs.start_fresh(run.run_id, endpoint=endpoint(), api_keys=api_keys())
        except Exception as exc:  # e.g. the file cannot be renamed: said, never swallowed
            st.error(f"Cannot start fresh: {md(exc)}")
            return
        st.toast(f"Run {new.run_id} started from scratch.")
        st.rerun()


def _runs_view(was_running: bool) -> None:
    """Progress of every run of this server process (refreshed every 2 s while one runs)."""
    runs = jobs.list()
    if not runs:
        st.info("No run in this server session yet.")
    for run in runs:
        _run_card(run)
    if was_running and not jobs.any_running():
        st.rerun()  # the whole page: stop refreshing, show the stored run


def _stored_runs() -> None:
    """Every dataset run of the results store (previous server sessions included)."""
    try:
        store = open_store()
        stored = store.list_runs(kind="evaluate")
    except DamagedFileError as exc:
        st.error(f"Stored runs cannot be shown: {md(exc)}")
        if st.button("Move the damaged store aside", key="r_store_aside"):
            moved = sqlite_files.set_aside(exc.path)
            st.toast(f"Moved aside: {', '.join(p.name for p in moved)}")
            st.rerun()
        return
    if not stored:
        return
    st.subheader("Stored runs")
    rows = []
    for r in stored:
        cfg, summ = r.config or {}, r.summary or {}
        rows.append(
            {
                "run": r.id,
                "dataset": r.dataset_name,
                "anonymizer": cfg.get("anonymizer"),
                "adversary": cfg.get("adversary"),
                "status": r.status,
                "documents": r.n_ok + r.n_failed,
                "failed": r.n_failed,
                **{k: summ.get(k) for k in ("cpr", "ipr", "one_minus_aac", "token_recall")},
                "started": r.started_at,
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    names = {
        r.id: f"#{r.id} · {r.dataset_name} · {(r.config or {}).get('anonymizer')} → adversary "
        f"{(r.config or {}).get('adversary')} · {r.status}"
        for r in stored
    }
    pick = st.selectbox("Documents of run", list(names), key="r_stored_pick", format_func=names.get)
    docs = store.load_documents(pick, with_results=False)
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "data_id": d.data_id,
                    "status": d.status,
                    **{k: d.summary.get(k) for k in SUMMARY_KEYS},
                    "error": d.error,
                }
                for d in docs
            ]
        ),
        hide_index=True,
        width="stretch",
    )
    c = st.columns(2)
    c[0].download_button("Run (JSON)", store.export_json(pick), f"run_{pick}.json", key="r_dl_json")
    c[1].download_button("Run (CSV)", store.export_csv(pick), f"run_{pick}.csv", key="r_dl_csv")


_form()
running = jobs.any_running()
st.fragment(run_every=2.0 if running else None)(_runs_view)(running)
_stored_runs()
render_trir()  # TRIA-lite on a collection (related's module)
