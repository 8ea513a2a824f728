"""What a result depends on: a content hash of the code and data that decide the figures.

The package version stays the same across commits that change figures, so a run's identity
uses :func:`code_fingerprint` instead: a sha256 over the engine's source, its prompts, the
lexicons and data it reads, the model catalog and the installed spaCy model versions.
Presentation-only modules (dashboard helpers, CLI wiring, exports) are left out, so that a
change of wording in a report does not make every stored run unresumable.
:func:`input_sha256` identifies the input a stored document result was computed from.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
from pathlib import Path
from typing import Any

from spia_core import paths

PACKAGE = Path(__file__).resolve().parent
#: Data read by the engine (relative to the bundled data folder, ``paths.DATA_DIR``, in a
#: checkout or inside the wheel); missing ones are skipped.
DATA = ("lexicons", "rules", "models.json", "benchmarks")
#: Modules that only present or transport results (never change a figure).
PRESENTATION = frozenset(
    {
        "cli.py",
        "__main__.py",
        "charts.py",
        "render.py",
        "report_export.py",
        "service.py",
        "store.py",
        "sqlite_files.py",
        "identity.py",
    }
)
PRESENTATION_DIRS = frozenset({"commands"})
#: Distributions whose version changes what is inferred.
DISTRIBUTIONS = ("spacy", "en_core_web_sm", "en_core_web_md", "en_core_web_lg", "presidio-analyzer")


def _files() -> list[tuple[str, Path]]:
    """(stable name, path) of every file that can change a figure: the same names in a
    checkout and in an installed wheel."""
    files = [
        (f"spia_core/{p.relative_to(PACKAGE).as_posix()}", p)
        for p in PACKAGE.rglob("*")
        if p.is_file()
        and p.suffix in (".py", ".txt", ".json")
        and not {"__pycache__", "_data"}.intersection(p.relative_to(PACKAGE).parts)
        and p.name not in PRESENTATION
        and not PRESENTATION_DIRS.intersection(p.relative_to(PACKAGE).parts[:-1])
    ]
    for item in DATA:
        path = paths.DATA_DIR / item
        found = [path] if path.is_file() else sorted(path.rglob("*")) if path.is_dir() else []
        files.extend(
            (f"data/{p.relative_to(paths.DATA_DIR).as_posix()}", p) for p in found if p.is_file()
        )
    return sorted(files)


def _versions() -> dict[str, str]:
    found = {}
    for name in DISTRIBUTIONS:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


@functools.cache
def code_fingerprint() -> str:
    """sha256 (hex) of the engine source, prompts, data files and model versions."""
    digest = hashlib.sha256()
    for name, path in _files():
        digest.update(name.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(json.dumps(_versions(), sort_keys=True).encode("utf-8"))
    return digest.hexdigest()


def input_sha256(data_id: str, text: str, extra: Any = None) -> str:
    """sha256 of one document's input: its id, its text and anything else that decides it."""
    payload = json.dumps([data_id, text, extra], ensure_ascii=True, sort_keys=True, default=str)
    return hashlib.sha256(payload.encode("ascii")).hexdigest()
