"""The staged audit pipeline: one typed state, registered stages, a runner, the report.

``config`` (what runs) -> ``state`` (what flows) -> ``stages`` (who fills it) -> ``runner``
(in which order, with progress and cancel) -> ``caveats`` and ``report`` (what is said).
:mod:`spia_core.pipeline` is the public facade (``audit``, ``AuditConfig``, ...).
"""
