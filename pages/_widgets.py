"""Streamlit helpers shared by the pages (underscore: not a page).

Everything here is thin glue: engine look-ups behind ``st.cache_resource``, the key helper,
the metric tiles. The engine (spia_core) never imports Streamlit.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import streamlit as st

from spia_core.model import AuditReport, Document

ROOT = Path(__file__).resolve().parents[1]
SAMPLES_DIR = ROOT / "data" / "samples"
BUNDLED = ("TAB-144", "PANORAMA-151")
OFFLINE = "(offline: none)"
LOCAL_ENDPOINT = "local OpenAI-compatible endpoint"
PROVIDER_NAMES = {"anthropic": "Anthropic", "openai": "OpenAI"}
#: Key names read by :func:`get_secret` (the local server's key is optional).
KEY_NAMES = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "LOCAL_LLM_API_KEY")

#: Session keys (one place, so pages agree).
K_KEYS = "api_keys"  # provider -> key, for this browser session only
K_ENDPOINT = "local_endpoint"  # {"base_url": ..., "model": ...}
K_OPEN_DOC = "open_doc"  # (dataset name, data_id) set by the Dataset page
K_VERSIONS = "audit_versions"  # list[dict]: {"label", "report"}


# --------------------------------------------------------------------------- engine access


def engine(module: str) -> ModuleType | None:
    """Import ``spia_core.<module>``; None when that part of the engine has not landed."""
    try:
        return importlib.import_module(f"spia_core.{module}")
    except ImportError:
        return None


def missing(module: str, what: str) -> None:
    """Say plainly that a part of the engine is unavailable."""
    st.warning(f"{what} is unavailable: the engine module `spia_core.{module}` is not installed.")


@st.cache_resource(show_spinner="Loading the spaCy pipeline...")
def warm_nlp() -> str:
    """Load the shared spaCy pipeline once per server process; returns the model name."""
    from spia_core.nlp import load_pipeline

    return load_pipeline().model_name


@st.cache_resource(show_spinner=False)
def bundled_dataset(name: str) -> list[Document]:
    """A bundled SPIA dataset (TAB-144, PANORAMA-151), loaded once per server process."""
    datasets = engine("datasets")
    if datasets is None:
        raise RuntimeError("spia_core.datasets is not available")
    return datasets.load_bundled(name)


def sample_files() -> list[Path]:
    """Bundled sample documents (data/samples/*.txt)."""
    return sorted(SAMPLES_DIR.glob("*.txt")) if SAMPLES_DIR.is_dir() else []


def registered(kind: str) -> list[str]:
    """Names registered for ``anonymizer`` or ``adversary``."""
    if kind == "anonymizer":
        reg = engine("anonymizers.registry")
        return reg.anonymizer_names() if reg else []
    reg = engine("adversary.registry")
    if reg is None:
        return []
    for module in ("adversary.local", "adversary.llm"):  # adversaries register on import
        engine(module)
    return reg.ADVERSARIES.names()


def component_info(kind: str, name: str) -> dict[str, Any]:
    """Display info of one anonymizer/adversary (is_local, needs_backbone, description)."""
    mod = engine("anonymizers.registry" if kind == "anonymizer" else "adversary.registry")
    fn = getattr(mod, f"{kind}_info", None) if mod else None
    if fn is not None:
        return fn(name)
    reg = getattr(mod, "ADVERSARIES", None) if mod else None
    factory = reg._factories.get(name) if reg is not None else None
    needs = bool(getattr(factory, "needs_backbone", False))
    return {
        "name": name,
        "display_name": getattr(factory, "display_name", name),
        "is_local": bool(getattr(factory, "is_local", not needs)),
        "needs_backbone": needs,
        "description": getattr(factory, "description", (factory.__doc__ or "") if factory else ""),
    }


def catalog() -> dict[str, Any]:
    """The model catalog (id -> ModelSpec), or {} when the LLM layer is unavailable."""
    cat = engine("llm.catalog")
    if cat is None:
        return {}
    try:
        return cat.load_catalog()
    except (OSError, ValueError) as exc:
        st.error(f"Model catalog unreadable: {exc}")
        return {}


def backbone_options() -> list[str]:
    """Offline first, then the Settings endpoint (when set), then every catalog model
    (cloud models and local-server entries of data/models.json)."""
    opts = [OFFLINE]
    if st.session_state.get(K_ENDPOINT, {}).get("base_url"):
        opts.append(LOCAL_ENDPOINT)
    return opts + list(catalog())


def backbone_label(backbone: str) -> str:
    """``id (where)`` for a backbone selector."""
    spec = catalog().get(backbone)
    if spec is None:
        return backbone
    where = "local server" if spec.is_local else f"{spec.provider} cloud"
    return f"{spec.display_name or spec.id} ({where})"


def endpoint_url() -> str | None:
    """The local endpoint's base URL from Settings (None when unset)."""
    return st.session_state.get(K_ENDPOINT, {}).get("base_url") or None


def destination(backbone: str) -> str | None:
    """Where text goes for ``backbone``: None offline, else a human description."""
    if backbone == OFFLINE:
        return None
    if backbone == LOCAL_ENDPOINT:
        return f"your local server at {endpoint_url() or '?'} (stays on your network)"
    spec = catalog().get(backbone)
    if spec is not None and spec.is_local:
        return f"your local server at {endpoint_url() or spec.base_url} (model {spec.model})"
    provider = PROVIDER_NAMES.get(spec.provider, spec.provider) if spec else "an unknown provider"
    return f"{provider} (cloud API, model {backbone})"


def is_cloud(backbone: str) -> bool:
    spec = catalog().get(backbone)
    return backbone not in (OFFLINE, LOCAL_ENDPOINT) and not (spec is not None and spec.is_local)


# --------------------------------------------------------------------------- keys


def get_secret(name: str) -> str | None:
    """A key from this session, else st.secrets, else the environment (never written to disk).

    ``st.secrets`` raises when no secrets.toml exists, hence the guarded access.
    """
    session = st.session_state.get(K_KEYS, {})
    if session.get(name):
        return session[name]
    try:
        value = st.secrets.get(name)
    except Exception:  # no secrets.toml: FileNotFoundError / StreamlitSecretNotFoundError
        value = None
    return value or os.environ.get(name) or None


def key_for_backbone(backbone: str) -> str | None:
    spec = catalog().get(backbone)
    env = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
    return get_secret(env[spec.provider]) if spec and spec.provider in env else None


def api_keys() -> dict[str, str]:
    """Every available key (session, st.secrets, env) by env name: goes to make_llm only."""
    return {name: key for name in KEY_NAMES if (key := get_secret(name))}


def test_endpoint(base_url: str, model: str) -> tuple[bool, str]:
    """One tiny completion against a local OpenAI-compatible endpoint: (ok, message)."""
    import time

    catalog_mod = engine("llm.catalog")
    base = engine("llm.base")
    if catalog_mod is None or base is None:
        return False, "the LLM layer (spia_core.llm) is unavailable"
    t0 = time.perf_counter()
    try:
        llm = catalog_mod.make_llm(
            model or "local-model",
            base_url=base_url,
            api_key=get_secret("LOCAL_LLM_API_KEY"),
            max_retries=0,
            timeout=15.0,
        )
        reply = llm.complete([base.Message("user", "Reply with the word OK. (ping)")], max_tokens=8)
    except Exception as exc:  # LLMError (key redacted) or a bad URL
        return False, f"Connection to {base_url} failed: {exc}"
    return True, (
        f"Connected to {base_url}: model {model or '(default)'} answered "
        f"{reply.text.strip()[:40]!r} in {time.perf_counter() - t0:.2f}s."
    )


def response_cache() -> Any:
    """The shared LLM response cache of this app (under the data directory)."""
    cache = engine("llm.cache")
    return cache.shared_cache(cache.default_cache_path(store_dir()))


def cache_stats() -> dict[str, Any]:
    """Entries, hits and misses (this server process), size on disk of the response cache."""
    stats = response_cache().stats()
    return {
        "file": str(response_cache().path),
        "entries": stats.entries,
        "hits": stats.hits,
        "misses": stats.misses,
        "size_kb": round(stats.size_bytes / 1024, 1),
    }


def cache_clear() -> None:
    response_cache().clear()


# --------------------------------------------------------------------------- configuration

#: What each LLM stage sends (shown before any text leaves the machine).
SENT = {
    "anonymize": "the original text",
    "adversary": "the anonymized text",
    "matcher": "the original and anonymized texts and both subject lists",
    "judge": "pairs of ground-truth and inferred PII values",
    "utility": "the original and the anonymized text",
}
K_DESTINATIONS = "audit_destinations"  # list[str]: the sidebar's "where text goes"
LOCAL_ADVERSARY_DOC = ROOT / "docs" / "local_adversary.md"


def backbone_select(label: str, key: str, default_model: str | None = None) -> str:
    """A backbone selector over the Settings endpoint and the catalog (cloud and local)."""
    options = backbone_options()[1:] or ["(none)"]
    index = options.index(default_model) if default_model in options else 0
    return st.selectbox(label, options, index=index, key=key, format_func=backbone_label)


def llm_scoring_widgets(prefix: str = "") -> dict[str, Any]:
    """Optional LLM matcher, judge and utility scoring (off by default)."""
    out: dict[str, Any] = {}
    with st.expander("LLM matcher, judge and utility (optional)", expanded=False):
        c = st.columns(3)
        out["matcher"] = c[0].selectbox("Subject matcher", ["local", "llm"], key=f"{prefix}matcher")
        if out["matcher"] == "llm":
            with c[0]:
                out["matcher_backbone"] = backbone_select(
                    "Matcher backbone", f"{prefix}mbb", "gpt-4.1-mini"
                )
        out["judge"] = c[1].selectbox(
            "Judge of rule-0 pairs", ["rules", "llm"], key=f"{prefix}judge"
        )
        if out["judge"] == "llm":
            with c[1]:
                out["judge_backbone"] = backbone_select(
                    "Judge backbone", f"{prefix}jbb", "gpt-4.1-mini"
                )
        out["utility_llm"] = c[2].checkbox("LLM utility scores", key=f"{prefix}utility_llm")
        if out["utility_llm"]:
            with c[2]:
                out["utility_backbone"] = backbone_select(
                    "Utility backbone", f"{prefix}ubb", "gpt-4.1-mini"
                )
    return out


def stage_widgets(prefix: str = "", *, provided: bool = False) -> dict[str, Any] | None:
    """Anonymizer and adversary selectors (with backbones when they need one).

    ``provided``: the user supplies the redacted text, so the anonymizer is fixed. Returns
    None when no component is registered.
    """
    cols = st.columns(2)
    anonymizers = [a for a in registered("anonymizer") if a != "provided"]
    with cols[0]:
        if provided:
            anonymizer = "provided"
            st.text_input("Anonymizer", "provided (your redacted text)", disabled=True)
        elif anonymizers:
            anonymizer = st.selectbox(
                "Anonymizer",
                anonymizers,
                index=anonymizers.index("ner-mask") if "ner-mask" in anonymizers else 0,
                key=f"{prefix}anon",
                format_func=lambda n: f"{n}: {component_info('anonymizer', n)['display_name']}",
            )
        else:
            st.warning("No anonymizer is registered yet: paste or upload a redacted version.")
            return None
        info = component_info("anonymizer", anonymizer)
        st.caption(info.get("description", ""))
        anon_bb = (
            backbone_select("Anonymizer backbone", f"{prefix}abb")
            if info.get("needs_backbone")
            else None
        )
    with cols[1]:
        adversaries = registered("adversary")
        if not adversaries:
            missing("adversary.registry", "The adversary")
            return None
        adversary = st.selectbox(
            "Adversary",
            adversaries,
            index=adversaries.index("local") if "local" in adversaries else 0,
            key=f"{prefix}adv",
        )
        ainfo = component_info("adversary", adversary)
        st.caption(ainfo.get("description", ""))
        adv_bb = (
            backbone_select("Adversary backbone", f"{prefix}vbb", "claude-sonnet-4-5")
            if ainfo.get("needs_backbone")
            else None
        )
        if ainfo.get("is_local", adversary == "local"):
            local_adversary_capabilities()
    return {
        "anonymizer": anonymizer,
        "anonymizer_backbone": anon_bb,
        "adversary": adversary,
        "adversary_backbone": adv_bb,
    }


def local_adversary_capabilities() -> None:
    """What the local adversary can and cannot infer (docs/local_adversary.md, read now)."""
    from spia_core.render import capability_summary

    try:
        text = LOCAL_ADVERSARY_DOC.read_text(encoding="utf-8")
    except OSError:
        text = ""
    summary = capability_summary(text)
    with st.expander("What the local adversary can and cannot infer", expanded=False):
        if summary:
            st.markdown(summary)  # markdown only: raw HTML in the file is not rendered
        else:
            st.caption("docs/local_adversary.md has no capability section.")
        st.caption("From docs/local_adversary.md (the full measurements are there).")


def destinations_ok(cfg: dict[str, Any], has_gt: bool, consent_key: str = "consent") -> bool:
    """Record where text goes (sidebar); warn, naming the provider and what is sent, and ask
    for consent before any text goes to a cloud provider."""
    roles = (
        ("anonymize", "anonymizer_backbone"),
        ("adversary", "adversary_backbone"),
        ("matcher", "matcher_backbone"),
        ("judge", "judge_backbone"),
        ("utility", "utility_backbone"),
    )
    sent = dict(SENT)
    if not has_gt:
        sent["adversary"] += " and the original text (no ground truth)"
    lines, cloud = [], []
    for stage, field in roles:
        backbone = cfg.get(field)
        where = destination(backbone) if backbone else None
        if where is None:
            continue
        lines.append(f"{stage}: {sent[stage]} → {where}")
        if is_cloud(backbone):
            cloud.append(f"**{where}** receives {sent[stage]} ({stage})")
    st.session_state[K_DESTINATIONS] = lines
    if not cloud:
        return True
    st.warning(
        "**Text leaves this machine.** "
        + "; ".join(dict.fromkeys(cloud))
        + ". Use the offline mode or a local LLM server to keep it on your machine."
    )
    return bool(st.checkbox("I accept sending this text to that provider", key=consent_key))


# --------------------------------------------------------------------------- audit


def make_config(**values: Any) -> Any:
    """An ``AuditConfig`` from the values its dataclass accepts (others are dropped)."""
    pipeline = engine("pipeline")
    if pipeline is None:
        raise RuntimeError("spia_core.pipeline is not available")
    cls = pipeline.AuditConfig
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in values.items() if k in names and v is not None})


def audit_config(cfg: dict[str, Any], provided_text: str | None = None) -> Any:
    """The pipeline's AuditConfig for the page's choices (keys are NOT part of it).

    The Settings endpoint becomes ``base_url`` (used by local backbones only); choosing it
    as a backbone means its model name.
    """
    values = dict(cfg)
    if provided_text is not None:
        values.update(anonymizer="provided", provided_text=provided_text)
    ep = st.session_state.get(K_ENDPOINT, {})
    for role in ("anonymizer", "adversary", "matcher", "judge", "utility"):
        backbone = values.get(f"{role}_backbone")
        if backbone in (OFFLINE, ""):
            values[f"{role}_backbone"] = None
        elif backbone == LOCAL_ENDPOINT:
            values[f"{role}_backbone"] = ep.get("model") or "local-model"
    if ep.get("base_url"):
        values["base_url"] = ep["base_url"]
    return make_config(**values)


@st.cache_resource(show_spinner="Building the audit engines...", max_entries=8)
def _components(_config: Any, _keys: dict[str, str], key: str) -> Any:
    """The stages of a configuration, built once per server process and key set."""
    return engine("pipeline").build_components(
        _config, api_keys=_keys, cache=engine("llm.cache").default_cache_path(store_dir())
    )


def components_for(config: Any) -> Any:
    """Cached stages; the anonymizer is rebuilt when it carries the user's redacted text.

    The cache key holds a hash of the keys, never a key.
    """
    import hashlib
    import json

    pipeline = engine("pipeline")
    if not hasattr(pipeline, "build_components"):
        return None
    cfg = dataclasses.asdict(config)
    cfg.pop("provided_text", None)
    keys = api_keys()
    digest = hashlib.sha256(json.dumps(keys, sort_keys=True).encode()).hexdigest()
    key = json.dumps(cfg, sort_keys=True, default=str) + digest
    parts = _components(config, keys, key)
    if config.anonymizer == "provided":
        parts = dataclasses.replace(parts, anonymizer=pipeline.build_anonymizer(config))
    return parts


def fmt(x: float | None, pct: bool = False) -> str:
    if x is None:
        return "n/a"
    return f"{100 * x:.0f}%" if pct else f"{x:.3f}"


def metric_tiles(report: AuditReport) -> None:
    """Span metrics beside inference metrics and utility."""
    sm, m, u = report.span_metrics, report.metrics, report.utility
    left, right = st.columns(2)
    with left:
        st.caption("Span metrics (what was masked)")
        c = st.columns(3)
        c[0].metric("Token recall", fmt(sm.token_recall if sm else None))
        c[1].metric("ER_di", fmt(sm.er_di if sm else None))
        c[2].metric("ER_qi", fmt(sm.er_qi if sm else None))
    with right:
        st.caption("Inference metrics (what stays protected) and utility")
        c = st.columns(4)
        c[0].metric("CPR", fmt(m.cpr))
        c[1].metric("IPR", fmt(m.ipr))
        c[2].metric("1-AAC", fmt(m.one_minus_aac))
        c[3].metric("Utility", fmt(u.rouge_l if u else None), help="ROUGE-L F1")


def sidebar_mode() -> None:
    """Sidebar: which mode the app is in and where text will be sent."""
    with st.sidebar:
        st.markdown("**Mode**")
        cloud_keys = [k for k in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY") if get_secret(k)]
        ep = st.session_state.get(K_ENDPOINT, {}).get("base_url")
        st.write("Offline (local adversary, no network): always available.")
        if ep:
            st.write(f"Local LLM server: `{ep}`")
        if cloud_keys:
            names = ", ".join(k.split("_")[0].capitalize() for k in cloud_keys)
            st.write(f"Cloud backbones with a key: {names}")
        sel = st.session_state.get(K_DESTINATIONS) or []
        st.markdown("**Where text goes**")
        if not sel:
            st.write("Nowhere: text stays on this machine.")
        for line in sel:
            st.write(f"- {line}")


def recompute_metrics(report: AuditReport) -> Any:
    """Metrics recomputed from the (possibly overridden) SubjectResults; None if unavailable."""
    mod = engine("evaluation.metrics")
    if mod is None:
        missing("evaluation.metrics", "Recomputing metrics after an override")
        return None
    cls = mod.DocumentScores
    names = {f.name for f in dataclasses.fields(cls)}
    values = {
        "data_id": report.data_id,
        "subject_results": report.subject_results,
        "results": report.subject_results,
        "n_extra_subjects": report.metrics.n_extra_subjects,
        "extra_pred_subject_ids": report.assignment.extra_pred_subject_ids,
        "failures": list(report.failures),
    }
    return mod.compute_metrics([cls(**{k: v for k, v in values.items() if k in names})])


#: (GT subject id, tag) -> (score, reason): the user's score overrides of one version.
Overrides = dict[tuple[int, str], tuple[float, str]]


def score_rows(report: AuditReport) -> list[dict[str, Any]]:
    """One row per scored GT PII (the adjudication table), overrides applied."""
    return [
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


def merge_edits(
    rows: list[dict[str, Any]], edited_rows: dict[Any, dict[str, Any]], overrides: Overrides
) -> Overrides:
    """``overrides`` updated with a data editor's ``edited_rows`` (row index -> changed cells).

    A row whose score is back to the automatic one with no reason loses its override; an
    emptied score removes it too (an override is never "no score").
    """
    import math

    out = dict(overrides)
    for idx, change in edited_rows.items():
        row = rows[int(idx)]
        key = (int(row["subject"]), str(row["tag"]))
        score = change.get("score", row["score"])
        reason = str(change.get("reason", row["reason"]) or "").strip()
        if score is None or (isinstance(score, float) and math.isnan(score)):
            out.pop(key, None)
            continue
        auto = row["auto score"]
        if auto is not None and float(score) == float(auto) and not reason:
            out.pop(key, None)
        else:
            out[key] = (float(score), reason or "edited in the dashboard")
    return out


def with_overrides(report: AuditReport, overrides: Overrides) -> AuditReport:
    """A copy of ``report`` carrying ``overrides`` (author "dashboard"), metrics recomputed."""
    import copy

    from spia_core.model import Override

    new = copy.deepcopy(report)
    for r in new.subject_results:
        for s in r.scores:
            change = overrides.get((r.gt_subject_id, s.tag))
            if change is not None:
                s.override = Override(change[0], change[1], "dashboard")
    metrics = recompute_metrics(new)
    if metrics is not None:
        new.metrics = metrics
    return new


METRIC_COLUMNS = ("token_recall", "er_di", "er_qi", "one_minus_aac", "cpr", "ipr", "utility")


@st.cache_data(show_spinner=False)
def published_table() -> Any:
    """Paper Table 4 as a DataFrame (via spia_core.benchmarks when present)."""
    import pandas as pd

    bench = engine("benchmarks")
    if bench is not None and hasattr(bench, "published_results"):
        rows = bench.published_results()
        if isinstance(rows, pd.DataFrame):
            return rows
        return pd.DataFrame([r if isinstance(r, dict) else dataclasses.asdict(r) for r in rows])
    return pd.read_csv(ROOT / "data" / "paper_table4.csv")


def _report_row(r: AuditReport, label: str) -> dict[str, Any]:
    sm = r.span_metrics
    ds = (
        "TAB"
        if r.data_id.upper().startswith("TAB")
        else "PANORAMA"
        if r.data_id.upper().startswith("PANORAMA")
        else "own"
    )
    return {
        "dataset": ds,
        "method": r.anonymizer,
        "backbone": r.config.get("anonymizer_backbone"),
        "token_recall": sm.token_recall if sm else None,
        "er_di": sm.er_di if sm else None,
        "er_qi": sm.er_qi if sm else None,
        "one_minus_aac": r.metrics.one_minus_aac,
        "cpr": r.metrics.cpr,
        "ipr": r.metrics.ipr,
        "utility": r.utility.rouge_l if r.utility else None,
        "source": "own",
        "adversary": r.adversary,
        "label": label,
    }


def own_results() -> Any:
    """This session's audits and the store's runs, one row each, marked with their adversary."""
    import pandas as pd

    rows = [  # this session's versions that the store does not hold
        _report_row(v["report"], f"audit {v['report'].data_id} {v['label']}")
        for v in st.session_state.get(K_VERSIONS, [])
        if v.get("store_id") is None
    ]
    rows += store_run_rows()
    return pd.DataFrame(
        rows,
        columns=[
            "dataset",
            "method",
            "backbone",
            *METRIC_COLUMNS,
            "source",
            "adversary",
            "label",
        ],
    )


def store_run_rows() -> list[dict[str, Any]]:
    """Runs and audits of the results store as table rows (empty when no store)."""
    store = open_store()
    if store is None:
        return []
    out = []
    for run in store.list_runs():
        summ, cfg = dict(run.summary or {}), run.config or {}
        if summ.get("cpr") is None:
            continue
        if run.kind == "audit" and summ.get("token_recall") is None:
            summ.update(_stored_audit_extras(str(store.path), run.id))
        ds = run.dataset_name.upper()
        out.append(
            {
                "dataset": "TAB"
                if ds.startswith("TAB")
                else "PANORAMA"
                if ds.startswith("PAN")
                else run.dataset_name,
                "method": cfg.get("anonymizer"),
                "backbone": cfg.get("anonymizer_backbone"),
                **{k: summ.get(k) for k in METRIC_COLUMNS if k != "utility"},
                "utility": summ.get("rouge_l"),
                "source": "own",
                "adversary": cfg.get("adversary"),
                "label": f"{run.kind} #{run.id} {run.dataset_name}",
            }
        )
    return out


@st.cache_data(show_spinner=False, max_entries=512)
def _stored_audit_extras(db: Any, run_id: int) -> dict[str, Any]:
    """Span metrics and ROUGE-L of a stored audit (its summary holds the inference metrics
    only); a stored audit never changes, so this is cached by run id."""
    store = open_store()
    docs = store.load_documents(run_id) if store is not None else []
    result = docs[0].result if docs else {}
    span = result.get("span_metrics") or {}
    utility = result.get("utility") or {}
    return {
        "token_recall": span.get("token_recall"),
        "er_di": span.get("er_di"),
        "er_qi": span.get("er_qi"),
        "rouge_l": utility.get("rouge_l"),
    }


def store_dir() -> Path:
    """``$SPIA_DATA_DIR`` when set, else spia_data/ next to app.py."""
    return Path(os.environ.get("SPIA_DATA_DIR") or ROOT / "spia_data")


@st.cache_resource(show_spinner=False)
def open_store() -> Any:
    """The SQLite results store in :func:`store_dir`, or None when unavailable."""
    mod = engine("store")
    if mod is None or not hasattr(mod, "ResultStore"):
        return None
    return mod.ResultStore(store_dir())


# --------------------------------------------------------------------------- background runs


@dataclasses.dataclass
class RunState:
    """Progress of one background dataset run (shared by every session of this server)."""

    run_id: str
    dataset: str
    config: dict[str, Any]
    total: int
    started: float
    concurrency: int = 1
    done: int = 0  # documents finished, resumed ones included
    processed: int = 0  # documents finished by this run (the ETA's rate)
    status: str = "running"  # running | finished | cancelled | failed
    rows: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    outcomes: list[Any] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    summary: dict[str, Any] = dataclasses.field(default_factory=dict)
    store_run_id: int | None = None
    finished: float | None = None
    cancel: Any = dataclasses.field(default_factory=lambda: __import__("threading").Event())

    def elapsed(self) -> float:
        import time

        return (self.finished or time.time()) - self.started

    def eta(self) -> float | None:
        """Seconds left at this run's own rate (resumed documents cost nothing)."""
        if not self.processed or self.status != "running":
            return None
        return self.elapsed() / self.processed * max(self.total - self.done, 0)

    def describe(self) -> str:
        """``anonymizer (backbone) → adversary (backbone)`` and the LLM scoring stages."""
        cfg = self.config

        def part(name: str, bb: str | None) -> str:
            return f"{name} ({bb})" if bb and bb != OFFLINE else str(name)

        text = (
            f"{part(cfg.get('anonymizer'), cfg.get('anonymizer_backbone'))} → adversary "
            f"{part(cfg.get('adversary'), cfg.get('adversary_backbone'))}"
        )
        extra = [
            part(f"{stage} llm", cfg.get(f"{stage}_backbone"))
            for stage in ("matcher", "judge")
            if cfg.get(stage) == "llm"
        ]
        if cfg.get("utility_llm"):
            extra.append(part("utility llm", cfg.get("utility_backbone")))
        return text + (f"; {', '.join(extra)}" if extra else "")


@st.cache_resource
def run_registry() -> dict[str, RunState]:
    """Runs of this server process: survives page reloads and second visits."""
    return {}


def start_run(
    dataset: str, cfg: dict[str, Any], limit: int | None, concurrency: int = 4
) -> RunState:
    """Run ``cfg`` on ``dataset`` (bundled name or SPIA JSONL path) with spia_core.batch in a
    daemon thread; every document is saved to the results store as it finishes (resumable).

    Configurations with an LLM stage audit ``concurrency`` documents at a time.
    """
    import threading
    import time

    batch = engine("batch")
    reg = run_registry()
    ref = batch.load_dataset_ref(dataset)
    total = min(limit, len(ref.documents)) if limit else len(ref.documents)
    config = audit_config({**cfg, "dataset": ref.name})
    local = engine("pipeline").is_local_config(config)
    run = RunState(
        f"r{len(reg) + 1}", ref.name, cfg, total, time.time(), 1 if local else concurrency
    )
    batch_cfg = batch.BatchConfig(
        dataset=dataset,
        audit=config,
        limit=limit,
        data_dir=store_dir(),
        concurrency=run.concurrency,
        api_keys=api_keys(),
    )

    def on_document(outcome: Any, n_done: int, n_total: int) -> None:
        run.processed += 1
        run.done, run.total = n_done, n_total
        run.outcomes.append(outcome)
        row: dict[str, Any] = {"data_id": outcome.data_id, "status": outcome.status}
        if outcome.report is not None:
            full = _report_row(outcome.report, outcome.data_id)
            row.update({k: full[k] for k in METRIC_COLUMNS})
        row["seconds"] = round(outcome.elapsed_s, 2)
        row["error"] = outcome.error
        run.rows.append(row)
        if outcome.status != "ok":
            run.errors.append(f"{outcome.data_id}: {outcome.error}")

    def work() -> None:
        try:
            result = batch.run_batch(
                batch_cfg, progress=False, on_document=on_document, cancel=run.cancel, dataset=ref
            )
            run.summary = result.summary
            run.store_run_id = result.run_id
            run.done = int(result.summary.get("n_docs", run.done))
            run.status = "cancelled" if run.cancel.is_set() else "finished"
        except Exception as exc:  # shown on the page, never swallowed
            run.errors.append(f"run failed: {type(exc).__name__}: {exc}")
            run.status = "failed"
        finally:
            run.finished = time.time()

    reg[run.run_id] = run
    # not a daemon (a process exiting under spaCy's native code crashes): at interpreter exit
    # the run is cancelled and the documents in progress finish; the store resumes the rest
    register = getattr(threading, "_register_atexit", None)
    if register is not None:
        register(run.cancel.set)
    threading.Thread(target=work, name=f"spia-run-{run.run_id}", daemon=False).start()
    return run


def live_summary(run: RunState) -> dict[str, Any]:
    """The run's headline figures over the documents finished so far."""
    if run.summary:
        return run.summary
    batch = engine("batch")
    outcomes = list(run.outcomes)
    if not outcomes or batch is None:
        return {}
    return batch.summarise(outcomes, run.elapsed())


@st.cache_resource(show_spinner=False)
def prewarm() -> Any:
    """Start loading spaCy, the default offline stages, the bundled datasets and plotly in the
    background (once per process), so that the first offline audit does not pay for them."""
    import gc
    import threading

    def work() -> None:
        try:
            warm_nlp()
            config = audit_config({"anonymizer": "ner-mask", "adversary": "local"})
            parts = components_for(config)
            pipeline = engine("pipeline")
            samples = sample_files()
            text = (
                samples[0].read_text(encoding="utf-8")
                if samples
                else "Mr John Smith, 42, a nurse from Oslo, wrote to jane@example.org."
            )
            pipeline.audit(Document("warm-up", text), config, components=parts)
            docs = bundled_dataset(BUNDLED[0])  # with GT and spans: warms span metrics too
            if docs:
                pipeline.audit(max(docs[:20], key=lambda d: len(d.text)), config, components=parts)
            for name in BUNDLED[1:]:
                bundled_dataset(name)
            from spia_core import charts

            charts.per_tag_protection(engine("pipeline").empty_metrics()).to_json()
        except Exception:  # the audit itself reports any real problem
            pass
        # the models and datasets live as long as the server: move them out of the garbage
        # collector's view, so that collections during an audit stay short
        gc.collect()
        gc.freeze()

    # not a daemon: the interpreter waits for it (a few seconds) instead of exiting while it
    # is inside spaCy's native code, which crashes the process
    thread = threading.Thread(target=work, name="spia-prewarm", daemon=False)
    thread.start()
    return thread
