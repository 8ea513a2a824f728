"""Audit page: one document in, subjects, evidence, metrics, verdict, fixes and exports out."""

from __future__ import annotations

import copy
import threading
import time

import pandas as pd
import streamlit as st

from pages import _widgets as w
from spia_core import charts, render, report_export
from spia_core.model import AuditReport, Document, Override
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
            textio.validate_text(text)
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


def _backbone(label: str, key: str, index: int = 0) -> str:
    """A backbone selector over the catalog (cloud and local-server models)."""
    options = w.backbone_options()[1:] or ["(none)"]
    return st.selectbox(
        label, options, index=min(index, len(options) - 1), key=key, format_func=w.backbone_label
    )


def _default_index(model_id: str) -> int:
    options = w.backbone_options()[1:]
    return options.index(model_id) if model_id in options else 0


def _llm_scoring() -> dict:
    """Optional LLM matcher, judge and utility scoring (off by default)."""
    out: dict = {}
    with st.expander("LLM matcher, judge and utility (optional)", expanded=False):
        c = st.columns(3)
        out["matcher"] = c[0].selectbox("Subject matcher", ["local", "llm"], key="matcher")
        if out["matcher"] == "llm":
            with c[0]:
                out["matcher_backbone"] = _backbone(
                    "Matcher backbone", "mbb", _default_index("gpt-4.1-mini")
                )
        out["judge"] = c[1].selectbox("Judge of rule-0 pairs", ["rules", "llm"], key="judge")
        if out["judge"] == "llm":
            with c[1]:
                out["judge_backbone"] = _backbone(
                    "Judge backbone", "jbb", _default_index("gpt-4.1-mini")
                )
        out["utility_llm"] = c[2].checkbox("LLM utility scores", key="utility_llm")
        if out["utility_llm"]:
            with c[2]:
                out["utility_backbone"] = _backbone(
                    "Utility backbone", "ubb", _default_index("gpt-4.1-mini")
                )
    return out


def _configuration(has_redacted: bool, has_gt: bool = True) -> dict | None:
    cols = st.columns(2)
    anonymizers = [a for a in w.registered("anonymizer") if a != "provided"]
    with cols[0]:
        if has_redacted:
            anonymizer = "provided"
            st.text_input("Anonymizer", "provided (your redacted text)", disabled=True)
        elif anonymizers:
            default = anonymizers.index("ner-mask") if "ner-mask" in anonymizers else 0
            anonymizer = st.selectbox(
                "Anonymizer",
                anonymizers,
                index=default,
                key="anon",
                format_func=lambda n: f"{n}: {w.component_info('anonymizer', n)['display_name']}",
            )
        else:
            st.warning("No anonymizer is registered yet: paste or upload a redacted version.")
            return None
        info = w.component_info("anonymizer", anonymizer)
        st.caption(info.get("description", ""))
        anon_bb = _backbone("Anonymizer backbone", "abb") if info.get("needs_backbone") else None
    with cols[1]:
        adversaries = w.registered("adversary")
        if not adversaries:
            w.missing("adversary.registry", "The adversary")
            return None
        default = adversaries.index("local") if "local" in adversaries else 0
        adversary = st.selectbox("Adversary", adversaries, index=default, key="adv")
        ainfo = w.component_info("adversary", adversary)
        st.caption(ainfo.get("description", ""))
        adv_bb = (
            _backbone("Adversary backbone", "vbb", _default_index("claude-sonnet-4-5"))
            if ainfo.get("needs_backbone")
            else None
        )
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
        "anonymizer": anonymizer,
        "anonymizer_backbone": anon_bb,
        "adversary": adversary,
        "adversary_backbone": adv_bb,
        "scoring_mode": scoring,
        "min_certainty": min_cert,
        **_llm_scoring(),
    }
    if not _destinations_ok(cfg, has_gt):
        return None
    return cfg


def _destinations_ok(cfg: dict, has_gt: bool) -> bool:
    """Record where text goes (sidebar); warn, naming the provider and what is sent, and ask
    for consent before any text goes to a cloud provider."""
    roles = {
        "anonymizer": ("anonymize", "anonymizer_backbone"),
        "adversary": ("adversary", "adversary_backbone"),
        "matcher": ("matcher", "matcher_backbone"),
        "judge": ("judge", "judge_backbone"),
        "utility": ("utility", "utility_backbone"),
    }
    sent = {
        "anonymize": "the original text",
        "adversary": "the anonymized text"
        + ("" if has_gt else " and the original text (no ground truth)"),
        "matcher": "the original and anonymized texts and both subject lists",
        "judge": "pairs of ground-truth and inferred PII values",
        "utility": "the original and the anonymized text",
    }
    lines, cloud = [], []
    for _role, (stage, field) in roles.items():
        backbone = cfg.get(field)
        if not backbone:
            continue
        where = w.destination(backbone)
        if where is None:
            continue
        lines.append(f"{stage}: {sent[stage]} → {where}")
        if w.is_cloud(backbone):
            cloud.append(f"**{where}** receives {sent[stage]} ({stage})")
    st.session_state["audit_destinations"] = lines
    if not cloud:
        return True
    st.warning(
        "**Text leaves this machine.** "
        + "; ".join(dict.fromkeys(cloud))
        + ". Use the offline mode or a local LLM server to keep it on your machine."
    )
    return bool(st.checkbox("I accept sending this document to that provider", key="consent"))


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
        bar = st.progress(0.0)

        def on_stage(stage: str, fraction: float = 0.0, *_: object) -> None:
            bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"Stage: {stage}")
            status.write(f"{time.perf_counter() - t0:5.2f}s  {stage}")

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
        status.update(
            label=f"Audit of {doc.data_id} done in {time.perf_counter() - t0:.2f}s",
            state="complete",
            expanded=False,
        )
    return report


# --------------------------------------------------------------------------- results


def _subject_cards(report: AuditReport, colours: dict[str, str], labels: dict[str, str]) -> None:
    prot = {p.gt_subject_id: p.protection for p in report.metrics.per_subject}
    for r in report.subject_results:
        key = f"gt:{r.gt_subject_id}"
        p = prot.get(r.gt_subject_id)
        with st.expander(f"{labels.get(key, key)}: protection {w.fmt(p)}"):
            st.html(render.legend_html({key: labels.get(key, key)}, colours))
            st.caption(r.description)
            st.caption(
                "Not matched by the adversary (fully protected)."
                if r.pred_subject_id is None
                else f"Matched to inferred subject {r.pred_subject_id}: {r.match_reason}"
            )
            rows = [
                {
                    "Tag": DISPLAY_NAMES.get(s.tag, s.tag),
                    "GT PII": s.gt_keyword,
                    "Inferred": s.pred_keyword,
                    "Certainty": s.pred_certainty,
                    "Score": s.effective_score,
                    "Rule": s.rule,
                    "Overridden": s.override is not None,
                }
                for s in r.scores
            ]
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _highlighted(report: AuditReport, labels: dict[str, str], colours: dict[str, str]) -> None:
    st.subheader("Evidence in the text")
    shown = st.multiselect(
        "Subjects shown",
        list(labels),
        default=list(labels),
        format_func=labels.get,
        key=f"shown_{_vkey()}",
    )
    st.html(render.legend_html({k: labels[k] for k in shown}, colours))
    left, right = st.columns(2)
    with left:
        st.caption("Anonymized text: inferred evidence (hover a highlight)")
        hl = render.report_highlights(report, "anonymized", set(shown))
        st.html(render.render_highlighted(report.anonymized_text, hl))
    with right:
        st.caption("Original text: ground-truth PII")
        hl = render.report_highlights(report, "original", set(shown))
        st.html(render.render_highlighted(report.original_text, hl))


def _local_caveat(report: AuditReport) -> None:
    if not report.adversary_is_local:
        return
    msg = (
        "**Protection is overestimated.** These results come from the local (rule-and-lexicon) "
        "adversary; a capable LLM adversary infers more."
    )
    bench = w.engine("benchmarks")
    if bench is not None and hasattr(bench, "closest_published"):
        ds = "TAB" if report.data_id.upper().startswith("TAB") else "PANORAMA"
        try:
            row = bench.closest_published(ds, report.anonymizer)
        except Exception:
            row = None
        if row is not None:
            get = row.get if isinstance(row, dict) else lambda k, r=row: getattr(r, k, None)
            msg += (
                f" The paper's closest published configuration ({get('dataset')}, "
                f"{get('method')}, {get('backbone')}) measured CPR {w.fmt(get('cpr'))} with an "
                "LLM adversary."
            )
            if get("match_note"):
                msg += f" ({get('match_note')}.)"
    msg += " For a stronger private audit, point the adversary at a local LLM server (Settings)."
    st.warning(msg)


def _verdict(report: AuditReport) -> None:
    target: Target = st.session_state.get("target", Target())
    v = judge(report.metrics, target, adversary_is_local=report.adversary_is_local)
    box = st.error if v.status == NOT_SAFE else st.success if v.status == SAFE else st.info
    box(f"**Verdict: {v.headline}**")
    for reason in v.reasons:
        st.markdown(f"- {reason}")


def _fix_and_reaudit(report: AuditReport, labels: dict[str, str], cfg: dict | None) -> None:
    st.subheader("Fix and re-audit")
    hls = render.report_highlights(report, "anonymized")
    if not hls:
        st.caption("No evidence to redact in the anonymized text.")
        return
    options = {
        f"{labels.get(h.key, h.key)} · {DISPLAY_NAMES.get(h.tag, h.tag)} · "
        f"'{report.anonymized_text[h.start : h.end][:40]}' @{h.start}": (h.start, h.end)
        for h in hls
    }
    whole = st.multiselect(
        "Redact all evidence for subject",
        sorted({h.key for h in hls}),
        format_func=labels.get,
        key="fix_subjects",
    )
    picked = st.multiselect("Redact these evidence spans", list(options), key="fix_spans")
    spans = [options[p] for p in picked] + [(h.start, h.end) for h in hls if h.key in whole]
    if st.button("Redact selected and re-audit", disabled=not spans, key="reaudit"):
        new_text = render.redact_spans(report.anonymized_text, spans)
        doc = Document(report.data_id, report.original_text, report.gt_subjects)
        src = st.session_state.get("audit_doc")
        if src is not None and src.data_id == report.data_id:
            doc = src
        base = dict(cfg or report.config)
        base.update(anonymizer="provided", anonymizer_backbone=None)
        base = {k: v for k, v in base.items() if k != "provided_text"}
        n = len(st.session_state[w.K_VERSIONS]) + 1
        new = _run(doc, new_text, base, f"v{n}")
        if new is not None:
            st.session_state[w.K_VERSIONS].append({"label": f"v{n} (fixed)", "report": new})
            st.rerun()


def _history() -> None:
    versions = st.session_state.get(w.K_VERSIONS, [])
    if len(versions) < 2:
        return
    st.subheader("Versions")
    rows = []
    for v in versions:
        r: AuditReport = v["report"]
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
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.plotly_chart(charts.version_history(rows), key="history_chart")


def _adjudicate(report: AuditReport) -> AuditReport:
    """Score overrides in a data editor; returns the report with overrides and new metrics."""
    st.subheader("Adjudicate scores")
    st.caption("Change a score (0, 0.5 or 1) and give a reason: every metric recomputes.")
    rows = [
        {
            "subject": r.gt_subject_id,
            "tag": s.tag,
            "GT PII": s.gt_keyword,
            "inferred": s.pred_keyword,
            "rule": s.rule,
            "auto score": s.score,
            "score": s.effective_score,
            "reason": s.override.reason if s.override else "",
        }
        for r in report.subject_results
        for s in r.scores
    ]
    if not rows:
        return report
    df = pd.DataFrame(rows)
    edited = st.data_editor(
        df,
        hide_index=True,
        key=f"adj_{_vkey()}",
        disabled=["subject", "tag", "GT PII", "inferred", "rule", "auto score"],
        column_config={
            "score": st.column_config.SelectboxColumn("score", options=[0.0, 0.5, 1.0]),
        },
    )
    with st.form("override_form"):
        c = st.columns([2, 2, 1, 3])
        keys = [(r["subject"], r["tag"]) for r in rows]
        pick = c[0].selectbox("Subject · tag", keys, format_func=lambda k: f"{k[0]} · {k[1]}")
        score = c[1].selectbox("New score", [0.0, 0.5, 1.0])
        reason = c[3].text_input("Reason", "")
        if st.form_submit_button("Apply override"):
            ov = st.session_state.setdefault("overrides", {})
            ov.setdefault(_vkey(), {})[pick] = (score, reason or "manual override")
    manual = st.session_state.get("overrides", {}).get(_vkey(), {})
    changes: dict[tuple[int, str], tuple[float, str]] = {}
    for _, row in edited.iterrows():
        auto = row["auto score"]
        if (
            row["score"] is not None
            and not pd.isna(row["score"])
            and (pd.isna(auto) or float(row["score"]) != float(auto) or row["reason"])
        ):
            changes[(row["subject"], row["tag"])] = (float(row["score"]), row["reason"] or "edited")
    changes.update(manual)
    if not changes:
        return report
    return _with_overrides(report, changes)


def _with_overrides(report: AuditReport, changes: dict) -> AuditReport:
    new = copy.deepcopy(report)
    for r in new.subject_results:
        for s in r.scores:
            if (r.gt_subject_id, s.tag) in changes:
                score, reason = changes[(r.gt_subject_id, s.tag)]
                s.override = Override(score, reason, "dashboard")
    metrics = w.recompute_metrics(new)
    if metrics is not None:
        new.metrics = metrics
    return new


def _exports(report: AuditReport) -> None:
    st.subheader("Export")
    target = st.session_state.get("target", Target())
    c = st.columns(4)
    c[0].download_button(
        "Report (JSON)",
        report_export.report_json(report),
        f"{report.data_id}_audit.json",
        "application/json",
        key="dl_json",
    )
    c[1].download_button(
        "PII scores (CSV)",
        report_export.scores_csv(report),
        f"{report.data_id}_scores.csv",
        "text/csv",
        key="dl_csv",
    )
    c[2].download_button(
        "Report (HTML)",
        report_export.report_html(report, target),
        f"{report.data_id}_audit.html",
        "text/html",
        key="dl_html",
    )
    c[3].download_button(
        "Redacted text (final)",
        report.anonymized_text,
        f"{report.data_id}_redacted.txt",
        "text/plain",
        key="dl_txt",
    )


def _results(report: AuditReport, cfg: dict | None) -> None:
    report = _adjudicate_first(report)
    _verdict(report)
    st.markdown(f"**{gap_sentence(report.span_metrics, report.metrics)}**")
    w.metric_tiles(report)
    _local_caveat(report)
    for warning in report.warnings:
        st.caption(f"Warning: {warning}")
    for f in [*report.failures, *report.metrics.coverage.failures]:
        st.error(f"Failure in {f.stage}: {f.reason}")
    _llm_usage(report)
    _anonymizer_rounds(report)

    labels = render.subject_keys(report)
    colours = render.subject_colours(labels)
    st.subheader("Subjects")
    st.html(render.legend_html(labels, colours))
    worst = report.metrics.worst_subject
    if worst is not None:
        st.info(
            f"Worst protected: **{labels.get(f'gt:{worst.gt_subject_id}', worst.description)}**, "
            f"protection {w.fmt(worst.protection)} ({worst.sum_score:g} of {worst.n_pii} PII "
            "inferred)."
        )
    _highlighted(report, labels, colours)
    _subject_cards(report, colours, labels)
    c = st.columns(2)
    c[0].plotly_chart(charts.per_tag_protection(report.metrics), key="tag_chart")
    target = st.session_state.get("target", Target())
    c[1].plotly_chart(
        charts.subject_protection(report.metrics, target.min_subject), key="subject_chart"
    )
    extra = [
        s for s in report.inferred_subjects if s.id in report.assignment.extra_pred_subject_ids
    ]
    if extra:
        st.subheader("Found by the adversary, absent from the GT")
        for s in extra:
            st.markdown(f"- {render.subject_label(s)}: {s.description}")
    _fix_and_reaudit(report, labels, cfg)
    _history()
    _exports(report)


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


def _anonymizer_rounds(report: AuditReport) -> None:
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
                    key=f"rt_{n}_{_vkey()}",
                )


def _adjudicate_first(report: AuditReport) -> AuditReport:
    """Adjudication sits in an expander but must run before the metrics are shown."""
    with st.expander("Adjudicate scores (override a PII score)", expanded=False):
        return _adjudicate(report)


def _vkey() -> str:
    """A stable key for the version on screen (widget keys must survive reruns)."""
    return str(st.session_state.get("version_key", "v"))


# --------------------------------------------------------------------------- page

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
    if run_cols[1].button("Cancel", key="cancel_audit"):
        ev = st.session_state.get("cancel_event")
        if ev is not None:
            ev.set()
        st.toast("Audit cancelled.")

if go and doc is not None and cfg is not None:
    report = _run(doc, redacted, cfg, "v1")
    if report is not None:
        st.session_state[w.K_VERSIONS] = [{"label": f"v1 ({cfg['anonymizer']})", "report": report}]
        store = w.open_store()
        if store is not None:
            try:
                store.save_audit(report)
            except Exception as exc:  # the audit is still shown; saving failure is reported
                st.warning(f"Could not save the audit to the results store: {exc}")
        st.session_state["audit_cfg"] = cfg

versions = st.session_state[w.K_VERSIONS]
if versions:
    labels_ = [v["label"] for v in versions]
    chosen = (
        st.selectbox("Version shown", labels_, index=len(labels_) - 1, key="version_pick")
        if len(versions) > 1
        else labels_[0]
    )
    st.session_state["version_key"] = f"{len(versions)}_{labels_.index(chosen)}"
    _results(versions[labels_.index(chosen)]["report"], st.session_state.get("audit_cfg"))
