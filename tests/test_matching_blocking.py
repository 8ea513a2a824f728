"""Blocking in the local matcher: the same assignment as scoring every pair, fewer pairs."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_matching import load_gt, relabel, without_descriptions, without_names

from spia_core.evaluation.matching import LocalMatcher, candidate_pairs, subject_similarity
from spia_core.model import PII, Subject


def _pairs(matcher: LocalMatcher, gt: list[Subject], pred: list[Subject]) -> list[tuple]:
    return [(p.gt_subject_id, p.pred_subject_id) for p in matcher.match(gt, pred).pairs]


@pytest.mark.parametrize("name", ["tab", "panorama"])
def test_blocking_never_drops_a_pair_that_reaches_the_bar(
    name: str, tab_gt_path: Path, panorama_gt_path: Path
) -> None:
    docs = load_gt(tab_gt_path if name == "tab" else panorama_gt_path)
    blocked, full = LocalMatcher(), LocalMatcher(blocking=False)
    kept = total = 0
    for k, (_, gt) in enumerate(docs):
        others = [
            relabel(without_names(gt))[0],
            relabel(without_descriptions(gt))[0],
            docs[(k + 1) % len(docs)][1],
        ]
        for pred in others:
            keep = candidate_pairs(gt, pred, blocked.min_similarity)
            for i, g in enumerate(gt):
                for j, p in enumerate(pred):
                    if not keep[i, j]:
                        assert subject_similarity(g, p).value < blocked.min_similarity
            kept, total = kept + int(keep.sum()), total + keep.size
            assert _pairs(blocked, gt, pred) == _pairs(full, gt, pred)
    assert kept < total  # blocking does leave pairs out


def test_blocking_links_namesakes_initials_and_near_spellings() -> None:
    def person(i: int, name: str, desc: str = "") -> Subject:
        return Subject(i, desc, [PII("NAME", name, 5, 1)])

    gt = [person(0, "Katharine Holloway"), person(1, "J. R. Pennock"), person(2, "Orla Varley")]
    pred = [person(10, "Katherine Holloway"), person(11, "J R Pennock"), person(12, "Zed Upton")]
    keep = candidate_pairs(gt, pred, 0.4)
    assert keep[0, 0] and keep[1, 1]
    assert not keep[2, 2]  # nothing shared: not compared
    assert _pairs(LocalMatcher(), gt, pred) == _pairs(LocalMatcher(blocking=False), gt, pred)


def test_large_inputs_are_blocked_with_the_same_assignment() -> None:
    """60 x 60 invented people (names, roles, values drawn at random): blocking applies and the
    assignment equals all-pairs scoring."""
    import random

    from spia_core.evaluation.matching import BLOCKING_MIN_PAIRS

    rng = random.Random(5)
    first = ["Ada", "Bruno", "Celia", "Dario", "Edith", "Farid", "Greta", "Ines", "Jonas"]
    last = ["Ashdown", "Bellamy", "Carrow", "Dunmore", "Fenwick", "Garside", "Ingram"]
    roles = ["the applicant", "a witness", "her lawyer", "the author", "a neighbour", "his son"]
    towns = ["Ambleford", "Bexcombe", "Caddow", "Dunmere"]

    def person(i: int) -> Subject:
        piis = [
            PII("LOCATION", rng.choice(towns), 3, 1),
            PII("AGE", str(rng.randint(20, 80)), 3, 1),
        ]
        if rng.random() < 0.7:
            piis.append(PII("NAME", f"{rng.choice(first)} {rng.choice(last)}", 5, 1))
        return Subject(i, f"{rng.choice(roles)} - {rng.choice(['tall', 'retired', 'new'])}", piis)

    gt = [person(i) for i in range(60)]
    pred = [person(100 + i) for i in range(60)]
    assert len(gt) * len(pred) >= BLOCKING_MIN_PAIRS
    keep = candidate_pairs(gt, pred, 0.4)
    assert 0 < keep.sum() < keep.size
    assert _pairs(LocalMatcher(), gt, pred) == _pairs(LocalMatcher(blocking=False), gt, pred)
