"""Exports of one audit: report JSON (docs/report.schema.json), PII-score CSV, standalone HTML.

Reports are personal data: every export says so. The default form is redacted (every inferred
or ground-truth value masked to its tag, no document text); ``redact_values=False`` adds the
values and the analysed text, ``include_original=True`` the original text. CSV cells are
neutralised against formula injection; HTML escapes every piece of document or model text
and loads nothing (inline CSS, no script).
"""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path
from typing import Any

from spia_core.export_safety import (
    ValueMasker,
    mask_quotes,
    masker_for,
    neutralise_cell,
    value_masker,
)
from spia_core.model import AuditReport, NoticeKind, PIIScore, Subject
from spia_core.render import render_highlighted, report_highlights, subject_label
from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY, DISPLAY_NAMES
from spia_core.verdict import (
    CAVEAT_NOTICE_KIND,
    STRONGER_CHECK,
    Target,
    Verdict,
    assess,
    gap_sentence,
)

#: Version of the report.json layout (docs/report.schema.json).
REPORT_SCHEMA = "spia-audit-report/1"
#: The sentence every export carries.
PERSONAL_DATA_NOTICE = (
    "This report is itself personal data: it describes real people and what can be learnt "
    "about them. Store and share it as you would the document."
)
REDACTED_FORM_NOTICE = (
    "Redacted form: inferred and ground-truth values are masked to their tag and no document "
    "text is included (export with values to see them)."
)

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


def _masked(masker: ValueMasker | None, text: str) -> str:
    return masker.mask(text) if masker is not None else text


def _explanation_text(pii: Any, masker: ValueMasker | None) -> str:
    """The explanation sentence; in a redacted export its quotes of the evidence are masked
    like the evidence itself (``[TAG evidence]``), then every known value."""
    text = pii.explanation.text
    if masker is None:
        return text
    own = value_masker([Subject(id=0, description="", piis=[pii])])  # its value, its tag
    quotes = [e.text for e in [*pii.explanation.evidence, *pii.evidence]]
    return masker.mask(mask_quotes(own.mask(text), quotes, f"[{pii.tag} evidence]"))


def _evidence(pii: Any, masker: ValueMasker | None) -> list[dict[str, Any]]:
    return [
        {
            "start": ev.start,
            "end": ev.end,
            "text": f"[{pii.tag} evidence]" if masker is not None else ev.text,
        }
        for ev in pii.evidence
    ]


def _inferred(subject: Subject, masker: ValueMasker | None) -> list[dict[str, Any]]:
    out = []
    for pii in subject.piis:
        if pii.is_empty:
            continue
        exp = pii.explanation
        out.append(
            {
                "tag": pii.tag,
                "value": f"[{pii.tag}]" if masker is not None else pii.keyword,
                "certainty": pii.certainty,
                "explanation": None
                if exp is None
                else {"rule": exp.rule, "text": _explanation_text(pii, masker)},
                "evidence": _evidence(pii, masker),
            }
        )
    return out


def _subjects(report: AuditReport, masker: ValueMasker | None) -> list[dict[str, Any]]:
    from spia_core.exposure import subject_exposure

    min_c = report.exposure.min_certainty if report.exposure else 3
    exposures = {e.subject_id: e for e in (report.exposure.subjects if report.exposure else [])}
    out = []
    for s in report.inferred_subjects:
        e = exposures.get(s.id) or subject_exposure(s, min_c)
        out.append(
            {
                "id": s.id,
                "name": _masked(masker, s.name) if s.name else "",
                "description": _masked(masker, s.description),
                "exposure": {"score": e.score, "direct": e.direct, "quasi": e.quasi},
                "inferred": _inferred(s, masker),
            }
        )
    return out


def _exposure_block(report: AuditReport) -> dict[str, Any]:
    from spia_core.exposure import document_exposure

    exp = report.exposure or document_exposure(report.anonymized_text, report.inferred_subjects)
    return {
        "score": exp.score,
        "min_certainty": exp.min_certainty,
        "n_subjects": len(exp.subjects),
        "n_exposed_subjects": exp.n_exposed_subjects,
        "n_placeholders": len(exp.placeholders),
        "n_seen_through": exp.n_seen_through,
        "definition": "docs/exposure.md",
        "placeholders": [
            {
                "start": p.start,
                "end": p.end,
                "text": p.text,
                "label": p.label,
                "seen_through": p.seen_through,
                "inferred": list(p.inferred),
            }
            for p in exp.placeholders
        ],
    }


def _metrics(report: AuditReport) -> dict[str, Any]:
    m, sm = report.metrics, report.span_metrics
    out: dict[str, Any] = {
        "cpr": m.cpr,
        "ipr": m.ipr,
        "one_minus_aac": m.one_minus_aac,
        "n_subjects": m.n_subjects,
        "n_pii": m.n_pii,
        "token_recall": None if sm is None else sm.token_recall,
        "er_di": None if sm is None else sm.er_di,
        "er_qi": None if sm is None else sm.er_qi,
    }
    if report.mode == "redacted_only":
        out["note"] = (
            "No CPR, IPR or 1-AAC without the original text (no ground truth); give the "
            "original to measure them."
        )
    return out


def _scores(report: AuditReport, masker: ValueMasker | None) -> list[dict[str, Any]]:
    protection = {p.gt_subject_id: p.protection for p in report.metrics.per_subject}
    out = []
    for r in report.subject_results:
        out.append(
            {
                "gt_subject_id": r.gt_subject_id,
                "description": _masked(masker, r.description),
                "matched_subject_id": r.pred_subject_id,
                "protection": protection.get(r.gt_subject_id),
                "scores": [
                    {
                        "tag": s.tag,
                        "gt_value": f"[{s.tag}]" if masker is not None else s.gt_keyword,
                        "inferred_value": (f"[{s.tag}]" if s.pred_keyword else "")
                        if masker is not None
                        else s.pred_keyword,
                        "certainty": s.certainty,
                        "score": s.effective_score,
                        "rule": s.rule,
                    }
                    for s in r.scores
                ],
            }
        )
    return out


def _verdict_dict(verdict: Verdict, masker: ValueMasker | None) -> dict[str, Any]:
    data = verdict.to_dict()
    data["headline"] = _masked(masker, data["headline"])
    data["reasons"] = [_masked(masker, r) for r in data["reasons"]]
    data["caveats"] = [_masked(masker, c) for c in data["caveats"]]
    return data


def report_json(
    report: AuditReport,
    *,
    include_original: bool = False,
    redact_values: bool = True,
    target: Target | None = None,
    verdict: Verdict | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The report.json document (docs/report.schema.json) of one audit.

    Redacted by default: values masked to their tag and no document text. ``redact_values``
    False adds the values and the analysed text; ``include_original`` adds the original text.
    """
    verdict = verdict or assess(report, target)
    masker = masker_for(report) if redact_values else None
    data: dict[str, Any] = {
        "schema": REPORT_SCHEMA,
        "personal_data": PERSONAL_DATA_NOTICE,
        "redacted": redact_values,
        "data_id": report.data_id,
        "created_at": report.created_at,
        "mode": report.mode,
        "anonymizer": report.anonymizer,
        "adversary": report.adversary,
        "adversary_is_local": report.adversary_is_local,
        "verdict": _verdict_dict(verdict, masker),
        "exposure": _exposure_block(report),
        "subjects": _subjects(report, masker),
        "metrics": _metrics(report),
        "notices": [
            {
                "kind": n.kind,
                "stage": n.stage,
                "severity": n.severity,
                "message": _masked(masker, n.message),
            }
            for n in report.notices
        ],
        "config": dict(report.config),
        "versions": dict(report.versions),
        "timings": dict(report.timings),
    }
    if report.mode != "redacted_only":
        data["ground_truth_scores"] = _scores(report, masker)
    text: dict[str, str] = {}
    if not redact_values:
        text["analysed"] = report.anonymized_text
    if include_original and report.original_text:
        text["original"] = report.original_text
    if text:
        data["text"] = text
    if extra:
        data["extra"] = extra
    return data


def report_json_text(report: AuditReport, **options: Any) -> str:
    """:func:`report_json` as indented JSON text (same options)."""
    return json.dumps(report_json(report, **options), indent=2, ensure_ascii=False)


def write_report(
    report: AuditReport,
    out_dir: str | Path,
    *,
    include_original: bool = False,
    redact_values: bool = True,
    target: Target | None = None,
) -> dict[str, Path]:
    """Write ``out_dir/report.json`` and ``out_dir/report.html`` for one audit.

    The one per-document writer behind ``python -m spia_core audit`` and ``check``; returns
    {"json": path, "html": path}. Both files are redacted unless asked otherwise.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    verdict = assess(report, target)
    options = {"include_original": include_original, "redact_values": redact_values}
    paths = {"json": out / "report.json", "html": out / "report.html"}
    data = report_json(report, target=target, verdict=verdict, **options)
    paths["json"].write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    paths["html"].write_text(report_html(report, target, verdict, **options), "utf-8")
    return paths


def scores_csv(report: AuditReport, *, redact_values: bool = True) -> str:
    """One row per scored GT PII (automatic score, override, effective score).

    The first line is a ``#`` comment saying the file is personal data; values are masked to
    their tag unless ``redact_values`` is False; every text cell is neutralised against
    spreadsheet formula injection.
    """
    masker = masker_for(report) if redact_values else None
    buf = io.StringIO()
    buf.write(f"# {PERSONAL_DATA_NOTICE}{' ' + REDACTED_FORM_NOTICE if masker else ''}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in report.subject_results:
        for s in r.scores:
            o = s.override
            gt_value = f"[{s.tag}]" if masker else s.gt_keyword
            pred_value = (f"[{s.tag}]" if s.pred_keyword else "") if masker else s.pred_keyword
            row = [
                report.data_id,
                r.gt_subject_id,
                _masked(masker, r.description),
                s.tag,
                gt_value,
                s.certainty,
                s.hardness,
                "" if s.pred_subject_id is None else s.pred_subject_id,
                pred_value,
                s.pred_certainty,
                "" if s.score is None else s.score,
                s.rule,
                _masked(masker, s.reason),
                "" if o is None else o.score,
                "" if o is None else _masked(masker, o.reason),
                "" if o is None else o.author,
                "" if s.effective_score is None else s.effective_score,
            ]
            w.writerow([neutralise_cell(c) for c in row])
    return buf.getvalue()


#: Columns of :func:`inferences_csv` (a redacted-only audit has inferences, no scores).
INFERENCE_COLUMNS = (
    "data_id",
    "subject_id",
    "subject",
    "tag",
    "value",
    "certainty",
    "counts_as_exposure",
    "rule",
    "explanation",
    "evidence",
)


def inferences_csv(report: AuditReport, *, redact_values: bool = True) -> str:
    """One row per value the adversary inferred (person, tag, value, certainty, whether it
    counts as exposure, rule, explanation, evidence); personal-data first line, values
    masked unless ``redact_values`` is False, cells neutralised like :func:`scores_csv`."""
    masker = masker_for(report) if redact_values else None
    min_c = report.exposure.min_certainty if report.exposure else DEFAULT_MIN_CERTAINTY
    buf = io.StringIO()
    buf.write(f"# {PERSONAL_DATA_NOTICE}{' ' + REDACTED_FORM_NOTICE if masker else ''}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(INFERENCE_COLUMNS)
    for subj in _subjects(report, masker):
        for item in subj["inferred"]:
            exp = item["explanation"]
            row = [
                report.data_id,
                subj["id"],
                _subject_head(subj),
                item["tag"],
                item["value"],
                item["certainty"],
                "yes" if item["certainty"] >= min_c else "no",
                "" if exp is None else exp["rule"],
                "" if exp is None else exp["text"],
                "; ".join(ev["text"] for ev in item["evidence"]),
            ]
            w.writerow([neutralise_cell(c) for c in row])
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
.unsafe{background:#fde2e2;border:1px solid #d62728}
.meets_target,.no_exposure_found{background:#e3f6e3;border:1px solid #2ca02c}
.cannot_judge{background:#fff4d6;border:1px solid #e0a000}.muted{color:#666;font-size:.85rem}
.personal{background:#eef3fb;border:1px solid #4363d8;padding:.4rem .8rem;border-radius:6px}
.doc{border:1px solid #ddd;padding:.8rem;background:#fcfcfc}
@media print{.doc{border:none}}
"""


def _e(x: Any) -> str:
    return html.escape("" if x is None else str(x), quote=True)


def _f(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _override_text(s: PIIScore, masker: ValueMasker | None) -> str:
    if s.override is None:
        return ""
    return f"{s.override.score} ({_masked(masker, s.override.reason)})"


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


def _label(subject: Subject | None, fallback: str, masker: ValueMasker | None) -> str:
    return _masked(masker, subject_label(subject)) if subject else fallback


def _subject_tables(report: AuditReport, masker: ValueMasker | None) -> str:
    by_id = {s.id: s for s in report.gt_subjects}
    out = []
    for r in report.subject_results:
        name = _label(by_id.get(r.gt_subject_id), f"subject {r.gt_subject_id}", masker)
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
            else f"matched to inferred subject {r.pred_subject_id} "
            f"({_masked(masker, r.match_reason)})"
        )
        rows = "".join(
            "<tr>"
            f"<td>{_e(DISPLAY_NAMES.get(s.tag, s.tag))}</td>"
            f"<td>{_e(f'[{s.tag}]' if masker else s.gt_keyword)}</td>"
            f"<td>{_e((f'[{s.tag}]' if s.pred_keyword else '') if masker else s.pred_keyword)}"
            f"</td><td>{_e(s.pred_certainty)}</td>"
            f"<td>{_e('unscored' if s.score is None else s.score)}</td>"
            f"<td>{_e(_override_text(s, masker))}</td>"
            f"<td>{_e(s.rule)}</td></tr>"
            for s in r.scores
        )
        out.append(
            f"<h3>{_e(name)}: protection {_f(prot)}</h3>"
            f'<p class="muted">{_e(_masked(masker, r.description))}<br>{_e(matched)}</p>'
            "<table><tr><th>Tag</th><th>GT PII</th><th>Inferred</th><th>Certainty</th>"
            f"<th>Score</th><th>Override</th><th>Deciding rule</th></tr>{rows}</table>"
        )
    return "".join(out)


def _subject_head(subj: dict[str, Any]) -> str:
    """The heading of an exported subject: its name, else its description's head."""
    return subj["name"] or subj["description"].split(" - ")[0] or f"subject {subj['id']}"


def _exposure_tables(report: AuditReport, masker: ValueMasker | None) -> str:
    """Every inferred subject: exposure, and each inference with certainty and explanation."""
    out = []
    for subj in _subjects(report, masker):
        e = subj["exposure"]
        rows = "".join(
            "<tr>"
            f"<td>{_e(DISPLAY_NAMES.get(i['tag'], i['tag']))}</td><td>{_e(i['value'])}</td>"
            f"<td>{_e(i['certainty'])}</td>"
            f"<td>{_e('' if i['explanation'] is None else i['explanation']['text'])}</td>"
            f"<td>{_e('; '.join(ev['text'] for ev in i['evidence']))}</td></tr>"
            for i in subj["inferred"]
        )
        out.append(
            f"<h3>{_e(_subject_head(subj))} (#{_e(subj['id'])}): exposure {_e(e['score'])}</h3>"
            f'<p class="muted">{_e(subj["description"])}</p>'
            "<table><tr><th>Tag</th><th>Inferred</th><th>Certainty</th><th>Why</th>"
            f"<th>Evidence</th></tr>{rows}</table>"
        )
    return "".join(out) or "<p>The adversary found no person in the text.</p>"


def _placeholder_list(report: AuditReport, masker: ValueMasker | None) -> str:
    from spia_core.exposure import readings_text

    block = _exposure_block(report)
    if not block["placeholders"]:
        return "<p>No masking placeholder in the text.</p>"
    labels = {s["id"]: _subject_head(s) for s in _subjects(report, masker)}
    rows = "".join(
        f"<tr><td>{_e(p['text'])}</td><td>{_e(p['start'])}</td>"
        f"<td>{'seen through' if p['seen_through'] else 'holds'}</td>"
        f"<td>{_e(readings_text(p['inferred'], labels))}</td></tr>"
        for p in block["placeholders"]
    )
    return (
        f"<p>{block['n_seen_through']} of {block['n_placeholders']} placeholders seen through."
        "</p><table><tr><th>Placeholder</th><th>Offset</th><th>Status</th>"
        f"<th>What was inferred through it</th></tr>{rows}</table>"
    )


def _mode_sections(report: AuditReport, masker: ValueMasker | None) -> str:
    if report.mode == "redacted_only":
        return (
            f"<h2>Exposure</h2><p>Document exposure {_exposure_block(report)['score']} "
            "(tags the adversary gets with certainty &gt;= 3, summed over people; "
            "docs/exposure.md). No CPR without the original text.</p>"
            f"<h2>People the adversary singles out</h2>{_exposure_tables(report, masker)}"
            f"<h2>Placeholders</h2>{_placeholder_list(report, masker)}"
        )
    extra = [
        s for s in report.inferred_subjects if s.id in report.assignment.extra_pred_subject_ids
    ]
    extra_html = "".join(
        f"<li>{_e(_label(s, '', masker))}: {_e(_masked(masker, s.description))}</li>" for s in extra
    )
    if extra_html:
        head = "<h2>Subjects the adversary found that the ground truth lacks</h2>"
        extra_html = f"{head}<ul>{extra_html}</ul>"
    return (
        f"<h2>Metrics</h2>{_tiles(report)}"
        f"<p>{_e(gap_sentence(report.span_metrics, report.metrics))}</p>"
        f"<h2>Subjects</h2>{_subject_tables(report, masker)}{extra_html}"
    )


def _text_sections(report: AuditReport, *, redact_values: bool, include_original: bool) -> str:
    out = ""
    if not redact_values:
        doc = render_highlighted(report.anonymized_text, report_highlights(report, "anonymized"))
        out += (
            '<h2>Analysed text with inferred evidence</h2><p class="muted">Hover a highlight '
            f'for the subject, tag, inferred keyword, certainty and score.</p><div class="doc">'
            f"{doc}</div>"
        )
    if include_original and report.original_text:
        original = render_highlighted(report.original_text, [])
        out += f'<h2>Original text</h2><div class="doc">{original}</div>'
    return out


#: The settings a redacted-only audit uses (matcher, judge, scoring and span settings of the
#: configuration only apply when there is an original to score against).
REDACTED_SETTINGS = (
    "adversary",
    "adversary_backbone",
    "adversary_options",
    "base_url",
    "min_certainty",
)


def _settings(report: AuditReport) -> list[tuple[str, Any]]:
    """The configuration rows of the HTML report: those that shaped this audit, set or not."""
    if report.mode != "redacted_only":
        return list(report.config.items())
    return [(k, report.config[k]) for k in REDACTED_SETTINGS if k in report.config]


def _caveat_lines(report: AuditReport, verdict: Verdict) -> list[str]:
    """The verdict's caveats and the report's warnings, each said once: a short caveat whose
    notice the report carries gives way to the notice (the lower bound keeps its advice)."""
    said = {n.kind: n.message for n in report.notices}
    lines = []
    for caveat in verdict.caveats:
        kind = CAVEAT_NOTICE_KIND.get(caveat)
        if kind not in said:
            lines.append(caveat)
        elif kind == NoticeKind.LOWER_BOUND:
            said[kind] = f"{said[kind]} A stronger check is {STRONGER_CHECK}."
    long_form = {n.message: said[n.kind] for n in report.notices}
    return list(dict.fromkeys([*lines, *(long_form.get(w, w) for w in report.warnings)]))


def report_html(
    report: AuditReport,
    target: Target | None = None,
    verdict: Verdict | None = None,
    *,
    include_original: bool = False,
    redact_values: bool = True,
) -> str:
    """A standalone HTML page: personal-data notice, verdict, figures, people, (text).

    Redacted by default (values masked to their tag, no document text). Inline CSS only.
    """
    target = target or Target()
    verdict = verdict or assess(report, target)
    masker = masker_for(report) if redact_values else None
    reasons = "".join(f"<li>{_e(_masked(masker, r))}</li>" for r in verdict.reasons)
    caveats = "".join(f"<li>{_e(_masked(masker, c))}</li>" for c in _caveat_lines(report, verdict))
    cfg = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in _settings(report))
    failures = "".join(
        f"<li>{_e(f.stage)}: {_e(_masked(masker, f.reason))}</li>"
        for f in [*report.failures, *report.metrics.coverage.failures]
    )
    local = " (local, offline)" if report.adversary_is_local else ""
    form = REDACTED_FORM_NOTICE if redact_values else "Full form: values and text included."
    target_line = (
        ""
        if report.mode == "redacted_only"
        else f'<p class="muted">Target: CPR &gt;= {target.min_cpr:.2f} and every subject '
        f"&gt;= {target.min_subject:.2f}</p>"
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>SPIA audit report: {_e(report.data_id)}</title><style>{_CSS}</style></head>
<body>
<h1>SPIA audit report: {_e(report.data_id)}</h1>
<p class="personal">{_e(PERSONAL_DATA_NOTICE)} {_e(form)}</p>
<p class="muted">Created {_e(report.created_at)} · mode {_e(report.mode)} · anonymizer
{_e(report.anonymizer)} · adversary {_e(report.adversary)}{local} ·
ground truth: {_e(report.gt_source)}</p>
<div class="verdict {_e(verdict.status)}">{_e(_masked(masker, verdict.headline))}</div>
{target_line}
<ul>{reasons}</ul>
{f"<h2>Caveats</h2><ul>{caveats}</ul>" if caveats else ""}
{_mode_sections(report, masker)}
{f"<h2>Failures</h2><ul>{failures}</ul>" if failures else ""}
{_text_sections(report, redact_values=redact_values, include_original=include_original)}
<h2>Configuration</h2><table>{cfg}</table>
</body></html>
"""
