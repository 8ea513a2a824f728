"""Registries: names, clear errors, lazily imported built-ins."""

from __future__ import annotations

import subprocess
import sys

import pytest

from spia_core.registry import Registry, UnknownNameError


def test_register_create_and_unknown_name_lists_available() -> None:
    reg: Registry[object] = Registry("widget")

    @reg.register("a")
    class A:
        def __init__(self, x: int = 1) -> None:
            self.x = x

    assert reg.names() == ["a"]
    assert reg.create("a", x=3).x == 3
    with pytest.raises(UnknownNameError, match="unknown widget 'b'; available: a"):
        reg.create("b")
    with pytest.raises(ValueError, match="registered twice"):
        reg.register("a")(A)


def test_missing_builtin_module_is_reported_not_fatal() -> None:
    reg: Registry[object] = Registry("widget", builtins=("spia_core.no_such_module",))
    assert reg.names() == []
    assert "spia_core.no_such_module" in reg.load_errors


def test_builtins_register_without_manual_imports() -> None:
    # a fresh interpreter: nothing imported but the registries themselves
    code = (
        "from spia_core.adversary.registry import ADVERSARIES;"
        "from spia_core.evaluation.matching import MATCHERS;"
        "print(ADVERSARIES.names(), MATCHERS.names())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['llm', 'local'] ['llm', 'local']"
