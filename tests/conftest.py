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
