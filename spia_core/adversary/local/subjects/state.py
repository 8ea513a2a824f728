"""The typed state every subject pass reads and extends: the text, its mentions by kind,
the drafts (one per person found so far) and who owns each mention."""

from __future__ import annotations

import bisect
import re

import spia_core.adversary.local.lexicons as lexicons
import spia_core.adversary.local.mentions as mentions
import spia_core.adversary.local.rules as rules
from spia_core.adversary.local.attributes.codes import find_codes
from spia_core.adversary.local.draft import Draft, draft_prior_sex, names_compatible
from spia_core.adversary.local.mentions import Mention, clean_name, overlaps
from spia_core.adversary.local.parse import Token
from spia_core.adversary.local.patterns import GREETED, LIST_GAP
from spia_core.adversary.local.patterns import ordinal as ordinal_of
from spia_core.adversary.local.subjects import people
from spia_core.text.alternation import prefix_tree

_BLANK = r"(?![\s\S]*\n\s*\n)"  # no apposition across a blank line ("Dear X,\n\nYour son")
_APPOS_AFTER = re.compile(rf"^{_BLANK}\s*(?:\(\s*[“\"‘']?\s*|,\s*(?:who was |who is )?|\s)$")
_APPOS_BEFORE = re.compile(r"^\s*[,(:]?\s*(?:(?:namely|i\.e\.)\s*)?$")
_JOB_APPOS = re.compile(r"\s*,\s+(?:the|an?)\s+(?:[a-z][\w-]*\s+){0,2}([a-z][\w-]*)\s+")

_FIRM = lexicons.subject_cues()["partner_firm"]  # "Hale, Brandt and Osei": a firm, no people


class SubjectState:
    """One text's subject finding: inputs, mentions and drafts; passes extend it in order."""

    def __init__(
        self, text: str, ents: list[tuple[int, int, str]], masks, tokens: list[Token] | None = None
    ) -> None:
        self.text, self.ents, self.masks = text, ents, masks
        self.tokens: list[Token] = tokens or []
        self.drafts: list[Draft] = []
        #: (pass id, start, end, why) for every candidate a pass kept out or re-read.
        self.decisions: list[tuple[str, int, int, str]] = []
        self.english = True  # set by the not-a-person pass
        self._people: tuple[list[Mention], list[int]] | None = None
        self._token_starts: list[int] | None = None
        names = mentions.find_name_mentions(text, ents, masks)
        self.legal = bool(re.search(r"\b(?:the applicants?|the Court|the Government)\b", text))
        if not self.legal and rules.enabled("subject.cue_names"):
            cues = mentions.find_cue_names(text) + people.mistagged_names(text, ents)
            cue_spans = [(c.start, c.end) for c in cues if c.source == "cue"]
            for n in (n for n in names if not n.source and overlaps(n.start, n.end, cue_spans)):
                n.source = "cue"
            spans = [(n.start, n.end) for n in names]
            names += [c for c in cues if not overlaps(c.start, c.end, spans)]
        c = lexicons.common_words()  # a name found once, again where NER and the cues missed it
        found = {n.name: n.source for n in names if n.kind == "name" and n.name.lower() not in c}
        given = [n.split()[0] for n in found if " " in n]  # "Priya Shah ... Priya," (one Priya)
        one = (g for g in given if given.count(g) == 1 and g not in found)
        found |= {g: "" for g in one if mentions._is_first(g, True)}
        again = rf"(?<![\w@#-])(?:{prefix_tree(found) or '(?!)'})(?![\w-])"  # longest name first
        spans = [(n.start, n.end) for n in names]  # "Tomasz and I ... Tomasz booked"
        hits = [m for m in re.finditer(again, text) if not overlaps(*m.span(), spans)]
        names += [Mention.at(m, "name", name=m[0], source=found[m[0]]) for m in hits]
        if not self.legal and rules.enabled("subject.partner_firms"):
            firms = [m.span() for m in _FIRM.finditer(text) if mentions.firm_like(m.group(0))]
            names = [
                n for n in names if not any(s <= n.start < e or s < n.end <= e for s, e in firms)
            ]
        self.names = sorted(names, key=lambda m: m.start)
        self.roles = mentions.find_role_mentions(text)
        self.kins = mentions.find_kin_mentions(text)
        self.firsts, self.author_names = mentions.find_author_mentions(text)
        self.codes = find_codes(text)
        self.voices: list[tuple[int, int, Draft]] = []  # (start, end, speaker): subjects.author
        self.owner: dict[int, Draft] = {}  # id(mention) -> draft
        #: (id(possessor draft), kin word) -> the one relative of that kind (kin passes).
        self.kin_singles: dict[tuple[int, str], Draft] = {}

    def new(self, mention: Mention | None = None, *, holds: bool = False) -> Draft:
        """A new draft, with ``mention``; with ``holds`` it also holds the mention's role."""
        d = Draft()
        if mention is not None:
            self.attach(d, mention)
            if holds:
                d.roles[mention.role] = mention.ordinal
        self.drafts.append(d)
        return d

    def attach(self, d: Draft, m: Mention) -> None:
        d.mentions.append(m)
        self.owner[id(m)] = d
        if self._people is not None and d.alive and m.kind in {"name", "placeholder"}:
            people, starts = self._people  # keep the index: insert in start order
            at = bisect.bisect_right(starts, m.start)
            people.insert(at, m)
            starts.insert(at, m.start)

    def drop(self, d: Draft) -> None:
        """A draft that is no person after all."""
        d.alive = False
        self._people = None

    def decide(self, pass_id: str, m: Mention, why: str) -> None:
        self.decisions.append((pass_id, m.start, m.end, why))

    @property
    def author(self) -> Draft | None:
        return next((d for d in self.drafts if d.alive and d.is_author), None)

    def all_mentions(self, *, alive: bool = False) -> list[Mention]:
        """Every mention of every draft (of live drafts only with ``alive``), in draft order."""
        return [m for d in self.drafts if d.alive or not alive for m in d.mentions]

    def merge(self, a: Draft, b: Draft) -> Draft:
        """Merge b into a (a keeps its place)."""
        if a is b:
            return a
        for m in b.mentions:
            self.attach(a, m)
        for k, v in b.roles.items():
            a.roles[k] = a.roles.get(k) or v
        a.kin = a.kin or b.kin
        a.anchor = a.anchor or b.anchor
        a.is_author = a.is_author or b.is_author
        a.codes.extend(b.codes)
        self.drop(b)
        b.mentions = []
        for d in (d for d in self.drafts if d.anchor is b):
            d.anchor = a
        return a

    def _index(self) -> tuple[list[Mention], list[int]]:
        """Name and placeholder mentions of live drafts, by start (and by end), cached until a
        draft changes: passes look people up by position without rescanning every draft."""
        if self._people is None:
            kinds = {"name", "placeholder", "handle"}  # "life with @zoe": a person
            people = [m for m in self.all_mentions(alive=True) if m.kind in kinds]
            people.sort(key=lambda m: m.start)
            self._people = (people, [m.start for m in people])
        return self._people

    def person_mentions(self) -> list[Mention]:
        """Name and placeholder mentions of live drafts, by start (a copy)."""
        return list(self._index()[0])

    def people_between(self, start: int, end: int) -> list[Mention]:
        """Person mentions starting in [start, end)."""
        people, starts = self._index()
        return people[bisect.bisect_left(starts, start) : bisect.bisect_left(starts, end)]

    def token_at(self, pos: int) -> Token | None:
        """The parsed token covering character ``pos`` - 1 (the one ending at or after it)."""
        if not self.tokens:
            return None
        if self._token_starts is None:
            self._token_starts = [t.start for t in self.tokens]
        i = bisect.bisect_right(self._token_starts, pos - 1) - 1
        return tok if i >= 0 and (tok := self.tokens[i]).start < pos <= tok.end else None

    def adjacent_after(self, pos: int, limit: int = 4) -> Mention | None:
        people, starts = self._index()
        near = people[bisect.bisect_left(starts, pos) : bisect.bisect_right(starts, pos + limit)]
        return next((m for m in near if _APPOS_BEFORE.match(self.text[pos : m.start])), None)

    def titled_after(self, pos: int) -> Mention | None:
        """The name after a job title in apposition: "her husband, the painter [PERSON]"."""
        people, starts = self._index()
        m = people[i] if (i := bisect.bisect_left(starts, pos)) < len(people) else None
        gap = _JOB_APPOS.fullmatch(self.text, pos, m.start) if m else None
        return m if gap and gap[1] in lexicons.occupations()[0] else None

    def adjacent_before(self, pos: int, limit: int = 4) -> Mention | None:
        people, starts = self._index()
        best = None
        # Mentions ending in [pos - limit, pos] start before pos; scan back from there.
        for i in range(bisect.bisect_right(starts, pos) - 1, -1, -1):
            m = people[i]
            if m.end < pos - limit - 200:
                break
            fits = pos - limit <= m.end <= pos and _APPOS_AFTER.match(self.text[m.end : pos])
            if fits and (best is None or m.start > best.start):
                best = m
        return best

    def chain(self, first: Mention, forward: bool) -> list[Mention]:
        """Names listed with ',' / 'and' next to ``first`` (in text order)."""
        people = self.person_mentions()
        chain, step = [first], 1 if forward else -1
        j = people.index(first) + step
        while 0 <= j < len(people):
            a, b = (chain[-1], people[j]) if forward else (people[j], chain[-1])
            gap = self.text[a.end : b.start]
            if not LIST_GAP.match(gap) and not (
                forward and re.match(r"^,\s*(?:a |an |both )?[a-z][\w ]{0,60},\s*(?:and\s+)?$", gap)
            ):
                break
            chain.append(people[j])
            j += step
        return chain if forward else list(reversed(chain))

    def draft_of(self, m: Mention) -> Draft:
        return self.owner[id(m)]

    def with_role(self, role: str, ordinal: int = 0) -> list[Draft]:
        holders = (d for d in self.drafts if d.alive and role in d.roles)
        return [d for d in holders if not ordinal or d.roles[role] == ordinal]

    def resolve_anchor(self, k: Mention) -> Draft | None:
        a = k.anchor
        if a in {"my", "our"}:
            return next((d for s, e, d in self.voices if s <= k.start < e), self.author)
        if app := re.match(r"the (?:(?P<ord>first|second|third) )?applicants?['’]s?", a):
            ordinal = ordinal_of(app.group("ord") or "")
            found = self.with_role("applicant", ordinal)
            return found[0] if len(found) == 1 or (found and ordinal) else None
        if of := [
            x for x in self.kins if x.end < k.start and f"{x.text}'s" == a and id(x) in self.owner
        ]:  # "my sister's husband": the sister
            return self.draft_of(of[-1])
        party = re.match(r"the (\w+)['’]s$", a)
        if party and party.group(1) not in {"applicant", "applicants"}:  # "the victim's mother"
            found = self.with_role(party.group(1))
            return found[0] if len(found) == 1 else None
        if a.endswith(("'s", "’s")):
            name = clean_name(a)
            for m in (m for m in reversed(self.person_mentions()) if m.start <= k.start):
                if m.kind == "placeholder" and a.startswith("["):
                    if m.text.lower() in a:
                        return self.draft_of(m)
                elif m.name and names_compatible(m.name, name):
                    return self.draft_of(m)
            return None
        for m in self.person_mentions() if a == "your" else []:  # "Dear Ana, ... your son"
            line = max(0, self.text.rfind("\n", 0, m.start))  # a greeting opening the name's line
            if m.start < k.start and GREETED.search(self.text, line, m.start):
                return self.draft_of(m)
        if a in {"his", "her", "their"}:
            want = {"his": "Male", "her": "Female"}.get(a, "")
            best = None  # the live person, not of the other sex, mentioned last before k
            for d in self.drafts:
                prior = [m.start for m in d.mentions if m.start < k.start]
                clash = want and draft_prior_sex(d) not in {"", want}
                said_i = d.is_author and any(m.kind == "author" and m.text for m in d.mentions)
                again = d.kin and (self.legal or d.kin == k.role)  # "his son" twice: one son
                if not d.alive or not prior or clash or said_i or again:  # said_i: not "her"
                    continue
                if best is None or max(prior) > best[0]:
                    best = (max(prior), d)
            d = best[1] if best else None
            pair = d and a == "their" and lexicons.kin_words().get(d.kin)  # "X and his wife": X's
            return (d.anchor or d) if pair and pair.relationship != "-" else d
        return None
