"""Plotly figure builders (pure functions: data in, ``go.Figure`` out; no Streamlit).

Tables of results are pandas DataFrames with the columns of ``data/paper_table4.csv``
(dataset, method, backbone, token_recall, er_di, er_qi, one_minus_aac, cpr, ipr, utility),
plus optional ``source`` ("published" or "own") and ``adversary`` columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from spia_core.evaluation.local_calibration import GapRow, by_dataset
from spia_core.model import Metrics
from spia_core.taxonomy import DISPLAY_NAMES, TAG_COLOURS, TAGS

#: Axis labels, one name per idea.
LABELS: dict[str, str] = {
    "token_recall": "Token recall (R_di+qi)",
    "er_di": "ER_di",
    "er_qi": "ER_qi",
    "cpr": "CPR",
    "ipr": "IPR",
    "one_minus_aac": "1-AAC",
    "utility": "Utility",
}
_METHOD_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "x", "star", "hexagon")


def _label(col: str) -> str:
    return LABELS.get(col, col)


def metric_scatter(
    table: pd.DataFrame, x: str, y: str, *, title: str = "", diagonal: bool = True
) -> go.Figure:
    """One point per configuration: ``x`` versus ``y``.

    Published rows are coloured by dataset and shaped by method; rows with ``source == "own"``
    are drawn as large outlined stars labelled with the adversary that produced them.
    """
    for col in (x, y):
        if col not in table.columns:
            raise ValueError(f"column {col!r} missing; have {list(table.columns)}")
    df = table.dropna(subset=[x, y]).copy()
    if "source" not in df.columns:
        df["source"] = "published"
    fig = go.Figure()
    pub = df[df["source"] != "own"]
    methods = sorted(pub["method"].dropna().unique()) if "method" in pub else []
    for (dataset, method), grp in pub.groupby(["dataset", "method"], sort=True):
        fig.add_trace(
            go.Scatter(
                x=grp[x],
                y=grp[y],
                mode="markers",
                name=f"{dataset} · {method}",
                legendgroup=str(dataset),
                marker={
                    "size": 10,
                    "symbol": _METHOD_SYMBOLS[methods.index(method) % len(_METHOD_SYMBOLS)],
                },
                text=grp.get("backbone"),
                hovertemplate=(
                    f"{dataset} · {method} · %{{text}}<br>{_label(x)} %{{x:.3f}}"
                    f"<br>{_label(y)} %{{y:.3f}}<extra>published (paper Table 4)</extra>"
                ),
            )
        )
    own = df[df["source"] == "own"]
    if "adversary" not in own.columns:
        own = own.assign(adversary="?")
    own_symbols = ("star", "star-diamond", "star-triangle-up", "star-square")
    for i, (adversary, grp) in enumerate(own.groupby(own["adversary"].fillna("?").astype(str))):
        names = grp["label"] if "label" in grp else grp.get("method", pd.Series(["own"] * len(grp)))
        fig.add_trace(
            go.Scatter(
                x=grp[x],
                y=grp[y],
                mode="markers+text",
                name=f"yours · adversary {adversary} (not directly comparable)",
                marker={
                    "size": 16,
                    "symbol": own_symbols[i % len(own_symbols)],
                    "line": {"width": 2, "color": "black"},
                },
                text=[f"{n} [adv: {adversary}]" for n in names.astype(str)],
                textposition="top center",
                textfont={"size": 10},
                hovertemplate=(
                    f"%{{text}}<br>{_label(x)} %{{x:.3f}}<br>{_label(y)} %{{y:.3f}}"
                    "<extra>yours: not directly comparable</extra>"
                ),
            )
        )
    if diagonal:
        fig.add_trace(
            go.Scatter(
                x=[0, 1],
                y=[0, 1],
                mode="lines",
                line={"dash": "dot", "color": "grey"},
                name="x = y",
                hoverinfo="skip",
            )
        )
    fig.update_layout(
        title=title or f"{_label(x)} vs {_label(y)}",
        xaxis_title=_label(x),
        yaxis_title=_label(y),
        xaxis_range=[0, 1.02],
        yaxis_range=[0, 1.02],
        height=460,
        legend={"font": {"size": 10}},
    )
    return fig


def per_tag_protection(metrics: Metrics) -> go.Figure:
    """Bar chart of protection per tag (1 - inferred share), tags with GT PII only."""
    tags = [t for t in TAGS if t in metrics.per_tag and metrics.per_tag[t].protection is not None]
    values = [metrics.per_tag[t].protection for t in tags]
    counts = [metrics.per_tag[t].n_pii for t in tags]
    fig = go.Figure(
        go.Bar(
            x=[DISPLAY_NAMES.get(t, t) for t in tags],
            y=values,
            marker_color=[TAG_COLOURS.get(t, "#888888") for t in tags],
            text=[f"{v:.2f} (n={n})" for v, n in zip(values, counts, strict=True)],
            textposition="outside",
        )
    )
    fig.update_layout(
        title="Protection per tag (n: ground-truth PII of the tag)",
        yaxis_title="protection (1 - share inferred)",
        yaxis_range=[0, 1.15],
        height=360,
    )
    return fig


def subject_protection(metrics: Metrics, min_subject: float | None = None) -> go.Figure:
    """Horizontal bars: protection of each subject, with the target line when given."""
    subs = metrics.per_subject
    labels = [
        f"{(s.description.split(' - ')[0] or 'subject')[:40]} (#{s.gt_subject_id})" for s in subs
    ]
    fig = go.Figure(
        go.Bar(
            y=labels,
            x=[s.protection for s in subs],
            orientation="h",
            marker_color=[
                "#d62728" if min_subject is not None and s.protection < min_subject else "#2ca02c"
                for s in subs
            ],
        )
    )
    if min_subject is not None:
        fig.add_vline(
            x=min_subject,
            line_dash="dash",
            annotation_text=f"target {min_subject:.2f}",
            annotation_position="top",
        )
    fig.update_layout(
        title="Protection per subject",
        xaxis_title="protection (1 - share of the subject's PII inferred)",
        xaxis_range=[0, 1.02],
        height=max(240, 40 * len(subs) + 120),
    )
    return fig


def version_history(rows: Sequence[dict[str, float | str | None]]) -> go.Figure:
    """Lines of span and inference metrics over successive redacted versions.

    Each row has ``version`` plus any of token_recall, er_di, er_qi, cpr, ipr, one_minus_aac.
    """
    fig = go.Figure()
    xs = [str(r.get("version", i)) for i, r in enumerate(rows)]
    for col in ("token_recall", "er_di", "er_qi", "cpr", "ipr", "one_minus_aac"):
        ys = [r.get(col) for r in rows]
        if all(v is None for v in ys):
            continue
        dash = "dot" if col in ("token_recall", "er_di", "er_qi") else "solid"
        fig.add_trace(
            go.Scatter(x=xs, y=ys, mode="lines+markers", name=_label(col), line={"dash": dash})
        )
    fig.update_layout(
        title="Protection across versions (dotted: span metrics, solid: inference metrics)",
        yaxis_range=[0, 1.02],
        height=340,
    )
    return fig


def histogram(
    values: Sequence[float | int], title: str, x_title: str, y_title: str = "count"
) -> go.Figure:
    """A count histogram with one bar per distinct integer value (``y_title``: what is
    counted)."""
    series = pd.Series(list(values), dtype="float64")
    counts = series.value_counts().sort_index()
    fig = go.Figure(go.Bar(x=[str(int(v)) for v in counts.index], y=counts.to_numpy()))
    fig.update_layout(title=title, xaxis_title=x_title, yaxis_title=y_title, height=300)
    return fig


def calibration_gap(rows: Sequence[GapRow]) -> go.Figure:
    """CPR left on ner-mask text by the local adversary (in-sample, unseen, held-out) beside
    the paper's LLM adversary, one bar each; lower CPR means more was inferred."""
    labels = {"in_sample": "in-sample", "unseen": "unseen", "held_out": "held-out written"}
    names, values, colours, hovers = [], [], [], []
    for name, mine in by_dataset(rows).items():
        for r in mine:
            names.append(f"{name}: local, {labels.get(r.source, r.source)} ({r.n_docs} docs)")
            values.append(r.cpr)
            colours.append("#d97706")
            hovers.append(r.provenance)
        names.append(f"{name}: paper's LLM adversary")
        values.append(mine[0].llm_cpr)
        colours.append("#2563eb")
        hovers.append("SPIA paper, Table 4 (Longformer masking)")
    fig = go.Figure(
        go.Bar(
            x=values,
            y=names,
            orientation="h",
            marker_color=colours,
            text=[f"{v:.3f}" for v in values],
            textposition="outside",
            hovertext=hovers,
        )
    )
    fig.update_layout(
        xaxis={"title": "CPR on masked text (lower = more inferred)", "range": [0, 1.1]},
        yaxis={"autorange": "reversed"},
        height=80 + 36 * len(names),
        margin={"l": 10, "r": 10, "t": 10, "b": 40},
    )
    return fig
