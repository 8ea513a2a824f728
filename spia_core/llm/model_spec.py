"""``ModelSpec``: one catalog entry (a leaf type, so providers need not import the catalog)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelSpec:
    """One backbone: where it is served, what it accepts, what it costs."""

    id: str
    provider: str
    model: str
    display_name: str = ""
    temperature: bool = True
    top_p: bool = True
    structured_output: str = "none"
    context_tokens: int = 8192
    max_output_tokens: int = 4096
    input_price_per_mtok: float = 0.0
    output_price_per_mtok: float = 0.0
    max_concurrency: int = 2
    base_url: str | None = None
    notes: str = ""

    @property
    def is_local(self) -> bool:
        """True for a local OpenAI-compatible server (the text stays on the user's machine)."""
        return self.provider == "openai-compatible"

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """USD cost of one call at the catalog prices."""
        return (
            input_tokens * self.input_price_per_mtok + output_tokens * self.output_price_per_mtok
        ) / 1_000_000
