"""The installable package: build the wheel offline and check what it holds and that it runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What the build reads from the repo (a copy, so the checkout gets no build/ or egg-info).
BUILD_INPUTS = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "spia_core", "data")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, src / name)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(src),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    (built,) = out.glob("spia_audit-*.whl")
    return built


def _metadata(whl: zipfile.ZipFile) -> tuple[dict[str, list[str]], str]:
    name = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
    msg = Parser().parsestr(whl.read(name).decode())
    return {k: msg.get_all(k) or [] for k in ("Requires-Dist", "Provides-Extra")}, msg["Name"]


def test_wheel_holds_spia_core_and_its_data_only(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"spia_core", wheel.name.split("-")[0] + "-0.1.0.dist-info"}
    for needed in (
        "spia_core/cli.py",
        "spia_core/adversary/local/lexicons.py",
        "spia_core/prompts/adversarial_inference.v1.txt",
        "spia_core/_data/models.json",
        "spia_core/_data/lexicons/occupation_taxonomy.tsv",
        "spia_core/_data/spia/spia_tab_144.jsonl",
        "spia_core/_data/benchmarks/local_adversary_calibration.json",
    ):
        assert needed in names, needed
    assert not any(n.startswith(("pages/", "tests/", "scripts/")) for n in names)


def test_wheel_declares_console_script_dependencies_and_extras(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as whl:
        entry = next(n for n in whl.namelist() if n.endswith("entry_points.txt"))
        entry_points = whl.read(entry).decode()
        meta, name = _metadata(whl)
    assert name == "spia-audit"
    assert "spia-audit = spia_core.cli:main" in entry_points
    requires = " ".join(meta["Requires-Dist"])
    for dist in ("spacy", "openai", "anthropic", "phonenumbers", "pypdf", "python-docx"):
        assert dist in requires, dist
    assert "streamlit" in requires and 'extra == "dashboard"' in requires
    assert {"dashboard", "presidio", "dev", "ray"} <= set(meta["Provides-Extra"])


def test_unpacked_wheel_runs_without_the_checkout(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as whl:
        whl.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("SPIA_BUNDLED_DATA", None)
    code = (
        "import spia_core.paths as p, spia_core.llm.catalog as c, spia_core.datasets as d;"
        "print(p.DATA_DIR); print(len(d.load_bundled('TAB-144')));"
        "print(c.DEFAULT_CATALOG.is_file());"
        "import spia_core.identity as i; print(i.code_fingerprint())"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    from spia_core.identity import code_fingerprint

    # the installed engine and its data fingerprint exactly as the checkout does, so a
    # stored run's version check means the same in both
    assert shown == [str(site / "spia_core" / "_data"), "144", "True", code_fingerprint()]
    helped = subprocess.run(
        [sys.executable, "-m", "spia_core", "--help"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert helped.returncode == 0, helped.stderr
    assert "evaluate" in helped.stdout


def test_bundled_data_dir_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spia_core import paths

    monkeypatch.delenv(paths.ENV_VAR, raising=False)
    assert paths.bundled_data_dir() == ROOT / "data"  # a checkout: data/ beside the package
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path))
    assert paths.bundled_data_dir() == tmp_path.resolve()
