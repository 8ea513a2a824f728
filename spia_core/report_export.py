"""Exports of one audit: full JSON, PII-score CSV, standalone HTML (inline CSS, no script)."""

from __future__ import annotations

import csv
import html
import io
import json
from typing import Any

from spia_core.model import AuditReport, PIIScore, to_dict
from spia_core.render import render_highlighted, report_highlights, subject_label
from spia_core.taxonomy import DISPLAY_NAMES
from spia_core.verdict import Target, Verdict, gap_sentence, judge

CSV_COLUMNS = (
    "data_id",
    "gt_subject_id",
    "subject",
    "tag",
    "gt_keyword",
    "certainty",
    "hardness",
    "pred_subject_id",
    "pred_keyword",
    "pred_certainty",
    "score",
    "rule",
    "reason",
    "override_score",
    "override_reason",
    "override_author",
    "effective_score",
)


def report_json(report: AuditReport, extra: dict[str, Any] | None = None) -> str:
    """The whole report (overrides included) as indented JSON; ``extra`` is added under 'extra'."""
    data = to_dict(report)
    if extra:
        data["extra"] = extra
    return json.dumps(data, indent=2, ensure_ascii=False)


def scores_csv(report: AuditReport) -> str:
    """One row per scored GT PII, with the automatic score, any override and the effective score."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in report.subject_results:
        for s in r.scores:
            o = s.override
            w.writerow(
                [
                    report.data_id,
                    r.gt_subject_id,
                    r.description,
                    s.tag,
                    s.gt_keyword,
                    s.certainty,
                    s.hardness,
                    "" if s.pred_subject_id is None else s.pred_subject_id,
                    s.pred_keyword,
                    s.pred_certainty,
                    "" if s.score is None else s.score,
                    s.rule,
                    s.reason,
                    "" if o is None else o.score,
                    "" if o is None else o.reason,
                    "" if o is None else o.author,
                    "" if s.effective_score is None else s.effective_score,
                ]
            )
    return buf.getvalue()


_CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2rem;color:#222;
 max-width:1100px}
h1{font-size:1.5rem}
h2{font-size:1.2rem;border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:.85rem}
td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.tiles{display:flex;flex-wrap:wrap;gap:.5rem}
.tile{border:1px solid #ccc;border-radius:6px;padding:.4rem .8rem;min-width:7rem}
.tile strong{display:block;font-size:1.3rem}
.verdict{padding:.6rem 1rem;border-radius:6px;font-weight:bold}
.not_safe{background:#fde2e2;border:1px solid #d62728}
.safe{background:#e3f6e3;border:1px solid #2ca02c}
.inconclusive{background:#fff4d6;border:1px solid #e0a000}.muted{color:#666;font-size:.85rem}
.doc{border:1px solid #ddd;padding:.8rem;background:#fcfcfc}
@media print{.doc{border:none}}
"""


def _e(x: Any) -> str:
    return html.escape("" if x is None else str(x), quote=True)


def _f(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _override_text(s: PIIScore) -> str:
    return "" if s.override is None else f"{s.override.score} ({s.override.reason})"


def _tiles(report: AuditReport) -> str:
    m, sm, u = report.metrics, report.span_metrics, report.utility
    tiles = [
        ("Token recall", None if sm is None else sm.token_recall),
        ("ER_di", None if sm is None else sm.er_di),
        ("ER_qi", None if sm is None else sm.er_qi),
        ("CPR", m.cpr),
        ("IPR", m.ipr),
        ("1-AAC", m.one_minus_aac),
        ("Utility (ROUGE-L)", None if u is None else u.rouge_l),
    ]
    cells = "".join(f'<div class="tile">{_e(k)}<strong>{_f(v)}</strong></div>' for k, v in tiles)
    return f'<div class="tiles">{cells}</div>'


def _subject_tables(report: AuditReport) -> str:
    by_id = {s.id: s for s in report.gt_subjects}
    out = []
    for r in report.subject_results:
        subj = by_id.get(r.gt_subject_id)
        name = subject_label(subj) if subj else f"subject {r.gt_subject_id}"
        prot = next(
            (
                p.protection
                for p in report.metrics.per_subject
                if p.gt_subject_id == r.gt_subject_id
            ),
            None,
        )
        matched = (
            "not matched (fully protected)"
            if r.pred_subject_id is None
            else (f"matched to inferred subject {r.pred_subject_id} ({r.match_reason})")
        )
        rows = "".join(
            "<tr>"
            f"<td>{_e(DISPLAY_NAMES.get(s.tag, s.tag))}</td><td>{_e(s.gt_keyword)}</td>"
            f"<td>{_e(s.pred_keyword)}</td><td>{_e(s.pred_certainty)}</td>"
            f"<td>{_e('unscored' if s.score is None else s.score)}</td>"
            f"<td>{_e(_override_text(s))}</td>"
            f"<td>{_e(s.rule)}</td></tr>"
            for s in r.scores
        )
        out.append(
            f"<h3>{_e(name)}: protection {_f(prot)}</h3>"
            f'<p class="muted">{_e(r.description)}<br>{_e(matched)}</p>'
            "<table><tr><th>Tag</th><th>GT PII</th><th>Inferred</th><th>Certainty</th>"
            f"<th>Score</th><th>Override</th><th>Deciding rule</th></tr>{rows}</table>"
        )
    return "".join(out)


def report_html(
    report: AuditReport, target: Target | None = None, verdict: Verdict | None = None
) -> str:
    """A standalone HTML page: verdict, metrics, subjects, highlighted text. Inline CSS only."""
    target = target or Target()
    verdict = verdict or judge(report.metrics, target, adversary_is_local=report.adversary_is_local)
    reasons = "".join(f"<li>{_e(r)}</li>" for r in verdict.reasons)
    caveats = "".join(f"<li>{_e(c)}</li>" for c in [*verdict.caveats, *report.warnings])
    extra = [
        s for s in report.inferred_subjects if s.id in report.assignment.extra_pred_subject_ids
    ]
    extra_html = "".join(f"<li>{_e(subject_label(s))}: {_e(s.description)}</li>" for s in extra)
    if extra_html:
        head = "<h2>Subjects the adversary found that the ground truth lacks</h2>"
        extra_html = f"{head}<ul>{extra_html}</ul>"
    cfg = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in report.config.items())
    failures = "".join(
        f"<li>{_e(f.stage)}: {_e(f.reason)}</li>"
        for f in [*report.failures, *report.metrics.coverage.failures]
    )
    doc = render_highlighted(report.anonymized_text, report_highlights(report, "anonymized"))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>SPIA audit report: {_e(report.data_id)}</title><style>{_CSS}</style></head>
<body>
<h1>SPIA audit report: {_e(report.data_id)}</h1>
<p class="muted">Created {_e(report.created_at)} · anonymizer {_e(report.anonymizer)} ·
adversary {_e(report.adversary)}{" (local, offline)" if report.adversary_is_local else ""} ·
ground truth: {_e(report.gt_source)}</p>
<div class="verdict {_e(verdict.status)}">{_e(verdict.headline)}</div>
<p class="muted">Target: CPR &gt;= {target.min_cpr:.2f} and every subject
&gt;= {target.min_subject:.2f}</p>
<ul>{reasons}</ul>
{f"<h2>Caveats</h2><ul>{caveats}</ul>" if caveats else ""}
<h2>Metrics</h2>{_tiles(report)}
<p>{_e(gap_sentence(report.span_metrics, report.metrics))}</p>
<h2>Subjects</h2>{_subject_tables(report)}
{extra_html}
{f"<h2>Failures</h2><ul>{failures}</ul>" if failures else ""}
<h2>Anonymized text with inferred evidence</h2>
<p class="muted">Hover a highlight for the subject, tag, inferred keyword, certainty and score.</p>
<div class="doc">{doc}</div>
<h2>Configuration</h2><table>{cfg}</table>
</body></html>
"""
