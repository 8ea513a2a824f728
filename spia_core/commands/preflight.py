"""Checks a command makes BEFORE it starts work: outputs writable, datasets known.

Each returns an error message (for ``error: ...`` and exit 2) or None, so that a bad path is
reported in a second, not after a run has finished (and never as a traceback).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _writable_dir(path: Path, what: str) -> str | None:
    if path.exists() and not path.is_dir():
        return f"{what} {path} is an existing file, not a directory"
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".spia-write-check-"):
            pass
    except OSError as exc:
        return f"{what} {path} is not writable ({exc.strerror or exc})"
    return None


def check_out_dir(path: Path | None) -> str | None:
    """``--out DIR``: a directory that exists or can be created, and is writable."""
    return None if path is None else _writable_dir(path, "--out")


def check_data_dir(path: Path | None) -> str | None:
    """``--data-dir``: the store directory (default $SPIA_DATA_DIR or ./spia_data)."""
    from spia_core.store import default_data_dir

    return _writable_dir(path if path is not None else default_data_dir(), "--data-dir")


def check_out_file(path: Path | None, option: str = "--out") -> str | None:
    """``--out FILE``: not a directory, and its directory is writable."""
    if path is None:
        return None
    if path.is_dir():
        return f"{option} {path} is a directory; give a file name (e.g. {path / 'report.json'})"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{option} {path} is not writable"
    problem = _writable_dir(path.parent if str(path.parent) else Path("."), f"{option} directory")
    return problem


def check_dataset(name: str | None) -> str | None:
    """A bundled dataset name or an existing file."""
    from spia_core.datasets import BUNDLED

    if name is None or name in BUNDLED or Path(name).is_file():
        return None
    return f"dataset {name!r} is neither a bundled name ({', '.join(BUNDLED)}) nor an existing file"


def first_problem(*problems: str | None) -> str | None:
    """The first of several check results that is an error."""
    return next((p for p in problems if p), None)
