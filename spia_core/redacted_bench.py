"""``bench redacted``: speed of the redacted-only audit on documents of a chosen length.

The documents are built from short passages written for this benchmark (letters, notes,
minutes, posts; no dataset text), each naming one or two people drawn from a small invented
name list, with part of the names masked by placeholders of several styles. A long document
is a concatenation of such passages, so it has many people, as a long case file does.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

_FIRST = [
    "Ada",
    "Bruno",
    "Celia",
    "Dario",
    "Edith",
    "Farid",
    "Greta",
    "Hamish",
    "Ines",
    "Jonas",
    "Kirsty",
    "Lionel",
    "Maeve",
    "Nikhil",
    "Orla",
    "Piers",
    "Quentin",
    "Rosalind",
    "Soren",
    "Tamsin",
    "Ulric",
    "Vera",
    "Wilfred",
    "Yasmin",
    "Zoltan",
]
_LAST = [
    "Ashdown",
    "Bellamy",
    "Carrow",
    "Dunmore",
    "Elswick",
    "Fenwick",
    "Garside",
    "Holloway",
    "Ingram",
    "Jessop",
    "Kettley",
    "Lowther",
    "Marchbank",
    "Northey",
    "Ormerod",
    "Pennock",
    "Quarmby",
    "Rudd",
    "Scarlett",
    "Thursby",
    "Upton",
    "Varley",
    "Whitlock",
    "Yelland",
]
_MASKS = ("[REDACTED]", "[PERSON]", "<PERSON>", "***", "XXX", "█████")

#: Passages: {a}/{b} are people, {age} a number, {town} a town; written for this benchmark.
_PASSAGES = (
    "Dear {a},\nThank you for your letter of last week. I am sorry to hear that your "
    "mother has been unwell again. {b} from the surgery will call you on Tuesday about the "
    "appointment, and she asked me to say that the test results were normal.\n",
    "Note for file: {a} ({age}) came to the front desk this morning asking about the "
    "parking permit for {town}. He works nights at the bakery on the ring road and cannot "
    "collect letters before noon. I told him {b} would ring back.\n",
    "Minutes, item 4. {a} reported that the hall roof was repaired by {b}'s firm at cost. "
    "She thanked the volunteers and reminded members that the summer fair will be held in "
    "{town} this year. The treasurer will circulate accounts.\n",
    "Posted by {a}: Just moved to {town} with my husband and our two boys. I teach maths "
    "part time and I am {age} next month. Does anyone know a good dentist? My neighbour "
    "{b} recommended one but it closed.\n",
    "Reference: I have known {a} for six years, first as a student nurse and later as a "
    "ward sister at the hospital in {town}. She is calm under pressure. Her colleague {b} "
    "will confirm the dates of her employment.\n",
    "Incident log: at about 9 pm {a}, aged {age}, reported that his bicycle had been taken "
    "from outside the library. A witness, {b}, saw a man in a grey coat riding towards the "
    "station. No further action at this stage.\n",
)
_TOWNS = ("Ambleford", "Bexcombe", "Caddow", "Dunmere", "Elsworth", "Farrowby", "Glenmire")


def build_document(n_chars: int, *, mask_share: float = 0.5, seed: int = 0) -> str:
    """A document of about ``n_chars`` characters (never more) of invented passages.

    About ``mask_share`` of the person names are replaced by a placeholder.
    """
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while True:
        names = []
        for _ in range(2):
            name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
            names.append(rng.choice(_MASKS) if rng.random() < mask_share else name)
        passage = rng.choice(_PASSAGES).format(
            a=names[0], b=names[1], age=rng.randint(19, 88), town=rng.choice(_TOWNS)
        )
        if size + len(passage) + 1 > n_chars:
            break
        parts.append(passage)
        size += len(passage) + 1
    return "\n".join(parts)


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _timed_cpu(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds of this process, result): on a shared machine the CPU time
    says what the work costs, the wall time what a user waited."""
    c0 = time.process_time()
    wall, out = _timed(fn)
    return wall, time.process_time() - c0, out


def bench_redacted(args: Any) -> dict[str, Any]:
    """Median redacted-only audit time of a 4k-character document, one 200k-character audit
    with its stage progress, and the local matcher on the long document (all offline)."""
    from spia_core.pipeline import AuditConfig, audit_redacted, build_components

    config = AuditConfig()
    components = build_components(config)
    warm, _ = _timed(
        lambda: audit_redacted(build_document(4000, seed=99), config, components=components)
    )
    small = [build_document(4000, seed=s) for s in range(args.timing_docs or 20)]
    timed = [
        _timed_cpu(lambda d=d: audit_redacted(d, config, components=components)) for d in small
    ]
    walls, cpus = [t[0] for t in timed], [t[1] for t in timed]
    long_chars = getattr(args, "chars", None) or 200_000
    long_doc = build_document(long_chars, seed=7)
    stages: list[tuple[str, float]] = []
    t0 = time.perf_counter()

    def progress(stage: str, fraction: float, counts: dict[str, Any] | None = None) -> None:
        at = round(time.perf_counter() - t0, 2)
        if stage not in dict(stages):
            stages.append((stage, at))
        done = f" ({counts['unit']} {counts['done']} of {counts['total']})" if counts else ""
        print(f"  [{fraction:4.0%}] {stage}{done} at {at:.1f} s", flush=True)

    long_s, long_cpu, report = _timed_cpu(
        lambda: audit_redacted(long_doc, config, components=components, on_stage=progress)
    )
    return {
        "warmup_s": round(warm, 3),
        "small_chars": statistics.median(len(d) for d in small),
        "small_n_docs": len(small),
        "small_median_s": round(statistics.median(walls), 3),
        "small_max_s": round(max(walls), 3),
        "small_cpu_median_s": round(statistics.median(cpus), 3),
        "long_chars": len(long_doc),
        "long_s": round(long_s, 2),
        "long_cpu_s": round(long_cpu, 2),
        "long_subjects": len(report.inferred_subjects),
        "long_stage_starts_s": dict(stages),
        "long_stage_s": {k: round(v, 2) for k, v in report.timings.items()},
        "matching": bench_matching(long_doc),
        "targets": {"small_median_s": 1.0, "long_s": 60.0},
    }


def bench_matching(text: str) -> dict[str, Any]:
    """The local matcher on a long document: GT = the adversary on the unmasked text, inferred
    = the adversary on the masked text; blocked versus all-pairs (same assignment?)."""
    from spia_core.evaluation.matching import LocalMatcher
    from spia_core.pipeline import AuditConfig, build_adversary

    adversary = build_adversary(AuditConfig())
    plain = text
    for mask in _MASKS:
        plain = plain.replace(mask, "Morwenna Pike")
    gt = adversary.infer(plain).subjects
    pred = adversary.infer(text).subjects
    from spia_core.evaluation.matching import candidate_pairs

    kept = int(candidate_pairs(gt, pred, LocalMatcher().min_similarity).sum())
    out: dict[str, Any] = {
        "gt_subjects": len(gt),
        "inferred_subjects": len(pred),
        "pairs_scored_blocked": kept,
        "pairs_scored_all": len(gt) * len(pred),
    }
    results = {}
    for label, blocking in (("blocked", True), ("all_pairs", False)):
        matcher = LocalMatcher(blocking=blocking)
        seconds, assignment = _timed(
            lambda m=matcher: m.match(gt, pred, original_text=plain, anonymized_text=text)
        )
        out[f"{label}_s"] = round(seconds, 3)
        results[label] = [(p.gt_subject_id, p.pred_subject_id) for p in assignment.pairs]
    out["identical_assignment"] = results["blocked"] == results["all_pairs"]
    return out
