"""max_tokens per stage, bounded by what each answer needs.

Without a bound a small local model can run to its output limit (4,096 tokens at 12 tokens/s
is minutes per call) when it loops inside a JSON array. Each budget is generous for a correct
answer of that size and far below the model limits.
"""

from __future__ import annotations

#: Stage A: a list of subject ids and one-line descriptions.
SUBJECTS = 1536
#: Per subject of a Stage B answer (up to ~10 PIIs with evidence and a short reasoning each).
PER_PROFILE_SUBJECT = 900
#: Per judged pair (a label and a one-sentence rationale) / per matched subject.
PER_JUDGED_PAIR = 120
PER_MATCHED_SUBJECT = 120
#: Fixed part of every JSON answer (braces, keys, a short preamble the model may add).
BASE = 512
#: The utility judge: three scores with a rationale each.
UTILITY = 800
#: The largest budget asked of any stage.
CAP = 8192


def profile(n_subjects: int) -> int:
    """Stage B (CODE or NON-CODE) answer for ``n_subjects`` subjects."""
    return min(CAP, BASE + PER_PROFILE_SUBJECT * max(1, n_subjects))


def judge(n_pairs: int) -> int:
    """Batched judge answer for ``n_pairs`` pairs."""
    return min(CAP, BASE + PER_JUDGED_PAIR * max(1, n_pairs))


def matcher(n_subjects: int) -> int:
    """Alignment answer for ``n_subjects`` subjects on both sides together."""
    return min(CAP, BASE + PER_MATCHED_SUBJECT * max(1, n_subjects))
