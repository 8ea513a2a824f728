"""A corpus of redacted documents generated from templates written for these tests.

No dataset text: the templates, names and figures below were written for this purpose. A
document with a leaked phone number or e-mail address (``leak=True``) carries a direct
identifier; the others keep only placeholders and generic facts.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from spia_core.scale.check import CheckWorker

OPENINGS = (
    "[PERSON] contacted the [ORG] helpdesk on [DATETIME] about a delayed refund.",
    "The tenant, [PERSON], reported a leaking roof at the flat in [LOC] on [DATETIME].",
    "Minutes of the parish meeting held in [LOC] on [DATETIME], chaired by [PERSON].",
    "A complaint was lodged by [PERSON] against the [ORG] depot in [LOC].",
    "Dear [PERSON], thank you for your letter of [DATETIME] regarding the planning notice.",
)
MIDDLES = (
    "She explained that she works as a pharmacist and lives alone.",
    "He said he had been a bus driver for [QUANTITY] years before retiring.",
    "The committee noted that the road resurfacing budget was approved.",
    "They stated that their daughter attends the local primary school.",
    "The caller mentioned moving from [LOC] after finishing a nursing degree.",
    "No further details about the household were recorded.",
    "The officer confirmed that the inspection was rescheduled to [DATETIME].",
)
CLOSINGS = (
    "The case was closed without further action.",
    "A follow-up visit has been arranged.",
    "The request was forwarded to the housing team.",
    "Members agreed to revisit the matter at the next meeting.",
)
LEAKS = (
    "Please call back on 07700 900{n:03d}.",
    "Replies can be sent to case{n}@example.org.",
)


def document(i: int, rng: random.Random) -> tuple[str, bool]:
    """The i-th document's text and whether it leaks a direct identifier."""
    parts = [rng.choice(OPENINGS), *rng.sample(MIDDLES, 2), rng.choice(CLOSINGS)]
    leak = i % 5 == 0
    if leak:
        parts.insert(2, rng.choice(LEAKS).format(n=i % 1000))
    return " ".join(parts), leak


def write_corpus(folder: Path, n: int, *, seed: int = 17) -> dict[str, bool]:
    """``n`` documents: .txt files in two sub-folders and one JSONL file; id -> leaks."""
    rng = random.Random(seed)
    leaks: dict[str, bool] = {}
    records = []
    for i in range(n):
        text, leak = document(i, rng)
        if i % 4 == 3:
            records.append({"id": f"r{i:04d}", "text": text})
            leaks[f"batch.jsonl#r{i:04d}"] = leak
            continue
        sub = folder / ("letters" if i % 2 else "notes")
        sub.mkdir(parents=True, exist_ok=True)
        ext = ".md" if i % 7 == 0 else ".txt"
        (sub / f"doc{i:04d}{ext}").write_text(text + "\n", encoding="utf-8")
        leaks[f"{sub.name}/doc{i:04d}{ext}"] = leak
    with (folder / "batch.jsonl").open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record) + "\n")
    return leaks


class DiesOnce(CheckWorker):
    """A check worker whose process dies the first time it meets one document (a lost node).

    Lives here, not in a test module, so that Ray workers can import it by name.
    """

    def __call__(self, item: Any) -> dict[str, Any]:
        marker = Path(self.out_dir) / "killed-once"
        if item.data_id.endswith("0004.txt") and not marker.exists():
            marker.write_text(str(os.getpid()))
            os._exit(1)
        return super().__call__(item)
