"""The anonymizer registry: name -> factory, plus what the UI needs to list each method.

Built-in methods register themselves when their module is imported; :func:`load_builtins`
imports every module of this package (LLM methods added later register the same way).
An anonymizer class describes itself with class attributes read by :func:`anonymizer_info`:
``display_name``, ``is_local`` (runs offline), ``needs_backbone`` (needs an LLM) and
``description``.
"""

from __future__ import annotations

import inspect
import pkgutil
from typing import Any

from spia_core.anonymizers.base import Anonymizer
from spia_core.registry import Registry

_SKIP_MODULES = frozenset({"base", "registry", "validation"})


def _builtin_modules() -> tuple[str, ...]:
    """Every anonymizer module of this package (each registers itself when imported)."""
    import spia_core.anonymizers as package

    return tuple(
        f"{package.__name__}.{info.name}"
        for info in pkgutil.iter_modules(package.__path__)
        if info.name not in _SKIP_MODULES and not info.name.startswith("_")
    )


#: The built-in modules are imported by the registry itself on first use, like every other
#: registry's: a thread that asks while another is importing them waits for the import.
ANONYMIZERS: Registry[Anonymizer] = Registry[Anonymizer]("anonymizer", _builtin_modules())


def load_builtins() -> None:
    """Import every anonymizer module of this package once so that it registers itself."""
    ANONYMIZERS.names()  # every Registry lookup imports the built-ins first


def load_errors() -> dict[str, str]:
    """Anonymizer modules that failed to import, with the reason."""
    load_builtins()
    return {module.rsplit(".", 1)[-1]: why for module, why in ANONYMIZERS.load_errors.items()}


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
