from __future__ import annotations

import pandas as pd
import pytest
from _dashboard_factory import make_report

from spia_core.charts import (
    histogram,
    metric_scatter,
    per_tag_protection,
    subject_protection,
    version_history,
)


def _table() -> pd.DataFrame:
    return pd.read_csv("data/paper_table4.csv")


def test_metric_scatter_published_and_own() -> None:
    t = _table()
    own = pd.DataFrame(
        [
            {
                "dataset": "TAB",
                "method": "ner_mask",
                "token_recall": 0.9,
                "cpr": 0.4,
                "source": "own",
                "adversary": "local",
                "label": "audit TAB-1 v1",
            },
            {
                "dataset": "TAB",
                "method": "deid-gpt",
                "token_recall": 0.7,
                "cpr": 0.6,
                "source": "own",
                "adversary": "llm",
                "label": "evaluate #2 TAB-144",
            },
        ]
    )
    fig = metric_scatter(pd.concat([t, own], ignore_index=True), "token_recall", "cpr")
    yours = [tr for tr in fig.data if tr.name.startswith("yours")]
    # one trace per adversary, each named with it and flagged as not directly comparable
    assert [tr.name for tr in yours] == [
        "yours · adversary llm (not directly comparable)",
        "yours · adversary local (not directly comparable)",
    ]
    assert list(yours[1].text) == ["audit TAB-1 v1 [adv: local]"]
    assert "not directly comparable" in yours[0].hovertemplate
    n_pub = sum(len(tr.x) for tr in fig.data if tr.name != "x = y" and tr not in yours)
    assert n_pub == len(t)


def test_metric_scatter_rejects_unknown_column() -> None:
    with pytest.raises(ValueError, match="nope"):
        metric_scatter(_table(), "nope", "cpr")


def test_per_tag_and_subject_charts() -> None:
    r = make_report()
    fig = per_tag_protection(r.metrics)
    assert list(fig.data[0].x) == ["Name", "Location", "Nationality", "Occupation"]
    assert fig.data[0].y[0] == pytest.approx(1.0)  # NAME never inferred
    assert fig.data[0].y[1] == pytest.approx(0.0)
    fig = subject_protection(r.metrics, 0.8)
    assert len(fig.data[0].x) == 2
    assert all(c == "#d62728" for c in fig.data[0].marker.color)
    assert fig.layout.xaxis.title.text.startswith("protection (1 - share")  # axis says what
    assert fig.layout.annotations[0].text == "target 0.80"


def test_version_history_and_histogram() -> None:
    fig = version_history(
        [
            {"version": "v1", "cpr": 0.3, "token_recall": 0.9},
            {"version": "v2", "cpr": 0.6, "token_recall": 0.95},
        ]
    )
    assert {tr.name for tr in fig.data} == {"CPR", "Token recall (R_di+qi)"}
    fig = histogram([1, 1, 2, 3, 3, 3], "Hardness", "hardness")
    assert list(fig.data[0].x) == ["1", "2", "3"] and list(fig.data[0].y) == [2, 1, 3]
    assert fig.layout.yaxis.title.text == "count"
    fig = histogram([2, 5], "Hardness", "hardness (1 very easy - 5 very hard)", "GT PII")
    assert fig.layout.yaxis.title.text == "GT PII" and "1 very easy" in fig.layout.xaxis.title.text
