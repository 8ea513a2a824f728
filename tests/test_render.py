from __future__ import annotations

import html
import re

import pytest
from _dashboard_factory import make_report

from spia_core.render import (
    Highlight,
    locate,
    merge_spans,
    redact_spans,
    render_highlighted,
    report_highlights,
    safe_colour,
    subject_keys,
)


def _text_of(html_str: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", html_str))


def test_plain_text_escaped_and_round_trips() -> None:
    text = "a <script>alert(1)</script> & \"q\" 'x'"
    out = render_highlighted(text, [])
    assert "<script>" not in out
    assert "&lt;script&gt;" in out
    assert _text_of(out) == text


def test_overlapping_highlights_split_and_hover_escaped() -> None:
    text = "0123456789"
    hls = [
        Highlight(2, 6, "gt:0", "#ff0000", 'a "<b>" hover'),
        Highlight(4, 8, "gt:1", "#00ff00", "second"),
    ]
    out = render_highlighted(text, hls)
    marks = re.findall(r"<mark[^>]*>(.*?)</mark>", out)
    assert marks == ["23", "45", "67"]
    assert _text_of(out) == text
    assert 'title="a &quot;&lt;b&gt;&quot; hover"' in out
    # the overlapped segment lists both hovers and both subjects
    mid = re.search(
        r'<mark data-subject="([^"]*)" title="([^"]*)"|<mark[^>]*data-subject="gt:0 gt:1"', out
    )
    assert mid is not None
    assert "a &quot;&lt;b&gt;&quot; hover\n---\nsecond" in out


def test_out_of_range_highlights_ignored_and_bad_colour_neutralised() -> None:
    out = render_highlighted("abc", [Highlight(1, 9, "k", "red;background:url(x)", "h")])
    assert "<mark" not in out
    assert safe_colour("red;x") == "#888888"
    out = render_highlighted("abc", [Highlight(0, 2, "k", "red;x", "h")])
    assert "url(" not in out and "#888888" in out


def test_locate_repairs_offsets() -> None:
    text = "hello Stockholm world"
    assert locate(text, 6, 15, "Stockholm") == (6, 15)
    assert locate(text, 0, 3, "Stockholm") == (6, 15)
    assert locate(text, 0, 3, "stockholm") == (6, 15)
    assert locate(text, 50, 60, "") is None
    assert locate(text, 0, 5, "absent") == (0, 5)


def test_merge_and_redact() -> None:
    assert merge_spans([(5, 8), (0, 2), (1, 3), (8, 9), (4, 4)]) == [(0, 3), (5, 9)]
    text = "Alice met Bob in Paris."
    assert redact_spans(text, [(0, 5), (10, 13), (11, 12)]) == "[REDACTED] met [REDACTED] in Paris."
    assert redact_spans(text, []) == text
    assert redact_spans(text, [(17, 99)]) == "Alice met Bob in [REDACTED]"


def test_report_highlights_sides_and_toggle() -> None:
    r = make_report()
    keys = subject_keys(r)
    assert set(keys) == {"gt:0", "gt:1", "x:2"}
    anon = report_highlights(r, "anonymized")
    assert {h.key for h in anon} == {"gt:0", "gt:1"}
    assert all(r.anonymized_text[h.start : h.end] for h in anon)
    hover = next(h.hover for h in anon if h.tag == "LOCATION")
    assert "Inferred: Stockholm" in hover and "Certainty: 5" in hover and "Score: 1.0" in hover
    only0 = report_highlights(r, "anonymized", visible={"gt:0"})
    assert {h.key for h in only0} == {"gt:0"}
    orig = report_highlights(r, "original")
    spans = {r.original_text[h.start : h.end] for h in orig}
    assert {"Raja Ekwall", "Stockholm", "K. Lowther"} <= spans
    with pytest.raises(ValueError):
        report_highlights(r, "both")


def test_report_with_script_renders_inert() -> None:
    r = make_report()
    for side, text in (("anonymized", r.anonymized_text), ("original", r.original_text)):
        out = render_highlighted(text, report_highlights(r, side))
        assert "<script" not in out.lower()
        assert "<img" not in out.lower() and "<b>" not in out
        assert _text_of(out) == text


def test_extra_subjects_grouped_by_identical_reading() -> None:
    from spia_core.model import Subject
    from spia_core.render import extra_key_of, extra_subject_groups

    r = make_report()
    r.inferred_subjects += [Subject(5, "[PERSON]"), Subject(6, "[PERSON]"), Subject(7, "Agent")]
    r.assignment.extra_pred_subject_ids += [5, 6, 7]
    groups = extra_subject_groups(r)
    assert [g.ids for g in groups] == [[2], [5, 6], [7]]
    assert extra_key_of(r)[6] == "x:5"
    labels = subject_keys(r)
    assert labels["x:5"] == "[PERSON] ×2 [not in GT]" and "x:6" not in labels
    # evidence of every grouped subject is coloured as the group
    r.inferred_subjects[-2].piis = []
    assert {h.key for h in report_highlights(r, "anonymized")} <= set(labels)


def test_capability_summary_reads_the_section_and_a_figures_table() -> None:
    from spia_core.render import capability_summary, markdown_section

    doc = (
        "# Adversary\nintro\n## How it works\nrules\n"
        "## What it can and cannot infer\n- names: yes\n- masked names: no <b>x</b>\n"
        "### detail\nkept\n## Measured figures\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nafter\n"
    )
    section = markdown_section(doc, __import__("re").compile("cannot", __import__("re").I))
    assert section.startswith("- names: yes") and "kept" in section and "Measured" not in section
    summary = capability_summary(doc)
    assert "- masked names: no" in summary
    assert summary.endswith("| a | b |\n|---|---|\n| 1 | 2 |")
    assert "after" not in summary and "rules" not in summary
    assert capability_summary("# nothing here\n") == ""


def test_hover_carries_the_explanation_of_an_inferred_value() -> None:
    """The evidence highlight's hover says why the value was inferred (rule and text)."""
    from _dashboard_factory import make_report

    from spia_core.model import Explanation
    from spia_core.render import report_highlights

    rep = make_report()
    pii = rep.inferred_subjects[0].piis[0]
    pii.explanation = Explanation("nationality.demonym", "'Swedish national' names a nationality")
    hovers = [h.hover for h in report_highlights(rep, "anonymized") if h.tag == pii.tag]
    assert any(
        "Why: 'Swedish national' names a nationality [nationality.demonym]" in h for h in hovers
    )
