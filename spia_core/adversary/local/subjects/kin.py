"""Subject passes for relatives: kin words bound to their possessor, counted children, spouses
implied by 'married life', and the family structures that survive masking in posts."""

from __future__ import annotations

import itertools
import re

import spia_core.adversary.local.lexicons as lexicons
import spia_core.adversary.local.rules as rules
from spia_core.adversary.local.draft import Draft, draft_prior_sex
from spia_core.adversary.local.mentions import MASKED_CHILDREN, Mention
from spia_core.adversary.local.names import is_given_name
from spia_core.adversary.local.patterns import I_AM, THIRD_COPULA
from spia_core.adversary.local.subjects.state import SubjectState

_CUES = lexicons.subject_cues()
_CHILD_NOUNS = lexicons.alternation("child_noun")
_I_AM = re.compile(rf"\b(?:I(?:['’]ve| have) been|[Bb]eing|{I_AM})\s+(?:[A-Z][a-z]+, )?\Z")
#: Listed after a masked count: ', [PERSON] ([QUANTITY]) and [ORG]', ' ([DATETIME], [QUANTITY])'.
_AGED = r"\[[A-Z]+(?:_\d+)?\](?: \(\[[A-Z]+\]\))?"
_LISTED = re.compile(rf"(?: [a-z]+)?\s*[,:(–-]\s*{_AGED}(?:(?:,? and|,|&)\s*{_AGED})+")
#: Words around a masked kin word that point to the writer's parents.
_PARENT_CUE = re.compile(rf"(?i)\b(?:{lexicons.alternation('parent_cue')}|inspir\w*|the(?:ir|y))\b")


def link_kin(st: SubjectState) -> None:
    """Pass: kin words ("his wife", "my two sons") bound to their possessor and to a name
    next to them."""
    kinmap, singles = lexicons.kin_words(), st.kin_singles
    for k in sorted(st.kins, key=lambda m: m.start):
        if k.anchor in {"my", "our"} and not st.legal and st.resolve_anchor(k) is None:
            st.new(Mention(0, 0, "", "author")).is_author = True  # "my wife": a writer exists
        anchor = st.resolve_anchor(k) if k.anchor else st.author
        if anchor is None and rules.enabled("subject.kin_possessor"):
            anchor = _possessor(st, k)
        word = lexicons.canonical_kin(kinmap[k.role].word if k.role in kinmap else k.role)
        if k.anchor not in {"", "my", "our"} and st.author and _I_AM.search(st.text, 0, k.start):
            st.attach(st.author, k)  # "I'm (Ivo,) Ellie's brother", "being his sister": the writer
            st.author.kin, st.author.anchor = st.author.kin or word, anchor
            continue
        if k.source in {"eldest", "oldest", "youngest"}:  # the first (last) of counted children
            group = [d for d in st.drafts if d.alive and d.anchor is anchor and d.child_count > 1]
            if group:
                st.attach(group[-1 if k.source == "youngest" else 0], k)
            continue
        if k.count > 1:
            first = st.adjacent_after(k.end, limit=3)
            named = st.chain(first, forward=True) if first is not None else []
            named = [p for p in named if not st.draft_of(p).kin][: k.count]
            for i in range(1, k.count + 1):  # "my two sons, Tom and Ben": named ones first
                d = st.draft_of(named[i - 1]) if i <= len(named) else st.new()
                st.attach(d, k)
                d.kin, d.anchor, d.child_index, d.child_count = word, anchor, i, k.count
            continue
        named = st.adjacent_after(k.end, limit=3) or st.adjacent_before(k.start, limit=3)
        named = named or st.titled_after(k.end)
        key = (id(anchor), word)
        if named is not None:
            d = st.draft_of(named)
            st.attach(d, k)
            d.kin, d.anchor = d.kin or word, d.anchor or anchor
            d.guess = d.guess or (word if k.source == "guess" else "")
            if key in singles and singles[key] is not d and not d.guess:
                d = st.merge(d, singles[key])
            singles[key] = d
            continue
        named = k.source == "guess" and st.text.startswith("[", k.end + 1)  # 'our [DEM] [LOC]'
        if key in singles and anchor is not None and not named:
            st.attach(singles[key], k)
            continue
        d = st.new(k)
        d.kin, d.anchor, d.guess = word, anchor, word if k.source == "guess" else ""
        singles[key] = d
    _one_relative(st)


def _possessor(st: SubjectState, k: Mention) -> Draft | None:
    """'Ibrahim's grandad' with no Ibrahim found: the given name is a person of their own."""
    m = re.match(r"[A-Z][a-z]{2,}(?=['’]s\s)", k.text)
    if m is None or not is_given_name(name := m.group(0)) or st.legal:
        return None
    return st.new(Mention.between(st.text, k.start, k.start + len(name), "name", name=name))


def _one_relative(st: SubjectState) -> None:
    """Kin phrases in apposition are one person ("Her mother, my sister Ada"), and so is a name
    addressed right after an unnamed relative of the writer ("My aunt came. Ines, you ...")."""
    for a, b in itertools.pairwise(sorted(st.kins, key=lambda m: m.start)):
        if a.count == b.count == 1 and re.fullmatch(r"\s*,\s*", st.text[a.end : b.start]):
            da, db = st.draft_of(a), st.draft_of(b)
            st.merge(*((da, db) if da.anchor is st.author is not db.anchor else (db, da)))
    for p in st.person_mentions():
        d, text = st.draft_of(p), st.text
        said = re.match(r",\s+(?:you|your|thank)", text[p.end : p.end + 8])
        if d.kin or len(d.mentions) > 1 or not said or not re.search(r"[.!?]\s+$", text[: p.start]):
            continue
        last = [(m.start, x) for x in st.drafts if x.alive and not x.is_author for m in x.mentions]
        near = max((t for t in last if t[0] < p.start), key=lambda t: t[0], default=(0, d))[1]
        one = near.kin and not near.names and near.child_count <= 1 and near.anchor is st.author
        if one and len({draft_prior_sex(near), draft_prior_sex(d)} - {""}) < 2:
            st.merge(near, d)


def married_to(st: SubjectState) -> None:
    """Pass: "married to (the amazing) X": X is the writer's spouse; with no writer, the spouse of
    the sentence's person, else of the text's first one ("Lee is married to the poet X")."""
    author, singles = st.author, st.kin_singles
    for m in _CUES["married_to"].finditer(st.text):
        name = m.group("name") or ""
        named = st.adjacent_after(m.start("name") if name else m.end(), limit=1)
        if named is None and name and is_given_name(name.split()[0]):  # any country's names
            named = st.new(Mention.at(m, "name", "name", name=name)).mentions[0]
        if named is None:
            continue
        d, start = st.draft_of(named), st.text.rfind(".", 0, m.start()) + 1
        near = [st.draft_of(p) for p in st.people_between(start, m.start())][::-1]
        first = (x for x in st.drafts if x.alive and not x.kin)
        anchor = author or next((x for x in [*near, *first] if x is not d), None)
        if not d.kin:
            d.kin, d.anchor = "spouse", anchor
        singles[(id(anchor), "spouse")] = d


def implied_spouse(st: SubjectState) -> None:
    """Pass: "married life", "happily married", "married with kids" with no spouse found:
    the writer has an unnamed spouse."""
    author, married = st.author, _CUES["married"].search(st.text)
    spouses = lexicons.words("spouse_kin")
    has_spouse = any(d.alive and d.kin in spouses and d.anchor is author for d in st.drafts)
    if author is not None and married and not has_spouse:
        d = st.new(Mention.at(married, "kin", role="spouse", anchor="my"))
        d.kin, d.anchor = "spouse", author


def life_with(st: SubjectState) -> None:
    """Pass: '(married) life with X' in a post: X is the author's partner, also when 'married' or
    the name was masked ('[DEM] life with [PERSON]', '[DEM] to [ORG]'); 'with X and our
    kids' makes X the other parent."""
    author, singles = st.author, st.kin_singles
    m = re.search(r"\b[Ll]ife with (?=\S)", st.text)
    named = (st.adjacent_after(m.end(), limit=1) if m else None) or _masked_partner(st)
    for p in st.person_mentions() if named is None else []:  # "with X and our kids"
        after = re.match(rf"\s*(?:and|&)\s+(?:our\b|the ({_CHILD_NOUNS}))", st.text[p.end :])
        if after and re.search(r"\b(?:with|to)\s*$", st.text[max(0, p.start - 6) : p.start]):
            named = p
            break
    if named is None or (d := st.draft_of(named)).kin or d.is_author:
        return
    if (spouse := singles.get((id(author), "spouse"))) and spouse is not d and not spouse.names:
        d = st.merge(d, spouse)
    d.kin, d.anchor = "spouse", author
    singles[(id(author), "spouse")] = d


def _masked_partner(st: SubjectState) -> Mention | None:
    """The placeholder after a masked 'married (life) to/with': '[DEM] to [ORG] blessed
    with...', '[DEM] life with [ORG] our...', 'being [DEM] to the kindest man, [PERSON]'.
    A non-person placeholder there stands for the partner's name (NER mislabelled it)."""
    m = _CUES["masked_partner"].search(st.text)
    if m is None:
        return None
    found = st.adjacent_after(m.start("ph"), limit=0)
    return found or st.new(Mention.at(m, "placeholder", "ph")).mentions[0]


def masked_parents(st: SubjectState) -> None:
    """Pass: 'my [DEM], [PERSON] and [PERSON]' / 'my folks, [DEM] and [PERSON]': a masked kin word
    followed by two people; most often the writer's parents; so is 'my [PERSON] and [PERSON]'
    next to a parent cue ('a toast to my Mum and Dad': a name takes no 'my')."""
    for m in _CUES["masked_parents"].finditer(st.text):
        first = st.adjacent_after(m.end(), limit=0)
        sentence = st.text[st.text.rfind(".", 0, m.start()) + 1 : m.end() + 80]
        if first is None or not (m.group("kin") or _PARENT_CUE.search(sentence)):
            continue
        people = st.chain(first, forward=True)
        if m.group("ph") and len(people) == 1:
            people = [st.new(Mention.at(m, "placeholder", "ph")).mentions[0], *people]
        drafts = [st.draft_of(p) for p in people]
        if len(drafts) != 2 or any(d.kin or d.is_author for d in drafts):
            continue
        for i, d in enumerate(drafts, 1):
            d.kin, d.anchor, d.child_index, d.child_count = "parent", st.author, i, 2
            d.guess = "" if m.group("kin") else "parent"  # no kin word: only a guess


def masked_parent_list(st: SubjectState) -> None:
    """Pass: A masked name list after a masked kin word ('my [DEM], [ORG]' for 'my parents, Omar &
    Lena') in a gratitude, legacy or upbringing context, or 'passed down since/from
    [ORG]': NER labels two names joined by '&'/'and' as one organisation, so the slot holds
    two people, most likely the writer's father and mother (kept as a low-certainty guess)."""
    author, taken = st.author, {(m.start, m.end) for m in st.all_mentions(alive=True)}
    for m in _CUES["masked_parent_list"].finditer(st.text):
        slot = "ph" if m.group("ph") else "ph2"  # 'my [DEM], [ORG]' or 'passed down since'
        start, end = m.span(slot)
        window = st.text[st.text.rfind(".", 0, m.start()) + 1 : m.end() + 120]  # its sentence
        if (start, end) in taken or (slot == "ph" and not _PARENT_CUE.search(window)):
            continue
        for i, guess in enumerate(("father", "mother"), 1):
            d = st.new(Mention(start, end, m.group(slot), "kin", role="parent"))
            d.anchor, d.guess, d.kin, d.child_index, d.child_count = author, guess, "parent", i, 2
        return


def masked_counts(st: SubjectState) -> None:
    """Pass: 'our [QUANTITY] little ones', 'raising [QUANTITY] amazing [DEM]', 'a [DEM] of
    [QUANTITY]', 'our trio of [DEM]': a masked count of children is as many as the names or ages
    listed after it ('our [QUANTITY] [DEM], [PERSON] and [PERSON]': two, named) or 'both of
    them' says, else four, the most of the two to four that such posts usually state ('trio'
    says three, 'pair' two): extra guessed children cost no protection score, missing ones hide
    real people. 'Mum of [QUANTITY] ...' opening a text with no writer yet makes its writer."""
    for m in _CUES["masked_count"].finditer(st.text):
        taken = any(k.start <= m.start() < k.end for k in st.all_mentions() if k.kind != "author")
        lead = re.fullmatch(r"\W*(?:[A-Z][a-z]+ )?(?:[Aa] )?", st.text[: m.start()])
        third = THIRD_COPULA.search(st.text, max(0, m.start() - 60), m.start())  # "she's a"
        if taken or st.legal or third or not (st.author or lead):
            continue
        (st.author or st.new(Mention(0, 0, "", "author"))).is_author = True  # 'Mum of ...' opening
        word = m.group("noun").split()[-1] if m.group("noun") else ""
        kin = {"sons": "son", "daughters": "daughter"}.get(word, "child")
        end = listed.end() if (listed := _LISTED.match(st.text, m.end())) else 0
        named = [p for p in st.people_between(m.end(), end) if not st.draft_of(p).kin]
        n = {"trio": 3, "duo": 2, "pair": 2}.get((m.group("group") or "").lower(), MASKED_CHILDREN)
        n = len(re.findall(r"\[[A-Z]", re.sub(r" \(\[\w+\]\)", "", listed[0]))) if listed else n
        n = 2 if re.match(r"[^.!?]*\b(?:both of them|the two of them)\b", st.text[m.end() :]) else n
        for i in range(1, n + 1):
            d = st.draft_of(named[i - 1]) if i <= len(named) else st.new()
            st.attach(d, Mention.at(m, "kin", role=kin))
            d.kin, d.anchor, d.child_index, d.child_count = kin, st.author, i, n
        break
