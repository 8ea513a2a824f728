"""WordAlternation finds exactly what the one big ``\\b(w1|w2|...)\\b`` regex finds."""

from __future__ import annotations

import random
import re

from spia_core.adversary.local import lexicons
from spia_core.text.alternation import RegexSet, WordAlternation, prefix_tree

WORDS = ["night nurse", "nurse", "nurses", "care worker", "care", "baker", "Ba", "x-ray tech"]
TEXTS = [
    "The night nurse and two nurses met a care worker; careful bakers baked. NURSE! Ba ba.",
    "ſtudent Nurſe KELVIN-x-ray tech, x-ray technician, care-worker, nurse\n\nnurse,",
    "",
    "no match here at all",
]


def _spans(pattern, text: str, *args: int) -> list[tuple[tuple[int, int], str]]:
    return [(m.span(), m.group(1)) for m in pattern.finditer(text, *args)]


def test_same_matches_as_the_regex_on_written_text_and_random_slices() -> None:
    tree = sorted((w.lower() for w in WORDS), key=len, reverse=True)  # read as a prefix tree
    for flags, words in ((re.IGNORECASE, WORDS), (0, WORDS), (re.IGNORECASE, tree), (0, tree)):
        rx = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", flags)
        fast = WordAlternation(words, flags)
        assert fast._tree == (words is tree)
        assert fast.pattern == rx.pattern and fast.flags == rx.flags
        rng = random.Random(3)
        for text in TEXTS:
            assert _spans(fast, text) == _spans(rx, text)
            for _ in range(200):
                a = rng.randrange(len(text) + 1)
                b = rng.randrange(a, len(text) + 1)
                assert _spans(fast, text[a:b]) == _spans(rx, text[a:b])
                assert _spans(fast, text, a, b) == _spans(rx, text, a, b)


def test_the_job_taxonomy_pattern_is_unchanged() -> None:
    table, jobs = lexicons.occupations()
    words = sorted(table, key=len, reverse=True)
    rx = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)
    text = "She was a retired school nurse, then a Police Officer and later a sous-chef."
    assert jobs.pattern == rx.pattern
    assert _spans(jobs, text) == _spans(rx, text) != []


def test_prefix_tree_matches_as_the_alternation_longest_first() -> None:
    words = ["son", "sons", "sister", "step-son", "s", "mum", "mummy", "Mum", "a.b"]
    plain = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    tree = prefix_tree(words)
    assert tree == "(?:Mum|a\\.b|mum(?:my)?|s(?:ister|on(?:s)?|tep\\-son)?)"
    rng = random.Random(5)
    # text built from the words themselves so that prefixes of one another meet at one place
    texts = [" ".join(rng.choice([*words, "x", "sonny", "mumm", "a-b"]) for _ in range(40))]
    texts += [t.replace(" ", "") for t in texts] + TEXTS
    for tail in (r"\b", "", r"(?=\s)", r"\b(?!\s+sister)"):
        a, b = re.compile(f"(?:{plain}){tail}"), re.compile(f"(?:{tree}){tail}")
        for text in texts:
            assert [m.span() for m in a.finditer(text)] == [m.span() for m in b.finditer(text)]


def test_regex_set_gives_each_regex_its_own_matches() -> None:
    patterns = [
        re.compile(r"\b(?:nurse|nurses)\b"),
        re.compile(r"(?P<num>\d+)\s*(?:kg|km)"),
        re.compile(r"\b(?:care(?: worker)?)\b"),
        re.compile(r"(?<=night )(?P<num>\w+)"),  # a group name used twice: joined without it
        re.compile(r"x*"),  # matches the empty string: its own finditer
    ]
    joined = RegexSet(patterns)
    assert joined._any is not None
    apart = RegexSet([*patterns, re.compile(r"(a)\1")])  # a back-reference: scanned alone
    assert apart._any is None
    text = "night nurse 12 kg, 3km care worker; nurses careful xx night care " + TEXTS[1]
    for regexes in (joined, apart):
        for rx, found in zip(regexes.patterns, regexes.finditer_each(text), strict=False):
            assert [m.span() for m in found] == [m.span() for m in rx.finditer(text)]


def test_regex_set_joins_regexes_of_other_flags_and_reads_pieces_of_a_text() -> None:
    patterns = [
        re.compile(r"\b(?:phd|master['’]?s)\b", re.IGNORECASE),  # case-insensitive
        re.compile(r"\bMA\b(?! student)"),  # case-sensitive: not 'ma', 'Ma'
        re.compile(r"\bma\w*", re.IGNORECASE | re.MULTILINE),
    ]
    joined = RegexSet(patterns)
    assert joined._any is not None and joined._any.pattern.startswith(r"\b(?=")
    text = "A PhD, an MA and a Masters; ma MA student. Ma\nmaths PHD xMA"
    for rx, found in zip(patterns, joined.finditer_each(text), strict=True):
        assert [m.span() for m in found] == [m.span() for m in rx.finditer(text)]
    # pieces are read as texts of their own (the 'MA' of 'xMA' opens a piece: a word there),
    # and a stretch matched again from an overlapping piece counts once
    n = len(text)
    spans = [(0, 12), (10, 27), (7, 27), (n - 2, n)]
    for rx, found in zip(patterns, joined.finditer_spans(text, spans), strict=True):
        want: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}
        for a, b in spans:
            for m in rx.finditer(text[a:b]):
                want.setdefault((a + m.start(), a + m.end()), (m.span(), a))
        assert [(m.span(), a) for m, a in found] == list(want.values())
    found = joined.finditer_spans(text, spans)
    assert [[text[a + m.start() : a + m.end()] for m, a in f] for f in found] == [
        ["PhD", "Masters"],
        ["MA", "MA"],
        ["MA", "Masters", "MA"],
    ]


def test_a_cue_regex_names_the_words_of_a_word_class() -> None:
    kin = lexicons._words_in(r"\bmy (?:{{kin}})\b")
    assert kin == rf"\bmy (?:{lexicons.kin_alternation()})\b"
    tree = lexicons._words_in(r"\bmy (?:{{kin_tree}})\b")  # the same words as a prefix tree
    assert tree == rf"\bmy (?:{prefix_tree(lexicons.kin_words())})\b"
    assert re.search(tree, "I met my stepdaughter there")[0] == "my stepdaughter"
    owned = lexicons.subject_cues()["possessed_kin"].search("Then my two little sons came")
    assert (owned["anchor"], owned["num"], owned["kin"]) == ("my", "two", "sons")
    both = lexicons.alternation("spouse_word", "social_noun")
    assert lexicons._words_in("(?:{{spouse_word+social_noun}})") == f"(?:{both})"
    assert re.search(lexicons._words_in(r"\bmy (?:{{spouse_word}})\b"), "I met my husband there")
    for name in ("subject_cues.tsv", "attribute_cues.tsv"):
        assert not any("{{" in rx.pattern for rx in lexicons.subject_cues(name).values())


def test_a_cue_regex_reads_a_part_row_which_is_no_cue_itself() -> None:
    parts = {"_town": r"(?P<town>[A-Z]\w+)", "_stay": r"(?:{{_town}}|home)"}
    assert lexicons._words_in(r"\bin {{_stay}}\b", parts) == r"\bin (?:(?P<town>[A-Z]\w+)|home)\b"
    cues = lexicons.subject_cues("attribute_cues.tsv")
    assert "_place" not in cues
    assert cues["origin"].search("I grew up in Kumasi")["place"] == "Kumasi"


def test_the_role_row_holds_each_role_of_the_table_as_a_group() -> None:
    from spia_core.adversary.local.mentions import find_role_mentions

    rx = lexicons.subject_cues()["role_mention"]  # {{roles}}: one group r<row> per roles.tsv row
    assert {f"r{i}" for i in range(len(lexicons.roles()))} <= set(rx.groupindex)
    [m] = find_role_mentions("The letter reached the second applicant on Monday.")
    assert (m.role, m.ordinal, m.anchor) == ("applicant", 2, "the")
