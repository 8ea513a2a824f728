"""scipy's ``linear_sum_assignment`` without importing all of ``scipy.optimize``.

``from scipy.optimize import linear_sum_assignment`` imports every solver of scipy.optimize
(~0.6 s), paid by every cold start: each CLI audit, each Ray actor and the fork pool's serial
start before it forks. The function lives in a compiled module of its own,
``scipy.optimize._lsap``, which is loaded by itself and registered under its name (a later
``import scipy.optimize`` then uses this module object); if that fails in any way (another scipy
layout), the public import is used. The same function either way.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

_MODULE = "scipy.optimize._lsap"


@functools.cache
def solver() -> Callable[..., Any]:
    """``scipy.optimize.linear_sum_assignment``, loaded as cheaply as the installed scipy allows."""
    loaded = sys.modules.get(_MODULE)
    if loaded is None and "scipy.optimize" not in sys.modules:
        try:
            loaded = _load_alone()
        except Exception:  # another layout or loader: the public import below
            loaded = None
    if loaded is not None and callable(getattr(loaded, "linear_sum_assignment", None)):
        return loaded.linear_sum_assignment
    from scipy.optimize import linear_sum_assignment as public

    return public


def _load_alone() -> Any:
    import scipy

    folder = Path(scipy.__file__).parent / "optimize"
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"_lsap{suffix}"
        if path.is_file():
            loader = importlib.machinery.ExtensionFileLoader(_MODULE, str(path))
            spec = importlib.util.spec_from_file_location(_MODULE, path, loader=loader)
            if spec is None:
                return None
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            return sys.modules.setdefault(_MODULE, module)
    return None
