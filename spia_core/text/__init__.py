"""Text utilities below both evaluation and the adversaries (folding, names, countries)."""
