from __future__ import annotations

import csv
import io
import json
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
from _dashboard_factory import make_report

from spia_core.export_safety import ZWSP, escape_markdown, neutralise_cell
from spia_core.model import Override
from spia_core.report_export import (
    CSV_COLUMNS,
    PERSONAL_DATA_NOTICE,
    report_html,
    report_json,
    report_json_text,
    scores_csv,
)
from spia_core.verdict import Target

SCHEMA = json.loads((Path(__file__).parents[1] / "docs" / "report.schema.json").read_text())


def _csv_rows(text: str) -> list[dict[str, str]]:
    first, _, body = text.partition("\n")
    assert first.startswith("# ") and "personal data" in first
    return list(csv.DictReader(io.StringIO(body)))


def test_json_is_redacted_by_default_and_valid() -> None:
    r = make_report()
    r.subject_results[0].scores[1].override = Override(0.0, "generic nationality", "auditor")
    data = report_json(r, extra={"versions": [1]})
    jsonschema.validate(data, SCHEMA)
    assert data["extra"] == {"versions": [1]} and data["personal_data"] == PERSONAL_DATA_NOTICE
    raw = json.dumps(data)
    for value in ("Raja Ekwall", "Stockholm", "Sweden", "K. Lowther"):
        assert value not in raw
    assert "text" not in data
    nat = data["ground_truth_scores"][0]["scores"][1]
    assert nat["gt_value"] == "[NATIONALITY]" and nat["score"] == 0.0  # the override counts


def test_json_full_form_only_when_asked() -> None:
    r = make_report()
    full = report_json(r, redact_values=False, include_original=True)
    jsonschema.validate(full, SCHEMA)
    assert full["text"]["original"] == r.original_text
    assert full["text"]["analysed"] == r.anonymized_text
    assert "Stockholm" in json.dumps(full)
    no_original = report_json(r, redact_values=False)
    assert "original" not in no_original["text"]
    assert json.loads(report_json_text(r)) == report_json(r) | {"created_at": r.created_at}


def test_csv_rows_and_effective_score() -> None:
    r = make_report()
    r.subject_results[0].scores[1].override = Override(0.5, "partial, x", "")
    rows = _csv_rows(scores_csv(r, redact_values=False))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == sum(len(x.scores) for x in r.subject_results)
    nat = next(x for x in rows if x["tag"] == "NATIONALITY")
    assert (
        nat["score"] == "1.0" and nat["override_score"] == "0.5" and nat["effective_score"] == "0.5"
    )
    assert nat["override_reason"] == "partial, x"


def test_csv_is_redacted_by_default() -> None:
    rows = _csv_rows(scores_csv(make_report()))
    assert {x["gt_keyword"] for x in rows} <= {f"[{x['tag']}]" for x in rows}
    assert not any("Ekwall" in v for x in rows for v in x.values())


def test_csv_cells_cannot_become_formulas() -> None:
    r = make_report()
    r.subject_results[0].description = '=HYPERLINK("http://x.example","click")'
    r.subject_results[0].scores[0].reason = "+1 and more"
    r.subject_results[0].scores[0].override = Override(0.5, "@SUM(A1)", "-auditor")
    rows = _csv_rows(scores_csv(r, redact_values=False))
    first = rows[0]
    assert first["subject"].startswith("'=") and first["reason"].startswith("'+")
    assert first["override_reason"] == "'@SUM(A1)" and first["override_author"] == "'-auditor"
    for cell in ("\tcmd", "\rcmd", "-2+3"):
        assert neutralise_cell(cell) == "'" + cell
    assert neutralise_cell(-2) == -2 and neutralise_cell("plain") == "plain"


def test_markdown_escape_makes_links_inert() -> None:
    raw = "[x](https://evil.example) **bold** # head <b>tag</b> ![i](y.png)"
    out = escape_markdown(raw)
    assert "[x](" not in out and "**" not in out and "<b>" not in out and "![" not in out
    assert out.replace("\\", "").replace(ZWSP, "") == raw  # only escapes were added
    assert "https:" not in out and escape_markdown("= under") == "\\= under"


def test_html_states_personal_data_and_is_redacted() -> None:
    out = report_html(make_report(), Target(0.9, 0.8))
    assert "personal data" in out and "Redacted form" in out
    assert "Stockholm" not in out and "Raja Ekwall" not in out


def test_html_standalone_and_inert() -> None:
    r = make_report()
    out = report_html(r, Target(0.9, 0.8), redact_values=False)
    tags = _tags(out)
    names = {t for t, _ in tags}
    assert not names & {"script", "img", "iframe", "link", "object", "embed", "b", "i"}
    attrs = {a for _, attrs in tags for a, _ in attrs}
    assert not {a for a in attrs if a.startswith("on")}
    assert not attrs & {"src", "href"}  # no external resources
    assert "&lt;script&gt;" in out and "&lt;img src=x onerror=alert(1)&gt;" in out
    assert "http://" not in out.lower() and "https://" not in out.lower()
    assert "not safe to release: 2 of 2 people remain identifiable" in out
    assert '<div class="verdict unsafe">' in out
    assert "Subjects the adversary found that the ground truth lacks" in out
    assert "overestimated" in out
    assert "&lt;i&gt;x&lt;/i&gt;" in out  # description escaped


def _tags(doc: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    found: list[tuple[str, list[tuple[str, str | None]]]] = []

    class P(HTMLParser):
        def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
            found.append((tag, attrs))

    P().feed(doc)
    return found


def test_redacted_export_masks_the_quotes_in_explanations() -> None:
    """The evidence is shown as [TAG evidence] in a redacted export; the explanation sentence
    quoting that evidence was left readable. Invented text."""
    from spia_core.model import PII, Evidence, Explanation, Subject

    report = make_report()
    quote = "I have mended boats in the harbour at Vellmar for twenty years and still do"
    ev = Evidence(text=quote, start=0, end=len(quote))
    shown = f"'{quote[:57]}...'"
    pii = PII(
        tag="OCCUPATION",
        keyword="Boat builder",
        certainty=4,
        evidence=[ev],
        explanation=Explanation(
            "work.activity", f"OCCUPATION = Boat builder, because {shown} (rule x)", [ev]
        ),
    )
    report.inferred_subjects.append(Subject(id=9, description="the author", piis=[pii]))
    text = json.dumps(report_json(report))
    assert "mended boats" not in text and "Boat builder" not in text
    assert "because '[OCCUPATION evidence]' (rule x)" in text
    with_values = json.dumps(report_json(report, redact_values=False))
    assert "mended boats" in with_values and "Boat builder" in with_values
