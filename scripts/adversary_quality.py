"""Measure the local adversary (a thin wrapper of ``python -m spia_core bench adversary``).

Usage: python scripts/adversary_quality.py [--dataset TAB-144] [--half dev|test|all]
       [--limit N] [--no-masked] [--tags] [--json out.json]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spia_core.cli import main

if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--sets" in argv:  # old spelling: --sets tab,panorama
        i = argv.index("--sets")
        names = {"tab": "TAB-144", "panorama": "PANORAMA-151"}
        sets = [names.get(s.strip().lower(), s.strip()) for s in argv[i + 1].split(",")]
        argv = argv[:i] + argv[i + 2 :] + (["--dataset", sets[0]] if len(sets) == 1 else [])
    raise SystemExit(main(["bench", "adversary", *argv]))
