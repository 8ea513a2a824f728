"""Subject matching: a one-to-one assignment of GT subjects to inferred subjects.

The reference aligns subjects with one LLM call and deduplicates only the GT side, so one
inferred subject can be credited to several GT subjects, and which duplicate wins depends on
PYTHONHASHSEED (notes §3.2). Here every matcher returns a proper bipartite assignment, and the
local matcher is deterministic: the same subjects give the same pairs whatever their input order.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol

import jellyfish
import numpy as np

from spia_core.evaluation import assignment
from spia_core.model import Assignment, MatchPair, Subject
from spia_core.registry import Registry
from spia_core.taxonomy import CODE_TAGS, TAGS
from spia_core.text.normalise import fold


class Matcher(Protocol):
    """Pairs GT subjects with inferred subjects, one-to-one."""

    name: str

    def match(
        self,
        gt: list[Subject],
        pred: list[Subject],
        *,
        original_text: str = "",
        anonymized_text: str = "",
    ) -> Assignment:
        """Every GT subject appears in exactly one pair (pred None = unmatched)."""
        ...


MATCHERS: Registry[Matcher] = Registry[Matcher](
    "matcher", builtins=("spia_core.evaluation.llm_matcher",)
)

# --------------------------------------------------------------------------- names


def _wordset(*lines: str) -> frozenset[str]:
    """A set of space-separated words."""
    return frozenset(" ".join(lines).split())


_TITLES = _wordset(
    "mr mrs ms miss mx dr prof professor sir lord lady dame judge justice mme mlle m herr frau ",
    "sr sra jr",
)
#: Words that make a NAME value a placeholder rather than a name ("[PERSON]", "Mr X", ...).
_PLACEHOLDERS = _wordset(
    "person name redacted unknown anonymous anon anonymised anonymized masked removed withheld ",
    "applicant individual user author subject someone xxx xx na none null",
)


_NON_ALNUM = re.compile(r"[^a-z0-9]+")


@functools.lru_cache(maxsize=65536)
def _fold(text: str) -> str:
    """:func:`normalise.fold` (case, accents, special letters), then letters/digits/spaces only."""
    return _NON_ALNUM.sub(" ", fold(text)).strip()


def name_tokens(name: str) -> list[str]:
    """Normalised name tokens without titles; [] for a placeholder or empty name."""
    tokens = [t for t in _fold(name).split() if t not in _TITLES]
    real = [t for t in tokens if t.isalpha() and len(t) >= 2 and t not in _PLACEHOLDERS]
    return [t for t in tokens if t.isalpha()] if real else []


def _same_token(a: str, b: str) -> bool:
    """Equal, an initial of the other, or a near-identical spelling."""
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    return jellyfish.jaro_winkler_similarity(a, b) >= 0.92


def name_similarity(a: str, b: str) -> float | None:
    """Similarity of two person names in [0, 1]; None when either is not a usable name.

    Same surname and a shared given name (or initial) score 0.95, surname only 0.8, same
    surname with a different given name (a relative) 0.3, another shared token 0.6; otherwise
    Jaro-Winkler rescaled so that unrelated names score 0.
    """
    ta, tb = name_tokens(a), name_tokens(b)
    if not ta or not tb:
        return None
    if ta == tb:
        return 1.0
    full_a, full_b = [t for t in ta if len(t) > 1], [t for t in tb if len(t) > 1]
    if not full_a or not full_b:
        return 0.0
    surname = _same_token(full_a[-1], full_b[-1])
    if len(ta) > 1 and len(tb) > 1:
        given = any(_same_token(x, y) for x in ta[:-1] for y in tb[:-1])
        if surname and given:
            return 0.95
        if surname:
            return 0.3
    elif surname:
        return 0.8
    if any(_same_token(x, y) for x in full_a for y in full_b):
        return 0.6
    jw = jellyfish.jaro_winkler_similarity(" ".join(ta), " ".join(tb))
    return round(max(0.0, (jw - 0.85) / 0.15) * 0.9, 6)


def best_name_similarity(a: Subject, b: Subject) -> float | None:
    """Best similarity over both subjects' NAME values; None if either has no usable name."""
    sims = [
        s
        for pa in a.values("NAME")
        for pb in b.values("NAME")
        if (s := name_similarity(pa.keyword, pb.keyword)) is not None
    ]
    return max(sims) if sims else None


# --------------------------------------------------------------------------- descriptions

#: Role word -> canonical role.
_ROLES: dict[str, str] = {
    **dict.fromkeys(
        ["applicant", "applicants", "petitioner", "complainant", "claimant"], "applicant"
    ),
    **dict.fromkeys(
        ["lawyer", "counsel", "attorney", "advocate", "barrister", "solicitor", "representative"],
        "lawyer",
    ),
    **dict.fromkeys(["agent"], "agent"),
    **dict.fromkeys(["judge", "justice", "magistrate"], "judge"),
    **dict.fromkeys(["prosecutor", "prosecutors"], "prosecutor"),
    **dict.fromkeys(["wife", "husband", "spouse", "widow", "widower"], "spouse"),
    **dict.fromkeys(["son", "daughter", "child", "children"], "child"),
    **dict.fromkeys(["mother", "father", "parent", "parents"], "parent"),
    **dict.fromkeys(["brother", "sister", "sibling"], "sibling"),
    **dict.fromkeys(["grandmother", "grandfather", "grandson", "granddaughter"], "grandparent"),
    **dict.fromkeys(["uncle", "aunt", "nephew", "niece", "cousin"], "relative"),
    **dict.fromkeys(["author", "poster", "writer", "op"], "author"),
    **dict.fromkeys(["witness"], "witness"),
    **dict.fromkeys(["victim"], "victim"),
    **dict.fromkeys(["doctor", "physician", "psychiatrist", "surgeon"], "doctor"),
    **dict.fromkeys(["officer", "policeman", "policemen", "gendarme"], "officer"),
    **dict.fromkeys(["friend"], "friend"),
    **dict.fromkeys(["colleague", "coworker"], "colleague"),
    **dict.fromkeys(["partner", "boyfriend", "girlfriend", "fiance", "fiancee"], "partner"),
    **dict.fromkeys(["employer", "manager", "boss"], "employer"),
    **dict.fromkeys(["neighbour", "neighbor"], "neighbour"),
    **dict.fromkeys(["mayor"], "mayor"),
    **dict.fromkeys(["president", "chairman", "chairwoman", "chair"], "president"),
    **dict.fromkeys(["commissioner", "ombudsman"], "commissioner"),
    **dict.fromkeys(["minister"], "minister"),
    **dict.fromkeys(["governor"], "governor"),
    **dict.fromkeys(["registrar", "clerk"], "registrar"),
    **dict.fromkeys(["investigator", "inspector", "detective"], "investigator"),
    **dict.fromkeys(["expert"], "expert"),
    **dict.fromkeys(["director", "head", "chief"], "director"),
    **dict.fromkeys(["official", "officials", "civil"], "official"),
    **dict.fromkeys(
        ["detainee", "prisoner", "inmate", "suspect", "accused", "defendant"], "accused"
    ),
    **dict.fromkeys(["student", "pupil"], "student"),
    **dict.fromkeys(["teacher"], "teacher"),
    **dict.fromkeys(["employee", "worker"], "employee"),
    **dict.fromkeys(["customer", "client"], "customer"),
}
#: Roles are read from the label (before " - ") and this many words of the description after it.
ROLE_WINDOW = 12
_STOPWORDS = _wordset(
    "the and for with who was were has had have his her their its from that this which into ",
    "about also been being after before during under over than then them they she him are not ",
    "but all any one two per via mr mrs ms",
)
_WORD = re.compile(r"[a-z0-9]+(?:'s)?")


@functools.lru_cache(maxsize=65536)
def primary_role(description: str) -> str | None:
    """First non-possessive role word of a description ("applicant's wife" -> spouse)."""
    text = unicodedata.normalize("NFKD", description).lower().replace("’", "'")
    label, sep, body = text.partition(" - ")
    words = (
        _WORD.findall(label) + _WORD.findall(body)[:ROLE_WINDOW]
        if sep
        else _WORD.findall(text)[:ROLE_WINDOW]
    )
    for word in words:
        if word.endswith("'s"):
            continue
        if word in _ROLES:
            return _ROLES[word]
    return None


@functools.lru_cache(maxsize=65536)
def description_words(description: str) -> frozenset[str]:
    """Content words of a description (folded, no stop words, length >= 3 or a number)."""
    return frozenset(
        w
        for w in _fold(description).split()
        if (len(w) >= 3 or w.isdigit()) and w not in _STOPWORDS
    )


def word_overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Cosine similarity of two word sets."""
    if not a or not b:
        return 0.0
    return len(a & b) / (len(a) * len(b)) ** 0.5


# --------------------------------------------------------------------------- PII values

#: How strongly an equal value of a tag points to the same person (NAME is scored separately).
AGREE_WEIGHTS: dict[str, float] = {
    **dict.fromkeys(CODE_TAGS, 0.9),
    "AGE": 0.35,
    "LOCATION": 0.3,
    "AFFILIATION": 0.35,
    "POSITION": 0.3,
    "OCCUPATION": 0.25,
    "NATIONALITY": 0.15,
    "EDUCATION": 0.1,
    "RELATIONSHIP": 0.1,
    "SEX": 0.05,
}
#: How strongly differing values of a tag point to different people.
CONFLICT_WEIGHTS: dict[str, float] = {
    **dict.fromkeys(CODE_TAGS, 0.4),
    "SEX": 0.3,
    "AGE": 0.25,
    "NATIONALITY": 0.25,
    "LOCATION": 0.2,
    "AFFILIATION": 0.15,
    "RELATIONSHIP": 0.1,
    "OCCUPATION": 0.1,
    "POSITION": 0.1,
    "EDUCATION": 0.05,
}
NAME_CONFLICT_WEIGHT = 0.6
#: A name alone never saturates the similarity, so descriptions still separate namesakes.
NAME_EVIDENCE_CAP = 0.9
ROLE_CONFLICT_WEIGHT = 0.3


@functools.lru_cache(maxsize=65536)
def normalise_value(tag: str, keyword: str) -> str:
    """Comparable form of a keyword: alphanumerics for codes, folded text otherwise."""
    if tag in CODE_TAGS and tag != "EMAIL_ADDRESS":
        return re.sub(r"[^A-Za-z0-9]", "", keyword).upper()
    if tag == "EMAIL_ADDRESS":
        return keyword.strip().lower()
    if tag == "SEX":
        folded = _fold(keyword)
        return {"m": "male", "man": "male", "f": "female", "woman": "female"}.get(folded, folded)
    return _fold(keyword)


def _values_by_tag(subject: Subject) -> dict[str, set[str]]:
    """Tag -> the normalised values of the subject's non-empty PIIs (one pass over them)."""
    out: dict[str, set[str]] = {}
    for p in subject.piis:
        if not p.is_empty and (v := normalise_value(p.tag, p.keyword)):
            out.setdefault(p.tag, set()).add(v)
    return out


def _noisy_or(weights: list[float]) -> float:
    prod = 1.0
    for w in weights:
        prod *= 1.0 - w
    return 1.0 - prod


# --------------------------------------------------------------------------- similarity


@dataclass(frozen=True)
class Similarity:
    """The similarity of one GT subject and one inferred subject, with its evidence."""

    value: float
    reason: str


@functools.lru_cache(maxsize=16)
def _text_words(text: str) -> frozenset[str]:
    """The folded words of a (document) text; cached, as every subject pair asks again."""
    return frozenset(_fold(text).split())


def _names_in_text(subject: Subject, text: str) -> bool:
    """True when one of the subject's names occurs (all its tokens) in the text."""
    words = _text_words(text)
    return any(
        (tokens := [t for t in name_tokens(p.keyword) if len(t) > 1])
        and all(t in words for t in tokens)
        for p in subject.values("NAME")
    )


def _is_substitute(pred: Subject, original_text: str, anonymized_text: str) -> bool:
    """A predicted name absent from the original text (and, when the anonymized text is known,
    present in it) was put there by the anonymizer: a pseudonym, not a different person."""
    if not original_text or _names_in_text(pred, original_text):
        return False
    return not anonymized_text or _names_in_text(pred, anonymized_text)


def subject_similarity(
    gt: Subject, pred: Subject, *, original_text: str = "", anonymized_text: str = ""
) -> Similarity:
    """Combine name, description and shared-PII evidence into a similarity in [0, 1].

    Agreeing evidence is combined as a noisy-OR; conflicting evidence (different names, roles,
    sex, codes, ...) scales the result down, so unrelated people are not matched on a shared
    role ("the applicant") alone. When ``original_text`` is given, a differing predicted name
    that does not occur in it (but does in ``anonymized_text``, when given) is a substitute
    (pseudonym) and is not held against the pair.
    """
    reasons: list[str] = []
    conflicts: list[float] = []
    conflict_tags: list[str] = []

    name = best_name_similarity(gt, pred)
    name_evidence = 0.0
    if name is not None:
        reasons.append(f"name {name:.2f}")
        if name >= 0.5:
            name_evidence = NAME_EVIDENCE_CAP * name
        elif name < 0.35:
            if _is_substitute(pred, original_text, anonymized_text):
                reasons.append("inferred name not in the original (substitute)")
            else:
                conflicts.append(NAME_CONFLICT_WEIGHT)
                conflict_tags.append("NAME")

    role_gt, role_pred = primary_role(gt.description), primary_role(pred.description)
    role = 0.0
    if role_gt and role_pred:
        if role_gt == role_pred:
            role = 1.0
            reasons.append(f"role {role_gt}")
        else:
            conflicts.append(ROLE_CONFLICT_WEIGHT)
            conflict_tags.append(f"role {role_gt}/{role_pred}")
    words = word_overlap(description_words(gt.description), description_words(pred.description))
    if words >= 0.05:
        reasons.append(f"description {words:.2f}")
    desc = 1.0 - (1.0 - 0.7 * role) * (1.0 - words)

    agree: list[float] = []
    shared: list[str] = []
    values_gt, values_pred = _values_by_tag(gt), _values_by_tag(pred)
    for tag in TAGS:
        if tag == "NAME":
            continue
        a, b = values_gt.get(tag, set()), values_pred.get(tag, set())
        if not a or not b:
            continue
        if a & b:
            agree.append(AGREE_WEIGHTS.get(tag, 0.1))
            shared.append(tag)
        else:
            conflicts.append(CONFLICT_WEIGHTS.get(tag, 0.05))
            conflict_tags.append(tag)
    if shared:
        reasons.append("shared " + ", ".join(shared))
    if conflict_tags:
        reasons.append("conflict " + ", ".join(conflict_tags))

    support = 1.0 - (1.0 - name_evidence) * (1.0 - 0.85 * desc) * (1.0 - _noisy_or(agree))
    value = round(support * (1.0 - _noisy_or(conflicts)), 6)
    return Similarity(value, "; ".join(reasons) or "no shared evidence")


# --------------------------------------------------------------------------- assignment


def _sorted_unique(subjects: list[Subject], side: str) -> list[Subject]:
    ids = [s.id for s in subjects]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"{side} subjects have duplicate ids: {dupes}")
    return sorted(subjects, key=lambda s: s.id)


#: The similarity of a pair that blocking left out (it cannot reach the bar).
BLOCKED = Similarity(
    0.0, "no inferred subject comes near (no shared name, role, description word or value)"
)


class _WithBlocked(dict):  # type: ignore[type-arg]
    """Similarities, with :data:`BLOCKED` for every pair that was not compared."""

    def __missing__(self, key: tuple[int, int]) -> Similarity:
        return BLOCKED


def _with_blocked(sims: dict[tuple[int, int], Similarity]) -> dict[tuple[int, int], Similarity]:
    return sims if isinstance(sims, _WithBlocked) else _WithBlocked(sims)


def assign(
    gt: list[Subject],
    pred: list[Subject],
    sims: dict[tuple[int, int], Similarity],
    min_similarity: float,
    matcher: str,
) -> Assignment:
    """One-to-one assignment maximising total similarity; pairs below the bar are refused.

    Exact ties are broken towards pairs of equal rank (GT and inferred subjects listed in the
    same position when sorted by id), so the result never depends on input order or hashing.
    """
    gt, pred = _sorted_unique(gt, "GT"), _sorted_unique(pred, "inferred")
    sims = _with_blocked(sims)
    matrix = np.zeros((len(gt), len(pred)))
    col = {p.id: j for j, p in enumerate(pred)}
    row = {g.id: i for i, g in enumerate(gt)}
    for (gid, pid), sim in sims.items():
        if sim.value >= min_similarity and gid in row and pid in col:
            i, j = row[gid], col[pid]
            matrix[i, j] = sim.value - 1e-9 * abs(i - j)
    chosen: dict[int, int] = {}
    if matrix.size:
        rows, cols = assignment.solver()(matrix, maximize=True)  # scipy's linear_sum_assignment
        chosen = {int(r): int(c) for r, c in zip(rows, cols, strict=True) if matrix[r, c] > 0}
    pairs: list[MatchPair] = []
    for i, g in enumerate(gt):
        if i in chosen:
            p = pred[chosen[i]]
            s = sims[(g.id, p.id)]
            pairs.append(MatchPair(g.id, p.id, s.value, s.reason))
            continue
        if not pred:
            pairs.append(MatchPair(g.id, None, 0.0, "no inferred subjects"))
            continue
        best = max(pred, key=lambda p, g=g: (sims[(g.id, p.id)].value, -p.id))
        s = sims[(g.id, best.id)]
        if s is BLOCKED:
            pairs.append(MatchPair(g.id, None, 0.0, f"unmatched: {BLOCKED.reason}"))
            continue
        why = "below" if s.value < min_similarity else "at or above"
        pairs.append(
            MatchPair(
                g.id,
                None,
                s.value,
                f"unmatched: best candidate {best.id} at {s.value:.2f} ({why} "
                f"{min_similarity:.2f}; {s.reason})",
            )
        )
    used = {pred[j].id for j in chosen.values()}
    extra = [p.id for p in pred if p.id not in used]
    return Assignment(pairs=pairs, extra_pred_subject_ids=extra, matcher=matcher)


# --------------------------------------------------------------------------- blocking


def _name_links(gt: list[Subject], pred: list[Subject]) -> set[tuple[int, int]]:
    """(gt index, pred index) of every pair whose names could score >= 0.5.

    :func:`name_similarity` reaches 0.5 only when the token lists are equal, two full tokens
    are the same by :func:`_same_token`, or the joined names are Jaro-Winkler close; each case
    is found here over the distinct names and tokens, not over subject pairs.
    """

    def names(subjects: list[Subject]) -> dict[tuple[str, ...], list[int]]:
        out: dict[tuple[str, ...], list[int]] = {}
        for i, s in enumerate(subjects):
            for p in s.values("NAME"):
                tokens = tuple(name_tokens(p.keyword))
                if tokens:
                    out.setdefault(tokens, []).append(i)
        return out

    gn, pn = names(gt), names(pred)
    linked: set[tuple[tuple[str, ...], tuple[str, ...]]] = {(t, t) for t in gn.keys() & pn.keys()}
    by_token: dict[str, list[tuple[str, ...]]] = {}
    for tokens in pn:
        for t in {t for t in tokens if len(t) > 1}:
            by_token.setdefault(t, []).append(tokens)
    g_tokens = {t for tokens in gn for t in tokens if len(t) > 1}
    same = {(a, b) for a in g_tokens for b in by_token if _same_token(a, b)}
    for a, b in same:
        for tg in (x for x in gn if a in x):
            linked.update((tg, tp) for tp in by_token[b])
    for tg in gn:
        jg = " ".join(tg)
        for tp in pn:
            jw = jellyfish.jaro_winkler_similarity(jg, " ".join(tp))
            if (jw - 0.85) / 0.15 * 0.9 >= 0.5 - 1e-9:
                linked.add((tg, tp))
    return {(i, j) for tg, tp in linked for i in gn[tg] for j in pn[tp]}


def _feature_matrix(rows: list[dict[str, float]], vocab: dict[str, int]) -> Any:
    from scipy.sparse import csr_matrix

    data, indices, indptr = [], [], [0]
    for row in rows:
        for key, weight in row.items():
            if key in vocab:
                indices.append(vocab[key])
                data.append(weight)
        indptr.append(len(indices))
    return csr_matrix((data, indices, indptr), shape=(len(rows), len(vocab)))


def _shared(g_rows: list[dict[str, float]], p_rows: list[dict[str, float]]) -> np.ndarray:
    """Dense (gt x pred) sum over shared keys of gt weight x pred weight (a sparse product)."""
    vocab = {
        k: i for i, k in enumerate({k for r in g_rows for k in r} & {k for r in p_rows for k in r})
    }
    if not vocab:
        return np.zeros((len(g_rows), len(p_rows)))
    return (_feature_matrix(g_rows, vocab) @ _feature_matrix(p_rows, vocab).T).toarray()


def _value_rows(subjects: list[Subject]) -> list[dict[str, float]]:
    """Per subject: (tag, value) key -> -log(1 - agree weight) (an upper bound on agreement)."""
    return [
        {
            f"{tag}\x00{v}": -np.log1p(-AGREE_WEIGHTS.get(tag, 0.1))
            for tag, values in _values_by_tag(s).items()
            if tag != "NAME"
            for v in values
        }
        for s in subjects
    ]


def candidate_pairs(gt: list[Subject], pred: list[Subject], min_similarity: float) -> np.ndarray:
    """Boolean (gt x pred) mask of the pairs whose similarity can reach ``min_similarity``.

    Blocking for long documents: an upper bound of :func:`subject_similarity` is computed for
    every pair at once (names linked through shared tokens, same role, description-word cosine
    and shared values by sparse products; conflicts ignored), and only pairs whose bound reaches
    the bar are scored one by one. Every pair left out scores below the bar exactly, so the
    assignment is the one all-pairs scoring gives.
    """
    n_g, n_p = len(gt), len(pred)
    name = np.zeros((n_g, n_p))
    for i, j in _name_links(gt, pred):
        name[i, j] = NAME_EVIDENCE_CAP
    roles_g = [{r: 1.0} if (r := primary_role(s.description)) else {} for s in gt]
    roles_p = [{r: 1.0} if (r := primary_role(s.description)) else {} for s in pred]
    role = _shared(roles_g, roles_p)
    words_g = [description_words(s.description) for s in gt]
    words_p = [description_words(s.description) for s in pred]
    shared_words = _shared(
        [dict.fromkeys(w, 1.0) for w in words_g], [dict.fromkeys(w, 1.0) for w in words_p]
    )
    sizes = np.sqrt(np.outer([len(w) for w in words_g], [len(w) for w in words_p]))
    cosine = np.divide(shared_words, sizes, out=np.zeros_like(shared_words), where=sizes > 0)
    desc = 1.0 - (1.0 - 0.7 * role) * (1.0 - cosine)
    ones = [dict.fromkeys(row, 1.0) for row in _value_rows(pred)]
    agree_log = _shared(_value_rows(gt), ones)
    bound = 1.0 - (1.0 - name) * (1.0 - 0.85 * desc) * np.exp(-agree_log)
    return bound >= min_similarity - 1e-9


#: Below this many subject pairs every pair is scored: the bound's sparse products cost more
#: than they save (TAB-144 original, 288 matchings: 1.12 s CPU blocked, 0.32 s all pairs).
BLOCKING_MIN_PAIRS = 400


@MATCHERS.register("local")
class LocalMatcher:
    """Offline matcher on names, descriptions (roles, words) and shared PII values.

    ``min_similarity`` was calibrated on the shipped GT (see tests/test_matching.py): GT
    against itself matches every subject, GT of one document against another matches few.
    """

    name = "local"

    def __init__(self, min_similarity: float = 0.4, *, blocking: bool = True) -> None:
        if not 0.0 < min_similarity <= 1.0:
            raise ValueError(f"min_similarity must be in (0, 1], got {min_similarity}")
        self.min_similarity = min_similarity
        #: Score only the pairs :func:`candidate_pairs` keeps (same assignment, far fewer
        #: pairs on long documents); False scores every pair.
        self.blocking = blocking

    def match(
        self,
        gt: list[Subject],
        pred: list[Subject],
        *,
        original_text: str = "",
        anonymized_text: str = "",
    ) -> Assignment:
        if self.blocking and len(gt) * len(pred) >= BLOCKING_MIN_PAIRS:
            keep = candidate_pairs(gt, pred, self.min_similarity)
            pairs = [(g, p) for i, g in enumerate(gt) for j, p in enumerate(pred) if keep[i, j]]
        else:
            pairs = [(g, p) for g in gt for p in pred]
        sims = {
            (g.id, p.id): subject_similarity(
                g, p, original_text=original_text, anonymized_text=anonymized_text
            )
            for g, p in pairs
        }
        return assign(gt, pred, sims, self.min_similarity, self.name)
