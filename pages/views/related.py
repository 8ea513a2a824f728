"""Dashboard pieces of the related methods (RUPTA, SEAL-style refinement, TRIA-lite).

- :func:`render_trajectory`: per-iterate view of a RUPTA/SEAL anonymization (scores, stop rule,
  text diff, feedback), on the Audit page.
- :func:`render_trir`: TRIA-lite re-identification risk of a collection, on the Run page.
- :func:`render_reference_figures`: each paper's published figures on its own axes, on the
  Benchmarks page.
Model and document text is shown only in dataframes, text areas and code blocks (never as
Markdown or HTML).
"""

from __future__ import annotations

import json
import tempfile
from typing import Any

import pandas as pd
import streamlit as st

from pages.components.resources import open_store
from pages.components.text import md
from spia_core.anonymizers.registry import anonymizer_info, anonymizer_names
from spia_core.related import reference as ref
from spia_core.related.seal_scoring import spia_overall
from spia_core.related.trajectory import feedback_rows, stop_reason_text, trajectory_rows
from spia_core.related.tria_data import CollectionError, load_collection
from spia_core.related.tria_run import run_tria

METHODS = {"rupta": "RUPTA", "seal": "SEAL-style refinement"}


def _seal_overall(report: Any, trace: dict[str, Any]) -> None:
    """SEAL's Overall of the returned rewrite beside the audit's CPR and the judge's utility."""
    best = next((s for s in trace["trajectory"] if s["index"] == trace.get("best")), None)
    if best is None or best["index"] == 0:
        return
    utility = best["scores"].get("utility")
    cpr = getattr(report.metrics, "cpr", None)
    c = st.columns(4)
    c[0].metric("CPR (audit)", "n/a" if cpr is None else f"{cpr:.3f}")
    c[1].metric("Utility (SEAL judge)", f"{utility:.3f}")
    overall = best["scores"].get("overall")
    c[2].metric("Overall (SEAL, own inferences)", "n/a" if overall is None else f"{overall:.3f}")
    both = spia_overall(cpr, utility)
    c[3].metric("CPR - (1 - utility)", "n/a" if both is None else f"{both:.3f}")
    st.caption(
        "Overall = relative privacy gain - relative utility loss. The SEAL figure counts the "
        "attributes the model itself can still infer (certainty >= its threshold); the last "
        "tile uses the audit's CPR as the privacy gain."
    )


def render_trajectory(report: Any) -> None:
    """The trajectory of a RUPTA or SEAL anonymization (nothing for other anonymizers)."""
    trace = getattr(report, "anonymizer_trace", None) or {}
    if trace.get("method") not in METHODS or not trace.get("trajectory"):
        return
    st.subheader(f"{METHODS[trace['method']]}: trajectory")
    st.caption(
        f"Stopped: {stop_reason_text(str(trace.get('stopped')))}. Returned: iterate "
        f"{trace.get('best')} (privacy first, then utility)."
    )
    rows = trajectory_rows(trace)
    table = pd.DataFrame(rows)
    st.dataframe(table, hide_index=True, width="stretch")
    ys = [c for c in ("privacy", "utility", "inferable", "overall") if c in table]
    if len(table) > 1 and ys:
        st.line_chart(table.set_index("iterate")[ys])
    if trace["method"] == "seal":
        _seal_overall(report, trace)
        st.download_button(
            "Trajectory (SEAL JSON)",
            json.dumps(trace.get("seal_trajectory", []), indent=1),
            "seal_trajectory.json",
            key=f"seal_traj_{getattr(report, 'data_id', '')}",
        )
    for step in trace["trajectory"]:
        label = f"Iterate {step['index']} · {step.get('phase')}"
        with st.expander(label + (" · returned" if step["index"] == trace.get("best") else "")):
            diff = step.get("diff") or []
            if diff:
                st.markdown(f"**Changes from the previous version: {len(diff)}**")
                st.dataframe(pd.DataFrame(diff), hide_index=True)
            feedback = feedback_rows(step)
            if feedback:
                st.markdown("**Feedback from the evaluators**")
                st.dataframe(pd.DataFrame(feedback), hide_index=True)
            st.text_area(
                "Text",
                step.get("text", ""),
                height=140,
                disabled=True,
                key=f"traj_{trace['method']}_{step['index']}",
            )


# --------------------------------------------------------------------------- TRIR


def _collection_source() -> str | None:
    choice = st.selectbox("Collection", ["tria-demo (PANORAMA)", "Upload JSONL"], key="tria_src")
    if choice != "Upload JSONL":
        return "tria-demo"
    up = st.file_uploader(
        "Collection JSONL (id, individual, background, text)", type=["jsonl"], key="tria_up"
    )
    if up is None:
        return None
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as fh:
        fh.write(up.getvalue())
    return fh.name


def render_trir() -> None:
    """TRIA-lite on a collection: TRIR of the original texts and of local anonymizers."""
    st.subheader("Re-identification risk of a collection (TRIA-lite)")
    st.caption(
        "A CPU attack trained on the collection's background documents (and a ner-mask copy) "
        "links each protected document to a known individual. TRIR = correct "
        "re-identifications / protected documents. Lite (TF-IDF n-grams + linear SVM): "
        "not comparable to the TRIA paper's DistilBERT figures. LLM anonymizers: run them on "
        "PANORAMA-151 above and pick the stored run below, or use the CLI "
        "(`python -m spia_core tria --anonymizer NAME --backbone ...`)."
    )
    source = _collection_source()
    local = [n for n in anonymizer_names() if anonymizer_info(n)["is_local"] and n != "provided"]
    picked = st.multiselect(
        "Anonymizers", local, default=[n for n in ("ner-mask",) if n in local], key="tria_anons"
    )
    stored = _stored_run_texts() if source == "tria-demo" else {}
    if st.button("Compute TRIR", disabled=source is None, key="tria_go") and source:
        try:
            records = load_collection(source)
        except CollectionError as exc:
            st.error(md(exc))
            return
        with st.spinner("Training the attack and anonymizing the collection..."):
            st.session_state["tria_result"] = run_tria(
                records, picked, cache=False, provided=stored
            )
    result = st.session_state.get("tria_result")
    if result:
        _trir_table(result)


def _stored_run_texts() -> dict[str, dict[str, str]]:
    """Anonymized texts of chosen PANORAMA-151 runs of the results store (any anonymizer,
    LLM ones included): the demo collection's protected posts are PANORAMA-151 documents."""
    runs = [r for r in open_store().list_runs(kind="evaluate") if r.dataset_name == "PANORAMA-151"]
    names = {r.id: f"run #{r.id} · {(r.config or {}).get('anonymizer')}" for r in runs}
    picked = st.multiselect(
        "Also: anonymized texts of stored PANORAMA-151 runs",
        list(names),
        format_func=names.get,
        key="tria_runs",
    )
    out: dict[str, dict[str, str]] = {}
    for run_id in picked:
        docs = open_store().load_documents(run_id)
        out[names[run_id]] = {
            d.data_id: d.result["anonymized_text"]
            for d in docs
            if d.status == "ok" and isinstance(d.result.get("anonymized_text"), str)
        }
    return out


def _trir_table(result: dict[str, Any]) -> None:
    rows = [{"texts": "original (ceiling)", "TRIR": result["ceiling"]}]
    rows += [
        {
            "texts": n,
            "TRIR": r["trir"],
            "documents": r["n_protected"],
            "original on those": r.get("ceiling_on_subset"),
        }
        for n, r in result["results"].items()
    ]
    rows += [
        {"texts": "maximum possible", "TRIR": result["max_trir"]},
        {"texts": "chance (1/known)", "TRIR": result["chance"]},
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.caption(
        f"{result['method']} · {result['n_protected']} protected documents, "
        f"{result['n_individuals_known']} known individuals · "
        f"{result['timings_s']['total']:.0f} s"
    )


# --------------------------------------------------------------------------- reference


def render_reference_figures() -> None:
    """RUPTA, SEAL and TRIA published figures, each on its own axes with its table."""
    st.subheader("Related methods: published reference figures")
    st.caption(
        "Quoted from each paper for reference. Each uses its own privacy and utility measures "
        "(RUPTA: success rate of picking the truth among candidates vs a classifier's "
        "accuracy; SEAL: attribute-inference accuracy vs an LLM judge's utility; TRIA: "
        "re-identification rate): not comparable with CPR/IPR or with each other."
    )
    tables = ref.reference_tables()
    for paper, title, figure in (
        ("rupta", "RUPTA (Yang et al., ACL 2025)", ref.rupta_figure),
        ("seal", "SEAL (Kim et al.)", ref.seal_figure),
        ("tria", "TRIA (Manzanares-Salor et al., 2024)", ref.tria_figure),
    ):
        st.markdown(f"#### {title}")
        axes = ref.load_reference()[paper]["axes"]
        st.caption(" · ".join(f"{k}: {v}" for k, v in axes.items()))
        st.plotly_chart(figure(), key=f"ref_{paper}")
        with st.expander(f"{title}: tables"):
            for table in tables[paper]:
                st.caption(table["name"])
                st.dataframe(pd.DataFrame(table["rows"]), hide_index=True)
