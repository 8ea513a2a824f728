"""A light, typed view of one spaCy parse: what the local adversary's passes read of it."""

from __future__ import annotations

from typing import Any, NamedTuple


class Token(NamedTuple):
    """One parsed token (character offsets, dependency label, head index, case)."""

    start: int
    end: int
    dep: str
    head: int  # index of the head token in the list
    lower: bool  # the token is written in lower case (a common word)


def tokens_of(doc: Any) -> list[Token]:
    """The tokens of a spaCy ``Doc`` (dependency labels are '' without a parser), read from two
    array calls: reading ``token.head`` or ``token.dep_`` per token builds Python objects."""
    from spacy.attrs import DEP, HEAD, IDX, IS_LOWER, LENGTH

    if not len(doc):
        return []
    rows = doc.to_array([IDX, LENGTH, HEAD, IS_LOWER]).astype("int64").tolist()
    deps = [doc.vocab.strings[d] if d else "" for d in doc.to_array(DEP).tolist()]
    pairs = enumerate(zip(rows, deps, strict=True))
    return [Token(i, i + n, dep, k + head, bool(low)) for k, ((i, n, head, low), dep) in pairs]
