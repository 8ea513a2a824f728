"""Find the documents of ``check``: files, folders and globs of .txt, .md, .docx, .pdf, .jsonl.

A folder is searched recursively (hidden folders skipped); a JSONL file holds one document per
line as ``{"id": ..., "text": ...}``. Every document gets a stable id (its path relative to the
folder given, or the path as given; ``FILE#ID`` for a JSONL record) and the SHA-256 of its input,
which is what resuming compares. Nothing is extracted here: workers read the files.
"""

from __future__ import annotations

import glob
import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from spia_core.textio import SUPPORTED_EXTENSIONS

#: File types ``check`` reads (the audit upload types plus JSONL of {id, text}).
CHECK_EXTENSIONS: tuple[str, ...] = (*SUPPORTED_EXTENSIONS, ".jsonl")
_GLOB_CHARS = frozenset("*?[")


class DiscoveryError(ValueError):
    """A path that names nothing, or documents that cannot be told apart (exit code 2)."""


@dataclass(frozen=True)
class CheckInput:
    """One document to check: where it comes from and, for JSONL records, its text."""

    data_id: str
    source: str  # the file path
    sha256: str
    text: str | None = None  # JSONL records carry their text; files are read by the worker
    error: str = ""  # a record that cannot be used (bad JSON, no text)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _jsonl_record(line: str, where: str, file_id: str, path: Path) -> CheckInput:
    """One JSONL line as an input (an error input when it is not a {id, text} object)."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        return CheckInput(where, str(path), _sha(line.encode()), None, f"bad JSON: {exc.msg}")
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        msg = 'not a {"id": ..., "text": "..."} object'
        return CheckInput(where, str(path), _sha(line.encode()), None, msg)
    rid = record.get("id", record.get("data_id"))
    data_id = f"{file_id}#{rid}" if rid not in (None, "") else where
    text = record["text"]
    return CheckInput(data_id, str(path), _sha(text.encode("utf-8", "surrogatepass")), text)


def _jsonl_inputs(path: Path, file_id: str) -> list[CheckInput]:
    """Every record of a JSONL file; a repeated id makes that later record an error input
    (named by its line) so the other records are still checked."""
    out: list[CheckInput] = []
    first_line: dict[str, int] = {}
    raw = path.read_bytes()
    for n, line in enumerate(raw.decode("utf-8", errors="replace").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{file_id}#line{n}"
        item = _jsonl_record(line, where, file_id, path)
        if item.data_id in first_line:
            rid = item.data_id.removeprefix(f"{file_id}#")
            msg = (
                f"the id {rid!r} is also on line {first_line[item.data_id]}; give each record "
                "a unique id"
            )
            item = CheckInput(where, str(path), item.sha256, None, msg)
        first_line.setdefault(item.data_id, n)
        out.append(item)
    return out


def _file_inputs(path: Path, file_id: str) -> list[CheckInput]:
    if path.suffix.lower() == ".jsonl":
        return _jsonl_inputs(path, file_id)
    return [CheckInput(file_id, str(path), _sha(path.read_bytes()))]


def _walk(folder: Path, skip: Path | None) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if skip is not None and (path == skip or skip in path.parents):
            continue
        if path.is_file() and path.suffix.lower() in CHECK_EXTENSIONS:
            found.append(path)
    return found


def _expand(arg: str, skip: Path | None) -> list[tuple[Path, str]]:
    """(file, id) pairs named by one command-line argument."""
    path = Path(arg)
    if path.is_file():
        return [(path, path.as_posix())]
    if path.is_dir():
        return [(p, p.relative_to(path).as_posix()) for p in _walk(path, skip)]
    if _GLOB_CHARS & set(arg):
        pairs: list[tuple[Path, str]] = []
        for match in sorted(glob.glob(arg, recursive=True)):
            pairs.extend(_expand(match, skip))
        if not pairs:
            raise DiscoveryError(f"{arg}: the pattern matches no file")
        return pairs
    raise DiscoveryError(f"{arg}: no such file or folder")


def _named_files(paths: list[str], skip: Path | None) -> list[tuple[Path, str]]:
    """(file, id) of every file the arguments name, each file once. Files that two folders
    name by the same relative path (``a/doc.txt`` and ``b/doc.txt`` both ``doc.txt``) are
    named by their paths as given instead."""
    pairs: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    for arg in paths:
        for path, file_id in _expand(arg, skip):
            if path.resolve() not in seen:
                seen.add(path.resolve())
                pairs.append((path, file_id))
    count = Counter(file_id for _, file_id in pairs)
    return [(path, path.as_posix() if count[fid] > 1 else fid) for path, fid in pairs]


def discover(paths: list[str], *, skip: Path | None = None) -> list[CheckInput]:
    """Every document named by ``paths`` (``skip``: a folder never searched, e.g. the output)."""
    skip = skip.resolve() if skip is not None else None
    inputs: list[CheckInput] = []
    for path, file_id in _named_files(paths, skip):
        if path.suffix.lower() not in CHECK_EXTENSIONS:
            raise DiscoveryError(
                f"{path}: unsupported file type; check reads {', '.join(CHECK_EXTENSIONS)}"
            )
        inputs.extend(_file_inputs(path, file_id))
    if not inputs:
        raise DiscoveryError(
            f"no documents found in {', '.join(paths)} (looked for {', '.join(CHECK_EXTENSIONS)})"
        )
    seen: dict[str, str] = {}
    for item in inputs:
        if item.data_id in seen:
            raise DiscoveryError(
                f"two documents have the id {item.data_id!r} ({seen[item.data_id]} and "
                f"{item.source}); rename one of them"
            )
        seen[item.data_id] = item.source
    return inputs
