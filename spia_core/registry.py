"""Name -> implementation registries for every swappable stage (anonymizers, adversaries, ...)."""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class UnknownNameError(KeyError):
    """Raised when a name is not registered; the message lists what is."""

    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return str(self.args[0])


class Registry(Generic[T]):
    """A named collection of factories, e.g. ``ANONYMIZERS.create("ner-mask")``."""

    def __init__(self, kind: str, builtins: tuple[str, ...] = ()) -> None:
        """``builtins``: modules that register implementations when imported; they are
        imported on first use of the registry, so callers never import them by hand."""
        self.kind = kind
        self._factories: dict[str, Callable[..., T]] = {}
        self._builtins = builtins
        self._loaded = False
        # no lock of our own around the imports: the import system already makes a thread
        # wait for a module another thread (the dashboard's warm-up) is importing, and a lock
        # held across imports can deadlock with the import system's module locks (a browser
        # test saw the audit page hang there); a module that asks the registry while it is
        # being imported (re-entry, this thread) gets what is registered so far
        self._local = threading.local()
        #: module -> error message, for built-in modules that failed to import
        self.load_errors: dict[str, str] = {}

    def _load_builtins(self) -> None:
        if self._loaded or getattr(self._local, "loading", False):
            return
        self._local.loading = True
        try:
            for module in self._builtins:
                try:
                    importlib.import_module(module)
                except ImportError as exc:  # an optional dependency is missing: go on
                    self.load_errors[module] = f"{type(exc).__name__}: {exc}"
        finally:
            self._local.loading = False
        self._loaded = True

    def register(self, name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
        """Decorator registering a class or factory under ``name``."""

        def decorate(factory: Callable[..., T]) -> Callable[..., T]:
            if name in self._factories:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._factories[name] = factory
            return factory

        return decorate

    def names(self) -> list[str]:
        self._load_builtins()
        return sorted(self._factories)

    def __contains__(self, name: object) -> bool:
        self._load_builtins()
        return name in self._factories

    def factory(self, name: str) -> Callable[..., T]:
        """The class or factory registered as ``name`` (its attributes describe it)."""
        self._load_builtins()
        try:
            return self._factories[name]
        except KeyError:
            raise UnknownNameError(
                f"unknown {self.kind} {name!r}; available: {', '.join(self.names()) or 'none'}"
            ) from None

    def create(self, name: str, /, **kwargs: object) -> T:
        """Instantiate the implementation registered as ``name``."""
        return self.factory(name)(**kwargs)
