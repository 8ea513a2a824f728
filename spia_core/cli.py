"""Command-line entry: ``python -m spia_core <command> ...``.

Each command lives in its own module under ``spia_core.commands`` and exposes
``add_parser(subparsers)`` (which sets ``func``) ; this file only wires them together.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

#: Command modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "audit",
    "check",
    "score",
    "span",
    "evaluate",
    "bench",
    "tria",
    "store",
)


def _prog() -> str:
    """``spia-audit`` when run as the installed console script, else ``python -m spia_core``."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "spia-audit" if name.startswith("spia-audit") else "python -m spia_core"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_prog(),
        description="SPIA Audit: subject-level privacy evaluation of anonymized text.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"spia_core.commands.{name}")
        except ModuleNotFoundError as exc:  # a command not built yet
            if exc.name != f"spia_core.commands.{name}":
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from spia_core.sqlite_files import DamagedFileError

    try:
        return int(args.func(args) or 0)
    except DamagedFileError as exc:  # a damaged store or cache: path and way out, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
