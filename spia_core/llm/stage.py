"""The construction shared by LLM stages that are driven by one versioned prompt."""

from __future__ import annotations

from typing import Any, ClassVar

from spia_core.llm.base import LLM
from spia_core.llm.catalog import resolve_llm
from spia_core.prompts import load_prompt


class PromptedLLMStage:
    """Resolves the backbone once and loads the stage's prompt (``prompt_name``)."""

    prompt_name: ClassVar[str]

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        backbone: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        cache: Any = None,
        temperature: float | None = 0.0,
    ) -> None:
        self.llm = resolve_llm(
            llm, backbone=backbone, base_url=base_url, api_key=api_key, cache=cache
        )
        self.temperature = temperature
        self.prompt = load_prompt(self.prompt_name)
