"""Streamlit building blocks shared by the pages, one module per purpose.

- :mod:`.resources`: process-wide services (component cache, batch jobs, results store,
  datasets, warm-up) and this browser session's :class:`~spia_core.service.AuditSession`.
- :mod:`.keys`: API keys and the local endpoint (session, secrets, environment).
- :mod:`.stage_config`: anonymizer / adversary / backbone selectors, cloud consent.
- :mod:`.tiles`: number formatting and the metric tiles.
- :mod:`.sidebar`: the mode and "where text goes".
- :mod:`.text`: escaping of document-derived text for Markdown.
"""
