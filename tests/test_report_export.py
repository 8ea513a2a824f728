from __future__ import annotations

import csv
import io
import json
from html.parser import HTMLParser

from _dashboard_factory import make_report

from spia_core.model import AuditReport, Override, from_dict
from spia_core.report_export import CSV_COLUMNS, report_html, report_json, scores_csv
from spia_core.verdict import Target


def test_json_round_trip_keeps_overrides() -> None:
    r = make_report()
    r.subject_results[0].scores[1].override = Override(0.0, "generic nationality", "auditor")
    data = json.loads(report_json(r, extra={"versions": [1]}))
    assert data["extra"] == {"versions": [1]}
    data.pop("extra")
    back = from_dict(AuditReport, data)
    assert back.subject_results[0].scores[1].override == Override(
        0.0, "generic nationality", "auditor"
    )


def test_csv_rows_and_effective_score() -> None:
    r = make_report()
    r.subject_results[0].scores[1].override = Override(0.5, "partial, x", "")
    rows = list(csv.DictReader(io.StringIO(scores_csv(r))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == sum(len(x.scores) for x in r.subject_results)
    nat = next(x for x in rows if x["tag"] == "NATIONALITY")
    assert (
        nat["score"] == "1.0" and nat["override_score"] == "0.5" and nat["effective_score"] == "0.5"
    )
    assert nat["override_reason"] == "partial, x"


def test_html_standalone_and_inert() -> None:
    r = make_report()
    out = report_html(r, Target(0.9, 0.8))
    tags = _tags(out)
    names = {t for t, _ in tags}
    assert not names & {"script", "img", "iframe", "link", "object", "embed", "b", "i"}
    attrs = {a for _, attrs in tags for a, _ in attrs}
    assert not {a for a in attrs if a.startswith("on")}
    assert not attrs & {"src", "href"}  # no external resources
    assert "&lt;script&gt;" in out and "&lt;img src=x onerror=alert(1)&gt;" in out
    assert "http://" not in out.lower() and "https://" not in out.lower()
    assert "not safe to release: 2 of 2 people remain identifiable" in out
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
