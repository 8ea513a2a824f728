"""The related methods' dashboard pieces (pages/_related.py) under Streamlit's AppTest."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from spia_core.related.reference import load_reference, rupta_figure, seal_figure, tria_figure
from spia_core.related.trajectory import feedback_rows, trajectory_rows

TRACE = {
    "method": "seal",
    "best": 1,
    "stopped": "nothing_inferable",
    "trajectory": [
        {
            "index": 0,
            "phase": "original",
            "text": "<b>orig</b>",
            "diff": [],
            "scores": {"inferable": 2, "utility": 1.0, "overall": None},
            "feedback": {
                "inferences": [
                    {"type": "age", "inference": "says 40", "guess": ["40"], "certainty": 5}
                ]
            },
        },
        {
            "index": 1,
            "phase": "refine",
            "text": "rewritten",
            "diff": [{"op": "replace", "before": "40", "after": "middle-aged"}],
            "scores": {"inferable": 0, "utility": 0.9, "overall": 0.9},
            "feedback": {"inferences": []},
        },
    ],
    "seal_trajectory": [],
}


def _page(trace: dict) -> None:
    from types import SimpleNamespace

    from pages.views.related import render_trajectory

    metrics = SimpleNamespace(cpr=0.75)
    render_trajectory(SimpleNamespace(anonymizer_trace=trace, metrics=metrics, data_id="d"))


def test_rows_for_tables() -> None:
    rows = trajectory_rows(TRACE)
    assert [r["best"] for r in rows] == [False, True]
    assert rows[1]["word changes"] == 1 and rows[1]["overall"] == 0.9
    assert feedback_rows(TRACE["trajectory"][0])[0]["guess"] == "40"
    rupta_step = {"feedback": {"clues": ["harbour"], "guesses": ["A", "B"], "rank": 2}}
    kinds = [r["kind"] for r in feedback_rows(rupta_step)]
    assert kinds == ["clue", "top-2 guesses (truth at rank 2)"]


def test_trajectory_view_renders_scores_stop_rule_and_overall() -> None:
    at = AppTest.from_function(_page, args=(TRACE,), default_timeout=30).run()
    assert not at.exception
    assert "no attribute with enough certainty" in at.caption[0].value
    labels = {m.label: m.value for m in at.metric}
    assert labels["CPR (audit)"] == "0.750" and labels["CPR - (1 - utility)"] == "0.650"
    assert len(at.expander) == 2
    assert not any("<b>orig</b>" in m.value for m in at.markdown)  # text only in text areas


def test_other_anonymizers_show_nothing() -> None:
    at = AppTest.from_function(_page, args=({"rounds": []},), default_timeout=30).run()
    assert not at.exception and not at.subheader


def test_reference_figures_have_their_own_axes() -> None:
    ref = load_reference()
    assert ref["rupta"]["tables"][0]["rows"][-1] == {
        "method": "RUPTA (GPT-4)",
        "SR": 52.67,
        "CS": 53.11,
        "F1": 95.91,
        "Accuracy": 96.02,
    }
    rupta = rupta_figure()
    assert len(rupta.data) == 3 and "SR" in rupta.layout.xaxis.title.text
    assert "Privacy" in seal_figure().layout.xaxis2.title.text
    assert "TRIR" in tria_figure().layout.yaxis.title.text

    def page() -> None:
        from pages.views.related import render_reference_figures

        render_reference_figures()

    at = AppTest.from_function(page, default_timeout=30).run()
    assert not at.exception and len(at.get("plotly_chart")) == 3


def test_options_widgets() -> None:
    def page() -> None:
        from pages.components.related_options import render_options

        st_options = render_options("rupta", "t_")
        seal = render_options("seal", "t_")
        other = render_options("ner-mask", "t_")
        import streamlit as st

        st.session_state["out"] = (st_options, seal, other)

    at = AppTest.from_function(page, default_timeout=30).run()
    assert not at.exception
    rupta, seal, other = at.session_state["out"]
    assert rupta == {"k": 10, "iterations": 5, "memory": 3, "utility_goal": 95.0}
    assert seal == {"rounds": 3, "min_certainty": 3, "adversary": "self"}
    assert other == {}
    at.text_input(key="t_rupta_target").set_value("Ana Ruiz").run()
    rupta = at.session_state["out"][0]
    assert rupta["target"] == "Ana Ruiz" and rupta["target_tag"] == "NAME"


def test_trir_section_on_the_demo_collection(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SPIA_DATA_DIR", str(tmp_path))

    def page() -> None:
        from pages.views.related import render_trir

        render_trir()

    at = AppTest.from_function(page, default_timeout=180).run()
    assert not at.exception
    at.multiselect(key="tria_anons").set_value([]).run()
    at.button(key="tria_go").click().run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["texts"]) == ["original (ceiling)", "maximum possible", "chance (1/known)"]
    assert 0.5 < table["TRIR"][0] <= 1.0 and table["TRIR"][2] == 1 / 145


def test_pages_show_the_related_pieces(tmp_path, monkeypatch) -> None:
    """The hooks: reference figures on Benchmarks, TRIR on Run, RUPTA/SEAL settings on Audit."""
    from pathlib import Path

    monkeypatch.setenv("SPIA_DATA_DIR", str(tmp_path))
    app = str(Path(__file__).resolve().parents[1] / "app.py")
    at = AppTest.from_file(app, default_timeout=120).run()
    at.switch_page("pages/benchmarks.py").run()
    assert not at.exception
    assert any("Related methods" in s.value for s in at.subheader)
    at.switch_page("pages/run.py").run()
    assert not at.exception
    assert any("TRIA-lite" in s.value for s in at.subheader)
    at.switch_page("pages/audit.py").run()
    names = at.selectbox(key="anon").options
    assert any(o.startswith("rupta") for o in names) and any(o.startswith("seal") for o in names)
    at.selectbox(key="anon").set_value("rupta").run()
    assert not at.exception
    assert any(e.label == "RUPTA settings" for e in at.expander)
    assert at.number_input(key="rupta_k").value == 10
