"""RELATIONSHIP: spouses, widows, divorce, partners (kin words and status statements), given to
the right person: "Divorced, and my three boys keep me going" is the author's status, "my
divorced sister" the sister's; "my late wife" makes the author a widower."""

from __future__ import annotations

import re
from collections.abc import Iterator

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.attributes import author_matches, segment_matches
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.lexicons import canonical_kin
from spia_core.adversary.local.rules import rule

_CUES = lexicons.subject_cues("attribute_cues.tsv")

#: Status words and what they say, with the certainty they give.
_STATUS = lexicons.cue_table("relationship_cues.tsv", re.IGNORECASE)
_OTHERS_STATUS = lexicons.subject_cues()["others_status"]
#: A status word used as a title: "Partner, Brandt LLP", "Partner at Hale & Co".
_TITLE_USE = re.compile(r"[A-Z]\w+,? (?:at )?[A-Z]|[a-z]+ at [A-Z]")


def _not_status(text: str, a: int, b: int) -> bool:
    """A status word used as a title ("Partner, Brandt LLP") or for a partner in an activity or
    a firm ("her business partner", "my lab partner")."""
    prev = "".join(text[max(0, a - 20) : a].split()[-1:]).lower()
    return prev in lexicons.words("partner_kind") or _TITLE_USE.match(text, a, b + 6) is not None


#: Cues that survive masking: "[DEM] life with [PERSON]", "our little ones", "our 3 kids".
_LIFE_WITH = re.compile(r"\b(?:life|home|weekend|evening|time) with \[PERSON(?:_\d+)?\]", re.I)
_COPARENT_AFTER = re.compile(r"^\s*(?:and|&)\s+(?:our|my)\b")
#: "His wife died on ...", "the death of his wife", "after her husband's death".
_DEATH_OF = re.compile(r"\b(?:death|loss|murder|killing) of\s+(?:his|her|their|my)?\s*$")
_DEM_LIFE = re.compile(r"\[(?:DEM|NORP|MISC)\] life\b")
_PARENTS = {"father", "mother", "parent", "stepfather", "stepmother"}
_CHILDREN = lexicons.words("child_kin") | {"kiddo", "baby", "stepson", "stepdaughter"}


def _author_status_spans(
    ctx: DocContext, d: Draft, rx: re.Pattern[str], value: str
) -> Iterator[tuple[int, int]]:
    """Spans of one status word said of the author: in the author's sentences, not another's ("his
    wife", "their anniversary"), not masked, not describing a relative ("my divorced sister")."""
    kin_spans = [
        (m.start, m.end) for o in ctx.drafts if o is not d for m in o.mentions if m.kind == "kin"
    ]
    for a, b in author_matches(ctx, d, rx):
        before, after = ctx.text[max(0, a - 20) : a], ctx.text[b : b + 25]
        others = _OTHERS_STATUS.search(ctx.text, ctx.sentence_of(a)[0], b)
        if others or _not_status(ctx.text, a, b) or ctx.is_masked(a, b):
            continue
        adjective = ctx.text[a:b].lower().endswith(("ed", "single"))  # not "our wedding was"
        mine = adjective and _CUES["status_of_kin"].search(before)  # "my divorced sister"
        kin = value in {"Married", "In Relation"} and any(ks <= a < ke for ks, ke in kin_spans)
        if not kin and not (mine and _CUES["kin_after_status"].match(after)):
            yield a, b


def _status_for_author(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    kin = lexicons.kin_words()  # "my fiancé ... the wedding is in May": not married yet
    ties = {kin[o.kin].relationship for o in ctx.drafts if o.anchor is d and o.kin in kin}
    for rx, value, cert in (s for s in _STATUS if s[1] != "Married" or "In Relation" not in ties):
        if (span := next(_author_status_spans(ctx, d, rx, value), None)) is not None:
            c = min(5, cert + 1)
            out.append(rule("family.author_status").find(value, [ctx.ev(*span)], certainty=c))
    text = ctx.text
    fam = _CUES["shared_family"].search(text) or _LIFE_WITH.search(text) or _DEM_LIFE.search(text)
    letter = re.search(r"(?m)^\s*Dear\b|\bYours (?:sincerely|faithfully|truly)\b", text)
    if not out and fam is not None and not letter:  # a letter's "our" speaks for a body
        out.append(rule("family.our").find("Married", [ctx.ev(fam.start(), fam.end())]))
    return out


def named_context(ctx: DocContext, d: Draft) -> list[Finding]:
    """Spouse or parent from the words around a name or placeholder (survives masking)."""
    out: list[Finding] = []
    for m in (m for m in d.mentions if m.kind in {"name", "placeholder", "handle"}):
        before = ctx.text[max(ctx.sentence_of(m.start)[0], m.start - 45) : m.start]
        after, ev = ctx.text[m.end : m.end + 25], [ctx.ev(m.start, m.end)]
        coparent = re.search(r"\bwith\s*$", before) and _COPARENT_AFTER.match(after)
        if _CUES["spouse_before"].search(before) or coparent:
            out.append(rule("family.named_partner").find("Married", ev))
        elif _CUES["parents_before"].search(before):
            out.append(rule("family.parents").find("Married", ev))
    return out


def grown_up(ctx: DocContext, d: Draft) -> bool:
    """A child with a partner or child of their own, at university or at work (``grown_cue``), or
    whose parent has grandchildren ("my son and his wife", "I mind my granddaughter")."""
    grand, kin = {"grandson", "granddaughter", "grandchild", "grandkid"}, lexicons.kin_words()
    cues = re.compile(rf"\b(?:{lexicons.alternation('grown_cue')})\b")
    older = d.anchor is not None and d.anchor.is_author  # a retired writer's son is grown up
    if older and any(segment_matches(ctx, d.anchor, _CUES["older_parent"], ("mention",))):
        return True
    return any(segment_matches(ctx, d, cues)) or any(
        (o.anchor is d and (canonical_kin(o.kin) in _CHILDREN or kin[o.kin].anchor_relationship))
        or (d.kin not in grand and o.anchor is d.anchor and canonical_kin(o.kin) in grand)
        for o in ctx.drafts
        if o is not d and o.kin in kin
    )


def _late(ctx: DocContext, d: Draft) -> bool:
    """The relative is dead: "my late wife", "his wife died in May", "the death of my father"."""
    m = next((x for x in d.mentions if x.kind == "kin"), None)
    return m is not None and bool(
        re.search(r"\blate\s+\w+$", ctx.text[max(0, m.start - 12) : m.end])
        or _CUES["died_after"].match(ctx.text[m.end : m.end + 40])
        or _DEATH_OF.search(ctx.text[max(0, m.start - 20) : m.start])
    )


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    kin = (kin_table := lexicons.kin_words()).get(d.kin)
    kin_ev = [ctx.ev(m.start, m.end) for m in d.mentions if m.kind == "kin"][:1]
    if d.kin == "spouse" or (kin and kin.relationship):
        value = "Married" if d.kin == "spouse" else kin.relationship
        out.append(rule("family.kin_guess" if d.guess else "family.kin").find(value, kin_ev))
    has_children = False
    for other in (o for o in ctx.drafts if o.anchor is d and o.kin):
        canon, k = canonical_kin(other.kin), kin_table.get(other.kin)
        ev = [ctx.ev(x.start, x.end) for x in other.mentions if x.kind == "kin"][:1]
        if _late(ctx, other) and canon in {"wife", "husband", "spouse"}:
            rid = "family.kin_guess" if other.guess else "family.late_spouse"  # a guess: a doubt
            out.append(rule(rid).find("Widowed", ev))
            continue
        if value := ("Married" if other.kin == "spouse" else (k.anchor_relationship if k else "")):
            rid = "family.kin_guess" if other.guess else "family.anchor_of_kin"
            out.append(rule(rid).find(value, ev))
        elif canon in _CHILDREN:
            has_children = True
    if d.is_author and (lone := _CUES["lone_parent"].search(ctx.text)) is not None:
        out.append(rule("family.lone_parent_masked").find("Divorced", [ctx.ev(*lone.span())]))
    elif has_children and d.is_author:
        out.append(rule("family.parent").find("Married", []))
    if d.is_author:
        out.extend(_status_for_author(ctx, d))
    elif not d.kin:
        out.extend(named_context(ctx, d))
        pair = next((m for m in d.mentions if m.source == "pair"), None)
        if pair is not None:  # "Oskar and Hedda Lindqvist": a couple sharing a surname
            out.append(rule("family.couple").find("Married", [ctx.ev(pair.start, pair.end)]))
        for rx, value, cert in _STATUS:
            for m, off in segment_matches(ctx, d, rx):
                word = m.group(0).lower()
                title = _not_status(ctx.text, off + m.start(), off + m.end())
                if word in {"my wife", "my husband", "my hubby", "my wifey"} or title:
                    continue
                ev = [ctx.ev(off + m.start(), off + m.end())]
                c = 3 if word.startswith("widow") else cert
                out.append(rule("family.status").find(value, ev, certainty=c))
                break
    mates = [o for o in ctx.drafts if o is not d and o.anchor is d.anchor]
    mates = [o for o in mates if canonical_kin(o.kin) in _PARENTS]
    if canonical_kin(d.kin) in _PARENTS and (d.child_count == 2 or mates):
        late = any(_late(ctx, o) for o in mates)  # "since my dad passed away": mum is a widow
        split = any(_CUES["split"].match(ctx.text, m.end) for o in [d, *mates] for m in o.mentions)
        value = "Widowed" if late else "Divorced" if split else "Married"  # "my parents divorced"
        out.append(rule("family.late_spouse" if late else "family.parents").find(value, kin_ev))
    return out
