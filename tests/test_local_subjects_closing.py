"""A letter closed with 'Love,' or 'Take care,' is signed by its writer (invented texts)."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


@pytest.mark.parametrize("closing", ["With love,", "Love,", "Take care,"])
def test_a_name_under_a_warm_closing_is_the_writer(closing: str) -> None:
    text = f"Dear Tess,\n\nThe parcel came today and the scarf is perfect.\n\n{closing}\nGreta"
    described = [s.description for s in LocalAdversary().infer(text).subjects]
    assert any(d.startswith("Greta - author of the text") for d in described), described
