"""SEX: honorifics, kin words, pronouns, first names (handles too), self-descriptions."""

from __future__ import annotations

import re

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.attributes import segment_matches
from spia_core.adversary.local.attributes.family import canonical_kin, named_context
from spia_core.adversary.local.attributes.identity import subject_name
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.draft import Draft, draft_prior_sex
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.names import census_name_sex, world_name_sex
from spia_core.adversary.local.patterns import FEMALE_PRONOUN, MALE_PRONOUN, TITLES, beside_name
from spia_core.adversary.local.rules import rule

_CUES = lexicons.subject_cues("attribute_cues.tsv")

_SELF = _CUES["self_sex"]  # "as a single father of two", "I'm a proud mom of two", "me (34F)"
#: Gendered emoji that survive masking: a woman/man with a job or activity (ZWJ sequences
#: 👩‍🌾 farmer, 👨‍💻 technologist, 👩‍⚕️ health worker) and any emoji with a female/male sign
#: (🙋‍♀️, 🤷‍♂️). Family and couple sequences (👨‍👩‍👧, 👩‍❤️‍👨) say nothing about the writer.
_EMOJI_SEX = _CUES["emoji_sex"]
_POSSESSIVE = re.compile(r"\b(?:my|his|her|your|their|our|the|this|that|whose)\b", re.I)


def _author_self(ctx: DocContext, d: Draft) -> list[Finding]:
    """The author's own words about themself: 'a widowed dad', 'mom of two', '#FarmerDad'."""
    out: list[Finding] = []
    for m in _SELF.finditer(ctx.text):
        s, e = m.span()
        mine = re.sub(r"^[Mm]y \(", "", m.group(0))  # "Jane Rowe, a mother of three": Jane's
        if ctx.is_masked(s, e) or _POSSESSIVE.search(mine) or beside_name(ctx.text, s, e):
            continue
        s0, _ = ctx.sentence_of(s)
        before = ctx.text[max(s0, s - 25) : s]
        if _CUES["other_helped"].search(before) or _CUES["other_before"].search(ctx.text[s0:s]):
            continue
        sex = "Male" if any(m.group(g) for g in ("m", "m2", "m3", "m4", "m5")) else "Female"
        out.append(rule("sex.self_description").find(sex, [ctx.ev(s, e)]))
    hits = [("sex.gendered_emoji", m) for m in _EMOJI_SEX.finditer(ctx.text)][:1]  # the first
    for rid, m in hits + [("sex.hashtag", m) for m in _CUES["hashtag"].finditer(ctx.text)]:
        sex = "Male" if (m.group("m") or m.group("m2")) else "Female"
        out.append(rule(rid).find(sex, [ctx.ev(*m.span())]))
    return out


def _opposite(sex: str) -> str:
    """The partner's sex guessed from one's own: 'Female' for 'Male', else 'Male'."""
    return "Female" if sex == "Male" else "Male"


def _author_guess(ctx: DocContext, author: Draft) -> str:
    """The writer's sex as this module guesses it without the partner cue: title, kin word or
    first name, then their own words, emoji and hashtags, else the 'Male' prior."""
    if sex := draft_prior_sex(author):
        return sex
    own = _author_self(ctx, author)
    return max(own, key=lambda f: f.certainty).keyword if own else "Male"


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    for m in d.mentions:
        if m.title and (sex := TITLES.get(m.title.lower().rstrip("."), "")):
            out.append(rule("sex.title").find(sex, [ctx.ev(m.start, m.start + len(m.title))]))
    for said in filter(None, (_CUES["described"].match(ctx.text, m.end) for m in d.mentions)):
        sex = "Male" if said["m"] else "Female"
        out.append(rule("sex.described").find(sex, [ctx.ev(said.start(), said.end())]))
    if (kin := lexicons.kin_words().get(d.kin)) and kin.sex:
        ev = [ctx.ev(m.start, m.end) for m in d.mentions if m.kind == "kin"][:1]
        out.append(rule("sex.kin_guess" if d.guess else "sex.kin").find(kin.sex, ev))
    if canonical_kin(d.kin) in {"spouse", "partner"} and d.anchor is not None:
        if anchor_sex := draft_prior_sex(d.anchor):
            out.append(rule("sex.spouse").find(_opposite(anchor_sex), []))
        elif d.anchor.is_author:
            # A masked writer: the opposite of the writer's own guess (their words, emoji, or
            # the prior), so the couple's two guesses stay consistent.
            other = _opposite(_author_guess(ctx, d.anchor))
            out.append(rule("sex.spouse_of_author_guess").find(other, []))
    pron = {
        sex: [
            ctx.ev(o + m.start(), o + m.end()) for m, o in segment_matches(ctx, d, rx, ("pronoun",))
        ]
        for sex, rx in (("Male", MALE_PRONOUN), ("Female", FEMALE_PRONOUN))
    }
    male, female = len(pron["Male"]), len(pron["Female"])
    if male or female:
        sex = "Male" if male >= female else "Female"
        cert = 4 if male != female else 2
        out.append(rule("sex.pronoun").find(sex, pron[sex][:3], certainty=cert))
    if (choice := subject_name(ctx, d)) is not None:
        census, world = census_name_sex(choice.name), world_name_sex(choice.name)
        if census or world:
            rule_id = "sex.first_name" if census else "sex.first_name_world"
            out.append(rule(rule_id).find(census or world, list(choice.evidence)))
    addressed = any(m.role == "recipient" for m in d.mentions)  # "Dear Ann," (you, your)
    for m in _CUES["pregnancy"].finditer(ctx.text) if d.is_author or addressed else []:
        if m["i" if d.is_author else "you"]:  # "your return from maternity leave"
            out.append(rule("sex.pregnancy").find("Female", [ctx.ev(*m.span())]))
    if d.is_author:
        out.extend(_author_self(ctx, d))
        for k in (x for x in ctx.drafts if x.anchor is d and x.kin):
            info = lexicons.kin_words().get(k.kin)
            partner = info and info.sex and info.relationship in {"Married", "In Relation"}
            if k.guess or not partner or info.relationship == "Married" != info.anchor_relationship:
                continue  # a guess from a masked word, in-laws, step-parents: no author's sex
            ev = [ctx.ev(m.start, m.end) for m in k.mentions if m.kind == "kin"][:1]
            out.append(rule("sex.partner").find(_opposite(info.sex), ev))
    if not d.kin and not d.is_author and not out:
        spouse = any(f.rule == "family.named_partner" for f in named_context(ctx, d))
        author = next((x for x in ctx.drafts if x.is_author), None)
        if spouse and author is not None:
            other = _opposite(_author_guess(ctx, author))
            out.append(rule("sex.spouse_of_author_guess").find(other, []))
    if not out and d.guess in {"mother", "father"}:  # 'my [PERSON] and [PERSON]' = Mum and Dad
        sex = "Female" if d.guess == "mother" else "Male"
        out.append(rule("sex.masked_parent_order").find(sex, []))
    if not out and not d.kin and (d.roles or d.is_author):
        out.append(rule("sex.prior").find("Male", []))
    return out
