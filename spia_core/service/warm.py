"""Background warm-up of the offline engine, so the first audit does not pay for it."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from pathlib import Path

from spia_core import charts
from spia_core.datasets import load_bundled
from spia_core.model import Document
from spia_core.nlp import load_pipeline
from spia_core.service import engines
from spia_core.service.engines import ComponentCache
from spia_core.verdict import assess

FALLBACK_TEXT = "Mr John Smith, 42, a nurse from Oslo, wrote to jane@example.org."


def warm(
    components: ComponentCache,
    samples: list[Path],
    datasets: tuple[str, ...],
    load_dataset: Callable[[str], list[Document]] = load_bundled,
) -> None:
    """spaCy, the default offline stages, one audit of a sample (and its verdict) and of a
    long dataset document (span metrics too), every bundled dataset and plotly; then
    ``gc.freeze()``."""
    try:
        load_pipeline()
        config = engines.audit_config({"anonymizer": "ner-mask", "adversary": "local"})
        parts = components.get(config, {})
        text = samples[0].read_text(encoding="utf-8") if samples else FALLBACK_TEXT
        report = engines.pipeline.audit(Document("warm-up", text), config, components=parts)
        assess(report)  # loads the language identifier the verdict uses
        docs = load_dataset(datasets[0]) if datasets else []
        if docs:
            longest = max(docs[:20], key=lambda d: len(d.text))
            engines.pipeline.audit(longest, config, components=parts)
        for name in datasets[1:]:
            load_dataset(name)
        charts.per_tag_protection(engines.pipeline.empty_metrics()).to_json()
    except Exception:  # the audit itself reports any real problem
        pass
    # the models and datasets live as long as the server: out of the collector's view, so
    # that collections during an audit stay short
    gc.collect()
    gc.freeze()


def start_warm(*args: object, **kwargs: object) -> threading.Thread:
    """:func:`warm` in a thread. Not a daemon: the interpreter waits for it (a few seconds)
    instead of exiting while it is inside spaCy's native code, which crashes the process."""
    thread = threading.Thread(target=warm, args=args, kwargs=kwargs, name="spia-prewarm")
    thread.start()
    return thread
