"""Stage A: find the subjects (one per person) and the mentions that refer to each."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from spia_core.adversary.local import lexicons
from spia_core.adversary.local.attributes.codes import CodeHit, find_codes
from spia_core.adversary.local.mentions import (
    Mention,
    clean_name,
    find_author_mentions,
    find_cue_names,
    find_kin_mentions,
    find_name_mentions,
    find_role_mentions,
)
from spia_core.adversary.local.patterns import ORDINALS, TITLES, number_value


def _standalone(role: str) -> bool:
    """Roles that make a subject on their own, even with no name ("the applicant")."""
    return any(r.key == role and r.standalone for r in lexicons.roles())


_APPOS_AFTER = re.compile(r"^\s*(?:\(\s*[“\"‘']?\s*|,\s*(?:who was |who is )?|\s)$")
_APPOS_BEFORE = re.compile(r"^\s*,?\s*(?:(?:namely|i\.e\.)\s*)?$")
_ORGISH = r"\b(?:Solicitors|Ltd|Inc|PLC|AB|GmbH|Bank|Court|Sąd|Council|Office|Ministry|Party|Association|Company|University|Hospital|Prison|Street|Road)\b"  # noqa: E501
#: A firm named after its partners ("Hardy, Hernandez and Fernandez", "O'Connell, Wong and
#: Smith"): in posts, the names are the affiliation, not people.
_FIRM = re.compile(r"(?:[A-Z][\w’'\-]+ )?[A-Z][\w’'\-]+, [A-Z][\w’'\-]+,? (?:and|&) [A-Z][\w’'\-]+")


@functools.cache
def _canonical_kins() -> dict[str, str]:
    return {
        row[0]: row[5] for row in lexicons._read_tsv("kin.tsv") if len(row) > 5 and row[5] != "-"
    }


def _canonical_kin(word: str) -> str:
    """The canonical kin word of a variant ('kiddo' -> 'child', 'hubby' -> 'husband')."""
    return _canonical_kins().get(word, word)


def _firm_like(phrase: str) -> bool:
    """A list of capitalised words that reads as surnames (a firm), not as first names."""
    words = re.findall(r"[A-Z][\w’'\-]+", phrase)
    firsts = sum(lexicons.fold(w) in lexicons.first_names() for w in words)
    return firsts * 2 < len(words)


_CHILD_NOUNS = (
    r"\[DEM\]|little ones|little legends|little stars|kids|children|kiddos|sons|daughters|boys|"
    r"girls|legends|stars|beauties|angels|munchkins|monsters|blessings|rascals"
)
#: A masked count of children ('our [QUANTITY] amazing [DEM]', '([QUANTITY] [DEM], ...',
#: 'a [DEM] of [QUANTITY]', 'our trio of [DEM]').
_MASKED_COUNT = re.compile(
    r"(?:\b(?:[Mm]y|[Oo]ur|raising|parenting|[Bb]lessed with|with|and|after my|[Ll]ife,)\s+|"
    r"\(\s*)\[(?:QUANTITY|CARDINAL)\]\s+(?:[a-z]+\s+)?(?P<noun>" + _CHILD_NOUNS + r")(?!\w)"
    r"|\b[Aa] (?:\w+ |\[DEM\] )?\[DEM\] of \[(?:QUANTITY|CARDINAL)\]"
    r"|\b(?:[Oo]ur|[Mm]y) (?P<group>trio|duo|pair) of (?:\[DEM\]|kids|children|little ones)"
)
#: 'my [DEM], [ORG]' (a masked kin word, then a masked list of names) and 'passed down
#: since [ORG]' (a family legacy's founders).
_MASKED_PARENT_LIST = re.compile(
    r"\b(?:[Mm]y|[Oo]ur) (?:(?:amazing|dear|lovely|wonderful|beloved|late|awesome|incredible) )?"
    r"\[(?:DEM|NORP)\],? (?P<ph>\[ORG(?:_\d+)?\])(?! \w+ly\b)"
    r"|\b(?:passed down|handed down|inherited|started|founded) (?:since|from|by) "
    r"(?P<ph2>\[ORG(?:_\d+)?\])"
)
#: Words around a masked kin word that point to the writer's parents.
_PARENT_CUE = re.compile(
    r"\b(?:legacy|lessons?|taught|raised|upbringing|grateful|thanks|thank|shout-?out|"
    r"support(?:ed|ive)?|inspir\w*|roots|tradition|passed down|grounded|always been)\b"
    r"|\b[Tt]heir\b|\b[Tt]hey\b",
    re.IGNORECASE,
)
_SOCIAL_ROLE = re.compile(
    r"\b[Mm]y (?:(?:amazing|dear|great|wonderful|old|former|new|awesome|incredible|best) )?"
    r"(?P<noun>mentor|coach|landlord|landlady|neighbou?r|roommate|flatmate|colleague|co-?worker|"
    r"best friend|boss|therapist|tutor)\b(?!s|['’]s)"
)
_SOCIAL_KEYS = {
    "landlady": "landlord",
    "neighbor": "neighbour",
    "coworker": "colleague",
    "co-worker": "colleague",
    "best friend": "friend",
    "flatmate": "roommate",
}
_COUNTED_PEOPLE = re.compile(
    r"\[(?:QUANTITY|CARDINAL)\] (?:\w+ )?(?P<noun>guests|users|customers|clients|patients|"
    r"employees|students|candidates|members|tenants|passengers|applicants)\b"
)
_LIST_GAP = re.compile(r"^\s*(?:,|and|&|, and|,\s*and)\s*$")
_POSSESSIVE_DETS = frozenset({"his", "her", "their", "its"}) | {
    f"the {o}applicant{s}"
    for o in ("", "first ", "second ", "third ")
    for s in ("'s", "’s", "s'", "s’")
}
#: Words before an indefinite role that make it a predicate ("was a judge", "as an expert").
_PREDICATE_BEFORE = (
    r"\b(?:is|was|were|be|been|being|are|am|as|became|become|becomes|appointed|named|elected|"
    r"not|also|worked|works|qualified|trained|employed|acting|act|like|such|whether|if|"
    r"I['’]m|(?:you|we|they)['’]re|(?:he|she)['’]s|someone|anyone)\s+$"
)
#: A verb right after an indefinite role makes it the subject of a clause: a person who acts.
_ACTS_AFTER = re.compile(
    r"\s+(?:\w+ly\s+)?(?:informed|wrote|said|held|found|decided|dismissed|ordered|stated|"
    r"replied|refused|noted|considered|rejected|examined|heard|gave|sent|asked|told|issued|"
    r"concluded|observed|questioned|visited|arrested|interviewed|signed|certified)\b"
)
_REPRESENTED = re.compile(
    r"\b(?:represented|assisted)(?: before (?:the )?[\w\[\]’' ]{1,40}?)? by "
    r"(?:(?:their|its|his|her|the) )?(?!Agent)"
)
_OPENING = re.compile(
    r"\b(?:lodged|brought|introduced)\b[^.]{0,400}?\bby (?:(?:a|an|two|three|four|five) "
    r"(?:[\w\[\]\-]+ )?(?:nationals?|citizens?)(?: [\w\[\]]+)?,\s*)?(?=\S)"
)


_COLLECTIVE_NOUNS = {
    "co-accused": "Co-accused",
    "accused": "Accused",
    "defendants": "Defendant",
    "co-defendants": "Co-defendant",
    "witnesses": "Witness",
    "victims": "Victim",
    "police officers": "Police officer",
    "officers": "Officer",
    "gendarmes": "Gendarme",
    "soldiers": "Soldier",
    "doctors": "Doctor",
    "experts": "Expert",
    "suspects": "Suspect",
}
_COLLECTIVE_KEYS = {
    "co-accused": "coaccused",
    "accused": "defendant",
    "defendant": "defendant",
    "co-defendant": "coaccused",
    "witness": "witness",
    "victim": "victim",
    "police officer": "officer",
    "officer": "officer",
    "gendarme": "officer",
    "doctor": "doctor",
    "expert": "expert",
}
_COLLECTIVE = re.compile(
    r"(?:\b(?P<num>two|three|four|five|[2-5])|(?P<masked>\[(?:QUANTITY|CARDINAL)\]))\s+(?:other\s+|more\s+|further\s+|unidentified\s+|"
    r"masked\s+|armed\s+|plain-clothes\s+)?(?P<noun>co-accused|co-defendants|accused|defendants|"
    r"witnesses|victims|police officers|officers|gendarmes|soldiers|doctors|experts|suspects|"
    r"people|persons|men|women|others)\b(?!\s+(?:of the (?:Court|Chamber)|judges))",
    re.IGNORECASE,
)
_CRIME_BEFORE = re.compile(
    r"\b(?:murder(?:ing|ed)?|kill(?:ing|ed)?|deaths?|shot|shooting|attack(?:ed|ing)?|"
    r"assault(?:ed|ing)?|injur(?:ed|ing)|wound(?:ed|ing)|kidnapp(?:ed|ing)|abduct(?:ed|ing|ion)|"
    r"rob(?:bed|bing|bery)|rap(?:ed|ing|e)|beat(?:en|ing)?|stabb(?:ed|ing)|victims?)\b(?:\s+\w+){0,3}"
    r"\s+(?:of\s+)?$",
    re.IGNORECASE,
)
#: A relative clause that makes a role holder the party's own choice, not the official one.
_OWN_CHOICE = re.compile(
    r"\s+(?:(?:that|whom|who)\s+)?(?:she|he|they|the applicants?)\s+(?:had\s+|has\s+)?"
    r"(?:appointed|chosen|chose|instructed|hired|consulted|engaged|retained)\b"
)
_ORG_SLOT = r"\[ORG(?:_\d+)?\]"
_MASKED_PROSECUTOR = re.compile(
    rf"(?<![\w’'])(?:the )?{_ORG_SLOT}(?: (?:at|attached to|of|before) (?:the )?{_ORG_SLOT})?,? "
    r"(?:(?P<verb>filed|issued|lodged|preferred|drew up|submitted) (?:an |a bill of |the )?"
    r"indictment|(?P<opinion>submitted|gave|delivered) (?:his|her) (?:written )?opinion)"
)
#: "another person who had intended to testify": an unnamed third party introduced in passing.
_ANOTHER_PERSON = re.compile(
    r"\b[Aa]nother (?P<noun>person|man|woman|individual)\b(?=,? (?:who|whom|whose|named|called))"
)


def _possessor(anchor: str) -> str:
    """The party a possessive determiner names ("the plaintiff's" -> plaintiff), else ''."""
    m = re.match(r"the (?:first |second |third )?(applicant|plaintiff|deceased)s?['’]", anchor)
    return m.group(1) if m else ""


@dataclass
class Draft:
    """A subject under construction."""

    mentions: list[Mention] = field(default_factory=list)
    roles: dict[str, int] = field(default_factory=dict)  # role key -> ordinal (0 = none)
    kin: str = ""
    anchor: Draft | None = None
    is_author: bool = False
    codes: list[CodeHit] = field(default_factory=list)
    child_index: int = 0
    child_count: int = 0
    alive: bool = True
    code_kind: str = ""  # a masked code's kind ("passport number"), for the description
    guess: str = ""  # a low-certainty relation read from a masked context ("mother")

    @property
    def first(self) -> int:
        return min((m.start for m in self.mentions), default=0)

    @property
    def names(self) -> list[Mention]:
        return [m for m in self.mentions if m.kind in {"name", "handle"} and m.name]

    @property
    def best_name(self) -> str:
        names = [m.name for m in self.names]
        return max(names, key=lambda n: (len(n.split()), len(n)), default="")

    @property
    def title(self) -> str:
        return next((m.title for m in self.mentions if m.title), "")

    @property
    def title_sex(self) -> str:
        return TITLES.get(self.title.lower().rstrip("."), "")

    @property
    def identity(self) -> str:
        return next((m.identity for m in self.mentions if m.identity), "")


@functools.lru_cache(maxsize=65536)
def _tokens(name: str) -> tuple[str, ...]:
    return tuple(lexicons.fold(t).rstrip(".") for t in re.split(r"[\s\-]+", name) if t.strip("."))


@functools.lru_cache(maxsize=262144)
def names_compatible(a: str, b: str) -> bool:
    """True when two names can denote the same person ('Tomas Verhoef' / 'T. Verhoef' / 'Verhoef')."""  # noqa: E501
    ta, tb = _tokens(a), _tokens(b)
    if not ta or not tb:
        return False
    if ta == tb:
        return True
    if ta[-1] == tb[-1]:
        ga, gb = ta[:-1], tb[:-1]
        if not ga or not gb:
            return True
        x, y = ga[0], gb[0]
        return x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y))
    short, long_ = (ta, tb) if len(ta) < len(tb) else (tb, ta)
    return len(short) == 1 and len(short[0]) > 2 and short[0] == long_[0]


def _same_person(name: str, handle: str) -> bool:
    """A handle-derived name denotes this named person (all handle tokens, first name first)."""
    tn, th = _tokens(name), _tokens(handle)
    if not tn or not th:
        return False
    if len(th) == 1:
        return th[0] == tn[0] or (len(tn) == 1 and th[0] == tn[0])
    return tn == th


_QUOTE_OPEN = re.compile(r"[“\"][^”\"\n]{0,60}$")
_OTHER_CUE = re.compile(
    r"\b(?:the|similar|some|e\.g\.|like|such as|includes?|including|referencing|mentions?|"
    r"mentioned|flagged|showing|shows?|seen|inputting|input|entering|resubmitting|a)\b"
    r"(?:(?!\b(?:my|our|i|me)\b)[^.;:])*$"
)


#: Cues that an e-mail address or phone number is someone else's ("addresses like X",
#: "I emailed X", "contacted X").
_OTHER_CONTACT = re.compile(
    r"(?:\b(?:like|such as|e\.g\.|similar|including|flagged|emailed|e-mailed|contacted|"
    r"cc['’]?d|forwarded (?:it )?to|wrote to|sent (?:it |this )?to|reply from)\b)"
    r"(?:(?!\b(?:my|our|i|me)\b)[^.;:])*$"
)
_CONTACT_TAGS = frozenset({"PHONE_NUMBER", "EMAIL_ADDRESS"})
_OWNER_OTHER = (
    r"\b(?:client|customer|candidate|user|employee|patient|member|student|tenant|account|"
    r"record|records|profile|applicant|citizen|person|individual|subscriber|guest|doctor)\b"
)


def _last(pattern: str, text: str) -> int | None:
    """Start of the last match of ``pattern`` in ``text`` (None when absent)."""
    found = None
    for m in re.finditer(pattern, text):
        found = m.start()
    return found


def _third_party_code(text: str, start: int, before: str, *, contact: bool = False) -> bool:
    """A code quoted from a log or error message, or introduced as 'the/similar/e.g. ... number',
    belongs to someone other than the writer (contacts: 'addresses like X', 'emailed X')."""
    tail = before[-45:]
    if contact:
        return _OTHER_CONTACT.search(tail) is not None
    quoted = _QUOTE_OPEN.search(text[max(0, start - 60) : start])
    if quoted and not re.search(r"\b(?:my|our)\b", quoted.group(0), re.IGNORECASE):
        return True
    return _OTHER_CUE.search(tail) is not None


#: An identity document named just before a masked code ("passport no. [CODE]").
_MASKED_DOC = re.compile(
    r"\b(?:passport|licen[cs]e|national id|id number|identity (?:card|number)|ssn|"
    r"social security)\b(?:\s*(?:no\.|number|num\.|#))?[^.;:]{0,20}[:(]?\s*$",
    re.IGNORECASE,
)


def _code_kind(before: str) -> str:
    """What a masked code is, from the words before it ('passport number', 'e-mail address')."""
    low = before.lower()
    for word, kind in (
        ("passport", "passport number"),
        ("licen", "driver's license number"),
        ("mail", "e-mail address"),
        ("address", "e-mail address"),
        ("phone", "phone number"),
    ):
        if word in low[-40:]:
            return kind
    return "ID"


#: A comment on an article or an essay (its writer is a person of the text).
_ARTICLE = re.compile(
    r"\b(?:[Gg]reat|[Tt]his|[Ii]nsightful|[Ee]xcellent|[Ff]antastic|[Ww]onderful|[Ll]ovely|"
    r"[Ii]nteresting|[Ww]ell-written|[Tt]hought-provoking|[Ii]nformative|[Nn]ice|the) "
    r"(?:\w+ )?(?:article|piece|write-up|op-ed|column)\b(?! of (?:furniture|equipment|art))"
    r"|\b(?:[Kk]udos|[Tt]hanks|[Tt]hank you|[Hh]ats off) to the (?:writer|author)\b"
)
_HOLDER_WORDS = (
    r"\b(?P<w>client|customer|candidate|user|employee|patient|member|student|tenant|guest|"
    r"applicant|citizen|subscriber|passenger)s?\b"
)


class SubjectFinder:
    """Builds drafts from mentions; one instance per text."""

    def __init__(self, text: str, ents: list[tuple[int, int, str]], masks) -> None:
        self.text = text
        self.drafts: list[Draft] = []
        names = find_name_mentions(text, ents, masks)
        self.legal = bool(re.search(r"\b(?:the applicants?|the Court|the Government)\b", text))
        if not self.legal:
            cues = find_cue_names(text)
            for n in names:
                if not n.source and any(
                    n.start < c.end and c.start < n.end for c in cues if c.kind == "name"
                ):
                    n.source = "cue"
            names += [
                c for c in cues if not any(n.start < c.end and c.start < n.end for n in names)
            ]
            firms = [m.span() for m in _FIRM.finditer(text) if _firm_like(m.group(0))]
            names = [
                n for n in names if not any(s <= n.start < e or s < n.end <= e for s, e in firms)
            ]
        self.names = sorted(names, key=lambda m: m.start)
        self.roles = find_role_mentions(text)
        self.kins = find_kin_mentions(text)
        self.firsts, self.author_names = find_author_mentions(text)
        self.codes = find_codes(text)
        self.owner: dict[int, Draft] = {}  # id(mention) -> draft

    # ------------------------------------------------------------------ helpers
    def _new(self, mention: Mention | None = None) -> Draft:
        d = Draft()
        if mention is not None:
            self._attach(d, mention)
        self.drafts.append(d)
        return d

    def _attach(self, d: Draft, m: Mention) -> None:
        d.mentions.append(m)
        self.owner[id(m)] = d

    def _merge(self, a: Draft, b: Draft) -> Draft:
        """Merge b into a (a keeps its place)."""
        if a is b:
            return a
        for m in b.mentions:
            self._attach(a, m)
        for k, v in b.roles.items():
            a.roles[k] = a.roles.get(k) or v
        a.kin = a.kin or b.kin
        a.anchor = a.anchor or b.anchor
        a.is_author = a.is_author or b.is_author
        a.codes.extend(b.codes)
        b.alive = False
        b.mentions = []
        for d in self.drafts:
            if d.anchor is b:
                d.anchor = a
        return a

    def _person_mentions(self) -> list[Mention]:
        return sorted(
            (
                m
                for d in self.drafts
                if d.alive
                for m in d.mentions
                if m.kind in {"name", "placeholder"}
            ),
            key=lambda m: m.start,
        )

    def _adjacent_after(self, pos: int, limit: int = 4) -> Mention | None:
        for m in self._person_mentions():
            if pos <= m.start <= pos + limit and _APPOS_BEFORE.match(self.text[pos : m.start]):
                return m
        return None

    def _adjacent_before(self, pos: int, limit: int = 4) -> Mention | None:
        best = None
        for m in self._person_mentions():
            if pos - limit <= m.end <= pos and _APPOS_AFTER.match(self.text[m.end : pos]):
                best = m
        return best

    def _chain(self, first: Mention, forward: bool) -> list[Mention]:
        """Names listed with ',' / 'and' next to ``first`` (in text order)."""
        people = self._person_mentions()
        chain = [first]
        idx = people.index(first)
        step = 1 if forward else -1
        j = idx + step
        while 0 <= j < len(people):
            a, b = (chain[-1], people[j]) if forward else (people[j], chain[-1])
            gap = self.text[a.end : b.start]
            if not _LIST_GAP.match(gap) and not (
                forward and re.match(r"^,\s*(?:a |an |both )?[a-z][\w ]{0,60},\s*(?:and\s+)?$", gap)
            ):
                break
            chain.append(people[j])
            j += step
        return chain if forward else list(reversed(chain))

    def _draft_of(self, m: Mention) -> Draft:
        return self.owner[id(m)]

    def _with_role(self, role: str, ordinal: int = 0) -> list[Draft]:
        return [
            d
            for d in self.drafts
            if d.alive and role in d.roles and (not ordinal or d.roles[role] == ordinal)
        ]

    # ------------------------------------------------------------------ stages
    def cluster_names(self) -> None:
        by_identity: dict[str, Draft] = {}
        for m in self.names:
            if m.kind == "placeholder":
                if m.identity and m.identity in by_identity:
                    self._attach(by_identity[m.identity], m)
                else:
                    d = self._new(m)
                    if m.identity:
                        by_identity[m.identity] = d
                continue
            candidates = [
                d
                for d in self.drafts
                if d.alive
                and d.best_name
                and any(names_compatible(n.name, m.name) for n in d.names)
                and not (
                    m.title
                    and d.title_sex
                    and TITLES.get(m.title.lower(), "")
                    and TITLES.get(m.title.lower(), "") != d.title_sex
                )
            ]
            if not candidates:
                self._new(m)
                continue
            if len(_tokens(m.name)) > 1:
                full = [
                    d
                    for d in candidates
                    if any(_tokens(n.name) == _tokens(m.name) for n in d.names)
                ]
                if full:
                    candidates = full
            self._attach(max(candidates, key=lambda d: max(x.start for x in d.mentions)), m)

        for m in self.names:
            if m.kind == "name" and m.role and id(m) in self.owner:  # "Mummery LJ": a judge
                self._draft_of(m).roles.setdefault(m.role, 0)

    def _role_target(self, r: Mention) -> Mention | None:
        """The person a role phrase stands in apposition to ("Mr X, the applicant's father")."""
        if re.match(r"['’]s?\b", self.text[r.end : r.end + 2]):
            return None  # "Mr X, the applicant's father": the role is the possessor
        before = self._adjacent_before(r.start)
        return before if before is not None else self._adjacent_after(r.end)

    def _role_draft(self, r: Mention) -> Draft | None:
        """An existing subject this (unattached) role phrase refers to, or None for a new one."""
        found = self._with_role(r.role, r.ordinal)
        if not found:
            return None
        pre, comp = r.qualifier.split("|") if r.qualifier else ("", "")

        def quals(d: Draft) -> list[tuple[str, str]]:
            return [
                tuple(m.qualifier.split("|"))  # type: ignore[misc]
                for m in d.mentions
                if m.kind == "role" and m.role == r.role and m.qualifier
            ]

        def compatible(d: Draft) -> bool:
            qs = quals(d)
            if not qs or (not pre and not comp):
                return True
            return any(
                (p == pre or not pre or not p) and (c == comp or not comp or not c) for p, c in qs
            )

        def last(d: Draft) -> int:
            return max((x.start for x in d.mentions if x.start < r.start), default=-1)

        owner = _possessor(r.anchor)
        if owner:  # "the plaintiff's representative" is not the applicant's representative

            def same_owner(d: Draft) -> bool:
                owners = {_possessor(m.anchor) for m in d.mentions if m.kind == "role"} - {""}
                if owner == "applicant":
                    return not owners or "applicant" in owners
                return owner in owners

            found = [d for d in found if same_owner(d)]
            if not found:
                return None
        exact = [d for d in found if any(q == (pre, comp) for q in quals(d))]
        if exact:
            return max(exact, key=last)
        fits = [d for d in found if compatible(d)]
        if not fits:
            return None
        if r.ordinal == 0 or len(fits) > 1:
            return max(fits, key=last)
        return fits[0]

    def _indefinite_is_person(self, r: Mention) -> bool:
        """'A judge of the Regional Court wrote ...' is a person; 'was a judge' is a predicate."""
        before = self.text[max(0, r.start - 40) : r.start]
        if re.search(_PREDICATE_BEFORE, before):
            return False
        if _ACTS_AFTER.match(self.text[r.end : r.end + 30]):
            return True  # "..., a judge of the Regional Court informed the applicant"
        if re.search(r"[,(]\s*$", before):
            return False  # apposition to something that is not a person mention
        return bool(r.qualifier.strip("|")) or r.anchor in {"another", "one"}

    def link_roles(self) -> None:
        pending: list[Mention] = []
        for r in sorted(self.roles, key=lambda m: m.start):
            target = self._role_target(r)
            if target is not None and r.plural:
                people = self._chain(target, forward=target.start > r.start)
                for i, p in enumerate(people, 1):
                    self._draft_of(p).roles.setdefault(r.role, i)
                continue
            if target is not None:
                d = self._draft_of(target)
                same = self._unique_role_holder(r, d) if target.kind == "placeholder" else None
                if same is not None:  # "The applicant, [PERSON], is ...": the same applicant
                    d = self._merge(same, d)
                d.roles.setdefault(r.role, r.ordinal)
                if r.anchor not in {"a", "an"}:
                    self._attach(d, r)
                continue
            pending.append(r)
        for m in _REPRESENTED.finditer(self.text):
            first = self._adjacent_after(m.end(), limit=2)
            if first is not None:
                for p in self._chain(first, forward=True):
                    self._draft_of(p).roles.setdefault("lawyer", 0)
        self._link_opening_applicants()
        for r in pending:
            if r.plural and r.anchor not in {"one"}:
                continue
            if not _standalone(r.role) and r.anchor not in {"another", "one"}:
                continue  # "the witness" is a reference; "another witness" is someone new
            if r.anchor in {"a", "an", "another", "one"}:
                if not self._indefinite_is_person(r):
                    continue
                d = self._new(r)
                d.roles[r.role] = r.ordinal
                continue
            own = _OWN_CHOICE.match(self.text, r.end)
            if own is not None:  # "the doctor she had appointed": the party's own, someone new
                r.text = f"{r.text}{own.group(0)}"
                r.end = own.end()
            found = None if own is not None else self._role_draft(r)
            if found is not None:
                self._attach(found, r)
            else:
                d = self._new(r)
                d.roles[r.role] = r.ordinal
                if r.anchor in _POSSESSIVE_DETS and r.role != "agent":  # "his supervisor"
                    owner = self._resolve_anchor(r)
                    d.anchor = owner if owner is not d else None

    def collectives(self) -> None:
        """A counted group of unnamed people ("three other accused", "the murder of two
        people", "two police officers") is that many subjects; so is "another person who ..."."""
        quotes = [(m.start(), m.end()) for m in re.finditer(r"“[^”]{0,3000}”", self.text)]
        for m in _COLLECTIVE.finditer(self.text):
            if any(s <= m.start() < e for s, e in quotes):
                continue
            noun = m.group("noun").lower()
            count = m.group("num") or "several"  # a masked count is at least two
            if m.group("noun")[0].isupper() and not count[0].isupper():
                continue  # "two Applicants" in a heading, not a count of strangers
            if noun in {"people", "persons", "men", "women", "others"}:
                crime = _CRIME_BEFORE.search(self.text[max(0, m.start() - 60) : m.start()])
                if crime is None:
                    continue
                singular = "Victim"
            else:
                singular = _COLLECTIVE_NOUNS[noun]
            if self._adjacent_after(m.end(), limit=3) is not None:
                continue  # "two witnesses, Mr A and Mr B": the names are the subjects
            n = number_value(count) or 2
            key = _COLLECTIVE_KEYS.get(singular.lower(), "")
            for i in range(1, n + 1):
                text = f"{singular} {i} of {count} ({m.group(0).strip()})"
                r = Mention(m.start(), m.end(), text, "role", role=key, ordinal=i)
                d = self._new(r)
                if key:
                    d.roles[key] = i
        for m in _ANOTHER_PERSON.finditer(self.text):
            if any(s <= m.start() < e for s, e in quotes):
                continue
            r = Mention(m.start(), m.end("noun"), m.group(0).strip(" ,"), "role")
            d = self._new(r)
            after = self.text[m.end() : m.end() + 100]
            if re.search(r"\b(?:testif|witness|give evidence)", after):
                d.roles["witness"] = 0
                r.role = "witness"

    def masked_officials(self) -> None:
        """A masked body that files an indictment is a public prosecutor ('[ORG] at [ORG] filed an
        indictment'); one that submits 'his written opinion' is a (principal) prosecutor too."""
        for m in _MASKED_PROSECUTOR.finditer(self.text):
            opinion = bool(m.group("opinion"))
            known = [
                d
                for d in self._with_role("prosecutor")
                if opinion == any("opinion" in x.text for x in d.mentions if x.kind == "role")
            ]
            what = "written opinion" if opinion else "indictment"
            text = f"public prosecutor who {m.group('verb') or m.group('opinion')} the {what}"
            r = Mention(m.start(), m.end(), text, "role", role="prosecutor", source="masked")
            if known:
                self._attach(known[0], r)
                continue
            d = self._new(r)
            d.roles["prosecutor"] = 0

    def _unique_role_holder(self, r: Mention, d: Draft) -> Draft | None:
        """The one other holder of a single-person role ('the applicant', 'the Agent') that an
        unnumbered masked name in apposition to it stands for; None when it may be someone new."""
        if r.role not in {"applicant", "agent"} or r.ordinal or r.plural or d.identity:
            return None
        if not r.anchor.startswith("the") or d.best_name:
            return None
        others = [x for x in self._with_role(r.role) if x is not d]
        if len(others) != 1 or others[0].best_name or others[0].roles.get(r.role):
            return None
        return others[0]

    def _link_opening_applicants(self) -> None:
        """'... lodged ... by a Turkish national, Mr X (and Mrs Y)' names the applicant(s)."""
        m = _OPENING.search(self.text[:3000])
        if m is None:
            return
        first = self._adjacent_after(m.end(), limit=3)
        if first is None:
            return
        people = self._chain(first, forward=True)
        if any("applicant" in self._draft_of(p).roles for p in people):
            return
        for i, p in enumerate(people, 1):
            self._draft_of(p).roles.setdefault("applicant", i if len(people) > 1 else 0)

    def link_author(self) -> None:
        legal = bool(self._with_role("applicant")) or bool(
            re.search(r"\b(?:the Court|the Government|the Convention)\b", self.text)
        )
        post_like = (
            re.search(r"\?|\b(?:[Aa]nyone|[Hh]elp|[Tt]hanks|#\w+)\b", self.text) or self.codes
        )
        if not legal and not self.firsts and not self.author_names and post_like:
            self._new(Mention(0, 0, "", "author")).is_author = True
        if self.firsts and not legal:
            author = next((d for d in self.drafts if d.alive and d.is_author), None) or self._new()
            author.is_author = True
            for m in self.firsts:
                self._attach(author, m)
        elif not self.author_names and not self._lead_placeholder():
            return
        elif not any(d.alive and d.is_author for d in self.drafts):
            self._new().is_author = True
        author = next(d for d in self.drafts if d.alive and d.is_author)
        lead = self._lead_placeholder()
        if lead is not None:
            self._merge(author, self._draft_of(lead))
        for h in self.author_names:
            same = next(
                (
                    d
                    for d in self.drafts
                    if d.alive
                    and not d.is_author
                    and any(_same_person(n.name, h.name) for n in d.names)
                ),
                None,
            )
            self._attach(author, h)
            if same is not None:
                self._merge(author, same)
            for d in self.drafts:  # "Name: [PERSON]": the header placeholder is the author
                if (
                    d.alive
                    and d is not author
                    and any(
                        m.kind == "placeholder" and m.start < h.end and h.start < m.end
                        for m in d.mentions
                    )
                ):
                    self._merge(author, d)

    def _lead_placeholder(self) -> Mention | None:
        """A person mention opening the text as a post header ("[PERSON] : ...")."""
        lead = next(iter(self._person_mentions()), None)
        at_start = lead is not None and not self.text[: lead.start].strip()
        after = self.text[lead.end : lead.end + 30] if lead is not None else ""
        if at_start and re.match(
            r"[.\w]*\s*:|\s*(?:Name|Username|User|Author)\s*:", after, re.IGNORECASE
        ):
            return lead  # "[PERSON] : ...", "[PERSON].smith : ...", "[PERSON] Name: ..."
        return None

    def _resolve_anchor(self, k: Mention) -> Draft | None:
        a = k.anchor
        if a in {"my", "our"}:
            d = next((d for d in self.drafts if d.alive and d.is_author), None)
            return d
        app = re.match(r"the (?:(?P<ord>first|second|third) )?applicants?['’]s?", a)
        if app:
            ordinal = ORDINALS.get(app.group("ord") or "", 0)
            found = self._with_role("applicant", ordinal)
            return found[0] if len(found) == 1 or (found and ordinal) else None
        party = re.match(r"the (victim|deceased)['’]s", a)
        if party:  # "the victim's mother": the victim's (or the deceased's) subject
            found = self._with_role(party.group(1))
            return found[0] if len(found) == 1 else None
        if a.endswith(("'s", "’s")):
            name = clean_name(a)
            for m in reversed(self._person_mentions()):
                if m.start >= k.start:
                    continue
                if m.kind == "placeholder" and a.startswith("["):
                    if m.text.lower() in a:
                        return self._draft_of(m)
                elif m.name and names_compatible(m.name, name):
                    return self._draft_of(m)
            return None
        if a in {"his", "her", "their"}:
            want = {"his": "Male", "her": "Female"}.get(a, "")
            best = None
            for d in self.drafts:
                if not d.alive or d.kin:
                    continue
                prior = [m.start for m in d.mentions if m.start < k.start and m.kind != "kin"]
                if not prior:
                    continue
                if want and d.title_sex and d.title_sex != want:
                    continue
                if best is None or max(prior) > best[0]:
                    best = (max(prior), d)
            return best[1] if best else None
        return None

    def link_kin(self) -> None:
        kinmap = lexicons.kin_words()
        singles: dict[tuple[int, str], Draft] = {}
        for k in sorted(self.kins, key=lambda m: m.start):
            anchor = self._resolve_anchor(k)
            if anchor is None and not k.anchor:
                anchor = next((x for x in self.drafts if x.alive and x.is_author), None)
            word = _canonical_kin(kinmap[k.role].word if k.role in kinmap else k.role)
            if k.count > 1:
                first = self._adjacent_after(k.end, limit=3)
                named = self._chain(first, forward=True) if first is not None else []
                named = [p for p in named if not self._draft_of(p).kin][: k.count]
                for i in range(1, k.count + 1):
                    if i <= len(named):
                        d = self._draft_of(named[i - 1])
                        self._attach(d, k)
                    else:
                        d = self._new(k)
                    d.kin, d.anchor, d.child_index, d.child_count = word, anchor, i, k.count
                continue
            named = self._adjacent_after(k.end, limit=3) or self._adjacent_before(k.start, limit=3)
            key = (id(anchor), word)
            if named is not None:
                d = self._draft_of(named)
                self._attach(d, k)
                d.kin, d.anchor = d.kin or word, d.anchor or anchor
                if key in singles and singles[key] is not d:
                    d = self._merge(d, singles[key])
                singles[key] = d
                continue
            if key in singles and anchor is not None:
                self._attach(singles[key], k)
                continue
            d = self._new(k)
            d.kin, d.anchor = word, anchor
            singles[key] = d
        author = next((x for x in self.drafts if x.alive and x.is_author), None)
        for m in re.finditer(
            r"\b[Mm]arried (?:life )?(?:to|with) (?:(?:the|my) )?(?:[a-z]+,? ){0,3}"
            r"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)?",
            self.text,
        ):
            named = self._adjacent_after(m.start("name") if m.group("name") else m.end(), limit=1)
            if (
                named is None
                and m.group("name")
                and lexicons.fold(m.group("name").split()[0]) in lexicons.first_names()
            ):
                mention = Mention(
                    m.start("name"), m.end("name"), m.group("name"), "name", name=m.group("name")
                )
                named = mention
                self._new(mention)
            if named is not None:
                d = self._draft_of(named)
                if not d.kin:
                    d.kin = "spouse"
                    d.anchor = author
                singles[(id(author), "spouse")] = d
        self._life_with(author, singles)
        self._masked_parents(author)
        self._masked_close(author)
        self._masked_counts(author)
        self._masked_parent_list(author)
        self._social_roles(author)
        self._counted_people(author)
        spouse_words = {"wife", "husband", "spouse", "partner"}
        has_spouse = any(
            d.alive and d.kin in spouse_words | {"spouse"} and d.anchor is author
            for d in self.drafts
        )
        married = re.search(
            r"\[DEM\] life\b(?! with)|\b[Bb]eing \[DEM\] with \[QUANTITY\]|"
            r"#MarriedLife|\b[Mm]arried life\b|\b[Hh]appily married\b|\bI(?:'m|’m| am) married\b"
            r"|\b(?:[Bb]eing|[Nn]ewly|[Jj]ust) married\b|\b[Mm]arried with (?:\w+ ){0,2}(?:kids|"
            r"children|kiddos|little ones)\b|\b[Mm]arried for (?:\w+ )?years\b",
            self.text,
        )
        if author is not None and married and not has_spouse:
            d = self._new(
                Mention(
                    married.start(),
                    married.end(),
                    married.group(0),
                    "kin",
                    role="spouse",
                    anchor="my",
                )
            )
            d.kin, d.anchor = "spouse", author

    def _life_with(self, author: Draft | None, singles: dict[tuple[int, str], Draft]) -> None:
        """'(married) life with X' in a post: X is the author's partner, also when 'married' or
        the name was masked ('[DEM] life with [PERSON]', '[DEM] to [ORG]'); 'with X and our
        kids' makes X the other parent."""
        if author is None or self.legal:
            return
        named = None
        m = re.search(r"[Ll]ife with (?=\S)", self.text)
        if m is not None:
            named = self._adjacent_after(m.end(), limit=1)
        if named is None:
            named = self._masked_partner()
        if named is None:
            for p in self._person_mentions():
                if re.search(r"\b(?:with|to)\s*$", self.text[max(0, p.start - 6) : p.start]) and (
                    re.match(r"\s*(?:and|&)\s+(?:our|the)\b", self.text[p.end : p.end + 12])
                ):
                    named = p
                    break
        if named is None:
            return
        d = self._draft_of(named)
        if d.kin or d.is_author:
            return
        spouse = singles.get((id(author), "spouse"))
        if spouse is not None and spouse is not d and not spouse.names:
            d = self._merge(d, spouse)
        d.kin, d.anchor = "spouse", author
        singles[(id(author), "spouse")] = d

    def _masked_partner(self) -> Mention | None:
        """The placeholder after a masked 'married (life) to/with': '[DEM] to [ORG] blessed
        with...', '[DEM] life with [ORG] our...', 'being [DEM] to the best partner, [PERSON]'.
        A non-person placeholder there stands for the partner's name (NER mislabelled it)."""
        m = re.search(
            r"\[(?:DEM|NORP|MISC)\](?: life)? (?:with|to) (?:the (?:\w+ ){0,2}?(?:partner|spouse|"
            r"husband|wife|man|woman|one),? )?(?P<ph>\[(?:PERSON|ORG|LOC|GPE)(?:_\d+)?\])",
            self.text,
        )
        if m is None:
            return None
        found = self._adjacent_after(m.start("ph"), limit=0)
        if found is not None:
            return found
        mention = Mention(m.start("ph"), m.end("ph"), m.group("ph"), "placeholder")
        self._new(mention)
        return mention

    def _masked_parents(self, author: Draft | None) -> None:
        """'my [DEM], [PERSON] and [PERSON]' / 'my folks, [DEM] and [PERSON]': a masked kin word
        followed by two people; most often the writer's parents."""
        if author is None or self.legal:
            return
        rx = re.compile(
            r"\b(?:[Mm]y|[Oo]ur) (?:(?:amazing|dear|lovely|wonderful|beloved|late) )?"
            r"(?:\[(?:DEM|NORP)\]|folks|parents),?\s+(?:(?P<ph>\[(?:DEM|NORP|ORG|LOC|GPE|MISC)\])\s*(?:and|&)\s*)?"
        )
        for m in rx.finditer(self.text):
            first = self._adjacent_after(m.end(), limit=0)
            if first is None:
                continue
            people = self._chain(first, forward=True)
            if m.group("ph") and len(people) == 1:
                ph = Mention(m.start("ph"), m.end("ph"), m.group("ph"), "placeholder")
                self._new(ph)
                people = [ph, *people]
            drafts = [self._draft_of(p) for p in people]
            if len(drafts) != 2 or any(d.kin or d.is_author for d in drafts):
                continue
            for i, d in enumerate(drafts, 1):
                d.kin, d.anchor, d.child_index, d.child_count = "parent", author, i, 2

    def _masked_parent_list(self, author: Draft | None) -> None:
        """A masked name list after a masked kin word ('my [DEM], [ORG]' for 'my parents, Sean &
        Jessica') in a gratitude, legacy or upbringing context, or 'passed down since/from
        [ORG]': NER labels two names joined by '&'/'and' as one organisation, so the slot holds
        two people, most likely the writer's father and mother (kept as a low-certainty guess)."""
        if author is None or self.legal:
            return
        taken = {(m.start, m.end) for d in self.drafts if d.alive for m in d.mentions}
        for m in _MASKED_PARENT_LIST.finditer(self.text):
            slot = "ph" if m.group("ph") else "ph2"  # 'my [DEM], [ORG]' or 'passed down since'
            start, end = m.span(slot)
            if (start, end) in taken:
                continue
            s0 = max(0, self.text.rfind(".", 0, m.start()) + 1)
            window = self.text[s0 : m.end() + 120]
            if slot == "ph" and not _PARENT_CUE.search(window):
                continue
            for i, guess in enumerate(("father", "mother"), 1):
                d = self._new(Mention(start, end, m.group(slot), "kin", role="parent"))
                d.anchor, d.guess = author, guess
                d.kin, d.child_index, d.child_count = "parent", i, 2
            return

    def _social_roles(self, author: Draft | None) -> None:
        """'my mentor', 'my coach', 'my landlord': an unnamed person close to the writer is a
        subject; a name in apposition ('my mentor, [PERSON]') gets the role instead."""
        if author is None or self.legal:
            return
        for m in _SOCIAL_ROLE.finditer(self.text):
            noun = m.group("noun").lower()
            key = _SOCIAL_KEYS.get(noun, noun)
            if any(x.role == key for d in self.drafts if d.alive for x in d.mentions):
                continue
            named = self._adjacent_after(m.end(), limit=3)
            if named is not None and not self._draft_of(named).kin:
                self._attach(self._draft_of(named), Mention(m.start(), m.end(), noun, "role"))
                continue
            # No role key: the words around the mention describe this unnamed person.
            d = self._new(Mention(m.start("noun"), m.end(), noun, "role", role=key, anchor="my"))
            d.anchor = author

    def _counted_people(self, author: Draft | None) -> None:
        """'when [QUANTITY] guests share similar names': a masked count of people in a post is
        at least two people (two subjects, described by the words around them)."""
        if author is None or self.legal:
            return
        for m in _COUNTED_PEOPLE.finditer(self.text):
            noun = m.group("noun").lower()
            for i in range(1, 3):
                text = f"{noun[:-1].capitalize()} {i}, one of the {noun}"
                self._new(Mention(m.start(), m.end(), text, "role", role=""))
            return

    def _masked_close(self, author: Draft | None) -> None:
        """'my [PERSON] and [PERSON]': NER masks capitalised kin words ('Mum', 'Dad'), and a
        bare name seldom follows 'my'; a pair is most likely the writer's parents ('Mum and
        Dad', in that order; a guess kept at low certainty), one alone someone close."""
        if author is None or self.legal:
            return
        rx = re.compile(
            r"\b(?:[Mm]y|[Oo]ur) (?:(?:amazing|dear|lovely|wonderful|beloved|late|awesome|"
            r"incredible|wonderful) )?(?=\[PERSON)"
        )
        for m in rx.finditer(self.text):
            first = self._adjacent_after(m.end(), limit=0)
            if first is None or first.kind != "placeholder":
                continue
            people = self._chain(first, forward=True)
            drafts = [self._draft_of(p) for p in people]
            if any(d.kin or d.is_author or d.roles for d in drafts):
                continue
            if len(drafts) == 2:
                for i, (d, guess) in enumerate(zip(drafts, ("mother", "father"), strict=True), 1):
                    d.kin, d.anchor, d.child_index, d.child_count = "parent", author, i, 2
                    d.guess = guess
            elif len(drafts) == 1:
                drafts[0].anchor, drafts[0].guess = author, "close"

    def _masked_counts(self, author: Draft | None) -> None:
        """'our [QUANTITY] little ones', 'raising [QUANTITY] amazing [DEM]', 'a [DEM] of
        [QUANTITY]', 'our trio of [DEM]': a masked count of children is read as three, the middle
        of the two to four that such posts usually state ('trio' says three, 'pair' two). Extra
        guessed children cost no protection score; missing ones hide real people."""
        if author is None or self.legal:
            return
        for m in _MASKED_COUNT.finditer(self.text):
            if any(
                k.start <= m.start() < k.end
                for d in self.drafts
                for k in d.mentions
                if k.kind != "author"
            ):
                continue
            word = (m.group("noun") or "").split()[-1] if m.group("noun") else ""
            kin = {"sons": "son", "daughters": "daughter"}.get(word, "child")
            n = {"trio": 3, "duo": 2, "pair": 2}.get((m.group("group") or "").lower(), 3)
            for i in range(1, n + 1):
                d = self._new(Mention(m.start(), m.end(), m.group(0), "kin", role=kin))
                d.kin, d.anchor, d.child_index, d.child_count = kin, author, i, n
            break

    def article_author(self) -> None:
        """A comment on an article ("Great article on ...", "This piece really hit home",
        "Kudos to the writer!") speaks to the article's author: a person with a job (writer)."""
        if self.legal or self._with_role("writer"):
            return
        m = _ARTICLE.search(self.text)
        if m is None:
            return
        # A zero-width mention: the writer is referred to, never named, and owns no text.
        d = self._new(
            Mention(m.start(), m.start(), "the author of the article", "role", role="writer")
        )
        d.roles["writer"] = 0

    def _masked_code_holders(self) -> None:
        """A masked code introduced as someone else's ('client ID [CODE]', 'employee records
        (ID: [CODE])') still shows that this third person exists."""
        if self.legal:
            return
        for m in re.finditer(r"\[(?:CODE|ID|ID_NUMBER)(?:_\d+)?\]", self.text):
            before = self.text[max(0, m.start() - 40) : m.start()].lower()
            who = re.search(_HOLDER_WORDS + r"[^.]*$", before)
            contact = _OTHER_CONTACT.search(before[-45:])
            if re.search(r"\b(?:my|our|i)\s+(?:\w+\s+){0,2}$", before) and not contact:
                continue
            if who is not None:
                word = who.group("w")
            elif _MASKED_DOC.search(before) and not re.search(r"\b(?:my|our|i|me)\b", before):
                word = "person"  # "passport no. [CODE]" in a log: someone else's document
            elif contact:
                word = "contact"  # "I even emailed [CODE]", "addresses (like [CODE])"
            else:
                continue
            d = self._new(Mention(m.start(), m.end(), m.group(0), "code", role=word))
            d.roles.setdefault("holder", 0)
            d.code_kind = _code_kind(before)

    def _code_owner(self, c: CodeHit, prev_end: int) -> tuple[str, str]:
        """('mine' | 'other' | '' (undecided), holder word) for a code, from the words just
        before it, not reaching back past the previous code ("client ID X from my workstation
        (Y)": Y is the writer's)."""
        before = self.text[max(0, c.start - 60, prev_end) : c.start].lower()
        before = re.sub(r"\b(e|i)\.(g|e)\.", r"\1_\2_", before)  # "e.g." ends no sentence
        before = re.split(r"[.!?;\n]", before)[-1].replace("e_g_", "e.g.").replace("i_e_", "i.e.")
        other = _last(_OWNER_OTHER, before)
        word = re.match(r"\w+", before[other:]).group(0) if other is not None else ""
        word = {"records": "", "record": "", "account": "", "profile": ""}.get(word, word)
        mine = _last(r"\b(?:my|our|i|me|mine)\b", before)
        if re.search(r"\bcorrect\b|\bcredentials?\b|\bvalid\b", before[-45:]):
            return "mine", ""
        if _third_party_code(self.text, c.start, before, contact=c.tag in _CONTACT_TAGS):
            return "other", word
        if mine is not None and (other is None or mine > other):
            return "mine", ""
        if other is not None:
            return "other", word
        if c.tag in {"IDENTIFICATION_NUMBER", "PASSPORT_NUMBER"}:
            return "other", ""
        return "", ""

    def attach_codes(self) -> None:
        author = next((d for d in self.drafts if d.alive and d.is_author), None)
        prev_end = 0
        for c in self.codes:
            owner, word = self._code_owner(c, prev_end)
            prev_end = c.end
            named = self._named_holder(c, author)
            if named is not None:
                named.codes.append(c)
            elif owner == "other" or (owner == "" and author is None and not self._near(c)):
                d = self._new(Mention(c.start, c.end, c.value, "code", role=word))
                d.codes.append(c)
            elif author is not None:
                author.codes.append(c)
            else:
                near = self._near(c)
                if near is not None:
                    self._draft_of(near).codes.append(c)
                else:
                    self._new(Mention(c.start, c.end, c.value, "code")).codes.append(c)

    def _named_holder(self, c: CodeHit, author: Draft | None) -> Draft | None:
        """The person (not the author) an e-mail address names: '@kingj' ... 'j.king@...'."""
        if c.tag != "EMAIL_ADDRESS":
            return None
        from spia_core.adversary.local.attributes.identity import email_name

        name = email_name(c.value)
        if not name or not any(len(t) > 2 for t in _tokens(name)):
            return None
        if author is not None and any(names_compatible(n.name, name) for n in author.names):
            return None
        found = [
            d
            for d in self.drafts
            if d.alive
            and not d.is_author
            and not d.kin
            and any(names_compatible(n.name, name) for n in d.names)
        ]
        return found[0] if len(found) == 1 else None

    def _near(self, c: CodeHit) -> Mention | None:
        prev = [m for m in self._person_mentions() if m.end <= c.start and c.start - m.end < 150]
        return prev[-1] if prev else None

    def drop_weak_names(self) -> None:
        """Drop untitled single-mention NER 'names' that look like words, places or organisations."""  # noqa: E501
        firsts = lexicons.first_names()
        for d in self.drafts:
            if not d.alive or d.roles or d.kin or d.is_author:
                continue
            names = [m for m in d.mentions if m.kind == "name"]
            if not names or len(names) != len(d.mentions) or any(m.title for m in names):
                continue
            tokens = [t for m in names for t in _tokens(m.name)]
            known = any(t in firsts for t in tokens) or all(m.source for m in names)
            multi = any(len(_tokens(m.name)) > 1 for m in names)
            if known or (multi and len(names) > 1):
                continue
            plain = multi and not re.search(_ORGISH, " ".join(m.name for m in names))
            if plain and any(self._placeish(m) for m in names):
                plain = False
            if plain and lexicons.gazetteer().lookup(names[0].name) is None:
                continue
            d.alive = False

    def _placeish(self, m: Mention) -> bool:
        """A NER 'name' that reads as a place, a body or a foreign phrase by its context."""
        before = self.text[max(0, m.start - 25) : m.start]
        after = self.text[m.end : m.end + 2]
        if re.search(
            r"(?:\b(?:in|at|from|near|of|Location|pickup|Pickup)\s*:?\s*|[(“\"])$", before
        ):
            return True
        if after[:1] in {")", "”"} or after.startswith('"'):
            return True
        return any(t[:1].islower() for t in m.name.split())

    def run(self) -> list[Draft]:
        self.cluster_names()
        self.drop_weak_names()
        self.link_roles()
        if self.legal:
            self.collectives()
            self.masked_officials()
        self.link_author()
        self.link_kin()
        self.attach_codes()
        self._masked_code_holders()
        self.article_author()
        alive = [d for d in self.drafts if d.alive and (d.mentions or d.codes or d.is_author)]

        def order(d: Draft) -> tuple[int, int]:
            lead = 0 if d.is_author or ("applicant" in d.roles and d.roles["applicant"] <= 1) else 1
            return (lead, d.first)

        return sorted(alive, key=order)


def find_subjects(text: str, ents: list[tuple[int, int, str]], masks) -> list[Draft]:
    """Stage A: the subjects of ``text`` (applicant or author first, then by first mention)."""
    return SubjectFinder(text, ents, masks).run()
