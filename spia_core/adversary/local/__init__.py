"""The local (offline) SPIA adversary: rules, lexicons and spaCy NER; no network, no key.

Importing this package registers it as ``"local"`` in ``spia_core.adversary.registry.ADVERSARIES``.
"""

from __future__ import annotations

from spia_core.adversary.local.adversary import MAX_CHARS, LocalAdversary
from spia_core.adversary.registry import ADVERSARIES

if "local" not in ADVERSARIES:
    ADVERSARIES.register("local")(LocalAdversary)

__all__ = ["MAX_CHARS", "LocalAdversary"]
