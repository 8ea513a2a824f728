"""The construction shared by LLM stages that are driven by one versioned prompt."""

from __future__ import annotations

from typing import ClassVar

from spia_core.llm.base import LLM
from spia_core.llm.connection import LLMConnection, resolve
from spia_core.prompts import load_prompt


class PromptedLLMStage:
    """Resolves the backbone once and loads the stage's prompt (``prompt_name``)."""

    prompt_name: ClassVar[str]

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        connection: LLMConnection | None = None,
        temperature: float | None = 0.0,
    ) -> None:
        self.llm = resolve(llm, connection)
        self.temperature = temperature
        self.prompt = load_prompt(self.prompt_name)
