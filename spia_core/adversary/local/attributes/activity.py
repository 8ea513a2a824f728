"""OCCUPATION of a post's author from what they say they do, by meaning: the author's own
first-person sentences are embedded with the static word vectors shipped inside the wordllama
wheel (no download) and compared with plain descriptions of what workers of each occupation do
(``data/lexicons/occupation_activities.tsv``, rows of the SOC-based taxonomy).

A weak cue by design (certainty 1): a stated job
(``attributes.occupation``) always wins. The thresholds were set on invented sentences before
any dataset run: a cosine of at least 0.42 to the best occupation (everyday sentences such as
"I had coffee with friends" reach 0.32, "garden chairs for sale" 0.40) and 0.08 above the
best different occupation.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from pathlib import Path
from typing import Any

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.rules import rule

MIN_COSINE = 0.42
MIN_MARGIN = 0.08
_FIRST_PERSON = re.compile(r"\b(?:I|I['’]m|I['’]ve|my|me|we|our)\b")
_MAX_SENTENCES = 30


@functools.cache
def _model() -> Any:
    """The wordllama model from the files inside its wheel (downloads disabled)."""
    import wordllama
    from wordllama import WordLlama

    return WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)


@functools.cache
def _index() -> tuple[tuple[str, ...], Any]:
    """(occupation label per row, normalised embedding matrix of the activity descriptions)."""
    labels_by_code = {r[0]: r[2] for r in lexicons._read_tsv("occupation_taxonomy.tsv")}
    rows = lexicons._read_tsv("occupation_activities.tsv")
    unknown = [r[0] for r in rows if r[0] not in labels_by_code]
    if unknown:
        raise ValueError(f"occupation_activities.tsv: codes not in the taxonomy: {unknown}")
    labels = tuple(labels_by_code[r[0]] for r in rows)
    return labels, _model().embed([r[1] for r in rows], norm=True)


def _author_sentences(ctx: DocContext, d: Draft) -> list[tuple[int, int]]:
    """The author's own first-person sentences (unmasked words left), in text order."""
    own = sorted((g.start, g.end) for g in ctx.segs(d) if g.via == "mention")
    starts = [a for a, _ in own]
    reach = list(itertools.accumulate((b for _, b in own), max))  # furthest end so far
    out = []
    for s, e in ctx.sentences:
        i, j = bisect.bisect_right(starts, s), bisect.bisect_left(starts, e)
        # some own segment with a <= s < b, or with a < e <= b
        if not ((i and reach[i - 1] > s) or (j and reach[j - 1] >= e)):
            continue
        chunk = ctx.text[s:e]
        if _FIRST_PERSON.search(chunk) and len(re.findall(r"[A-Za-z]{3,}", chunk)) >= 4:
            out.append((s, e))
    return out[:_MAX_SENTENCES]


def best_activity(sentences: list[str]) -> tuple[str, float, float, int] | None:
    """(label, cosine, margin over the next different label, sentence index) of the closest
    occupation over all sentences, or None."""
    if not sentences:
        return None
    labels, matrix = _index()
    scores = _model().embed(sentences, norm=True) @ matrix.T
    best = None
    for i, row in enumerate(scores):
        order = row.argsort()[::-1]
        top = order[0]
        runner = next((j for j in order[1:] if labels[j] != labels[top]), top)
        cand = (labels[top], float(row[top]), float(row[top] - row[runner]), i)
        if best is None or cand[1] > best[1]:
            best = cand
    return best


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    if not d.is_author:
        return []
    spans = _author_sentences(ctx, d)
    hit = best_activity([ctx.text[s:e] for s, e in spans])
    if hit is None:
        return []
    label, cosine, margin, i = hit
    if cosine < MIN_COSINE or margin < MIN_MARGIN:
        return []
    return [rule("occupation.activity").find(label, [ctx.ev(*spans[i])])]
