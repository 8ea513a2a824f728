"""AFFILIATION from volunteering, coaching, membership and long service (invented sentences)."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


@pytest.mark.parametrize(
    ("post", "org"),
    [
        ("I volunteered at the Greyfield Library all summer.", "Greyfield Library"),
        ("I've coached the under-10s at Millbrook Rovers for years.", "Millbrook Rovers"),
        ("I'm a trustee of the Calder Valley Trust.", "Calder Valley Trust"),
        ("I sit on the board of the Northgate Credit Union.", "Northgate Credit Union"),
        ("After 9 years with Halvorsen Freight I am moving on.", "Halvorsen Freight"),
    ],
)
def test_the_writers_organisation(adversary: LocalAdversary, post: str, org: str) -> None:
    author = adversary.infer(post).subjects[0]
    found = next(p for p in author.piis if p.tag == "AFFILIATION")
    assert (found.keyword, found.certainty >= 3) == (org, True)  # a stated tie, not a guess


def test_a_jury_or_a_family_is_no_organisation(adversary: LocalAdversary) -> None:
    for post in ("I was one of the members of the jury.", "I'm a member of a big family."):
        author = adversary.infer(post).subjects[0]
        assert not any(p.keyword for p in author.piis if p.tag == "AFFILIATION")
