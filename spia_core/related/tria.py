"""TRIA-lite: a CPU re-identification attack on a collection, and its risk TRIR.

After Manzanares-Salor, Sánchez & Lison (2024), "Evaluating the disclosure risk of anonymized
documents via a machine learning-based re-identification attack". The attacker knows
identified background documents B_D (one or more per known individual B_I) and tries to
link each anonymized document to its individual. As in the paper, the classifier (one class
per individual) is trained on B_D and on a masked copy B_D' (so it also learns from what an
anonymizer leaves), texts are split into sliding word windows, and a document's prediction is
the argmax of the per-window scores SUMMED (the magnitude counts, not a vote).

**Lite, not comparable to the paper's DistilBERT figures**: the model here is character and
word n-gram TF-IDF with a linear SVM (scikit-learn), without MLM pre-training or fine-tuning;
pre-processing lowercases and strips special characters but does not lemmatize.

TRIR = correct re-identifications / protected documents. Reported with it: ``max_trir`` =
|A_I ∩ B_I| / |A_I| (the best any attack can do), ``chance`` = 1 / |B_I| (random guessing) and,
by the caller, the ceiling = TRIR of the original texts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

LABEL = "TRIA-lite (TF-IDF + linear SVM; lite, not comparable to the paper's DistilBERT figures)"
_SPECIAL = re.compile(r"[^\sA-Za-z0-9À-ÖØ-öø-ÿЀ-ӿ./@]+")
_SPACES = re.compile(r"[ \t]+")


def preprocess(text: str) -> str:
    """Lowercase, special characters (brackets, punctuation) to spaces, spaces squeezed."""
    return _SPACES.sub(" ", _SPECIAL.sub(" ", text.lower())).strip()


def windows(text: str, size: int = 100, overlap: int = 25) -> list[str]:
    """Sliding windows of ``size`` words, each starting ``size - overlap`` words after the last.

    A text shorter than one window is one window; an empty text is one empty window.
    """
    if size < 1 or not 0 <= overlap < size:
        raise ValueError(f"need size >= 1 and 0 <= overlap < size, got {size}/{overlap}")
    words = text.split()
    if len(words) <= size:
        return [" ".join(words)]
    stride = size - overlap
    starts = range(0, len(words) - overlap, stride)
    return [" ".join(words[s : s + size]) for s in starts if words[s : s + size]]


def aggregate(window_scores: np.ndarray) -> int:
    """The class of a document: argmax of its windows' decision scores summed element-wise."""
    return int(np.asarray(window_scores).sum(axis=0).argmax())


@dataclass
class TriaResult:
    """TRIR of one set of protected documents."""

    trir: float
    n_correct: int
    n_protected: int
    predictions: list[str]


class TriaLite:
    """The attack: fit on background documents (+ masked copies), predict individuals."""

    def __init__(self, *, window: int = 100, overlap: int = 25, seed: int = 0) -> None:
        self.window, self.overlap, self.seed = window, overlap, seed
        self.classes_: list[str] = []

    def _features(self):  # scikit-learn imported on use: the rest of the product runs without
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.pipeline import FeatureUnion

        return FeatureUnion(
            [
                (
                    "char",
                    TfidfVectorizer(
                        analyzer="char_wb", ngram_range=(3, 5), sublinear_tf=True, min_df=1
                    ),
                ),
                (
                    "word",
                    TfidfVectorizer(
                        analyzer="word", ngram_range=(1, 2), sublinear_tf=True, token_pattern=r"\S+"
                    ),
                ),
            ]
        )

    def fit(
        self,
        individuals: Sequence[str],
        backgrounds: Sequence[str],
        masked: Sequence[str] | None = None,
    ) -> TriaLite:
        """Train on (individual, background) pairs, and on the masked copies when given."""
        from sklearn.svm import LinearSVC

        if len(individuals) != len(backgrounds):
            raise ValueError("one background document per individual entry is needed")
        pairs = list(zip(individuals, backgrounds, strict=True))
        if masked is not None:
            pairs += list(zip(individuals, masked, strict=True))
        texts, labels = [], []
        for who, doc in pairs:
            for w in windows(preprocess(doc), self.window, self.overlap):
                texts.append(w)
                labels.append(who)
        if len(set(labels)) < 2:
            raise ValueError("TRIA-lite needs background documents of at least 2 individuals")
        self.features = self._features()
        x = self.features.fit_transform(texts)
        self.model = LinearSVC(C=1.0, random_state=self.seed).fit(x, labels)
        self.classes_ = [str(c) for c in self.model.classes_]
        return self

    def predict(self, documents: Sequence[str]) -> list[str]:
        """The individual each document is linked to (summed window scores, then argmax)."""
        out = []
        for doc in documents:
            parts = windows(preprocess(doc), self.window, self.overlap)
            scores = self.model.decision_function(self.features.transform(parts))
            scores = np.atleast_2d(scores)
            if len(self.classes_) == 2:  # binary: one column, positive = classes_[1]
                scores = np.hstack([-scores.T, scores.T])
            out.append(self.classes_[aggregate(scores)])
        return out


def trir(predictions: Sequence[str], truths: Sequence[str]) -> TriaResult:
    """TRIR = correct re-identifications / protected documents."""
    if len(predictions) != len(truths):
        raise ValueError("one prediction per protected document is needed")
    correct = sum(p == t for p, t in zip(predictions, truths, strict=True))
    n = len(truths)
    return TriaResult(correct / n if n else 0.0, correct, n, list(predictions))


def bounds(protected: Sequence[str], known: Sequence[str]) -> dict[str, float]:
    """``max_trir`` = |A_I ∩ B_I| / |A_I| (per protected document) and ``chance`` = 1 / |B_I|."""
    known_set = set(known)
    n = len(protected)
    return {
        "max_trir": sum(p in known_set for p in protected) / n if n else 0.0,
        "chance": 1 / len(known_set) if known_set else 0.0,
    }


Masker = Callable[[str], str]
