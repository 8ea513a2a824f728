"""The Audit page's views, one module per part of the page (input, run, results...)."""
