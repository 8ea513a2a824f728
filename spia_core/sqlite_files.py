"""Opening the project's SQLite files (results store, LLM response cache) safely.

Each file carries a schema version (``PRAGMA user_version``) and is checked at open
(``PRAGMA quick_check``). A truncated, garbled or newer-than-known file raises
:class:`DamagedFileError` with the path and what to do, never a bare ``sqlite3.DatabaseError``.
:func:`set_aside` moves a damaged file (and its WAL/SHM companions) out of the way so that a
fresh one can be created: the ``store repair`` command.
"""

from __future__ import annotations

import datetime as _dt
import sqlite3
from collections.abc import Callable
from pathlib import Path

#: Companion files SQLite keeps next to a database in WAL mode.
SUFFIXES = ("", "-wal", "-shm")


class DamagedFileError(RuntimeError):
    """A SQLite file of ours that cannot be used (message has the path and the way out)."""

    def __init__(self, path: Path, what: str, problem: str) -> None:
        self.path = path
        super().__init__(
            f"{what} {path} cannot be used: {problem}. Check it with "
            f"`python -m spia_core store check --data-dir {path.parent}`; "
            f"`python -m spia_core store repair --data-dir {path.parent}` moves it aside and "
            "starts a fresh one, `store purge` deletes it."
        )


def companions(path: Path) -> list[Path]:
    """The database file and its WAL/SHM files (those that exist)."""
    return [p for p in (Path(f"{path}{s}") for s in SUFFIXES) if p.exists()]


def open_checked(
    path: Path,
    *,
    what: str,
    version: int,
    migrate: Callable[[sqlite3.Connection, int], None],
    row_factory: bool = False,
) -> sqlite3.Connection:
    """Connect, check integrity and the schema version, create or migrate the schema.

    ``migrate(conn, found_version)`` brings a file from ``found_version`` (0 = new or made
    before versioning) to ``version``; the version is then recorded.
    """
    try:
        conn = sqlite3.connect(path, check_same_thread=False, timeout=30)
    except sqlite3.Error as exc:
        raise DamagedFileError(path, what, f"it cannot be opened ({exc})") from None
    try:
        if row_factory:
            conn.row_factory = sqlite3.Row
        status = conn.execute("PRAGMA quick_check").fetchone()[0]
        if status != "ok":
            raise DamagedFileError(path, what, f"the integrity check failed ({status})")
        found = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if found > version:
            raise DamagedFileError(
                path,
                what,
                f"it has schema version {found}, newer than this program knows ({version}); "
                "update the program or use another --data-dir",
            )
        conn.execute("PRAGMA journal_mode=WAL")
        if found < version:
            migrate(conn, found)
            conn.execute(f"PRAGMA user_version={int(version)}")
        conn.commit()
    except DamagedFileError:
        conn.close()
        raise
    except sqlite3.DatabaseError as exc:  # "file is not a database", "malformed" ...
        conn.close()
        raise DamagedFileError(path, what, f"it is damaged or not SQLite ({exc})") from None
    return conn


def check_file(path: Path) -> str:
    """``ok``, ``missing`` or the problem found by ``quick_check`` (never raises)."""
    if not path.exists():
        return "missing"
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            status = str(conn.execute("PRAGMA quick_check").fetchone()[0])
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return f"damaged: {exc}"
    return f"ok (schema version {version})" if status == "ok" else f"damaged: {status}"


def set_aside(path: Path) -> list[Path]:
    """Rename the file and its companions to ``*.damaged-<UTC time>``; the new names."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S")
    moved = []
    for file in companions(path):
        target = file.with_name(f"{file.name}.damaged-{stamp}")
        file.rename(target)
        moved.append(target)
    return moved


def delete(path: Path) -> list[Path]:
    """Delete the file and its companions; the paths deleted."""
    gone = companions(path)
    for file in gone:
        file.unlink()
    return gone
