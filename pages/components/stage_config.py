"""Choosing the stages: anonymizer, adversary, backbones, LLM scoring, cloud consent."""

from __future__ import annotations

from typing import Any

import streamlit as st

from pages.components.keys import endpoint
from pages.components.related_options import render_options
from pages.components.resources import ROOT, catalog
from pages.components.sidebar import K_DESTINATIONS
from spia_core.llm.runtime import SENT
from spia_core.render import capability_summary
from spia_core.service import engines
from spia_core.service.engines import LOCAL_ENDPOINT, OFFLINE

LOCAL_ADVERSARY_DOC = ROOT / "docs" / "local_adversary.md"
ROLES = (
    ("anonymize", "anonymizer_backbone"),
    ("adversary", "adversary_backbone"),
    ("matcher", "matcher_backbone"),
    ("judge", "judge_backbone"),
    ("utility", "utility_backbone"),
)


def backbone_options() -> list[str]:
    """Offline first, then the Settings endpoint (when set), then every catalog model
    (cloud models and local-server entries of data/models.json)."""
    opts = [OFFLINE]
    if endpoint().base_url:
        opts.append(LOCAL_ENDPOINT)
    return opts + list(catalog())


def backbone_select(label: str, key: str, default_model: str | None = None) -> str:
    """A backbone selector over the Settings endpoint and the catalog (cloud and local)."""
    options = backbone_options()[1:] or ["(none)"]
    index = options.index(default_model) if default_model in options else 0
    models = catalog()
    return st.selectbox(
        label,
        options,
        index=index,
        key=key,
        format_func=lambda b: engines.backbone_label(b, models),
    )


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


def _anonymizer_label(name: str) -> str:
    return f"{name}: {engines.component_info('anonymizer', name)['display_name']}"


def _anonymizer_widget(
    prefix: str, provided: bool, alone: bool = False
) -> tuple[str | None, str | None]:
    """The anonymizer (fixed to ``provided`` when the user brings the redacted text;
    ``alone``: without the original, the redacted text is audited alone)."""
    names = [a for a in engines.registered("anonymizer") if a != "provided"]
    if alone:
        st.text_input("Anonymizer", "none: your redacted text, audited alone", disabled=True)
        st.caption("No original: the adversary reads only your redacted text.")
        return "provided", None
    if provided:
        anonymizer = "provided"
        st.text_input("Anonymizer", "provided (your redacted text)", disabled=True)
    elif names:
        anonymizer = st.selectbox(
            "Anonymizer",
            names,
            index=names.index("ner-mask") if "ner-mask" in names else 0,
            key=f"{prefix}anon",
            format_func=_anonymizer_label,
        )
    else:
        st.warning("No anonymizer is registered: paste or upload a redacted version.")
        return None, None
    info = engines.component_info("anonymizer", anonymizer)
    st.caption(info.get("description", ""))
    needs = info.get("needs_backbone")
    return anonymizer, backbone_select("Anonymizer backbone", f"{prefix}abb") if needs else None


def _adversary_widget(prefix: str) -> tuple[str | None, str | None]:
    adversaries = engines.registered("adversary")
    if not adversaries:
        st.warning("No adversary is registered.")
        return None, None
    adversary = st.selectbox(
        "Adversary",
        adversaries,
        index=adversaries.index("local") if "local" in adversaries else 0,
        key=f"{prefix}adv",
    )
    info = engines.component_info("adversary", adversary)
    st.caption(info.get("description", ""))
    backbone = (
        backbone_select("Adversary backbone", f"{prefix}vbb", "claude-sonnet-4-5")
        if info.get("needs_backbone")
        else None
    )
    if info.get("is_local", adversary == "local"):
        local_adversary_capabilities()
    return adversary, backbone


def stage_widgets(
    prefix: str = "", *, provided: bool = False, alone: bool = False
) -> dict[str, Any] | None:
    """Anonymizer and adversary selectors (with backbones when they need one).

    ``provided``: the user supplies the redacted text, so the anonymizer is fixed. Returns
    None when no component is registered.
    """
    cols = st.columns(2)
    with cols[0]:
        anonymizer, anon_bb = _anonymizer_widget(prefix, provided, alone)
    with cols[1]:
        adversary, adv_bb = _adversary_widget(prefix)
    if anonymizer is None or adversary is None:
        return None
    return {
        "anonymizer": anonymizer,
        "anonymizer_backbone": anon_bb,
        "anonymizer_options": render_options(anonymizer, prefix),  # RUPTA/SEAL (related's)
        "adversary": adversary,
        "adversary_backbone": adv_bb,
    }


def local_adversary_capabilities() -> None:
    """What the local adversary can and cannot infer (docs/local_adversary.md, read now)."""
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
    sent = dict(SENT)
    if not has_gt:
        sent["adversary"] += f" and {SENT['adversary_original']}"
    models, ep = catalog(), endpoint()
    lines, cloud = [], []
    for stage, field in ROLES:
        backbone = cfg.get(field)
        where = engines.destination(backbone, models, ep) if backbone else None
        if where is None:
            continue
        lines.append(f"{stage}: {sent[stage]} → {where}")
        if engines.is_cloud(backbone, models):
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
