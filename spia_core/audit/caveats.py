"""The caveats every audit states: degraded models, the offline lower bound, automatic GT."""

from __future__ import annotations

from typing import Any

from spia_core.audit.state import AuditState
from spia_core.model import NoticeKind, Severity

DEGRADED_MESSAGE = (
    "degraded: no trained spaCy model is installed, so names, places and POS tags "
    "come from patterns only; figures are less reliable"
)
AUTOMATIC_GT_MESSAGE = (
    "no ground truth: the adversary's inference on the original text is used as the "
    "ground truth (gt_source=automatic)"
)


#: Placeholders in a user's "original" from which it reads as a text already redacted.
ALREADY_REDACTED_MIN = 3


def already_redacted_message(text: str) -> str:
    """A caveat when an original text already holds redaction placeholders, else ''."""
    from spia_core.exposure import find_placeholders

    found = find_placeholders(text)
    if len(found) < ALREADY_REDACTED_MIN:
        return ""
    examples = ", ".join(dict.fromkeys(f"'{p.text}'" for p in found))
    return (
        f"The original text already holds {len(found)} redaction placeholders ({examples[:80]}): "
        "its ground truth lacks what was removed before, so CPR and the verdict cover only "
        "what is left. If this is your redacted document, audit it alone: in the dashboard "
        "leave the original empty and tick 'I already have the redacted version'; on the "
        "command line run audit FILE without --anonymizer or --original."
    )


#: A given redaction that shares less than this share of its words with the original is
#: probably not its redaction (unrelated texts share ~3-5%, a masked copy nearly all).
UNRELATED_SHARE = 0.2
#: Fewer content words than this in the given redaction: too little to judge.
UNRELATED_MIN_WORDS = 20


def unrelated_pair_message(original: str, redacted: str) -> str:
    """A caveat when a redaction the user gave shares few words with the original, else ''
    (the word overlap of the anonymizers' rewrite check, at a looser threshold)."""
    from spia_core.anonymizers.validation import word_overlap

    share = word_overlap(original, redacted, UNRELATED_MIN_WORDS)
    if share is None or share >= UNRELATED_SHARE:
        return ""
    return (
        f"The redacted text shares only {share:.0%} of its words with the original: check that "
        "it is the redaction of this original (CPR and span metrics compare the two). A "
        "redaction that rewrites everything can also do this; then the figures stand."
    )


def adversary_is_local(adversary: Any, name: str) -> bool:
    """True for an offline adversary (its figures are a lower bound on what can be inferred)."""
    return bool(getattr(adversary, "is_local", name == "local"))


def lower_bound_warning(dataset: str, anonymizer: str, *, with_gap: bool = True) -> str:
    """Why a local adversary's figures are a lower bound, with the closest published figure
    and (``with_gap``) the measured gap sentence."""
    from spia_core.data.published import (
        closest_published,
        paper_dataset,
        published_adversary_results,
    )
    from spia_core.evaluation.local_calibration import gap_sentence

    text = (
        "Offline result: the local rule-and-lexicon adversary infers less than an LLM "
        "adversary, so what it finds is a lower bound on what can be inferred (and any "
        "protection figure an upper bound)."
    )
    datasets = [paper_dataset(dataset)] if paper_dataset(dataset) in ("TAB", "PANORAMA") else []
    for ds in datasets or ["TAB", "PANORAMA"]:
        row = closest_published(ds, anonymizer)
        if row:
            text += (
                f" Paper ({ds}, {row['method']}, LLM adversary): CPR {row['cpr']:.3f}, "
                f"IPR {row['ipr']:.3f}, 1-AAC {row['one_minus_aac']:.3f}."
            )
        else:
            best = max(
                (r for r in published_adversary_results() if r["dataset"] == ds),
                key=lambda r: r["subject_match"],
                default=None,
            )
            if best:
                text += (
                    f" Paper ({ds}): the {best['model']} adversary matches "
                    f"{best['subject_match']:.1%} of subjects and infers "
                    f"{best['pii_accuracy']:.1%} of their PII."
                )
    gap = gap_sentence(dataset) if with_gap else ""
    return f"{text} {gap}" if gap else text


def add_caveats(state: AuditState) -> None:
    """LLM usage of the whole audit, then the degraded / lower-bound / automatic-GT notices."""
    from spia_core.nlp import load_pipeline

    for stage, usage in state.recorder.snapshot().items():
        state.usage[stage] = usage
    state.degraded |= load_pipeline().degraded
    if state.degraded:
        state.note(NoticeKind.DEGRADED_MODEL, "infer", DEGRADED_MESSAGE)
    adversary = state.parts.adversary if state.parts else None
    if adversary_is_local(adversary, state.config.adversary):
        dataset = state.config.dataset or state.data_id
        message = lower_bound_warning(dataset, state.config.anonymizer)
        state.note(NoticeKind.LOWER_BOUND, "infer", message)
    if state.gt_source == "automatic":
        state.note(NoticeKind.NO_GROUND_TRUTH, "ground_truth", AUTOMATIC_GT_MESSAGE, Severity.INFO)
        original = state.document.text if state.document is not None else ""
        if message := already_redacted_message(original):
            state.note(NoticeKind.INPUT_QUIRK, "validate", message)
    doc, red = state.document, state.anonymized
    if (
        state.config.anonymizer == "provided"
        and doc is not None
        and red is not None
        and (message := unrelated_pair_message(doc.text, red.text))
    ):
        state.note(NoticeKind.INPUT_QUIRK, "anonymize", message)
