"""LLM provider seam: protocol (base), providers, catalog/make_llm, cache, usage, fake.

Provider modules import their SDK lazily: importing this package imports no SDK.
"""
