"""Where the bundled data lives (datasets, lexicons, model catalog, published figures).

One rule, used by every module that reads bundled files:

1. ``$SPIA_BUNDLED_DATA`` when set (a copy of the repo's ``data/`` folder elsewhere);
2. ``spia_core/_data`` inside an installed wheel (``pip install .`` maps ``data/`` there);
3. the repo's ``data/`` folder beside the package (a source checkout or an editable install).

This is read-only reference data; the results store is ``$SPIA_DATA_DIR`` (see store.py).
"""

from __future__ import annotations

import os
from pathlib import Path

#: Environment variable that points at another copy of the bundled data.
ENV_VAR = "SPIA_BUNDLED_DATA"
_PACKAGE = Path(__file__).resolve().parent


def bundled_data_dir() -> Path:
    """The bundled data folder, by the rule above."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser().resolve()
    installed = _PACKAGE / "_data"
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / "data"


#: Resolved once at import.
DATA_DIR: Path = bundled_data_dir()
