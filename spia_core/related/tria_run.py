"""TRIA-lite over a collection: train once, then TRIR of the original texts and of each
anonymizer, with the maximum TRIR and the chance level, timings and LLM usage."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from spia_core.related.tria import LABEL, TriaLite, bounds, trir
from spia_core.related.tria_data import Record

Progress = Callable[[str], None]


def _anonymizer(
    name: str,
    *,
    backbone: str | None,
    base_url: str | None,
    options: dict[str, Any] | None,
    cache: Any,
    recorder: Any,
) -> Any:
    """The registered anonymizer ``name``, its LLM cached and its usage recorded."""
    from spia_core.anonymizers.registry import anonymizer_info
    from spia_core.llm.runtime import LLMRuntime, bind_usage, cache_for
    from spia_core.pipeline import AuditConfig, build_anonymizer

    needs_llm = anonymizer_info(name)["needs_backbone"]
    config = AuditConfig(
        anonymizer=name,
        anonymizer_backbone=backbone,
        anonymizer_options=dict(options or {}) if needs_llm else {},
        base_url=base_url,
    )
    built = build_anonymizer(config, LLMRuntime(cache=cache_for(cache) if needs_llm else None))
    return bind_usage(built, recorder, "anonymize")


def anonymize_all(anonymizer: Any, texts: Sequence[str]) -> tuple[list[str], list[str]]:
    """Each text anonymized; a failed document keeps an empty text (it cannot be linked)."""
    out, failures = [], []
    for i, text in enumerate(texts):
        try:
            out.append(anonymizer.anonymize(text).text)
        except Exception as exc:  # recorded; the document counts as not re-identified
            failures.append(f"document {i}: {type(exc).__name__}: {exc}")
            out.append("")
    return out, failures


def score_provided(
    attack: TriaLite, protected: list[Record], texts_by_id: dict[str, str]
) -> dict[str, Any]:
    """TRIR of texts anonymized elsewhere (keyed by record id) on the records they cover,
    with the ceiling on that same subset (a partial run is compared like with like)."""
    subset = [r for r in protected if r.id in texts_by_id]
    truths = [r.individual for r in subset]
    result = trir(attack.predict([texts_by_id[r.id] for r in subset]), truths)
    ceiling = trir(attack.predict([r.text or "" for r in subset]), truths)
    return {
        "trir": result.trir,
        "n_correct": result.n_correct,
        "n_protected": result.n_protected,
        "ceiling_on_subset": ceiling.trir,
        "failures": [] if subset else ["no protected document of the collection is covered"],
    }


def run_tria(
    records: list[Record],
    anonymizers: Sequence[str],
    *,
    provided: dict[str, dict[str, str]] | None = None,
    backbone: str | None = None,
    base_url: str | None = None,
    options: dict[str, Any] | None = None,
    cache: Any = True,
    masker: str = "ner-mask",
    progress: Progress | None = None,
) -> dict[str, Any]:
    """TRIR of the original texts (the ceiling), of each anonymizer's output, and of each set of
    ``provided`` texts (label -> {record id: anonymized text}, e.g. a stored run's)."""
    from spia_core.anonymizers.registry import create_anonymizer
    from spia_core.llm.usage import UsageRecorder

    say = progress or (lambda _m: None)
    t0 = time.perf_counter()
    known = [r for r in records if r.background]
    protected = [r for r in records if r.text]
    mask = create_anonymizer(masker)
    masked = [mask.anonymize(r.background or "").text for r in known]
    timings = {"mask_background": time.perf_counter() - t0}
    t1 = time.perf_counter()
    attack = TriaLite().fit(
        [r.individual for r in known], [r.background or "" for r in known], masked
    )
    timings["train"] = time.perf_counter() - t1
    say(f"trained on {len(known)} background documents and their {masker} copies")
    truths = [r.individual for r in protected]
    texts = [r.text or "" for r in protected]
    t2 = time.perf_counter()
    ceiling = trir(attack.predict(texts), truths)
    timings["original"] = time.perf_counter() - t2
    results: dict[str, Any] = {}
    usage: dict[str, Any] = {}
    for name in anonymizers:
        t3 = time.perf_counter()
        recorder = UsageRecorder()
        anonymizer = _anonymizer(
            name,
            backbone=backbone,
            base_url=base_url,
            options=options,
            cache=cache,
            recorder=recorder,
        )
        outputs, failures = anonymize_all(anonymizer, texts)
        result = trir(attack.predict(outputs), truths)
        results[name] = {
            "trir": result.trir,
            "n_correct": result.n_correct,
            "n_protected": result.n_protected,
            "failures": failures,
        }
        usage[name] = vars(recorder.total())
        timings[name] = time.perf_counter() - t3
        say(f"{name}: TRIR {result.trir:.3f}")
    for label, texts_by_id in (provided or {}).items():
        results[label] = score_provided(attack, protected, texts_by_id)
        say(f"{label}: TRIR {results[label]['trir']:.3f} on {results[label]['n_protected']}")
    timings["total"] = time.perf_counter() - t0
    limits = bounds(truths, [r.individual for r in known])
    first = next(iter(results.values()))["trir"] if results else None
    return {
        "method": LABEL,
        "n_individuals_known": len({r.individual for r in known}),
        "n_protected": len(protected),
        "masker": masker,
        "trir": first,
        "ceiling": ceiling.trir,
        "chance": limits["chance"],
        "max_trir": limits["max_trir"],
        "results": results,
        "usage": usage,
        "timings_s": {k: round(v, 3) for k, v in timings.items()},
    }
