"""Audit page: one document in, subjects, evidence, metrics, verdict, fixes and exports out."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from pages import _widgets as w
from spia_core import charts, render, report_export
from spia_core.model import AuditReport, Document
from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY, DISPLAY_NAMES
from spia_core.verdict import NOT_SAFE, SAFE, Target, gap_sentence, judge

st.title("Audit a document")
st.caption(
    "Who can still be singled out, what can be inferred about them, and from which words. "
    "Offline by default: nothing leaves this machine unless you choose a cloud backbone."
)


# --------------------------------------------------------------------------- input


def _input_document() -> tuple[Document | None, str | None]:
    """The document to audit and, optionally, the user's own redacted version."""
    source = st.radio(
        "Input",
        ["Paste text", "Upload a file", "Bundled sample", "SPIA dataset document"],
        horizontal=True,
        key="input_source",
    )
    doc: Document | None = None
    if source == "Paste text":
        text = st.text_area("Original text", height=200, key="paste_text")
        if text.strip():
            textio = w.engine("textio")
            try:
                doc = Document("pasted", textio.validate_text(text) if textio else text)
            except ValueError as exc:  # textio.InputError
                st.error(f"Pasted text: {exc}")
    elif source == "Upload a file":
        up = st.file_uploader(
            "Original document (.txt, .md, .docx, .pdf)",
            type=["txt", "md", "docx", "pdf"],
            key="upload_original",
        )
        if up is not None:
            text = _extract(up.getvalue(), up.name)
            if text is not None:
                doc = Document(up.name, text)
    elif source == "Bundled sample":
        files = w.sample_files()
        if not files:
            st.info("No bundled samples found under data/samples/.")
        else:
            pick = st.selectbox("Sample", files, format_func=lambda p: p.stem, key="sample_pick")
            doc = Document(pick.stem, pick.read_text(encoding="utf-8"))
    else:
        doc = _dataset_document()
    redacted = None
    if st.checkbox("I already have the redacted version", key="has_redacted"):
        how = st.radio("Redacted version", ["Paste", "Upload"], horizontal=True, key="red_how")
        if how == "Paste":
            redacted = st.text_area("Redacted text", height=160, key="red_text") or None
        else:
            up = st.file_uploader(
                "Redacted document", type=["txt", "md", "docx", "pdf"], key="upload_redacted"
            )
            redacted = _extract(up.getvalue(), up.name) if up is not None else None
    return doc, redacted


def _extract(data: bytes, name: str) -> str | None:
    textio = w.engine("textio")
    if textio is None:
        if name.lower().endswith((".txt", ".md")):
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                st.error(f"{name}: not valid UTF-8 text.")
                return None
        w.missing("textio", "Reading .docx/.pdf files")
        return None
    try:
        text = textio.extract_text(data, name)
        if hasattr(textio, "validate_text"):
            text = textio.validate_text(text, name)
        return text
    except textio.InputError as exc:
        st.error(f"{name}: {exc}")
        return None


def _dataset_document() -> Document | None:
    if w.engine("datasets") is None:
        w.missing("datasets", "SPIA datasets")
        return None
    opened = st.session_state.get(w.K_OPEN_DOC)
    names = list(w.BUNDLED)
    ds = st.selectbox(
        "Dataset", names, index=names.index(opened[0]) if opened else 0, key="ds_pick"
    )
    docs = w.bundled_dataset(ds)
    ids = [d.data_id for d in docs]
    idx = ids.index(opened[1]) if opened and opened[0] == ds and opened[1] in ids else 0
    data_id = st.selectbox("Document", ids, index=idx, key=f"doc_pick_{ds}")
    doc = docs[ids.index(data_id)]
    st.caption(
        f"{len(doc.subjects)} GT subjects; span annotations: "
        f"{'yes' if doc.entities else 'no'}. Its GT and spans are used for scoring."
    )
    return doc


# --------------------------------------------------------------------------- configuration


def _configuration(has_redacted: bool, has_gt: bool = True) -> dict | None:
    stages = w.stage_widgets(provided=has_redacted)
    if stages is None:
        return None
    c = st.columns(4)
    scoring = c[0].selectbox(
        "Scoring",
        ["default", "reference"],
        key="scoring",
        help="default: the SPIA rules with documented fixes; reference: the paper's scorer "
        "exactly as released.",
    )
    min_cert = c[1].slider("Min GT certainty", 1, 5, DEFAULT_MIN_CERTAINTY, key="min_cert")
    min_cpr = c[2].number_input("Target CPR", 0.0, 1.0, 0.90, 0.05, key="t_cpr")
    min_sub = c[3].number_input("Target per subject", 0.0, 1.0, 0.80, 0.05, key="t_sub")
    st.session_state["target"] = Target(min_cpr, min_sub)
    cfg = {
        **stages,
        "scoring_mode": scoring,
        "min_certainty": min_cert,
        **w.llm_scoring_widgets(),
    }
    return cfg if w.destinations_ok(cfg, has_gt) else None


# --------------------------------------------------------------------------- running


def _run(doc: Document, redacted: str | None, cfg: dict, label: str) -> AuditReport | None:
    """Run one audit with a stage-by-stage status; None when it failed or was cancelled."""
    pipeline = w.engine("pipeline")
    if pipeline is None:
        w.missing("pipeline", "Auditing")
        return None
    w.warm_nlp()
    cancel = threading.Event()
    st.session_state["cancel_event"] = cancel
    t0 = time.perf_counter()
    with st.status(f"Auditing {doc.data_id} ({label})...", expanded=True) as status:
        bar = st.progress(0.0, text="Starting...")
        log: list[str] = []

        def on_stage(stage: str, fraction: float = 0.0, *_: object) -> None:
            # one update per stage (the stage log is written once, at the end)
            now = time.perf_counter() - t0
            log.append(f"{now:5.2f}s  {stage}")
            bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"Stage: {stage} ({now:.1f}s)")

        try:
            config = w.audit_config(cfg, redacted)
            parts = w.components_for(config)
            kwargs = {"components": parts} if parts is not None else {}
            report = pipeline.audit(doc, config, on_stage=on_stage, cancel=cancel, **kwargs)
        except getattr(pipeline, "AuditCancelled", ()) as exc:
            status.update(label=f"Cancelled: {exc}", state="error")
            return None
        except Exception as exc:  # shown to the user, never swallowed
            status.update(label=f"Audit failed: {exc}", state="error")
            st.exception(exc)
            return None
        status.code("\n".join(log), language=None)
        status.update(
            label=f"Audit of {doc.data_id} done in {time.perf_counter() - t0:.2f}s",
            state="complete",
            expanded=False,
        )
    return report


# --------------------------------------------------------------------------- results

TABS = ("Evidence", "Subjects", "Charts", "Fix and re-audit", "Adjudicate", "Export")
K_TAB = "result_tab"
K_OVERRIDES = "overrides"  # version id -> w.Overrides


def _overrides(vid: str) -> w.Overrides:
    return st.session_state.setdefault(K_OVERRIDES, {}).setdefault(vid, {})


def _rkey(vid: str) -> str:
    """Cache key of a version as shown: its id and its overrides."""
    ov = _overrides(vid)
    return vid + "|" + "|".join(f"{k[0]}:{k[1]}={v[0]}:{v[1]}" for k, v in sorted(ov.items()))


def _memo(name: str, rkey: str, compute: Callable[[], Any], *args: Any) -> Any:
    """Memoise a derived view of the version on screen, in this session (no pickling: the
    reports hold engine objects). Only the latest version's entries are kept."""
    memo = st.session_state.setdefault("_view_memo", {})
    if memo.get("rkey") != rkey:
        memo.clear()
        memo["rkey"] = rkey
    key = (name, *args)
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def _effective(entry: dict) -> AuditReport:
    """The version's report with the user's overrides applied and every metric recomputed."""
    vid = entry["id"]
    ov = _overrides(vid)
    if not ov:
        return entry["report"]
    cache = entry.setdefault("_effective", {})
    rkey = _rkey(vid)
    if rkey not in cache:
        cache.clear()
        cache[rkey] = w.with_overrides(entry["report"], ov)
    return cache[rkey]


def _highlight_html(report: AuditReport, rkey: str, side: str, shown: tuple[str, ...]) -> str:
    text = report.anonymized_text if side == "anonymized" else report.original_text
    return _memo(
        "html",
        rkey,
        lambda: render.render_highlighted(text, render.report_highlights(report, side, set(shown))),
        side,
        shown,
    )


def _charts(report: AuditReport, rkey: str, min_subject: float) -> tuple:
    return _memo(
        "charts",
        rkey,
        lambda: (
            charts.per_tag_protection(report.metrics),
            charts.subject_protection(report.metrics, min_subject),
        ),
        min_subject,
    )


def _export_files(
    report: AuditReport, rkey: str, min_cpr: float, min_subject: float
) -> tuple[str, str, str]:
    return _memo(
        "exports",
        rkey,
        lambda: (
            report_export.report_json_text(report),
            report_export.scores_csv(report),
            report_export.report_html(report, Target(min_cpr, min_subject)),
        ),
        min_cpr,
        min_subject,
    )


def _verdict(report: AuditReport) -> None:
    target: Target = st.session_state.get("target", Target())
    v = judge(report.metrics, target, adversary_is_local=report.adversary_is_local)
    box = st.error if v.status == NOT_SAFE else st.success if v.status == SAFE else st.info
    reasons = "".join(f"\n- {r}" for r in v.reasons)
    box(f"**Verdict: {v.headline}**" + (f"\n{reasons}" if reasons else ""))


def _local_caveat(report: AuditReport) -> None:
    """Protection is overestimated by the local adversary: the paper's closest figure and the
    local-LLM-server suggestion."""
    if not report.adversary_is_local:
        return
    pipeline = w.engine("pipeline")
    text = next((x for x in report.warnings if x.startswith("Offline result:")), "")
    if not text and pipeline is not None and hasattr(pipeline, "lower_bound_warning"):
        text = pipeline.lower_bound_warning(
            report.config.get("dataset") or report.data_id, report.anonymizer
        )
    st.warning(
        "**Protection is overestimated.** "
        + (text or "The local adversary infers less than an LLM adversary.")
        + " For a stronger audit that keeps the text private, point the adversary at a local "
        "LLM server (Settings → Local OpenAI-compatible endpoint, then adversary `llm`)."
    )


def _other_warnings(report: AuditReport) -> None:
    for warning in report.warnings:
        if not warning.startswith("Offline result:"):
            st.caption(f"Warning: {warning}")
    for f in [*report.failures, *report.metrics.coverage.failures]:
        st.error(f"Failure in {f.stage}: {f.reason}")


def _worst(report: AuditReport, labels: dict[str, str]) -> None:
    worst = report.metrics.worst_subject
    if worst is None:
        return
    target: Target = st.session_state.get("target", Target())
    name = labels.get(f"gt:{worst.gt_subject_id}", worst.description)
    below = " (below the target)" if worst.protection < target.min_subject else ""
    st.info(
        f"Worst protected: **{name}**, protection {w.fmt(worst.protection)}{below}: "
        f"{worst.sum_score:g} of {worst.n_pii} PII inferred."
    )


def _evidence_tab(report: AuditReport, rkey: str, vid: str, labels, colours) -> None:
    shown = st.multiselect(
        "Subjects shown (toggle a subject on or off)",
        list(labels),
        default=list(labels),
        format_func=labels.get,
        key=f"shown_{vid}",
    )
    # long documents scroll inside a box: the page stays short and cheap to repaint
    long = max(len(report.anonymized_text), len(report.original_text)) > 3000
    height: int | str = 720 if long else "content"
    left, right = st.columns(2)
    with left:
        st.caption("Anonymized text: what the adversary inferred, from which words (hover)")
        with st.container(height=height, border=long):
            st.html(_highlight_html(report, rkey, "anonymized", tuple(shown)))
    with right:
        st.caption("Original text: the ground-truth PII of each subject")
        with st.container(height=height, border=long):
            st.html(_highlight_html(report, rkey, "original", tuple(shown)))


def _subject_cards(report: AuditReport, labels: dict[str, str], colours: dict[str, str]) -> None:
    """One card per GT subject: GT PII against inferred PII, score and deciding rule."""
    prot = {p.gt_subject_id: p.protection for p in report.metrics.per_subject}
    inferred = {s.id: s for s in report.inferred_subjects}
    target: Target = st.session_state.get("target", Target())
    for r in report.subject_results:
        key = f"gt:{r.gt_subject_id}"
        p = prot.get(r.gt_subject_id)
        with st.container(border=True):
            flag = "" if p is None or p >= target.min_subject else " · below the target"
            st.html(render.legend_html({key: labels.get(key, key)}, colours))
            st.markdown(f"**Protection {w.fmt(p)}**{flag}")
            st.caption(r.description)
            if r.pred_subject_id is None:
                st.caption("Not found by the adversary: every PII counts as protected.")
            else:
                pred = inferred.get(r.pred_subject_id)
                desc = f" ({pred.description[:80]})" if pred is not None else ""
                st.caption(
                    f"Matched to inferred subject #{r.pred_subject_id}{desc}: {r.match_reason}"
                )
            rows = [
                {
                    "Tag": DISPLAY_NAMES.get(s.tag, s.tag),
                    "GT PII": s.gt_keyword,
                    "GT certainty": s.certainty,
                    "Inferred PII": s.pred_keyword,
                    "Certainty": s.pred_certainty if s.pred_keyword else None,
                    "Score": s.effective_score,
                    "Deciding rule": s.rule + (" (overridden)" if s.override else ""),
                }
                for s in r.scores
            ]
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _extra_subjects(report: AuditReport) -> None:
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
    for g in groups:
        head = render.subject_head(g.subjects[0])
        count = f"{len(g.subjects)} × " if len(g.subjects) > 1 else ""
        ids = ", ".join(f"#{i}" for i in g.ids)
        piis = sorted({p.tag for s in g.subjects for p in s.piis if not p.is_empty})
        tags = f"; inferred: {', '.join(DISPLAY_NAMES.get(t, t) for t in piis)}" if piis else ""
        desc = "" if g.description.strip() == head.strip() else f": {g.description}"
        lines.append(f"- {count}`{head}`{desc} ({ids}){tags}")
    st.markdown("\n".join(lines))


def _charts_tab(report: AuditReport, rkey: str) -> None:
    target: Target = st.session_state.get("target", Target())
    tag_fig, subject_fig = _charts(report, rkey, target.min_subject)
    c = st.columns(2)
    c[0].plotly_chart(tag_fig, key="tag_chart")
    c[1].plotly_chart(subject_fig, key="subject_chart")


def _fix_and_reaudit(report: AuditReport, labels: dict[str, str]) -> None:
    st.caption(
        "Pick evidence spans (or all evidence of a subject): they are replaced with "
        f"`{render.REDACTION_TOKEN}` and the new version is re-audited as your redaction "
        "(anonymizer `provided`)."
    )
    hls = render.report_highlights(report, "anonymized")
    if not hls:
        st.caption("No evidence to redact in the anonymized text.")
    else:
        options: dict[str, tuple[int, int]] = {}
        for h in sorted(hls, key=lambda h: (h.key, h.start)):
            snippet = " ".join(report.anonymized_text[h.start : h.end].split())[:40]
            label = (
                f"{labels.get(h.key, h.key)} · {DISPLAY_NAMES.get(h.tag, h.tag)} · "
                f"'{snippet}' @{h.start}"
            )
            options[label] = (h.start, h.end)
        whole = st.multiselect(
            "Redact all evidence for subject",
            sorted({h.key for h in hls}),
            format_func=labels.get,
            key="fix_subjects",
        )
        picked = st.multiselect("Redact these evidence spans", list(options), key="fix_spans")
        spans = [options[p] for p in picked] + [(h.start, h.end) for h in hls if h.key in whole]
        n = len(render.merge_spans(spans))
        if st.button(
            f"Redact {n} span(s) and re-audit" if n else "Redact selected and re-audit",
            disabled=not spans,
            key="reaudit",
        ):
            _reaudit(report, render.redact_spans(report.anonymized_text, spans))
    _history()
    st.download_button(
        "Download the final redacted version",
        report.anonymized_text,
        f"{report.data_id}_redacted.txt",
        "text/plain",
        key="dl_final",
    )


def _reaudit(report: AuditReport, new_text: str) -> None:
    doc = Document(report.data_id, report.original_text, report.gt_subjects)
    src = st.session_state.get("audit_doc")
    if src is not None and src.data_id == report.data_id:
        doc = src
    base = dict(st.session_state.get("audit_cfg") or report.config)
    base.update(anonymizer="provided", anonymizer_backbone=None)
    base.pop("provided_text", None)
    n = len(st.session_state[w.K_VERSIONS]) + 1
    new = _run(doc, new_text, base, f"v{n}")
    if new is not None:
        _add_version(f"v{n} (fixed)", new)
        st.rerun()


def _history() -> None:
    versions = st.session_state.get(w.K_VERSIONS, [])
    if len(versions) < 2:
        return
    st.subheader("Versions")
    rows = []
    for v in versions:
        r: AuditReport = _effective(v)
        sm = r.span_metrics
        rows.append(
            {
                "version": v["label"],
                "token_recall": sm.token_recall if sm else None,
                "er_di": sm.er_di if sm else None,
                "er_qi": sm.er_qi if sm else None,
                "cpr": r.metrics.cpr,
                "ipr": r.metrics.ipr,
                "one_minus_aac": r.metrics.one_minus_aac,
                "utility": r.utility.rouge_l if r.utility else None,
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.plotly_chart(charts.version_history(rows), key="history_chart")


def _on_editor_change(vid: str, rows: list[dict], key: str) -> None:
    edits = (st.session_state.get(key) or {}).get("edited_rows") or {}
    st.session_state[K_OVERRIDES][vid] = w.merge_edits(rows, edits, _overrides(vid))
    st.session_state[f"adj_gen_{vid}"] = st.session_state.get(f"adj_gen_{vid}", 0) + 1


def _on_override_form(vid: str) -> None:
    pick = st.session_state.get("ov_pick")
    if pick is None:
        return
    score = float(st.session_state.get("ov_score", 0.0))
    reason = (st.session_state.get("ov_reason") or "").strip() or "manual override"
    _overrides(vid)[tuple(pick)] = (score, reason)
    st.session_state[f"adj_gen_{vid}"] = st.session_state.get(f"adj_gen_{vid}", 0) + 1


def _adjudicate(report: AuditReport, vid: str) -> None:
    """Score overrides (data editor or form): every metric and chart above recomputes."""
    st.caption(
        "Change a score (0, 0.5 or 1) and give a reason: the verdict, the tiles and the "
        "charts recompute, and the override is kept in the exported report."
    )
    rows = w.score_rows(report)
    if not rows:
        st.caption("Nothing was scored.")
        return
    key = f"adj_{vid}_{st.session_state.get(f'adj_gen_{vid}', 0)}"
    st.data_editor(
        pd.DataFrame(rows),
        hide_index=True,
        key=key,
        on_change=_on_editor_change,
        args=(vid, rows, key),
        disabled=["subject", "tag", "GT PII", "inferred", "rule", "auto score"],
        column_config={
            "score": st.column_config.SelectboxColumn("score", options=[0.0, 0.5, 1.0]),
        },
    )
    with st.form("override_form"):
        c = st.columns([2, 2, 4])
        keys = [(r["subject"], r["tag"]) for r in rows]
        c[0].selectbox(
            "Subject · tag", keys, format_func=lambda k: f"{k[0]} · {k[1]}", key="ov_pick"
        )
        c[1].selectbox("New score", [0.0, 0.5, 1.0], key="ov_score")
        c[2].text_input("Reason", "", key="ov_reason")
        st.form_submit_button("Apply override", on_click=_on_override_form, args=(vid,))
    ov = _overrides(vid)
    if ov:
        st.caption(f"{len(ov)} override(s) in force.")
        if st.button("Remove every override", key=f"ov_clear_{vid}"):
            ov.clear()
            st.rerun()


def _exports(report: AuditReport, rkey: str) -> None:
    target = st.session_state.get("target", Target())
    js, csv, page = _export_files(report, rkey, target.min_cpr, target.min_subject)
    c = st.columns(4)
    c[0].download_button(
        "Report (JSON)", js, f"{report.data_id}_audit.json", "application/json", key="dl_json"
    )
    c[1].download_button(
        "PII scores (CSV)", csv, f"{report.data_id}_scores.csv", "text/csv", key="dl_csv"
    )
    c[2].download_button(
        "Report (HTML)", page, f"{report.data_id}_audit.html", "text/html", key="dl_html"
    )
    c[3].download_button(
        "Redacted text (final)",
        report.anonymized_text,
        f"{report.data_id}_redacted.txt",
        "text/plain",
        key="dl_txt",
    )
    st.caption(
        "The HTML report is standalone: inline CSS, no script, no external resource, every "
        "text escaped. Overrides are part of every export."
    )


def _results(entry: dict) -> None:
    vid = entry["id"]
    rkey = _rkey(vid)
    report = _effective(entry)
    _verdict(report)
    st.markdown(f"**{gap_sentence(report.span_metrics, report.metrics)}**")
    w.metric_tiles(report)
    _local_caveat(report)
    _other_warnings(report)
    _llm_usage(report)
    _anonymizer_rounds(report, vid)

    labels = render.subject_keys(report)
    colours = render.subject_colours(labels)
    st.subheader("Subjects")
    st.html(render.legend_html(labels, colours))
    _worst(report, labels)

    tabs = st.tabs(TABS, key=K_TAB, on_change="rerun")
    views = {
        "Evidence": lambda: _evidence_tab(report, rkey, vid, labels, colours),
        "Subjects": lambda: (_subject_cards(report, labels, colours), _extra_subjects(report)),
        "Charts": lambda: _charts_tab(report, rkey),
        "Fix and re-audit": lambda: _fix_and_reaudit(report, labels),
        "Adjudicate": lambda: _adjudicate(report, vid),
        "Export": lambda: _exports(report, rkey),
    }
    for name, tab in zip(TABS, tabs, strict=True):
        if tab.open is not False:  # None: no state tracking, draw every tab
            with tab:
                views[name]()


def _llm_usage(report: AuditReport) -> None:
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
            st.caption(", ".join(f"{k} = {v}" for k, v in models.items()))


def _anonymizer_rounds(report: AuditReport, vid: str) -> None:
    """The per-round trace of an iterative LLM anonymizer (subject-aware, adversarial)."""
    rounds = report.anonymizer_trace.get("rounds") or []
    if not rounds:
        return
    st.subheader("Anonymization rounds")
    stopped = report.anonymizer_trace.get("stopped")
    if stopped:
        st.caption(f"Stopped: {str(stopped).replace('_', ' ')}.")
    for entry in rounds:
        n = entry.get("round", "?")
        with st.expander(f"Round {n}", expanded=False):
            inferences = entry.get("inferences") or []
            st.markdown(f"**Inferences the adversary made ({len(inferences)})**")
            rows = []
            for item in inferences:
                if "piis" in item:  # subject-aware: SPIA subjects
                    for pii in item.get("piis", []):
                        rows.append(
                            {
                                "subject": f"{item.get('id')}: {item.get('description', '')}",
                                "tag": pii.get("tag"),
                                "inferred": pii.get("keyword"),
                                "certainty": pii.get("certainty"),
                            }
                        )
                else:  # adversarial: attribute guesses
                    rows.append(
                        {
                            "subject": "target",
                            "tag": item.get("type"),
                            "inferred": "; ".join(map(str, item.get("guesses", []))),
                            "certainty": item.get("certainty"),
                        }
                    )
            if rows:
                st.dataframe(pd.DataFrame(rows), hide_index=True)
            for failure in entry.get("adversary_failures") or []:
                st.error(f"Adversary failure: {failure}")
            diff = entry.get("diff") or []
            if diff:
                st.markdown(f"**Rewrite: {len(diff)} change(s)**")
                st.dataframe(pd.DataFrame(diff), hide_index=True)
            if entry.get("text"):
                st.text_area(
                    "Rewritten text",
                    entry["text"],
                    height=120,
                    disabled=True,
                    key=f"rt_{n}_{vid}",
                )


# --------------------------------------------------------------------------- page


def _add_version(label: str, report: AuditReport) -> None:
    """Append a version (saved to the results store when there is one)."""
    store_id = None
    store = w.open_store()
    if store is not None:
        try:
            store_id = store.save_audit(report)
        except Exception as exc:  # the audit is still shown; the failure to save is reported
            st.warning(f"Could not save the audit to the results store: {exc}")
    st.session_state[w.K_VERSIONS].append(
        {"label": label, "report": report, "id": uuid.uuid4().hex[:12], "store_id": store_id}
    )


st.session_state.setdefault(w.K_VERSIONS, [])
with st.container(border=True):
    doc, redacted = _input_document()
    cfg = _configuration(redacted is not None, has_gt=bool(doc is not None and doc.subjects))
    if doc is not None:
        st.session_state["audit_doc"] = doc
    run_cols = st.columns([1, 1, 4])
    go = run_cols[0].button(
        "Run audit", type="primary", disabled=doc is None or cfg is None, key="run_audit"
    )
    if run_cols[1].button("Cancel", key="cancel_audit", help="Stops a running audit."):
        ev = st.session_state.get("cancel_event")
        if ev is not None:
            ev.set()
        st.toast("Audit cancelled: the previous results, if any, are shown.")

if go and doc is not None and cfg is not None:
    report = _run(doc, redacted, cfg, "v1")
    if report is not None:
        st.session_state[w.K_VERSIONS] = []
        st.session_state[K_OVERRIDES] = {}
        st.session_state["audit_cfg"] = cfg
        st.session_state.pop("fix_subjects", None)
        st.session_state.pop("fix_spans", None)
        _add_version(f"v1 ({cfg['anonymizer']})", report)

versions = st.session_state[w.K_VERSIONS]
if versions:
    labels_ = [v["label"] for v in versions]
    if st.session_state.get("version_pick") not in labels_:
        st.session_state.pop("version_pick", None)
    chosen = (
        st.selectbox("Version shown", labels_, index=len(labels_) - 1, key="version_pick")
        if len(versions) > 1
        else labels_[0]
    )
    _results(versions[labels_.index(chosen)])
