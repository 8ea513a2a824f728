"""Highlighted-text HTML and span redaction (pure functions, everything escaped).

Every piece of document or model text that reaches HTML goes through :func:`html.escape`;
colours are validated hex values; no script, no external resource is ever emitted.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from spia_core.model import AuditReport, PIIScore, Subject
from spia_core.taxonomy import DISPLAY_NAMES

#: Colours for subjects (distinct, readable behind dark text when lightened).
SUBJECT_PALETTE: tuple[str, ...] = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#9a6324",
    "#469990",
    "#808000",
    "#000075",
    "#800000",
)
REDACTION_TOKEN = "[REDACTED]"
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
#: Tags whose keyword is a category, not words of the text (never searched for).
_CATEGORICAL = {"SEX", "AGE", "EDUCATION", "RELATIONSHIP"}


@dataclass(frozen=True)
class Highlight:
    """A [start, end) span of a text to highlight, owned by one subject key."""

    start: int
    end: int
    key: str  # "gt:<id>" or "x:<pred id>" (an inferred subject with no GT counterpart)
    colour: str
    hover: str
    tag: str = ""


def safe_colour(colour: str) -> str:
    """``colour`` when it is a #rrggbb hex value, else a neutral grey (no CSS injection)."""
    return colour if _HEX.match(colour or "") else "#888888"


def subject_colours(keys: Iterable[str]) -> dict[str, str]:
    """A stable colour per subject key, cycling through :data:`SUBJECT_PALETTE`."""
    return {k: SUBJECT_PALETTE[i % len(SUBJECT_PALETTE)] for i, k in enumerate(dict.fromkeys(keys))}


def subject_keys(report: AuditReport) -> dict[str, str]:
    """Subject key -> label for every GT subject and every unmatched inferred subject."""
    labels = {f"gt:{s.id}": subject_label(s) for s in report.gt_subjects}
    matched = {p.pred_subject_id for p in report.assignment.pairs if p.pred_subject_id is not None}
    for s in report.inferred_subjects:
        if s.id not in matched:
            labels[f"x:{s.id}"] = f"{subject_label(s)} [not in GT]"
    return labels


def subject_label(subject: Subject) -> str:
    """Short human label: the name, else the description's head, else 'subject N'."""
    head = subject.name or subject.description.split(" - ")[0].strip()
    return f"{head[:60]} (#{subject.id})" if head else f"subject {subject.id}"


def locate(text: str, start: int, end: int, snippet: str = "") -> tuple[int, int] | None:
    """Check or repair an evidence span: offsets when they hold ``snippet``, else its first
    occurrence, else the clamped offsets; None when nothing sensible remains."""
    n = len(text)
    s, e = max(0, min(start, n)), max(0, min(end, n))
    if snippet:
        if text[s:e] == snippet:
            return (s, e)
        i = text.find(snippet)
        if i >= 0:
            return (i, i + len(snippet))
        i = text.lower().find(snippet.lower())
        if i >= 0:
            return (i, i + len(snippet))
    return (s, e) if e > s else None


def merge_spans(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted union of [start, end) spans (overlapping or touching spans merge)."""
    out: list[tuple[int, int]] = []
    for s, e in sorted((s, e) for s, e in spans if e > s):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def redact_spans(text: str, spans: Iterable[tuple[int, int]], token: str = REDACTION_TOKEN) -> str:
    """``text`` with each (merged) span replaced by ``token``; spans are clamped to the text."""
    n = len(text)
    merged = merge_spans((max(0, min(s, n)), max(0, min(e, n))) for s, e in spans)
    parts: list[str] = []
    pos = 0
    for s, e in merged:
        parts.append(text[pos:s])
        parts.append(token)
        pos = e
    parts.append(text[pos:])
    return "".join(parts)


def _hover(
    subject_label_: str, tag: str, keyword: str, certainty: int, score: PIIScore | None
) -> str:
    lines = [
        f"Subject: {subject_label_}",
        f"Tag: {DISPLAY_NAMES.get(tag, tag)}",
        f"Inferred: {keyword}",
        f"Certainty: {certainty}",
    ]
    if score is not None:
        eff = score.effective_score
        shown = "unscored" if eff is None else f"{eff:.1f}"
        lines.append(f"Score: {shown} vs GT '{score.gt_keyword}' ({score.rule})")
    return "\n".join(lines)


def report_highlights(
    report: AuditReport, side: str = "anonymized", visible: set[str] | None = None
) -> list[Highlight]:
    """Highlights of one side of an audit.

    ``anonymized``: the evidence of every inferred subject, coloured as the GT subject it was
    matched to. ``original``: the evidence of the GT subjects when they have some, else the
    places where their (non-categorical) keywords occur.
    """
    labels = subject_keys(report)
    colours = subject_colours(labels)
    out: list[Highlight] = []
    if side == "anonymized":
        text = report.anonymized_text
        gt_of = {p.pred_subject_id: p.gt_subject_id for p in report.assignment.pairs}
        scores = {
            (r.pred_subject_id, s.tag): s
            for r in report.subject_results
            for s in r.scores
            if r.pred_subject_id is not None
        }
        for subj in report.inferred_subjects:
            gid = gt_of.get(subj.id)
            key = f"gt:{gid}" if gid is not None else f"x:{subj.id}"
            if visible is not None and key not in visible:
                continue
            for pii in subj.piis:
                if pii.is_empty:
                    continue
                hover = _hover(
                    labels.get(key, key),
                    pii.tag,
                    pii.keyword,
                    pii.certainty,
                    scores.get((subj.id, pii.tag)),
                )
                for ev in pii.evidence:
                    loc = locate(text, ev.start, ev.end, ev.text)
                    if loc:
                        out.append(
                            Highlight(*loc, key, colours.get(key, "#888888"), hover, pii.tag)
                        )
    elif side == "original":
        text = report.original_text
        for subj in report.gt_subjects:
            key = f"gt:{subj.id}"
            if visible is not None and key not in visible:
                continue
            for pii in subj.piis:
                if pii.is_empty:
                    continue
                hover = _hover(labels[key], pii.tag, pii.keyword, pii.certainty, None)
                locs = [locate(text, ev.start, ev.end, ev.text) for ev in pii.evidence]
                if not pii.evidence and pii.tag not in _CATEGORICAL:
                    locs = list(_occurrences(text, pii.keyword))
                for loc in locs:
                    if loc:
                        out.append(Highlight(*loc, key, colours[key], hover, pii.tag))
    else:
        raise ValueError(f"side must be 'anonymized' or 'original', got {side!r}")
    return out


def _occurrences(text: str, keyword: str) -> Iterable[tuple[int, int]]:
    """Case-insensitive whole-word occurrences of each ' / '-separated part of ``keyword``."""
    for part in (p.strip() for p in keyword.split("/")):
        if len(part) < 3:
            continue
        for m in re.finditer(rf"(?<!\w){re.escape(part)}(?!\w)", text, flags=re.IGNORECASE):
            yield (m.start(), m.end())


def render_highlighted(text: str, highlights: Iterable[Highlight]) -> str:
    """HTML of ``text`` with highlights as ``<mark>`` elements carrying a hover ``title``.

    Overlaps are split at every boundary; a segment covered by several highlights takes the
    first one's background, the second one's underline, and lists every hover text.
    """
    hls = [h for h in highlights if 0 <= h.start < h.end <= len(text)]
    bounds = sorted({0, len(text), *(h.start for h in hls), *(h.end for h in hls)})
    parts: list[str] = []
    for a, b in itertools.pairwise(bounds):
        seg = html.escape(text[a:b], quote=True)
        active = [h for h in hls if h.start <= a and b <= h.end]
        if not active:
            parts.append(seg)
            continue
        first = safe_colour(active[0].colour)
        under = safe_colour(active[1].colour if len(active) > 1 else active[0].colour)
        title = html.escape("\n---\n".join(dict.fromkeys(h.hover for h in active)), quote=True)
        keys = html.escape(" ".join(dict.fromkeys(h.key for h in active)), quote=True)
        parts.append(
            f'<mark class="spia-hl" data-subject="{keys}" title="{title}" '
            f'style="background:{first}40;border-bottom:3px solid {under};'
            f'padding:0 1px;border-radius:2px;color:inherit">{seg}</mark>'
        )
    body = "".join(parts)
    return (
        '<div class="spia-doc" style="white-space:pre-wrap;line-height:1.6;'
        'font-family:Georgia,serif;font-size:0.95rem">' + body + "</div>"
    )


def legend_html(labels: dict[str, str], colours: dict[str, str]) -> str:
    """A row of coloured chips, one per subject key."""
    chips = [
        f'<span style="display:inline-block;margin:2px 6px 2px 0;padding:1px 8px;'
        f"border-radius:10px;background:{safe_colour(colours.get(k, ''))}40;"
        f'border:2px solid {safe_colour(colours.get(k, ""))}">{html.escape(v)}</span>'
        for k, v in labels.items()
    ]
    return "<div>" + "".join(chips) + "</div>"
