"""CLI errors come early and clear, never as tracebacks (issue 15, defect 5).

Each bad option is refused BEFORE any work starts: exit 2, a specific message, no store
opened, no traceback. Before the fix each of these dumped a traceback (``--out`` naming a file
even after the whole run had finished, leaving a ``done`` run without output files).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spia_core.cli import main


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "a_file.txt"
    path.write_text("not a directory", encoding="utf-8")
    return path


def _evaluate(tmp_path: Path, *extra: str) -> list[str]:
    return ["evaluate", "--dataset", "PANORAMA-151", "--limit", "1", "--quiet", *extra]


CASES = {
    "out is a file": (
        lambda t, f: _evaluate(t, "--out", str(f), "--data-dir", str(t / "store")),
        "is an existing file, not a directory",
    ),
    "out not writable": (
        lambda t, f: _evaluate(t, "--out", str(f / "sub"), "--data-dir", str(t / "store")),
        "--out",
    ),
    "data dir not writable": (
        lambda t, f: _evaluate(t, "--out", str(t / "out"), "--data-dir", str(f / "store")),
        "--data-dir",
    ),
    "bogus anonymizer option": (
        lambda t, f: _evaluate(
            t,
            "--anonymizer",
            "ner-mask",
            "--anonymizer-option",
            "bogus=1",
            "--out",
            str(t / "out"),
            "--data-dir",
            str(t / "store"),
        ),
        "anonymizer 'ner-mask' has no option 'bogus'; its options: numbered",
    ),
    "unknown dataset": (
        lambda t, f: [
            "evaluate",
            "--dataset",
            "NOPE",
            "--out",
            str(t / "out"),
            "--data-dir",
            str(t / "store"),
        ],
        "dataset 'NOPE' is neither a bundled name",
    ),
    "bench unknown dataset": (
        lambda t, f: ["bench", "offline", "--dataset", "NOPE"],
        "dataset 'NOPE' is neither a bundled name",
    ),
    "score out is a directory": (
        lambda t, f: ["score", "--gt", str(f), "--pred", str(f), "--out", str(t)],
        "is a directory; give a file name",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_options_fail_before_the_run(
    case: str, tmp_path: Path, a_file: Path, capsys: Any
) -> None:
    argv, message = CASES[case]
    code = main(argv(tmp_path, a_file))
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "store" / "results.sqlite3").exists()  # nothing was started
