"""The UI-facing service layer: what the dashboard pages need, with no Streamlit in it.

- :class:`AuditSession`: one document's audit, its versions (fix and re-audit), the human
  overrides of each version (adjudication) and its exports.
- :class:`BatchJobs`: dataset runs in background threads (start, progress, cancel, list).
- :mod:`.engines`: the registered components, the model catalog, configurations and the
  cached stage implementations (:class:`ComponentCache`).
- :mod:`.results`: rows of this session's audits and of the results store, for the
  Benchmarks overlay.

Pages import these plainly; the engine never imports Streamlit.
"""

from spia_core.service.engines import ComponentCache, Endpoint
from spia_core.service.jobs import BatchJobs, RunState
from spia_core.service.overrides import Overrides
from spia_core.service.session import AuditSession, Version

__all__ = [
    "AuditSession",
    "BatchJobs",
    "ComponentCache",
    "Endpoint",
    "Overrides",
    "RunState",
    "Version",
]
