"""A light, typed view of one spaCy parse: what the local adversary's passes read of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Token:
    """One parsed token (character offsets, dependency label, head index, case)."""

    start: int
    end: int
    dep: str
    head: int  # index of the head token in the list
    lower: bool  # the token is written in lower case (a common word)


def tokens_of(doc: Any) -> list[Token]:
    """The tokens of a spaCy ``Doc`` (dependency labels are '' without a parser). Heads come
    from one array call: reading ``token.head`` per token builds a Python object each time."""
    import numpy as np

    heads = doc.to_array(["HEAD"]).astype(np.int64).reshape(-1) if len(doc) else []
    return [
        Token(t.idx, t.idx + len(t.text), t.dep_, i + int(heads[i]), t.text.islower())
        for i, t in enumerate(doc)
    ]
