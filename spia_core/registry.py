"""Name -> implementation registries for every swappable stage (anonymizers, adversaries, ...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class UnknownNameError(KeyError):
    """Raised when a name is not registered; the message lists what is."""

    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return str(self.args[0])


class Registry(Generic[T]):
    """A named collection of factories, e.g. ``ANONYMIZERS.create("ner-mask")``."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._factories: dict[str, Callable[..., T]] = {}

    def register(self, name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
        """Decorator registering a class or factory under ``name``."""

        def decorate(factory: Callable[..., T]) -> Callable[..., T]:
            if name in self._factories:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._factories[name] = factory
            return factory

        return decorate

    def names(self) -> list[str]:
        return sorted(self._factories)

    def __contains__(self, name: object) -> bool:
        return name in self._factories

    def create(self, name: str, /, **kwargs: object) -> T:
        """Instantiate the implementation registered as ``name``."""
        try:
            factory = self._factories[name]
        except KeyError:
            raise UnknownNameError(
                f"unknown {self.kind} {name!r}; available: {', '.join(self.names()) or 'none'}"
            ) from None
        return factory(**kwargs)
