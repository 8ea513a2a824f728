"""LocalAdversary: the offline, rule-and-lexicon SPIA adversary (Stage A subjects, Stage B tags)."""

from __future__ import annotations

import re
import time

import spia_core.adversary.local.lexicons as lexicons
from spia_core import progress
from spia_core.adversary.base import InferenceResult
from spia_core.adversary.local.attributes import stage
from spia_core.adversary.local.context import DocContext, Segment, build_segments, infer_country
from spia_core.adversary.local.lexicons import canonical_kin, capitalised
from spia_core.adversary.local.parse import tokens_of
from spia_core.adversary.local.patterns import masked_spans
from spia_core.adversary.local.subjects import Draft, find_subjects
from spia_core.model import PII, Subject
from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY

_CUES = lexicons.subject_cues()

#: Longest text accepted (characters); longer input raises ValueError.
MAX_CHARS = 1_000_000


def _validate(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"LocalAdversary.infer expects str, got {type(text).__name__}")
    if not text.strip():
        raise ValueError("LocalAdversary.infer: the text is empty (nothing to infer from)")
    if len(text) > MAX_CHARS:
        raise ValueError(
            f"LocalAdversary.infer: text has {len(text):,} characters; the limit is {MAX_CHARS:,}"
        )
    return text


def _owner(d: Draft) -> str:
    """Who a relative belongs to, in words ("the applicant", "the author", "Mr X")."""
    a = d.anchor or Draft()  # no anchor: "another subject"
    if a.is_author:
        return "the author"
    if "applicant" in a.roles:
        return "the applicant"
    if a.kin and not a.best_name and a.anchor is not d and a.anchor is not a:
        return "the " + _kin_phrase(a)  # "husband of the sister of the author"
    said = [m.text for m in a.mentions if m.kind == "role"]  # a slot's role: "the patient"
    slots = [m for m in a.mentions if m.kind == "placeholder"]
    said += [f"the {m.role.lower()}" if m.role else m.text for m in slots]
    your = any(m.anchor == "your" for m in d.mentions)  # a letter's "your son"
    said.append("the addressee" if your else "another subject")
    return a.best_name or re.sub(r"^(?:The|Our|My)\b", lambda w: w[0].lower(), said[0])


def _kin_phrase(d: Draft) -> str:
    info = lexicons.kin_words().get(d.kin)
    young = info is not None and info.age_hint in {"child", "baby"} and not info.sex
    kin = "child" if young or d.kin == "kid" else canonical_kin(d.kin).lower()
    num = f" {d.child_index}" if d.child_count > 1 else ""
    return f"{kin}{num} of {_owner(d)}"


def _role_phrase(d: Draft) -> str:
    """The most specific role phrase of a subject, without its determiner."""
    phrases = [m.text for m in d.mentions if m.kind == "role" and m.role != "applicant"]
    phrases += [m.role for m in d.mentions if m.kind == "placeholder" and m.role]  # slot roles
    return _CUES["role_determiner"].sub("", max(phrases, key=len)) if phrases else ""


def _label(d: Draft, index: int) -> str:
    if name := d.best_name:
        return f"{d.title} {name}".strip() if d.title and not name.startswith(d.title) else name
    if d.is_author:
        return "The author"
    if d.kin:
        return capitalised(_kin_phrase(d))
    # A role mention first; else a slot ('Requester: XXX', 'the planning officer, XXX,'): its role
    if said := [m for m in d.mentions if m.kind in {"role", "placeholder"}]:
        m = min(said, key=lambda m: m.kind != "role")
        return capitalised(_role_phrase(d) or m.text.strip())
    if (held := next((m for m in d.mentions if m.kind == "code" and m.role), None)) is not None:
        tag = d.codes[0].tag if d.codes else ""
        what = lexicons.word_map("code_label").get(tag, d.code_kind or "ID")
        return f"{held.role.capitalize()} whose {what} is {held.text}"
    return f"Holder of {d.codes[0].value}" if d.codes else f"Person {index}"


_CLIP_WORDS = 10
#: What a subject's description states of a value of these tags (certainty >= 3).
_FACTS = {"NATIONALITY": "{} national", "AGE": "aged {}", "LOCATION": "lives in {}"}
_PLACEHOLDER = re.compile(r"\[[A-Z_]+(?:_\d+)?\]")


def _context_clip(ctx: DocContext, d: Draft) -> str:
    """The words around a subject's first mention, as an LLM would describe an unnamed person
    ("mentioned in: 'Big thanks to my ... and ... for the inspiration'"); placeholders dropped."""
    if not (spoken := [m for m in d.mentions if m.kind != "author" and m.end]):
        return ""
    m = min(spoken, key=lambda m: m.start)
    s0, s1 = ctx.sentence_of(m.start)
    s1 = max(s1, m.end)
    if s0 > 0 and not ctx.text[s0 : m.start].strip():
        # The parser may open a sentence at a placeholder ("... number [CODE] for a [DEM]."):
        # the words before it belong to the same clause.
        s0 = ctx.sentence_of(s0 - 1)[0]
    before = re.split(r"[|\n]", ctx.text[s0 : m.start])[-1].split()[-_CLIP_WORDS:]
    after = re.split(r"[|\n]", ctx.text[m.end : s1])[0].split()[:_CLIP_WORDS]
    words = [
        w for w in [*before, "…", *after] if not _PLACEHOLDER.fullmatch(w.strip(".,;:()“”\"'’"))
    ]
    clip = _PLACEHOLDER.sub("…", " ".join(words)).strip(" ,;:")
    return clip if len(re.findall(r"[A-Za-z]{3,}", clip)) >= 2 else ""


def _describe(d: Draft, index: int, piis: list[PII], ctx: DocContext) -> str:
    """A subject's description: its label, then what the text says of it."""
    facts: list[str] = []
    label = _label(d, index)
    if d.guess in lexicons.word_map("guess_label"):
        facts.append(lexicons.word_map("guess_label")[d.guess])
    first = min((m.start for m in d.mentions if m.kind in {"name", "placeholder"}), default=0)
    if not d.kin and (social := _CUES["social"].search(ctx.text[max(0, first - 40) : first])):
        word = social.group(1).lower()  # "my friend [PERSON]"; "my best mate [PERSON]": a friend
        facts.append(f"{lexicons.word_map('social_noun')[word] or word} of the author")
    for key in d.roles:
        fact = lexicons.word_map("role_label").get(key)
        if key == "applicant" and d.roles[key] > 1:
            fact = f"applicant number {d.roles[key]}"
        if fact and fact not in facts:
            facts.append(fact)
    phrase = _role_phrase(d)
    if phrase and phrase.lower() not in label.lower() and phrase not in facts:
        facts.append(phrase)
    if d.kin and not label.lower().startswith(d.kin):
        facts.append(_kin_phrase(d))
    elif not d.kin and d.anchor is not None and phrase:
        facts.append(f"{phrase.lower()} of {_owner(d)}")
    if d.is_author:
        facts.append("author of the text (post author)")
        item = _CUES["item"].search(ctx.text)
        if item is not None:  # a sale listing: the author is the seller of the item
            facts.append("seller of " + " ".join(item.group("item").split()[:8]))
    values = {p.tag: p.keyword for p in piis if p.certainty >= 3}
    facts += [fact.format(values[t]) for t, fact in _FACTS.items() if t in values]
    for tag in ("OCCUPATION", "POSITION", "AFFILIATION", "RELATIONSHIP"):
        if tag in values and values[tag] not in facts:
            facts.append(values[tag])
    if (
        not d.is_author
        and not d.best_name
        and (not d.kin or d.guess)
        and not d.roles.keys() - {"holder"}
        and not d.identity.startswith("MASK:")  # a redacted person: no quote of the text
        and not phrase  # 'Our team lead, [PERSON],': its role, no quote
        and (clip := _context_clip(ctx, d))
    ):
        facts.append(f"individual mentioned in “{clip}”")
    return " ".join((f"{label} - {', '.join(facts)}" if facts else label).split())


class LocalAdversary:
    """Offline adversary: spaCy NER + rules + lexicons. Weaker than an LLM, needs no network."""

    name = "local"
    display_name = "Local (offline rules + spaCy)"
    is_local = True
    needs_backbone = False
    description = (
        "Offline adversary: spaCy NER, rules and lexicons. No network and no key; "
        "weaker than an LLM adversary."
    )

    def __init__(self, pipeline=None) -> None:
        self._pipeline = pipeline

    def _nlp(self):
        if self._pipeline is None:
            from spia_core.nlp import load_pipeline

            self._pipeline = load_pipeline()
        return self._pipeline

    def infer(self, text: str) -> InferenceResult:
        """Stage A (subjects) then Stage B (15 tags per subject), each PII with evidence."""
        text = _validate(text)
        t0 = time.perf_counter()
        pipe = self._nlp()
        from spia_core.nlp import parse

        progress.report(0, 1, "parse")
        doc = parse(text, pipe)  # the audit's one parse of this text (shared with other stages)
        ents = [(e.start_char, e.end_char, e.label_) for e in doc.ents]
        sents = _sentences(doc, text)
        t1 = time.perf_counter()
        masks = masked_spans(text)
        decisions: list[tuple[str, int, int, str]] = []
        drafts = find_subjects(text, ents, masks, tokens_of(doc), decisions=decisions)
        ctx = DocContext(text=text, sentences=sents, ents=ents, masks=masks, drafts=drafts)
        ctx.doc = doc if doc.has_annotation("DEP") else None
        build_segments(ctx)
        for d in drafts:  # the article's writer is only referred to: the comment is the author's
            if "writer" in d.roles and not d.names:
                ctx.segments[id(d)] = []
        _author_holds_the_rest(ctx)
        infer_country(ctx)
        subjects = []
        step = max(1, len(drafts) // 20)
        for i, d in enumerate(drafts):
            if i % step == 0:
                progress.report(i, len(drafts), "people")
            piis = stage.choose(stage.candidates(ctx, d))
            for p in piis:  # a value read across a line break ("Head of Science\n\n") is one line
                p.keyword = " ".join(p.keyword.split())
            exposed = (p.certainty >= DEFAULT_MIN_CERTAINTY and p.tag != "SEX" for p in piis)
            if not d.tentative or any(exposed):  # a tentative writer: with a fact the audit counts
                subjects.append(Subject(id=i, description=_describe(d, i, piis, ctx), piis=piis))
        progress.report(len(drafts), len(drafts), "people")
        t2 = time.perf_counter()
        trace = {
            "spacy_model": pipe.model_name,
            "n_entities": len(ents),
            "n_placeholders": len(masks),
            "subject_decisions": [
                {"pass": p, "start": s0, "end": s1, "text": text[s0:s1], "why": why}
                for p, s0, s1, why in decisions
            ],
            "document_country": ctx.country,
            "document_country_certainty": ctx.country_certainty,
            "timings_s": {"nlp": round(t1 - t0, 4), "rules": round(t2 - t1, 4)},
        }
        warnings = ["no trained spaCy model: names come from titles and rules only"] * pipe.degraded
        return InferenceResult(
            subjects, self.name, trace=trace, degraded=pipe.degraded, warnings=warnings
        )


def _author_holds_the_rest(ctx: DocContext) -> None:
    """In a post, text that no other person's mention or pronoun covers speaks about the
    author ("As a night nurse, I ..."): it becomes part of the author's segments."""
    if (author := next((d for d in ctx.drafts if d.is_author), None)) is None:
        return
    covered = sorted((g.start, g.end) for d in ctx.drafts if d is not author for g in ctx.segs(d))
    pos, gaps = 0, []
    for start, end in [*covered, (len(ctx.text), len(ctx.text))]:
        if start > pos and ctx.text[pos:start].strip():
            gaps.append(Segment(pos, start, "mention"))
        pos = max(pos, end)
    ctx.segments.setdefault(id(author), []).extend(gaps)


def _sentences(doc, text: str) -> list[tuple[int, int]]:
    """Sentence spans: the parser's, else the stretches between sentence breaks."""
    if doc.has_annotation("SENT_START"):
        return [(s.start_char, s.end_char) for s in doc.sents]
    breaks = re.finditer(r"(?<=[.!?])\s+(?=[A-Z“\"(\[])|\n{2,}", text)
    cuts = [0, *(i for m in breaks for i in m.span()), len(text)]
    return list(zip(cuts[::2], cuts[1::2], strict=True))
