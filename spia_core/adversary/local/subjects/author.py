"""Subject passes for the writer of the text: first person, headers, handles, signatures, and
the writer of an article a comment answers."""

from __future__ import annotations

import re

import spia_core.adversary.local.lexicons as lexicons
from spia_core.adversary.local.draft import Draft, _same_person, names_compatible
from spia_core.adversary.local.mentions import QUOTE_SPANS, Mention, overlaps
from spia_core.adversary.local.patterns import I_AM
from spia_core.adversary.local.subjects.state import SubjectState

_CUES = lexicons.subject_cues()


def self_intro_mask(st: SubjectState) -> None:
    """Pass: 'I am [NAME]', 'I, [NAME], of', 'it's [PERSON] here' is the writer (not "I'm
    [PERSON]'s mum")."""
    for p in st.person_mentions() if st.author is not None else []:
        after = re.match(r"\s*(?:(['’]s)\b|,?\s*(?:my|our|his|her|their|the)\b)", st.text[p.end :])
        intro = _INTRO.search(st.text[max(0, p.start - 16) : p.start])
        if p.kind == "placeholder" and intro and not (after and (after[1] or not intro["i"])):
            st.merge(st.author, st.draft_of(p))
    for d in [d for d in st.drafts if d.alive and not d.is_author] if st.author else []:
        before = (st.text[max(0, m.start - 40) : m.start] for m in d.mentions if m.kind == "role")
        if any(_I_AM.search(b) for b in before):
            st.merge(st.author, d)  # "I am the deputy manager of X": the writer's post


_I_AM = re.compile(rf"\b{I_AM}\s+\Z")
_INTRO = re.compile(r"\b(?:(?P<i>I am|I['’]m|I,|[Mm]y name is)|[Tt]his is|[Ii]t(?:['’]s| is))\s*\Z")

_BODY = lexicons.alternation("facility_head", "team_noun", "org_head")
_OUR_BODY = re.compile(rf"[Oo]ur (?:[A-Z][\w'’-]+ )+(?:{_BODY})s?\b")


def link_author(st: SubjectState) -> None:
    if not st.english:
        return  # no first person, header or sign-off the engine can read
    legal = st.legal or bool(st.with_role("applicant"))
    # a code (e-mail, phone) makes a writer unless the text is about named people (a news item)
    post = (st.codes and not any(d.alive and d.names for d in st.drafts)) or re.search(
        r"\?|\b(?:[Aa]nyone|[Hh]elp|[Tt]hanks|#\w+)\b|^\W*(?:[\w-]+ ){1,5}here\b", st.text
    )
    quotes = [m.span() for m in QUOTE_SPANS.finditer(st.text)]  # "we", "our", "us": a writer
    we = any(  # not "our Leeds warehouse", "our Acme team": an organisation's voice
        not overlaps(*m.span(), quotes) and not _OUR_BODY.match(st.text, m.start())
        for m in re.finditer(r"\b(?:[Ww]e|[Oo]urs?|[Uu]s)\b", st.text)
    )
    st.voices = _voices(st)
    for s, e, d in st.voices:  # (start, end, speaker): a chat line's or quoted reply's "I"
        for m in [m for m in st.firsts if s <= m.start < e]:
            st.attach(d, m)
            st.firsts.remove(m)
    if not (legal or st.firsts or st.author_names or st.voices) and (post or we or _elided(st)):
        st.new(Mention(0, 0, "", "author")).is_author = True
    if st.firsts and not legal:
        author = st.author or st.new()
        author.is_author = True
        for m in st.firsts:
            st.attach(author, m)
    elif not st.author_names and not _lead_placeholder(st):
        return
    elif st.author is None:
        st.new().is_author = True
    author = st.author
    if (lead := _lead_placeholder(st)) is not None:
        st.merge(author, st.draft_of(lead))
    for h in st.author_names:
        # another live person named like the author's handle ("@ana_p") or header name ("Ana P.")
        like = names_compatible if " " in h.text.strip() else _same_person
        named = [d for d in st.drafts if d.alive and not d.is_author]
        same = next((d for d in named if any(like(n.name, h.name) for n in d.names)), None)
        st.attach(author, h)
        st.merge(author, same or author)
        for d in st.drafts:  # "Name: [PERSON]"
            placeholders = [(m.start, m.end) for m in d.mentions if m.kind == "placeholder"]
            if d.alive and d is not author and overlaps(h.start, h.end, placeholders):
                st.merge(author, d)
    _writer_roles(st, author)


def _voices(st: SubjectState) -> list[tuple[int, int, Draft]]:  # a chat: two speakers at least
    found = [(m, st.people_between(*m.span("name"))) for m in _CUES["voice"].finditer(st.text)]
    heads = [(m, st.draft_of(p[0])) for m, p in found if p]
    two = len({id(d) for _, d in heads}) > 1
    return [(m.start(), m.end("q"), d) for m, d in heads if m["wrote"] or two]


def _writer_roles(st: SubjectState, author: Draft) -> None:
    """A role that is the writer's: a title line under a line that holds or names the writer
    ("█████\nFinance Director", "Ann Lee\nSales Director"), "I have known X for years as her
    line manager" (as + his/her/their + role)."""
    for d in [d for d in st.drafts if d.alive and d is not author and len(d.mentions) == 1]:
        r, start = d.mentions[0], st.text.rfind("\n", 0, d.mentions[0].start)
        above = st.text.rfind("\n", 0, max(start, 0)) + 1
        under = start > 0 and not st.text[start : r.start].strip()
        line = st.text[above:start].strip(" ,")
        signed = under and (
            any(above <= m.start < start for m in author.mentions if m.text)
            or any(names_compatible(line, h.name) for h in st.author_names)
        )
        mine = re.search(r"\bI\b[^.!?\n]*\bas\s+$", st.text[max(0, r.start - 120) : r.start])
        theirs = mine and r.text.startswith(("her ", "his ", "their "))
        if r.kind == "role" and (signed or theirs):
            st.merge(author, d)


def _elided(st: SubjectState) -> bool:
    """A text that opens with a verb of no subject ('Just moved to Porto.', 'Spent a year in
    Lima') or with 'Twelve years as a nurse', 'Been a nurse': its writer speaks of themself."""
    if re.match(r"\W*(?:(?:\w+ )?years? as|was|been) an? ", st.text, re.I):
        return True
    root = next((i for i, t in enumerate(st.tokens[:3]) if t.dep in {"ROOT", "ccomp"}), None)
    if root is None:
        return False
    word = st.text[st.tokens[root].start : st.tokens[root].end]
    past = lexicons.words("past_irregular")
    verb = re.fullmatch(r"[A-Za-z][a-z]+(?:ed|ing)", word) or word.lower() in past
    deps = {"nsubj", "nsubjpass", "expl", "compound", "amod", "det"}  # said, or a noun root
    said = any(t.head == root and t.dep in deps for t in st.tokens)
    return bool(verb) and not said


def _lead_placeholder(st: SubjectState) -> Mention | None:
    """The person mention opening a post as its header ("[PERSON] :", "[PERSON] | Nurse |")."""
    lead = next(iter(st.person_mentions()), None)
    header = r"[.\w]*\s*:|\s*(?:Name|Username|User|Author)\s*:|\s+here\b|[^\n]*[|•]"
    at_start = lead is not None and not st.text[: lead.start].strip()
    return lead if at_start and re.match(header, st.text[lead.end : lead.end + 60], re.I) else None


def article_author(st: SubjectState) -> None:
    """A comment on an article ("Great article on ...", "This piece really hit home",
    "Hats off to the writer!") speaks to the article's author: a person with a job (writer)."""
    if st.legal or st.with_role("writer") or (m := _CUES["article"].search(st.text)) is None:
        return
    # A zero-width mention: the writer is referred to, never named, and owns no text.
    writer = Mention(m.start(), m.start(), "the author of the article", "role", role="writer")
    st.new(writer, holds=True)
