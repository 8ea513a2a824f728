"""Benchmark harnesses (``python -m spia_core bench ...``): they sit above every stage and may
use anonymizers, adversaries and evaluation alike; nothing in the engine imports them."""
