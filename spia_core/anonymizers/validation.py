"""Is an anonymizer's output a rewrite of its input? A refusal or junk is never protection.

An LLM anonymizer that answers "I'm sorry, I can't help with that." (or "yes", or nothing)
leaves a text from which nothing can be inferred: scored, it would look like full protection.
:func:`check_rewrite` rejects such output with a typed :class:`~spia_core.model.Notice`
(``anonymizer_refused``, severity error) so that the document fails instead of being scored.

Checks, in order: empty output; a known refusal phrase (several languages) that the input
does not contain itself; an output far shorter or longer than the input; an output whose
words are mostly absent from the input (an answer about the text, not a rewrite of it).
Placeholders such as ``[redacted]`` or ``[PERSON]`` count as rewritten words, never as junk.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from spia_core.exposure import without_placeholders
from spia_core.model import Notice, NoticeKind, Severity

#: Output shorter than this share of the input (in characters) is not a rewrite.
MIN_LENGTH_RATIO = 0.2
#: Output longer than this multiple of the input is not a rewrite (a chatty answer).
MAX_LENGTH_RATIO = 4.0
#: Inputs shorter than this many characters skip the length checks (too little to judge).
MIN_CHARS_FOR_RATIO = 40
#: Share of the output's content words (4+ letters) that must occur in the input.
MIN_WORD_OVERLAP = 0.25
#: Outputs with fewer content words than this skip the overlap check.
MIN_WORDS_FOR_OVERLAP = 6

#: Refusal and meta-answer openings, lower-case, apostrophes straightened.
REFUSAL_PATTERNS: tuple[str, ...] = (
    # English
    r"\bi(?:'m| am) (?:so |very )?sorry\b",
    r"\bi (?:can(?:'t|not)|won't|will not|am unable to|'m unable to|am not able to)\b"
    r".{0,40}\b(?:help|assist|comply|provide|do that|fulfil|fulfill|complete|process"
    r"|anonymi[sz]e|rewrite)",
    r"\bas an ai(?: language model)?\b",
    r"\bi (?:must|have to) (?:decline|refuse)\b",
    r"\b(?:unfortunately|sorry),? (?:i|but i)\b.{0,30}\b(?:can(?:'t|not)|unable)\b",
    r"\bthis request (?:violates|goes against)\b",
    # French
    r"\b(?:je suis d[ée]sol[ée]e?|d[ée]sol[ée]e?,)\b",
    r"\bje ne (?:peux pas|suis pas en mesure)\b",
    # German
    r"\b(?:es tut mir leid|entschuldigung)\b",
    r"\bich kann (?:ihnen )?(?:dabei |damit )?(?:nicht|leider nicht|keine)\b",
    # Spanish
    r"\blo siento\b",
    r"\bno puedo (?:ayudar|hacer|cumplir|proporcionar|procesar)\b",
    # Italian
    r"\bmi dispiace\b",
    r"\bnon posso (?:aiutar|fare|fornire|elaborare)\b",
    # Portuguese
    r"\b(?:sinto muito|desculpe)\b",
    r"\bn[ãa]o posso (?:ajudar|fazer|fornecer|processar)\b",
    # Dutch
    r"\bhet spijt me\b",
    r"\bik kan (?:je |u )?(?:daar |hier )?niet (?:mee )?helpen\b",
)
_REFUSAL = re.compile("|".join(f"(?:{p})" for p in REFUSAL_PATTERNS), re.IGNORECASE | re.DOTALL)
#: Only the opening of the output is searched (a refusal is said first).
_REFUSAL_WINDOW = 300
_WORD = re.compile(r"\w+")


def _fold(text: str) -> str:
    """NFKC, lower case, typographic apostrophes straightened."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return text.replace("’", "'").replace("‘", "'").replace("`", "'")


def _words(text: str) -> list[str]:
    """Content words (4+ characters; function words say nothing about a rewrite)."""
    return [w for w in _WORD.findall(_fold(without_placeholders(text))) if len(w) >= 4]


def _refusal(original: str, output: str) -> str | None:
    """The refusal phrase opening ``output`` that ``original`` does not contain, or None."""
    match = _REFUSAL.search(_fold(output[:_REFUSAL_WINDOW]))
    if match is None:
        return None
    phrase = match.group(0)
    return None if phrase in _fold(original) else phrase


def _notice(anonymizer: str, check: str, message: str, **detail: object) -> Notice:
    return Notice(
        kind=NoticeKind.ANONYMIZER_REFUSED,
        stage="anonymize",
        message=f"{anonymizer}: {message}; the document is not scored (a refusal or junk "
        "output would otherwise count as full protection)",
        severity=Severity.ERROR,
        detail={"anonymizer": anonymizer, "check": check, **detail},
    )


def check_rewrite(original: str, output: str, *, anonymizer: str) -> Notice | None:
    """None when ``output`` looks like a rewrite of ``original``; else why not, as a Notice."""
    if not output.strip():
        return _notice(anonymizer, "empty", "the anonymizer returned an empty text")
    phrase = _refusal(original, output)
    if phrase is not None:
        return _notice(
            anonymizer,
            "refusal",
            f"the model refused or answered instead of rewriting ({phrase!r})",
            phrase=phrase,
            output_start=output.strip()[:120],
        )
    n_in, n_out = len(original.strip()), len(output.strip())
    if n_in >= MIN_CHARS_FOR_RATIO:
        ratio = n_out / n_in
        if ratio < MIN_LENGTH_RATIO or ratio > MAX_LENGTH_RATIO:
            return _notice(
                anonymizer,
                "length_ratio",
                f"the output has {n_out} characters for an input of {n_in} (ratio {ratio:.2f}, "
                f"expected {MIN_LENGTH_RATIO}-{MAX_LENGTH_RATIO}): not a rewrite of the input",
                ratio=round(ratio, 4),
                output_start=output.strip()[:120],
            )
    overlap = word_overlap(original, output)
    if overlap is not None and overlap < MIN_WORD_OVERLAP:
        return _notice(
            anonymizer,
            "overlap",
            f"only {overlap:.0%} of the output's words occur in the input "
            f"(at least {MIN_WORD_OVERLAP:.0%} expected): not a rewrite of the input",
            overlap=round(overlap, 4),
            output_start=output.strip()[:120],
        )
    return None


def word_overlap(
    original: str, output: str, min_words: int = MIN_WORDS_FOR_OVERLAP
) -> float | None:
    """Share of ``output``'s content words (4+ characters, placeholders left out) that occur
    in ``original``; None when ``output`` has fewer than ``min_words`` of them."""
    out_words = _words(output)
    if len(out_words) < min_words:
        return None
    vocabulary = set(_words(original))
    return sum(w in vocabulary for w in out_words) / len(out_words)


def rejected_round(
    trace: dict[str, Any],
    warnings: list[str],
    round_no: int,
    before: str,
    rewritten: str,
    anonymizer: str,
) -> bool:
    """For multi-round rewriters: True (recorded in the trace) when a round's rewrite is junk.

    The caller stops; after round 1 it keeps the previous round's text, in round 1 it returns
    the rejected text so that the anonymize stage fails the document.
    """
    notice = check_rewrite(before, rewritten, anonymizer=anonymizer)
    if notice is None:
        return False
    trace.setdefault("failures", []).append(
        {"round": round_no, "reason": notice.message, "check": notice.detail["check"]}
    )
    if round_no > 1:
        warnings.append(f"round {round_no}: rewrite rejected, kept round {round_no - 1}")
    return True
