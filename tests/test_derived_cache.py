"""derived_cache: a table is built once, read back equal, rebuilt when its key changes, and a
cache that cannot be trusted, read or written only means building it again."""

from __future__ import annotations

import os

import pytest

from spia_core import derived_cache


@pytest.fixture
def folder(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    monkeypatch.setenv(derived_cache.CACHE_ENV, str(path))
    return path


def _counting(value):
    calls = []

    def build():
        calls.append(1)
        return value

    return build, calls


def test_a_table_is_built_once_then_read_back(folder):
    table = {"lyon": ("Lyon", "France", 516092), "oslo": ("Oslo", "Norway", 580000)}
    build, calls = _counting(table)
    assert derived_cache.cached("places", build) == table
    assert derived_cache.cached("places", build) == table
    assert len(calls) == 1
    (stored,) = folder.glob("places-*.pickle")
    assert stored.stat().st_mode & 0o077 == 0 and folder.stat().st_mode & 0o077 == 0


def test_another_key_builds_again_and_old_files_are_dropped(folder, monkeypatch):
    build, calls = _counting([1, 2, 3])
    for n in range(4):
        monkeypatch.setattr(derived_cache, "_key", lambda packages, n=n: f"code{n}")
        assert derived_cache.cached("numbers", build) == [1, 2, 3]
    assert len(calls) == 4
    assert len(list(folder.glob("numbers-*.pickle"))) == derived_cache._KEEP


def test_untrusted_or_corrupt_files_are_not_read(folder):
    build, calls = _counting("fresh")
    derived_cache.cached("word", build)
    (stored,) = folder.glob("word-*.pickle")
    stored.write_bytes(b"not a pickle")
    assert derived_cache.cached("word", build) == "fresh"  # corrupt: built and stored again
    os.chmod(stored, 0o666)  # writable by others: never unpickled
    assert derived_cache.cached("word", build) == "fresh"
    assert len(calls) == 3


def test_off_and_unwritable_folders_build_in_memory(tmp_path, monkeypatch):
    build, calls = _counting(7)
    monkeypatch.setenv(derived_cache.CACHE_ENV, "off")
    assert derived_cache.cache_dir() is None
    assert derived_cache.cached("seven", build) == 7
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv(derived_cache.CACHE_ENV, str(blocker / "cache"))  # cannot be created
    assert derived_cache.cached("seven", build) == 7
    assert len(calls) == 2


def test_the_gazetteer_read_back_equals_a_fresh_build(folder):
    from spia_core.adversary.local import lexicons

    build = lexicons.gazetteer.__wrapped__.__wrapped__  # under functools.cache and the table
    derived_cache.cached("gazetteer", build)
    read = derived_cache.cached("gazetteer", lambda: pytest.fail("not read from the cache"))
    fresh = build()
    assert read.places == fresh.places and read.cities_by_country == fresh.cities_by_country
    assert read.countries_by_iso == fresh.countries_by_iso and read.us_states == fresh.us_states
