"""The adversary registry: name -> factory (``llm``, ``local``, ...)."""

from __future__ import annotations

from spia_core.adversary.base import Adversary
from spia_core.registry import Registry

ADVERSARIES = Registry[Adversary](
    "adversary", builtins=("spia_core.adversary.local", "spia_core.adversary.llm")
)
