"""The anonymizer registry: name -> factory, plus what the UI needs to list each method.

Built-in methods register themselves when their module is imported; :func:`load_builtins`
imports every module of this package (LLM methods added later register the same way).
An anonymizer class describes itself with class attributes read by :func:`anonymizer_info`:
``display_name``, ``is_local`` (runs offline), ``needs_backbone`` (needs an LLM) and
``description``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

from spia_core.anonymizers.base import Anonymizer
from spia_core.registry import Registry

ANONYMIZERS: Registry[Anonymizer] = Registry[Anonymizer]("anonymizer")

_SKIP_MODULES = frozenset({"base", "registry", "validation"})
#: Modules that could not be imported (name -> error), reported by :func:`load_errors`.
_LOAD_ERRORS: dict[str, str] = {}
_loaded = False


def load_builtins() -> None:
    """Import every anonymizer module of this package once so that it registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import spia_core.anonymizers as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name in _SKIP_MODULES or info.name.startswith("_"):
            continue
        try:
            importlib.import_module(f"{package.__name__}.{info.name}")
        except ImportError as exc:  # an optional dependency is missing
            _LOAD_ERRORS[info.name] = str(exc)


def load_errors() -> dict[str, str]:
    """Anonymizer modules that failed to import, with the reason."""
    load_builtins()
    return dict(_LOAD_ERRORS)


def anonymizer_names() -> list[str]:
    """Names of every registered anonymizer."""
    load_builtins()
    return ANONYMIZERS.names()


def create_anonymizer(name: str, /, **options: Any) -> Anonymizer:
    """Instantiate the anonymizer registered as ``name`` with its options.

    An option the anonymizer does not take is a ValueError naming the options it does take.
    """
    load_builtins()
    factory = ANONYMIZERS._factories.get(name)
    if factory is not None:
        check_options(name, factory, options)
    return ANONYMIZERS.create(name, **options)


def check_options(name: str, factory: Any, options: dict[str, Any]) -> None:
    """Raise ValueError when ``options`` has a key ``factory`` does not accept."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # no signature to check against
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    accepted = [
        n
        for n, p in params.items()
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        shown = ", ".join(n for n in accepted if n not in ("llm", "connection")) or "none"
        raise ValueError(
            f"anonymizer {name!r} has no option {', '.join(map(repr, unknown))}; "
            f"its options: {shown}"
        )


def anonymizer_info(name: str) -> dict[str, Any]:
    """Display name, local or cloud, whether it needs an LLM backbone, and a description."""
    load_builtins()
    if name not in ANONYMIZERS:
        ANONYMIZERS.create(name)  # raises UnknownNameError listing the registered names
    factory = ANONYMIZERS._factories[name]
    is_local = bool(getattr(factory, "is_local", not getattr(factory, "needs_backbone", False)))
    return {
        "name": name,
        "display_name": getattr(factory, "display_name", name),
        "is_local": is_local,
        "where": "local" if is_local else "cloud",
        "needs_backbone": bool(getattr(factory, "needs_backbone", False)),
        "description": getattr(factory, "description", (factory.__doc__ or "").strip()),
    }
