"""Related methods beside SPIA: RUPTA, SEAL-style self-refinement and TRIA-lite.

The anonymizers live in ``spia_core.anonymizers.rupta`` / ``.seal`` (they register there);
this package holds what they share (the SPIA privacy of an iterate, the iterate record) and
the TRIA-lite re-identification risk of a collection.
"""
