"""Draft: a subject under construction, and the name comparisons drafts are merged by."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.mentions import Mention
from spia_core.adversary.local.names import complete_with_email, handle_name, name_sex
from spia_core.adversary.local.patterns import TITLES

if TYPE_CHECKING:
    from spia_core.adversary.local.attributes.codes import CodeHit


@dataclass
class Draft:
    """A subject under construction."""

    mentions: list[Mention] = field(default_factory=list)
    roles: dict[str, int] = field(default_factory=dict)  # role key -> ordinal (0 = none)
    kin: str = ""
    anchor: Draft | None = None
    is_author: bool = False
    tentative: bool = False  # a writer assumed where nobody was found (dropped if nothing is said)
    codes: list[CodeHit] = field(default_factory=list)
    child_index: int = 0
    child_count: int = 0
    alive: bool = True
    code_kind: str = ""  # a masked code's kind ("passport number"), for the description
    guess: str = ""  # a low-certainty relation read from a masked context ("mother")

    @property
    def first(self) -> int:
        return min((m.start for m in self.mentions), default=0)

    @property
    def names(self) -> list[Mention]:
        return [m for m in self.mentions if m.kind in {"name", "handle"} and m.name]

    @property
    def best_name(self) -> str:
        return max((m.name for m in self.names), key=lambda n: (len(n.split()), len(n)), default="")

    @property
    def title(self) -> str:
        return next((m.title for m in self.mentions if m.title), "")

    @property
    def title_sex(self) -> str:
        return TITLES.get(self.title.lower().rstrip("."), "")

    @property
    def identity(self) -> str:
        return next((m.identity for m in self.mentions if m.identity), "")


@functools.lru_cache(maxsize=65536)
def _tokens(name: str) -> tuple[str, ...]:
    return tuple(lexicons.fold(t).rstrip(".") for t in re.split(r"[\s\-]+", name) if t.strip("."))


@functools.lru_cache(maxsize=262144)
def names_compatible(a: str, b: str) -> bool:
    """True when two names can denote the same person ('Tomas Verhoef' / 'T. Verhoef' / 'Verhoef')."""  # noqa: E501
    ta, tb = _tokens(a), _tokens(b)
    if not ta or not tb:
        return False
    if ta == tb:
        return True
    if ta[-1] == tb[-1]:
        ga, gb = ta[:-1], tb[:-1]
        if not ga or not gb:
            return True
        x, y = ga[0], gb[0]
        return x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y))
    short, long_ = (ta, tb) if len(ta) < len(tb) else (tb, ta)
    return len(short) == 1 and len(short[0]) > 2 and short[0] == long_[0]


def _same_person(name: str, handle: str) -> bool:
    """A handle-derived name denotes this named person (all handle tokens, first name first)."""
    tn, th = _tokens(name), _tokens(handle)
    return bool(tn and th) and (th[0] == tn[0] if len(th) == 1 else tn == th)


def draft_name(d: Draft) -> tuple[str, int, Mention | None]:
    """(name, certainty, mention) from the subject's own names and handles; ('', 0, None)."""
    emails = [c.value for c in d.codes if c.tag == "EMAIL_ADDRESS"]
    if not (names := d.names):
        return "", 0, None
    if full := [m for m in names if m.kind == "name"]:
        best = max(full, key=lambda m: (len(m.name.split()), len(m.name)))
        value, cert = best.name, 5
    else:
        best = names[0]
        if not (value := handle_name(best.text)):
            return "", 0, None
        cert = 4 if " " in value else 3
    value = complete_with_email(value, emails) if " " not in value else value
    return value, cert, best


def draft_prior_sex(d: Draft) -> str:
    """Cheap sex guess used for pronoun resolution (title, kin word, first name)."""
    if d.title_sex:
        return d.title_sex
    if (kin := lexicons.kin_words().get(d.kin)) and kin.sex:
        return kin.sex
    name, _, _ = draft_name(d)
    return name_sex(name) if name else ""
