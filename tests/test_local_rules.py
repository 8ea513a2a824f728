"""The local adversary's rule registry: every rule is well-formed, fires on its own invented
example sentences, and every inferred value carries an explanation naming a registered rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spia_core.adversary.local import LocalAdversary, rules
from spia_core.adversary.local.rules import READS, all_rules

ATTRIBUTES = Path(__file__).resolve().parents[1] / "spia_core" / "adversary" / "local"


def _fired(adv: LocalAdversary, text: str) -> set[str]:
    with rules.recording() as rec:
        adv.infer(text)
    return {f.rule for per_tag in rec for fs in per_tag.values() for f in fs}


def test_registry_is_well_formed() -> None:
    table = all_rules()
    assert len(table) >= 60
    for rid, r in table.items():
        assert rid == r.id and r.reads in READS and 1 <= r.certainty <= 5
        assert r.explains and "." in rid


def test_every_rule_used_in_code_is_registered() -> None:
    used = set()
    for path in ATTRIBUTES.rglob("*.py"):
        used |= set(re.findall(r'rule\("([a-z_]+\.[a-z_]+)"\)', path.read_text(encoding="utf-8")))
    assert used - set(all_rules()) == set()


def test_no_bare_certainty_in_findings() -> None:
    """Findings are made by registered rules; no module builds a Finding by hand."""
    for path in (ATTRIBUTES / "attributes").glob("*.py"):
        assert "Finding(" not in path.read_text(encoding="utf-8"), path.name


def _view(adv: LocalAdversary, text: str) -> list[tuple]:
    return [
        (s.description, [(p.tag, p.keyword, p.certainty) for p in s.piis])
        for s in adv.infer(text).subjects
    ]


def test_every_rule_has_an_invented_example() -> None:
    assert [rid for rid, r in all_rules().items() if not r.examples] == []


@pytest.mark.parametrize("rule_id", sorted(all_rules()))
def test_rule_fires_on_its_examples(adv: LocalAdversary, rule_id: str) -> None:
    """An attribute rule fires when it makes a candidate on each of its examples; a subject
    pass fires when switching it off changes the subjects of each of its examples."""
    r = all_rules()[rule_id]
    for text in r.examples:
        if r.tag == "SUBJECT":
            with rules.disabled({rule_id}):
                off = _view(adv, text)
            assert _view(adv, text) != off, text
        else:
            assert rule_id in _fired(adv, text), text


def test_every_subject_pass_is_a_registered_subject_rule() -> None:
    from spia_core.adversary.local.subjects import PASSES

    for p in PASSES:
        assert all_rules()[p.id].tag == "SUBJECT" and p.explains
    subject_rules = {rid for rid, r in all_rules().items() if r.tag == "SUBJECT"}
    assert subject_rules >= {p.id for p in PASSES}
    used = set()  # the mention readers check their own ids
    for path in ATTRIBUTES.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'rules\.enabled\("(subject\.[a-z_]+)"\)', text))
    assert subject_rules == {p.id for p in PASSES} | used


def test_every_inferred_value_is_explained(adv: LocalAdversary) -> None:
    texts = [
        "Name: tomasz_w | Location: Gdansk\nI'm a welder and my wife Ola is a nurse. I was born "
        "in 1979. Call me on +48 601 222 333.",
        "The applicant, Mr Lars Okonjo, a Norwegian national born in 1958, lives in Bergen. He "
        "was represented by Ms E. Halvorsen, a lawyer practising in Oslo.",
        "[PERSON] : As a [DEM] of [QUANTITY] I work as a cashier at [ORG] in [LOC].",
    ]
    n = 0
    for text in texts:
        for s in adv.infer(text).subjects:
            for p in s.piis:
                if p.keyword:
                    n += 1
                    assert p.explanation is not None, (p.tag, p.keyword)
                    assert p.explanation.rule in all_rules()
                    assert (
                        p.keyword in p.explanation.text and p.explanation.rule in p.explanation.text
                    )
    assert n >= 10


def test_ablation_reports_each_rule_that_fires() -> None:
    from spia_core.bench.rule_ablation import ablate, format_ablation

    rep = ablate("PANORAMA-151", limit=4, masked=False)
    table = rep["original"]["rules"]
    assert "identity.name_mention" in table
    assert "subject.cluster_names" in table and table["subject.cluster_names"]["docs"] >= 1
    assert table["subject.cluster_names"]["cpr_off_minus_on"] > 0  # no names, no people
    for rid, row in table.items():
        assert -1.0 <= row["cpr_off_minus_on"] <= 1.0
        if all_rules()[rid].tag != "SUBJECT":  # a pass's columns are on-minus-off counts
            assert row["docs"] >= 1 and min(row["correct"], row["wrong"], row["neutral"]) >= 0
    assert rep["original"]["baseline"]["explained_share"] == 1.0
    text = format_ablation([rep])
    assert "identity.name_mention" in text and "PANORAMA-151" in text
    assert "subject.author" in text


def test_ablation_of_a_spia_jsonl_file() -> None:
    """`bench adversary --dataset FILE --ablate` reads the file as the plain bench does
    (it raised 'unknown bundled dataset' with a traceback)."""
    from spia_core.bench.rule_ablation import ablate

    path = "tests/fixtures/written/blind_pii.jsonl"
    rep = ablate(path, limit=3, masked=False, subject_passes=False)
    assert rep["dataset"] == path and rep["n_docs"] == 3
    assert "identity.name_signoff" in rep["original"]["rules"]


def test_choosing_leaves_the_recorded_candidates_as_they_are() -> None:
    from spia_core.adversary.local.attributes.stage import choose

    child_age = rules.rule("age.child").find("3-12")
    job = rules.rule("occupation.stated").find("Nurse")
    findings = {"AGE": [child_age], "OCCUPATION": [job]}
    piis = {p.tag: p.keyword for p in choose(findings)}
    assert piis["AGE"] == "" and piis["OCCUPATION"] == "Nurse"
    assert findings["AGE"] == [child_age]  # the ablation re-chooses among the recorded ones
