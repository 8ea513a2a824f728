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
    #: Prices of the provider's batch API (None: the model has no batch API).
    batch_input_price_per_mtok: float | None = None
    batch_output_price_per_mtok: float | None = None
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

    @property
    def has_batch_api(self) -> bool:
        """True when the catalog prices the model's batch API (cloud providers only)."""
        return (
            not self.is_local
            and self.batch_input_price_per_mtok is not None
            and self.batch_output_price_per_mtok is not None
        )

    def batch_cost(self, input_tokens: int, output_tokens: int) -> float:
        """USD cost of one request answered through the batch API, at the catalog's batch prices."""
        if not self.has_batch_api:
            raise ValueError(f"{self.id} has no batch price in the catalog")
        return (
            input_tokens * (self.batch_input_price_per_mtok or 0.0)
            + output_tokens * (self.batch_output_price_per_mtok or 0.0)
        ) / 1_000_000
