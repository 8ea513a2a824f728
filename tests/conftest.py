"""Shared fixtures: paths to the shipped datasets."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def tab_gt_path() -> Path:
    return DATA / "spia" / "spia_tab_144.jsonl"


@pytest.fixture(scope="session")
def panorama_gt_path() -> Path:
    return DATA / "spia" / "spia_panorama_151.jsonl"


@pytest.fixture(scope="session")
def tab_entity_path() -> Path:
    return DATA / "entity" / "entity_tab_144.jsonl"


@pytest.fixture(scope="session")
def panorama_entity_path() -> Path:
    return DATA / "entity" / "entity_panorama_151.jsonl"


@pytest.fixture
def local_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``make(model_id, **fields)``: a one-model catalog of a local OpenAI-compatible server,
    installed as $SPIA_MODELS_JSON for this test."""
    import json

    def make(model_id: str, **fields: object) -> Path:
        entry = {"id": model_id, "provider": "openai-compatible", "model": "served", **fields}
        path = tmp_path / "models.json"
        path.write_text(json.dumps({"models": [entry]}), encoding="utf-8")
        monkeypatch.setenv("SPIA_MODELS_JSON", str(path))
        return path

    return make


@pytest.fixture(scope="session")
def adversary():
    """One offline LocalAdversary for every test that asks for it (it keeps no state between
    texts; the spaCy pipeline loads once)."""
    from spia_core.adversary.local.adversary import LocalAdversary

    return LocalAdversary()


@pytest.fixture(scope="session")
def adv(adversary):
    """The same adversary, under the short name some test files use."""
    return adversary
