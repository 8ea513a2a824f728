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


def test_names_wait_for_builtins_another_thread_is_importing(tmp_path, monkeypatch) -> None:
    """The dashboard's warm-up thread and a page both ask a fresh registry for its names: the
    page must not see it empty while the warm-up is still importing the built-ins."""
    import sys
    import threading
    import time

    from spia_core.registry import Registry

    reg: Registry[object] = Registry("thing", builtins=("slow_builtin_for_test",))
    (tmp_path / "slow_builtin_for_test.py").write_text(
        "import time\ntime.sleep(0.5)\nfrom tests_registry_target import REG\n"
        "REG.register('slow')(object)\n"
    )
    target = type(sys)("tests_registry_target")
    target.REG = reg
    monkeypatch.setitem(sys.modules, "tests_registry_target", target)
    monkeypatch.syspath_prepend(str(tmp_path))
    first = threading.Thread(target=reg.names)
    first.start()
    time.sleep(0.1)  # the first thread is inside the import
    assert reg.names() == ["slow"]
    first.join()


def test_anonymizer_names_wait_for_another_thread_importing_them() -> None:
    """The anonymizer registry once marked its built-ins loaded before importing them, so a
    page asking while the warm-up thread imported them got a half-filled list (no 'ner-mask':
    the page then defaulted to a cloud anonymizer)."""
    code = (
        "import threading\n"
        "from spia_core.anonymizers.registry import anonymizer_names\n"
        "t = threading.Thread(target=anonymizer_names)\n"
        "t.start()\n"
        "names = anonymizer_names()\n"
        "t.join()\n"
        "print('ner-mask' in names, 'presidio' in names)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True True"
