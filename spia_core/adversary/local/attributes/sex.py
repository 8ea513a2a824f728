"""SEX: honorifics, kin words, pronouns, first names."""

from __future__ import annotations

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.attributes import segment_matches
from spia_core.adversary.local.context import DocContext
from spia_core.adversary.local.evidence import Finding
from spia_core.adversary.local.patterns import FEMALE_PRONOUN, MALE_PRONOUN, TITLES
from spia_core.adversary.local.subjects import Draft


def name_sex(name: str) -> str:
    """'Male'/'Female' from the first given name, '' when unknown or ambiguous."""
    for tok in name.replace("_", " ").split():
        tok = tok.strip(".")
        if len(tok) > 1:
            return lexicons.first_names().get(lexicons.fold(tok), "")
    return ""


def draft_prior_sex(d: Draft) -> str:
    """Cheap sex guess used for pronoun resolution (title, kin word, first name)."""
    if d.title_sex:
        return d.title_sex
    kin = lexicons.kin_words().get(d.kin)
    if kin and kin.sex:
        return kin.sex
    return name_sex(d.best_name) if d.best_name else ""


def infer(ctx: DocContext, d: Draft) -> list[Finding]:
    out: list[Finding] = []
    for m in d.mentions:
        sex = TITLES.get(m.title.lower().rstrip("."), "") if m.title else ""
        if sex:
            out.append(
                Finding("SEX", sex, 5, 1, [ctx.ev(m.start, m.start + len(m.title))], "title")
            )
    kin = lexicons.kin_words().get(d.kin)
    if kin and kin.sex:
        k = next((m for m in d.mentions if m.kind == "kin"), None)
        ev = [ctx.ev(k.start, k.end)] if k else []
        out.append(Finding("SEX", kin.sex, 5, 1, ev, "kin"))
    if d.kin == "spouse" and d.anchor is not None:
        anchor_sex = draft_prior_sex(d.anchor)
        if anchor_sex:
            other = "Female" if anchor_sex == "Male" else "Male"
            out.append(Finding("SEX", other, 2, 3, [], "spouse"))
    male = female = 0
    ev_m, ev_f = [], []
    for m, off in segment_matches(ctx, d, MALE_PRONOUN, ("pronoun",)):
        male += 1
        ev_m.append(ctx.ev(off + m.start(), off + m.end()))
    for m, off in segment_matches(ctx, d, FEMALE_PRONOUN, ("pronoun",)):
        female += 1
        ev_f.append(ctx.ev(off + m.start(), off + m.end()))
    if male or female:
        sex, ev = ("Male", ev_m) if male >= female else ("Female", ev_f)
        out.append(Finding("SEX", sex, 4 if abs(male - female) >= 1 else 2, 2, ev[:3], "pronoun"))
    if d.best_name:
        sex = name_sex(d.best_name)
        if sex:
            nm = d.names[0]
            out.append(Finding("SEX", sex, 4, 2, [ctx.ev(nm.start, nm.end)], "first-name"))
    if d.is_author:
        for word, sex in (
            ("wife", "Male"),
            ("husband", "Female"),
            ("girlfriend", "Male"),
            ("boyfriend", "Female"),
        ):
            for k in (x for x in ctx.drafts if x.kin == word and x.anchor is d):
                km = next((m for m in k.mentions if m.kind == "kin"), None)
                ev = [ctx.ev(km.start, km.end)] if km else []
                out.append(Finding("SEX", sex, 3, 3, ev, "partner"))
    if not out and not d.kin and d.codes == [] and (d.roles or d.names or d.is_author):
        out.append(Finding("SEX", "Male", 1, 3, [], "prior"))
    return out
