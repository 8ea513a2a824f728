"""``python -m spia_core store check|repair|purge``: the results store and the LLM cache on disk.

``check`` runs SQLite's integrity check on both files and says what they hold; ``repair``
moves a damaged file aside (``*.damaged-<time>``) so that the next run starts a fresh one;
``purge`` deletes stored results and/or cached LLM answers (with ``--yes``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spia_core import sqlite_files

FILES = {"results": "results store", "cache": "LLM response cache"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "store",
        help="check, repair or purge the results store and the LLM response cache",
        description=(
            "The data directory holds results.sqlite3 (every audit and evaluation: texts, "
            "inferences, figures) and llm_cache.sqlite3 (LLM answers). check: integrity and "
            "contents; repair: move a damaged file aside so a fresh one is created; purge: "
            "delete them (needs --yes)."
        ),
    )
    p.add_argument("action", choices=("check", "repair", "purge"))
    p.add_argument(
        "--data-dir",
        type=Path,
        help="data directory (default: $SPIA_DATA_DIR or ./spia_data)",
    )
    p.add_argument(
        "--only",
        choices=tuple(FILES),
        help="only the results store or only the LLM cache (default: both)",
    )
    p.add_argument("--yes", action="store_true", help="purge without asking")
    p.set_defaults(func=run)


def paths(data_dir: Path | None) -> dict[str, Path]:
    """``results`` and ``cache`` file paths of a data directory."""
    from spia_core.llm.cache import CACHE_NAME
    from spia_core.store import DB_NAME, default_data_dir

    base = data_dir if data_dir is not None else default_data_dir()
    return {"results": base / DB_NAME, "cache": base / CACHE_NAME}


def _contents(name: str, path: Path) -> str:
    try:
        if name == "results":
            from spia_core.store import ResultStore

            with ResultStore(path.parent) as store:
                runs = store.list_runs()
            return f"{len(runs)} run(s), {sum(r.n_ok + r.n_failed for r in runs)} document row(s)"
        from spia_core.llm.cache import ResponseCache

        cache = ResponseCache(path)
        try:
            return f"{cache.stats().entries} cached answer(s)"
        finally:
            cache.close()
    except Exception as exc:  # the check already said it is damaged
        return f"unreadable ({exc})"


def run(args: argparse.Namespace) -> int:
    selected = {k: v for k, v in paths(args.data_dir).items() if args.only in (None, k)}
    if args.action == "check":
        bad = 0
        for name, path in selected.items():
            status = sqlite_files.check_file(path)
            bad += status.startswith("damaged")
            extra = f"; {_contents(name, path)}" if status.startswith("ok") else ""
            print(f"{FILES[name]} {path}: {status}{extra}")
        if bad:
            print(
                "run `python -m spia_core store repair` to move the damaged file(s) aside",
                file=sys.stderr,
            )
        return 1 if bad else 0
    if args.action == "repair":
        for name, path in selected.items():
            status = sqlite_files.check_file(path)
            if not status.startswith("damaged"):
                print(f"{FILES[name]} {path}: {status}, nothing to repair")
                continue
            moved = sqlite_files.set_aside(path)
            print(
                f"{FILES[name]} {path}: {status}; moved aside to "
                f"{', '.join(str(m) for m in moved)}; a fresh one is created on the next run"
            )
        return 0
    if not args.yes:
        for name, path in selected.items():
            files = ", ".join(map(str, sqlite_files.companions(path))) or "(none)"
            print(f"would delete the {FILES[name]}: {files}")
        print("nothing deleted: add --yes to purge", file=sys.stderr)
        return 2
    for name, path in selected.items():
        gone = sqlite_files.delete(path)
        print(f"deleted the {FILES[name]}: {', '.join(map(str, gone)) or '(nothing there)'}")
    return 0
