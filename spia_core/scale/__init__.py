"""Audits at corpus scale: the process pool, the `check` release gate, Ray and provider batches."""
