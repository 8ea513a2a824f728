"""CLI commands, one module each (see spia_core.cli)."""
