"""Fixtures for the real-browser tests: a live `streamlit run app.py` on a free local port."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not (Path(CHROMIUM).exists() and shutil.which(CHROMIUM)):
        reason = f"Debian chromium not found at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("SPIA_REQUIRE_BROWSER") == "1":  # CI: a missing browser is a failure
            pytest.fail(reason)
        pytest.skip(reason)
    pytest.importorskip("playwright.sync_api", reason="PyPI playwright is not installed")
    return CHROMIUM


@pytest.fixture(scope="session")
def streamlit_server() -> Iterator[dict[str, object]]:
    """Start the app; yields its URL and the seconds from launch to a served health check."""
    port = _free_port()
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--server.headless",
        "true",
    ]
    env = {**os.environ, "ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": ""}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            if proc.poll() is not None:
                out = proc.stdout.read() if proc.stdout else ""
                pytest.fail(f"streamlit exited early ({proc.returncode}):\n{out}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("streamlit did not answer its health check within 60 s")
        yield {"url": url, "t_launch": t0}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
