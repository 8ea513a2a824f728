"""A writer who speaks as an older person has grown-up children (invented sentences)."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


def _child_values(adversary: LocalAdversary, text: str) -> dict[str, str]:
    child = next(s for s in adversary.infer(text).subjects if "daughter" in s.description.lower())
    return {p.tag: p.keyword for p in child.piis if p.keyword and p.tag in ("AGE", "OCCUPATION")}


@pytest.mark.parametrize(
    "text",
    [
        "Since I retired from the railway we finally visit our daughter in Perth every winter.",
        "After 32 years nursing I have handed in my notice. Our daughter threw me a party.",
        "Thirty years married today! Our daughter booked us a table at the harbour.",
    ],
)
def test_an_older_writers_daughter_gets_no_child_guess(
    adversary: LocalAdversary, text: str
) -> None:
    values = _child_values(adversary, text)
    assert "AGE" not in values and values.get("OCCUPATION") != "Unemployed"


def test_a_young_family_still_gets_the_child_guess(adversary: LocalAdversary) -> None:
    text = "My dad retired last week, so our daughter made him a card with glitter everywhere."
    assert _child_values(adversary, text) == {"AGE": "3-12", "OCCUPATION": "Unemployed"}
