"""Job titles of the widened SOC-based taxonomy and the field-of-work reading (issue 16 item 3).
Invented sentences only."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


def _author(post: str, tag: str) -> str:
    author = LocalAdversary().infer(post).subjects[0]
    return next((p.keyword for p in author.piis if p.tag == tag and p.keyword), "")


@pytest.mark.parametrize(
    ("post", "job"),
    [
        ("I've spent eleven years as a proofreader and I still love a clean page.", "Proofreader"),
        ("I work as a tree surgeon, so storms keep me busy.", "Tree surgeon"),
        ("I am a supply teacher in two schools this term.", "Supply teacher"),
        ("I'm a loss adjuster, and floods are my busy season.", "Loss adjuster"),
        ("I have been a panel beater for most of my life.", "Panel beater"),
    ],
)
def test_titles_of_the_second_taxonomy_part_are_jobs(post: str, job: str) -> None:
    assert _author(post, "OCCUPATION") == job


def test_a_rank_before_a_new_title_is_the_position() -> None:
    post = "These days I'm the lead proofreader for a team of four."
    assert _author(post, "OCCUPATION") == "Proofreader"
    assert _author(post, "POSITION") == "Lead proofreader"
