"""The ``presidio`` anonymizer: Microsoft Presidio's analyzer + anonymizer, fully offline.

Presidio's spaCy engine would otherwise load (and try to download) ``en_core_web_lg``; here it
is handed the shared pipeline already loaded by :func:`spia_core.nlp.load_pipeline`, so nothing
is downloaded and the model is in memory once. Entities are replaced with ``<ENTITY_TYPE>``
(Presidio's default operator). Presidio is optional: without it, creating this anonymizer
raises :class:`PresidioUnavailableError` with the install command.
"""

from __future__ import annotations

import functools
from typing import Any

from spia_core.anonymizers.base import AnonymizedText
from spia_core.anonymizers.registry import ANONYMIZERS

#: spaCy labels Presidio turns into entities (its defaults plus ORG, which TAB masks).
NER_TO_PRESIDIO: dict[str, str] = {
    "PERSON": "PERSON",
    "NORP": "NRP",
    "FAC": "LOCATION",
    "LOC": "LOCATION",
    "GPE": "LOCATION",
    "ORG": "ORGANIZATION",
    "DATE": "DATE_TIME",
    "TIME": "DATE_TIME",
}


class PresidioUnavailableError(RuntimeError):
    """Presidio is not installed or cannot run in this environment."""


def _disable_suffix_list_download() -> None:
    """Presidio's email recognizer calls tldextract, which fetches the Public Suffix List over
    the network on first use; point it at its bundled snapshot instead (offline, no delay)."""
    try:
        import tldextract.tldextract as tld
    except ImportError:  # pragma: no cover - a Presidio dependency
        return
    tld.TLD_EXTRACTOR.suffix_list_urls = ()


@functools.cache
def _engines() -> tuple[Any, Any, str, bool]:
    """(AnalyzerEngine, AnonymizerEngine, spaCy model name, degraded), built once."""
    try:
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine
        from presidio_anonymizer import AnonymizerEngine
    except ImportError as exc:
        raise PresidioUnavailableError(
            "the 'presidio' anonymizer needs presidio-analyzer and presidio-anonymizer "
            "(pip install presidio-analyzer==2.2.366 presidio-anonymizer==2.2.366): "
            f"{exc}"
        ) from exc
    from spia_core.nlp import load_pipeline

    _disable_suffix_list_download()
    pipeline = load_pipeline()
    ner_config = NerModelConfiguration(
        model_to_presidio_entity_mapping=dict(NER_TO_PRESIDIO),
        labels_to_ignore=[],
    )
    nlp_engine = SpacyNlpEngine(
        models=[{"lang_code": "en", "model_name": pipeline.model_name}],
        ner_model_configuration=ner_config,
    )
    # Hand over the already loaded pipeline: Presidio then never calls spacy.load / download.
    nlp_engine.nlp = {"en": pipeline.nlp}
    analyzer = AnalyzerEngine(nlp_engine=nlp_engine, supported_languages=["en"])
    return analyzer, AnonymizerEngine(), pipeline.model_name, pipeline.degraded


def _union(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


@ANONYMIZERS.register("presidio")
class PresidioAnonymizer:
    """Microsoft Presidio (analyzer recognizers + spaCy NER), entities replaced by type."""

    name = "presidio"
    display_name = "Microsoft Presidio (offline)"
    is_local = True
    needs_backbone = False
    description = (
        "Microsoft Presidio's recognizers (emails, phones, credit cards, IDs, ...) and spaCy "
        "NER, each entity replaced with <ENTITY_TYPE>. Runs offline on the same spaCy model "
        "as the rest of the engine."
    )

    def __init__(self, score_threshold: float = 0.35, entities: list[str] | None = None) -> None:
        self.score_threshold = score_threshold
        self.entities = entities
        _engines()  # fail at construction, with a clear message, when Presidio cannot run

    def anonymize(self, text: str) -> AnonymizedText:
        analyzer, anonymizer, model, degraded = _engines()
        results = analyzer.analyze(
            text=text,
            language="en",
            entities=self.entities,
            score_threshold=self.score_threshold,
        )
        output = anonymizer.anonymize(text=text, analyzer_results=results)
        counts: dict[str, int] = {}
        for r in results:
            counts[r.entity_type] = counts.get(r.entity_type, 0) + 1
        warnings = (
            ["no trained spaCy model: Presidio ran on its pattern recognizers only (degraded)"]
            if degraded
            else []
        )
        return AnonymizedText(
            text=output.text,
            masked_spans=_union([(r.start, r.end) for r in results]),
            method=self.name,
            trace={"spacy_model": model, "n_results": len(results), "per_type": counts},
            warnings=warnings,
        )
