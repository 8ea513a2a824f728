"""Published reference figures of RUPTA, SEAL and TRIA, and one chart per paper.

Each paper measures something different (RUPTA: candidate-selection success rate against a
classifier's accuracy; SEAL: attribute-inference accuracy against judge utility; TRIA: TRIR),
none of which is SPIA's CPR: every chart has its own axes, nothing is merged.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from spia_core.datasets import DATA_DIR

REFERENCE_PATH = DATA_DIR / "related" / "reference_figures.json"
_SYMBOLS = ("circle", "square", "diamond", "triangle-up")


@cache
def load_reference() -> dict[str, Any]:
    """The quoted figures (data/related/reference_figures.json)."""
    return json.loads(REFERENCE_PATH.read_text(encoding="utf-8"))


def _scatter(paper: str, x: str, y: str, titles: tuple[str, str]) -> Any:
    """One panel per table of ``paper`` (each its own scale), points labelled by method."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    tables = load_reference()[paper]["tables"]
    fig = make_subplots(
        rows=1,
        cols=len(tables),
        subplot_titles=[t["name"] for t in tables],
        horizontal_spacing=0.06,
    )
    for i, table in enumerate(tables, start=1):
        rows = [r for r in table["rows"] if r.get(x) is not None and r.get(y) is not None]
        fig.add_trace(
            go.Scatter(
                x=[r[x] for r in rows],
                y=[r[y] for r in rows],
                mode="markers+text",
                text=[r["method"] for r in rows],
                textposition="top center",
                textfont={"size": 9},
                marker={"size": 8, "symbol": _SYMBOLS[(i - 1) % len(_SYMBOLS)]},
                name=table["name"],
                showlegend=False,
            ),
            row=1,
            col=i,
        )
        fig.update_xaxes(title_text=titles[0], row=1, col=i)
    fig.update_yaxes(title_text=titles[1], row=1, col=1)
    fig.update_annotations(font_size=11)
    fig.update_layout(margin={"t": 40}, height=460)
    return fig


def rupta_figure() -> Any:
    """RUPTA Tables 1, 2 and 8: SR (x, lower is safer) against classifier accuracy (y)."""
    return _scatter("rupta", "SR", "Accuracy", ("SR % (lower = safer)", "Classifier accuracy %"))


def seal_figure() -> Any:
    """SEAL Tables 1 and 2: privacy (x, lower is safer) against utility (y)."""
    return _scatter(
        "seal",
        "Privacy",
        "Utility",
        ("Privacy: inference accuracy (lower = safer)", "Utility (judge, 0-1)"),
    )


def tria_figure() -> Any:
    """TRIA: TRIR per anonymizer on 50_eval (repository README) and clear text per scenario."""
    import plotly.graph_objects as go

    ref = load_reference()["tria"]
    fig = go.Figure()
    for table in ref["tables"]:
        fig.add_trace(
            go.Bar(
                x=[r["method"] for r in table["rows"]],
                y=[r["TRIR"] for r in table["rows"]],
                name=table["name"],
            )
        )
    fig.update_layout(
        yaxis_title="TRIR % (lower = safer)",
        barmode="group",
        legend={"orientation": "h", "y": -0.3},
        margin={"t": 30},
        height=420,
    )
    return fig


def reference_tables() -> dict[str, list[dict[str, Any]]]:
    """``paper -> [{"name", "rows"}]`` for tables under the charts."""
    ref = load_reference()
    return {paper: ref[paper]["tables"] for paper in ("rupta", "seal", "tria")}
