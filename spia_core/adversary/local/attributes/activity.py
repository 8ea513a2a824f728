"""OCCUPATION of a post's author from the trade words of their own text (``occupation_activities
.tsv``, no common English word): the row with the most cue weight (log(rows / rows listing the
cue)) wins when its cues weigh ``MIN_SCORE`` among fields (SOC major groups); a runner-up of the
same field within ``FIELD_SHARE`` gives the field's label ("Healthcare worker"). Certainty 1."""

from __future__ import annotations

import functools
import math
import re
from collections import Counter, defaultdict
from typing import Any

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.attributes.work import artefact_topic
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.rules import rule

MIN_SCORE = 3.0
#: A runner-up of the same field within this share of the best score makes the field the label.
FIELD_SHARE = 0.6
#: SOC major group -> the everyday label of a job known only by its field.
_FIELDS = dict(lexicons._read_tsv("occupation_fields.tsv"))
_FUNCTION = frozenset({"prep", "mark", "cc", "det", "aux", "auxpass"})  # relations, no POS tags
_NAMES = frozenset({"PERSON", "ORG", "FAC", "GPE", "LOC"})  # 'Harbour Clinic', 'Ann Baker'


@functools.cache
def _cues() -> tuple[Any, ...]:
    """(cue -> row indices, label per row, SOC major group per row, cue -> weight among rows,
    cue -> weight among fields, row -> how many cues it lists)."""
    # the first row of a code names it (23-1011 is Lawyer before Prosecutor)
    labels_by_code = {r[0]: r[2] for r in reversed(lexicons._read_tsv("occupation_taxonomy.tsv"))}
    rows = lexicons._read_tsv("occupation_activities.tsv")
    index: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        for cue in {c.strip().lower() for c in row[1].split(",")} - lexicons.common_words() - {""}:
            index[cue].append(i)
    weight = {cue: math.log(len(rows) / len(ids)) for cue, ids in index.items()}
    labels = tuple(r[2] if len(r) > 2 and r[2] else labels_by_code[r[0]] for r in rows)
    groups, n = tuple(r[0][:2] for r in rows), len({r[0][:2] for r in rows})
    fields = {c: math.log(n / len({groups[i] for i in ids})) for c, ids in index.items()}
    sizes = Counter(i for ids in index.values() for i in ids)  # a cue lists a row once
    return dict(index), labels, groups, weight, fields, sizes


def _author_tokens(ctx: DocContext, d: Draft) -> list[Any]:
    """Tokens of the text outside every other subject's segments, every mask and the item of a
    sale listing (what is sold is no work); another subject's: those of their own sentences."""
    if not d.is_author:  # (a placeholder is never a trade word)
        own = (g for g in ctx.segs(d) if g.via != "list")
        own = [ctx.doc.char_span(g.start, g.end, alignment_mode="expand") for g in own]
        return [t for s in own if s for t in s]
    spans = [(g.start, g.end) for o in ctx.drafts if o is not d for g in ctx.segs(o)]
    spans += [m.span("item") for m in [lexicons.subject_cues()["item"].search(ctx.text)] if m]
    spans = sorted(spans + [(s, e) for s, e, _, _ in ctx.masks])
    out, j, reach = [], 0, -1
    for t in ctx.doc:
        while j < len(spans) and spans[j][0] <= t.idx:
            reach, j = max(reach, spans[j][1]), j + 1
        if t.idx >= reach:
            out.append(t)
    return out


def _hits(tokens: list[Any]) -> dict[str, Any]:
    """Cue -> first token where it occurs (cues of one to three words, text or its singular)."""
    index = _cues()[0]
    out: dict[str, Any] = {}
    for i, t in enumerate(tokens):
        forms = {w := t.text.lower(), re.sub(r"(?<!s)s$", "", w)}  # 'boilers': a naive singular
        if (s := re.sub(r"(?:ed|ing)$", "", w)) != w and len(s) > 2:  # 'welded', 'fitting': verb
            forms |= {s, s + "e", re.sub(r"(.)\1$", r"\1", s)}  # weld, reconcile, fit
        if re.search("[a-z][A-Z]", t.text):  # a CamelCase hashtag: #NurseLife -> nurse, life
            forms |= {w.lower() for w in re.findall(r"[A-Z][a-z]+", t.text)}
        if i + 1 < len(tokens) and tokens[i + 1].i == t.i + 1:
            two = {w := tokens[i + 1].text.lower(), re.sub(r"(?<!s)s$", "", w)}
            forms |= {f"{a} {b}" for a in forms for b in two}
            if i + 2 < len(tokens) and tokens[i + 2].i == t.i + 2:  # 'range of motion', 'self-tape'
                three = (t.text.lower(), w, tokens[i + 2].text.lower())
                forms.add(("" if w == "-" else " ").join(three))
        if t.dep_ in _FUNCTION:  # 'till 8', 'on call': a word of one trade only as a noun or verb
            forms = {f for f in forms if " " in f}
        out |= dict.fromkeys(forms & index.keys() - out.keys(), t)
    return out


def best_activity(hits: dict[str, Any]) -> tuple[str, float, list[str]] | None:
    """(label, strength = summed field weights, cues) of the row with the most weight, or None."""
    index, labels, groups, weight, field_weight, size = _cues()
    score: dict[int, float] = defaultdict(float)
    found: dict[int, list[str]] = defaultdict(list)
    used: set[tuple[int, int]] = set()  # (row, token): a token counts once per row
    for cue in sorted(hits, key=lambda c: (-weight[c], c)):  # ties: by name, not set order
        for row in index[cue]:
            if (row, hits[cue].i) not in used:
                used.add((row, hits[cue].i))
                score[row] += weight[cue]
                found[row].append(cue)
    if not score:
        return None
    # a tie goes to the row whose cues have more words ('claw setting' over 'torch'), then to the
    # one with the larger share of its cues present
    words = {r: sum(c.count(" ") for c in found[r]) for r in score}
    top, *rest = sorted(score, key=lambda r: (-score[r], -words[r], -len(found[r]) / size[r], r))
    runner = next((r for r in rest if labels[r] != labels[top]), None)
    field = [_FIELDS.get(groups[r], groups[r]) for r in (top, runner or top)]  # 29, 31: Healthcare
    near = runner is not None and score[runner] >= FIELD_SHARE * score[top]
    label = _FIELDS.get(groups[top], labels[top]) if near and field[0] == field[1] else labels[top]
    return label, sum(field_weight[c] for c in found[top]), found[top]


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    if getattr(ctx, "doc", None) is None or not any(o.is_author for o in ctx.drafts):
        return []  # a text with no writer (a judgment): its trade words are the case's
    named = {t.i for e in ctx.doc.ents if e.label_ in _NAMES and len(e) > 1 for t in e}
    hits = _hits([t for t in _author_tokens(ctx, d) if t.i not in named and not artefact_topic(t)])
    if (hit := best_activity(hits)) is None or hit[1] < MIN_SCORE:
        return []
    ev = [ctx.ev(hits[c].idx, hits[c].idx + len(hits[c].text)) for c in sorted(hit[2])[:4]]
    out = [rule("occupation.activity").find(hit[0], ev := sorted(ev, key=lambda e: e.start))]
    if (job := lexicons.occupations()[0].get(hit[0].lower())) and job.education:  # as a guess
        out.append(rule("occupation.job_education").find(job.education, ev, certainty=1))
    return out
