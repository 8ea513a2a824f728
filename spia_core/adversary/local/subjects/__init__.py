"""Stage A: find the subjects (one per person) and the mentions that refer to each.

Subject finding is a sequence of named passes (:data:`PASSES`) over one typed state
(:class:`~spia_core.adversary.local.subjects.state.SubjectState`): each pass reads the mentions
and drafts found so far and adds, links, merges or drops drafts. Pass ids (``subject.<name>``)
are the rule ids of subject decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spia_core.adversary.local.draft import Draft
from spia_core.adversary.local.parse import Token
from spia_core.adversary.local.subjects import author, codes, kin, masked, names, roles
from spia_core.adversary.local.subjects.state import _LIST_GAP, SubjectState

__all__ = ["PASSES", "_LIST_GAP", "Draft", "SubjectPass", "SubjectState", "find_subjects"]


@dataclass(frozen=True)
class SubjectPass:
    """One named step of subject finding."""

    id: str
    run: Callable[[SubjectState], None]
    explains: str
    legal_only: bool = False  # judgments only (counted co-accused, masked prosecutors)


PASSES: tuple[SubjectPass, ...] = (
    SubjectPass("subject.not_a_person", names.not_a_person, "places, firms, headers: no one"),
    SubjectPass("subject.masked_people", masked.masked_people, "placeholders in person slots"),
    SubjectPass("subject.cluster_names", names.cluster_names, "name variants of one person"),
    SubjectPass("subject.drop_weak_names", names.drop_weak_names, "NER 'names' that are words"),
    SubjectPass("subject.link_roles", roles.link_roles, "role phrases bound to their person"),
    SubjectPass("subject.role_nouns", roles.role_nouns, "'the employee': one person"),
    SubjectPass("subject.collectives", roles.collectives, "counted unnamed groups", True),
    SubjectPass("subject.masked_officials", roles.masked_officials, "masked prosecutors", True),
    SubjectPass("subject.author", author.link_author, "the writer of the text"),
    SubjectPass("subject.kin", kin.link_kin, "relatives bound to their possessor"),
    SubjectPass("subject.codes", codes.attach_codes, "each code's holder"),
    SubjectPass("subject.masked_code_holders", codes.masked_code_holders, "masked codes' holders"),
    SubjectPass("subject.article_author", author.article_author, "an article's writer"),
)


def _order(d: Draft) -> tuple[int, int]:
    lead = 0 if d.is_author or ("applicant" in d.roles and d.roles["applicant"] <= 1) else 1
    return (lead, d.first)


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
        if not p.legal_only or st.legal:
            p.run(st)
    if decisions is not None:
        decisions.extend(st.decisions)
    alive = [d for d in st.drafts if d.alive and (d.mentions or d.codes or d.is_author)]
    return sorted(alive, key=_order)
