"""Stage A: find the subjects (one per person) and the mentions of each, by a sequence of named
passes (:data:`PASSES`, ids ``subject.<name>``: the rule ids of subject decisions) over one
typed state (:class:`~spia_core.adversary.local.subjects.state.SubjectState`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import spia_core.adversary.local.rules as rules
from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.parse import Token
from spia_core.adversary.local.subjects import author, codes, kin, masked, names, roles
from spia_core.adversary.local.subjects.state import SubjectState

__all__ = ["PASSES", "Draft", "SubjectPass", "SubjectState", "find_subjects"]


@dataclass(frozen=True)
class SubjectPass:
    """One named step of subject finding; registered as a SUBJECT rule of the same id (what it
    reads, its explanation and invented examples are in the rule table)."""

    id: str
    run: Callable[[SubjectState], None]
    #: "all"; "legal": judgments only (masked prosecutors); "post":
    #: texts with a writer that are no judgment (the writer's relatives and contacts).
    scope: str = "all"

    @property
    def explains(self) -> str:
        return rules.rule(self.id).explains


PASSES: tuple[SubjectPass, ...] = (
    SubjectPass("subject.not_a_person", names.not_a_person),
    SubjectPass("subject.masked_people", masked.masked_people),
    SubjectPass("subject.cluster_names", names.cluster_names),
    SubjectPass("subject.drop_weak_names", names.drop_weak_names),
    SubjectPass("subject.link_roles", roles.link_roles),
    SubjectPass("subject.role_nouns", roles.role_nouns),
    SubjectPass("subject.masked_officials", roles.masked_officials, "legal"),
    SubjectPass("subject.author", author.link_author),
    SubjectPass("subject.self_intro_mask", author.self_intro_mask),
    SubjectPass("subject.pronoun_person", roles.pronoun_person),
    SubjectPass("subject.kin", kin.link_kin),
    SubjectPass("subject.married_to", kin.married_to),
    SubjectPass("subject.life_with", kin.life_with, "post"),
    SubjectPass("subject.masked_parents", kin.masked_parents, "post"),
    SubjectPass("subject.masked_counts", kin.masked_counts),
    SubjectPass("subject.masked_parent_list", kin.masked_parent_list, "post"),
    SubjectPass("subject.implied_spouse", kin.implied_spouse),
    SubjectPass("subject.codes", codes.attach_codes),
    SubjectPass("subject.masked_code_holders", codes.masked_code_holders),
    SubjectPass("subject.article_author", author.article_author),
)


def _in_scope(p: SubjectPass, st: SubjectState) -> bool:
    if p.scope == "legal":
        return st.legal
    return p.scope == "all" or (not st.legal and st.author is not None)


def _order(d: Draft) -> tuple[int, int]:
    return (0 if d.is_author or d.roles.get("applicant", 2) <= 1 else 1, d.first)


def find_subjects(
    text: str,
    ents: list[tuple[int, int, str]],
    masks,
    tokens: list[Token] | None = None,
    *,
    decisions: list[tuple[str, int, int, str]] | None = None,
) -> list[Draft]:
    """Stage A: the subjects of ``text`` (applicant or author first, then by first mention).
    ``tokens`` (a parse view) lets passes read dependencies; ``decisions`` collects why each
    candidate was kept out (pass id, start, end, reason)."""
    st = SubjectState(text, ents, masks, tokens)
    for p in PASSES:
        if _in_scope(p, st) and rules.enabled(p.id):
            p.run(st)
    if decisions is not None:
        decisions.extend(st.decisions)
    alive = [d for d in st.drafts if d.alive and (d.mentions or d.codes or d.is_author)]
    if not alive and st.english and not st.legal:  # "Proud Scot, living in ...": a writer, kept
        alive = [Draft(is_author=True, tentative=True)]  # if the audit counts a fact (adversary)
    return sorted(alive, key=_order)
