"""The local adversary gives the same answer whatever Python's string-hash seed.

Sets of strings iterate in an order that changes with ``PYTHONHASHSEED`` (random per process by
default); a tie broken by that order made the same post a counsellor in one run and a lawyer in
the next. Each seed runs in its own process; seeds 1 and 4 disagreed before ties were ordered.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Invented posts whose trade words tie between several jobs.
TEXTS = [
    "Another long day of counselling. Three sessions back to back and I still have notes"
    " to write up.",
    "Spent the morning counselling two families, then a court hearing after lunch.",
    "Night shift on the ward again, twelve patients and one colleague off sick.",
]

_SCRIPT = """
import json, sys
from spia_core.adversary.registry import ADVERSARIES
adversary = ADVERSARIES.create("local")
out = []
for text in json.loads(sys.stdin.read()):
    subjects = adversary.infer(text).subjects
    out.append([[s.description, [[p.tag, p.keyword, p.certainty] for p in s.piis]]
                for s in subjects])
print(json.dumps(out))
"""


def _run(seed: int) -> list:
    env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        input=json.dumps(TEXTS),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)


def test_same_inferences_under_two_hash_seeds() -> None:
    first, second = _run(1), _run(4)
    assert first == second
    assert any(p[0] == "OCCUPATION" and p[1] for s in first[0] for p in s[1]), first[0]
