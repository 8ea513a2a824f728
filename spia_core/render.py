"""Highlighted-text HTML and span redaction (pure functions, everything escaped).

Every piece of document or model text that reaches HTML goes through :func:`html.escape`;
colours are validated hex values; no script, no external resource is ever emitted.
"""

from __future__ import annotations

import bisect
import html
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from spia_core.model import AuditReport, Explanation, PIIScore, Subject
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
    """Subject key -> label for every GT subject and every unmatched inferred subject.

    Unmatched inferred subjects with the same description (seven bare "[PERSON]" subjects
    of a masked text) share one key and one label with their count.
    """
    labels = {f"gt:{s.id}": subject_label(s) for s in report.gt_subjects}
    groups = extra_subject_groups(report)
    heads = [subject_head(g.subjects[0]) for g in groups]
    for group, head in zip(groups, heads, strict=True):
        n = len(group.subjects)
        label = head + (f" ×{n}" if n > 1 else "")
        if heads.count(head) > 1:  # same name, other description: say which one
            label += f" (adversary's #{group.subjects[0].id})"
        # without an original there is no GT: everyone the adversary finds is simply a person
        labels[group.key] = label if report.mode == "redacted_only" else f"{label} [not in GT]"
    return labels


def subject_head(subject: Subject) -> str:
    """The label without its id (inferred ids and GT ids are different numberings)."""
    head = subject.name or subject.description.split(" - ")[0].strip()
    return head[:60] if head else "unnamed subject"


@dataclass(frozen=True)
class SubjectGroup:
    """Inferred subjects absent from the GT that read the same (shown as one line)."""

    key: str  # "x:<smallest id>"
    description: str
    subjects: tuple[Subject, ...]

    @property
    def ids(self) -> list[int]:
        return [s.id for s in self.subjects]


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def extra_subject_groups(report: AuditReport) -> list[SubjectGroup]:
    """Unmatched inferred subjects grouped by identical name and description, in id order."""
    matched = {p.pred_subject_id for p in report.assignment.pairs if p.pred_subject_id is not None}
    groups: dict[tuple[str, str], list[Subject]] = {}
    for s in sorted(report.inferred_subjects, key=lambda s: s.id):
        if s.id not in matched:
            groups.setdefault((_norm(s.name), _norm(s.description)), []).append(s)
    return [
        SubjectGroup(f"x:{subs[0].id}", subs[0].description, tuple(subs))
        for subs in groups.values()
    ]


def extra_key_of(report: AuditReport) -> dict[int, str]:
    """Inferred subject id -> the shared key of its group (unmatched subjects only)."""
    return {s.id: g.key for g in extra_subject_groups(report) for s in g.subjects}


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
    subject_label_: str,
    tag: str,
    keyword: str,
    certainty: int,
    score: PIIScore | None,
    why: Explanation | None = None,
) -> str:
    lines = [
        f"Subject: {subject_label_}",
        f"Tag: {DISPLAY_NAMES.get(tag, tag)}",
        f"Inferred: {keyword}",
        f"Certainty: {certainty}",
    ]
    if why is not None and why.text:
        lines.append(f"Why: {why.text}" + (f" [{why.rule}]" if why.rule else ""))
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
        extra = extra_key_of(report)
        scores = {
            (r.pred_subject_id, s.tag): s
            for r in report.subject_results
            for s in r.scores
            if r.pred_subject_id is not None
        }
        for subj in report.inferred_subjects:
            gid = gt_of.get(subj.id)
            key = f"gt:{gid}" if gid is not None else extra.get(subj.id, f"x:{subj.id}")
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
                    pii.explanation,
                )
                for ev in pii.evidence:
                    loc = locate(text, ev.start, ev.end, ev.text)
                    if loc:
                        out.append(
                            Highlight(*loc, key, colours.get(key, "#888888"), hover, pii.tag)
                        )
    elif side == "original":
        text = report.original_text
        lowered = text.lower()
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
                    locs = list(_occurrences(text, pii.keyword, lowered))
                for loc in locs:
                    if loc:
                        out.append(Highlight(*loc, key, colours[key], hover, pii.tag))
    else:
        raise ValueError(f"side must be 'anonymized' or 'original', got {side!r}")
    return out


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _occurrences(text: str, keyword: str, lowered: str | None = None) -> Iterable[tuple[int, int]]:
    """Case-insensitive whole-word occurrences of each ' / '-separated part of ``keyword``.

    ``lowered`` (``text.lower()``, computed once by the caller) makes each part one fast
    substring search instead of a regular expression over the text; it is used only when
    lowering keeps every offset.
    """
    if lowered is None or len(lowered) != len(text):
        lowered = None
    for part in (p.strip() for p in keyword.split("/")):
        if len(part) < 3:
            continue
        if lowered is None or len(part.lower()) != len(part):
            for m in re.finditer(rf"(?<!\w){re.escape(part)}(?!\w)", text, flags=re.IGNORECASE):
                yield (m.start(), m.end())
            continue
        needle = part.lower()
        i = lowered.find(needle)
        while i != -1:
            j = i + len(needle)
            if (i == 0 or not _is_word(lowered[i - 1])) and (
                j == len(lowered) or not _is_word(lowered[j])
            ):
                yield (i, j)
            i = lowered.find(needle, i + 1)


def render_highlighted(text: str, highlights: Iterable[Highlight]) -> str:
    """HTML of ``text`` with highlights as ``<mark>`` elements carrying a hover ``title``.

    Overlaps are split at every boundary; a segment covered by several highlights takes the
    first one's background, the second one's underline, and lists every hover text.
    """
    hls = [h for h in highlights if 0 <= h.start < h.end <= len(text)]
    bounds = sorted({0, len(text), *(h.start for h in hls), *(h.end for h in hls)})
    by_start = sorted(range(len(hls)), key=lambda i: hls[i].start)
    open_ids: list[int] = []  # highlights covering the segment, in input order
    nxt = 0
    parts: list[str] = []
    for a, b in itertools.pairwise(bounds):
        seg = html.escape(text[a:b], quote=True)
        # a sweep: highlights open at their start and close after their end (bounds hold
        # every start and end), so each segment looks at the open ones only
        while nxt < len(by_start) and hls[by_start[nxt]].start <= a:
            bisect.insort(open_ids, by_start[nxt])
            nxt += 1
        open_ids = [i for i in open_ids if b <= hls[i].end]
        active = [hls[i] for i in open_ids]
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


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_CAPABILITY = re.compile(r"can\b.*\bcannot|cannot|can't", re.IGNORECASE)
_FIGURES = re.compile(r"measured|figures", re.IGNORECASE)


def markdown_section(text: str, pattern: re.Pattern[str]) -> str | None:
    """Body of the first heading matching ``pattern`` (up to the next heading of the same or
    a higher level), or None."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _HEADING.match(line)
        if m and pattern.search(m.group(2)):
            level = len(m.group(1))
            body: list[str] = []
            for nxt in lines[i + 1 :]:
                h = _HEADING.match(nxt)
                if h and len(h.group(1)) <= level:
                    break
                body.append(nxt)
            return "\n".join(body).strip()
    return None


def capability_summary(doc_markdown: str) -> str:
    """A concise 'what the local adversary can and cannot infer' from its markdown document.

    The capability section, plus the first figures table of the measurements section when
    the capability section has none. The result is markdown from the file: render it as
    markdown with HTML disabled (``st.markdown`` without ``unsafe_allow_html``).
    """
    section = markdown_section(doc_markdown, _CAPABILITY)
    if section is None:
        return ""
    parts = [section]
    if "|" not in section:
        figures = markdown_section(doc_markdown, _FIGURES) or ""
        table = _first_table(figures)
        if table:
            parts.append("**Measured** (`scripts/adversary_quality.py`):\n\n" + table)
    return "\n\n".join(parts)


def _first_table(markdown: str) -> str:
    rows: list[str] = []
    for line in markdown.splitlines():
        if line.lstrip().startswith("|"):
            rows.append(line.strip())
        elif rows:
            break
    return "\n".join(rows)
