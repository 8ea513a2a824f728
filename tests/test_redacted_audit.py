"""Redacted-only audit (engine, API, CLI), exposure, and verdicts that cannot be falsely green.

Every document here was written for these tests (tests/fixtures/redacted_only/).
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from spia_core.adversary.llm import LLMAdversary
from spia_core.adversary.local import patterns
from spia_core.audit.caveats import already_redacted_message, unrelated_pair_message
from spia_core.cli import main
from spia_core.exposure import (
    document_exposure,
    find_placeholders,
    readings_text,
    subject_exposure,
    without_placeholders,
)
from spia_core.llm.fake import FakeAPIError, FakeLLM
from spia_core.model import (
    PII,
    AuditReport,
    Evidence,
    NoticeKind,
    Severity,
    Subject,
)
from spia_core.pipeline import AuditConfig, Components, audit, audit_redacted
from spia_core.readability import detect_language, language_notice, no_subjects_notice
from spia_core.verdict import (
    CANNOT_JUDGE,
    MEETS_TARGET,
    NO_EXPOSURE_FOUND,
    STRONGER_CHECK,
    UNSAFE,
    assess,
)

FIXTURES = Path(__file__).parent / "fixtures" / "redacted_only"
SCHEMA = json.loads((Path(__file__).parents[1] / "docs" / "report.schema.json").read_text())
GREEN = (MEETS_TARGET, NO_EXPOSURE_FOUND)
#: A valid Stage A answer that lists nobody.
NOBODY = {"subjects": [], "collectives_not_counted": []}


def _read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def letter_report() -> AuditReport:
    return audit_redacted(_read("reference_letter_redacted.txt"), AuditConfig())


def _llm_components(*script: object) -> Components:
    return Components(anonymizer=None, adversary=LLMAdversary(FakeLLM(list(script))), matcher=None)


# --------------------------------------------------------------------------- the audit


def test_redacted_only_report_shape(letter_report: AuditReport) -> None:
    r = letter_report
    text = _read("reference_letter_redacted.txt")
    assert r.mode == "redacted_only"
    assert r.original_text == "" and r.anonymized_text == text
    assert r.gt_subjects == [] and r.metrics.cpr is None
    assert r.inferred_subjects and r.exposure is not None
    assert len(r.exposure.subjects) == len(r.inferred_subjects)
    kinds = {n.kind for n in r.notices}
    assert {NoticeKind.NO_GROUND_TRUTH, NoticeKind.LOWER_BOUND} <= kinds
    assert not any(n.blocks_verdict for n in r.notices)


def test_placeholders_of_every_style_are_found(letter_report: AuditReport) -> None:
    assert r_texts(letter_report) == ["[REDACTED]", "[LOCATION]", "[PERSON]", "***", "XXX"]
    post = _read("forum_post_redacted.txt")
    assert [p.text for p in find_placeholders(post)] == [
        "███████",
        "[PERSON]",
        "<CITY>",
        "***",
        "[LOCATION]",
    ]
    assert find_placeholders("He said [sic] it was fine [laughs].") == []


def test_redaction_notes_and_other_mask_styles_are_placeholders() -> None:
    """Styles of hand and FOI redaction: notes that say what was taken out, exemption marks,
    other block characters, a bare REDACTED; brackets of ordinary text stay text."""
    text = (
        "Dear [Name removed], the officer (name withheld) met <redacted> at ■■■■ on [date]. "
        "The rest [s.40(2)] and [REDACTED - personal data] are REDACTED. ▇▇▇ (address redacted)"
    )
    found = [(p.text, p.label) for p in find_placeholders(text)]
    assert found == [
        ("[Name removed]", "NAME"),
        ("(name withheld)", "NAME"),
        ("<redacted>", ""),
        ("■■■■", ""),
        ("[date]", "DATE"),
        ("[s.40(2)]", ""),
        ("[REDACTED - personal data]", ""),
        ("REDACTED", ""),
        ("▇▇▇", ""),
        ("(address redacted)", "ADDRESS"),
    ]
    prose = "He was removed (see above) in 2019 (s. 40) [1] [a] [citation needed] (name) ■ note"
    assert find_placeholders(prose) == []


def test_a_mask_inside_a_bracket_of_text_still_counts() -> None:
    """A bracket of ordinary text does not hide the masks inside it; removing placeholders
    keeps such brackets (readability, language and rewrite checks read their words)."""
    text = "The chair ([PERSON_2]) and my neighbour (*** at number 4) came (maybe 16?)."
    assert [(p.text, p.label) for p in find_placeholders(text)] == [
        ("[PERSON_2]", "PERSON"),
        ("***", ""),
    ]
    assert without_placeholders(text) == (
        "The chair ( ) and my neighbour (  at number 4) came (maybe 16?)."
    )
    assert patterns.masked_spans(text) == [(11, 21, "PERSON", "2"), (41, 44, "", "")]
    assert patterns.is_generic_mask("***") and not patterns.is_generic_mask("[PERSON]")


def r_texts(report: AuditReport) -> list[str]:
    assert report.exposure is not None
    return [p.text for p in report.exposure.placeholders]


def test_letter_is_unsafe_with_reasons_and_lower_bound(letter_report: AuditReport) -> None:
    v = assess(letter_report)
    assert v.status == UNSAFE
    assert v.lower_bound and any(STRONGER_CHECK in c for c in v.caveats)
    assert any("No CPR without the original" in c for c in v.caveats)
    # the phone number left in the text is a direct identifier recovered
    exposed = letter_report.exposure
    assert exposed is not None and exposed.score > 0
    assert any("PHONE_NUMBER" in s.direct for s in exposed.subjects)
    assert exposed.n_seen_through >= 1


def test_progress_reports_each_stage_in_order() -> None:
    seen: list[tuple[str, float]] = []
    audit_redacted(
        _read("committee_minutes_redacted.txt"),
        AuditConfig(),
        on_stage=lambda s, f: seen.append((s, f)),
    )
    assert list(dict.fromkeys(s for s, _ in seen)) == ["validate", "infer", "exposure", "done"]
    assert [f for _, f in seen] == sorted(f for _, f in seen) and seen[-1][1] == 1.0


def test_progress_counts_people_inside_the_infer_stage() -> None:
    counted: list[dict] = []

    def on_stage(stage: str, fraction: float, counts: dict | None = None) -> None:
        if counts is not None:
            assert stage == "infer" and 1 / 3 <= fraction < 2 / 3
            counted.append(counts)

    r = audit_redacted(_read("reference_letter_redacted.txt"), AuditConfig(), on_stage=on_stage)
    people = [c for c in counted if c["unit"] == "people"]
    assert people[-1] == {
        "done": len(r.inferred_subjects),
        "total": len(r.inferred_subjects),
        "unit": "people",
    }
    assert [c["done"] for c in people] == sorted(c["done"] for c in people)


# --------------------------------------------------------------------------- exposure definition


def test_exposure_counts_tags_at_certainty_three_or_more() -> None:
    text = "Call [PERSON] on 0161 496 0000; she is a retired nurse."
    subject = Subject(
        0,
        "the caller",
        [
            PII("PHONE_NUMBER", "0161 496 0000", 5, 1, [Evidence(17, 30, "0161 496 0000")]),
            PII("SEX", "Female", 4, 1, [Evidence(32, 35, "she")]),
            PII("OCCUPATION", "Nurse", 3, 1, [Evidence(41, 54, "retired nurse")]),
            PII("AGE", "65", 2, 1, [Evidence(41, 48, "retired")]),  # below 3: not counted
            PII("LOCATION", "", 5, 1, []),  # empty: not counted
        ],
    )
    e = subject_exposure(subject)
    assert e.direct == ["PHONE_NUMBER"] and e.quasi == ["SEX", "OCCUPATION"] and e.score == 3
    doc = document_exposure(text, [subject])
    assert doc.score == 3 and doc.n_exposed_subjects == 1
    (ph,) = doc.placeholders
    assert ph.text == "[PERSON]" and ph.seen_through and "0:PHONE_NUMBER" in ph.inferred


def test_typed_placeholder_is_read_only_by_its_tag() -> None:
    text = "She moved to [LOCATION] in spring."
    subject = Subject(0, "the author", [PII("SEX", "Female", 5, 1, [Evidence(0, 3, "She")])])
    (ph,) = document_exposure(text, [subject]).placeholders
    assert not ph.seen_through  # a woman's sex says nothing about the masked place


# --------------------------------------------------------------------------- language


def test_language_detection() -> None:
    assert detect_language(_read("german_note.txt")).code == "de"
    assert detect_language(_read("reference_letter_redacted.txt")).code == "en"
    assert not detect_language("Hi [PERSON]!").judged  # too short to judge
    local = language_notice(_read("german_note.txt"), adversary_is_local=True)
    assert local is not None and local.severity == Severity.ERROR
    assert local.kind == NoticeKind.UNSUPPORTED_LANGUAGE and local.detail["language"] == "de"
    remote = language_notice(_read("german_note.txt"), adversary_is_local=False)
    assert remote is not None and not remote.blocks_verdict
    assert language_notice(_read("forum_post_redacted.txt"), adversary_is_local=True) is None


# --------------------------------------------------------------------------- never falsely green


def test_german_text_cannot_be_judged_in_both_modes() -> None:
    german = _read("german_note.txt")
    r = audit_redacted(german, AuditConfig())
    v = assess(r)
    assert v.status == CANNOT_JUDGE and "English only" in v.reasons[0]
    with_original = audit(german, AuditConfig(anonymizer="ner-mask"))
    v2 = assess(with_original)
    assert v2.status == CANNOT_JUDGE and "English only" in v2.reasons[0]


def test_a_foreign_text_gives_only_the_language_reason() -> None:
    """English person cues ('son' is French for 'his') are not read in another language."""
    french = (
        "Compte rendu du conseil du 12 mars. Mme [NOM] signale une fuite chez son voisin "
        "M. [NOM] ; le syndic rappelle que les charges sont dues avant la fin du mois d'avril."
    )
    for report in (audit_redacted(french, AuditConfig()), audit(french, AuditConfig())):
        v = assess(report)
        assert v.status == CANNOT_JUDGE and len(v.reasons) == 1, v.reasons
        assert "English only" in v.reasons[0]
        assert NoticeKind.NO_SUBJECTS_FOUND not in {n.kind for n in report.notices}


def test_failed_llm_stage_cannot_be_judged() -> None:
    parts = _llm_components(FakeAPIError(400, message="model not found"))
    r = audit_redacted(
        _read("forum_post_redacted.txt"), AuditConfig(adversary="llm"), components=parts
    )
    v = assess(r)
    assert v.status == CANNOT_JUDGE
    assert any(n.blocks_verdict for n in r.notices)
    assert v.headline.startswith("cannot judge:")


def test_empty_subjects_on_text_with_pronouns_cannot_be_judged() -> None:
    parts = _llm_components(NOBODY)
    r = audit_redacted(
        _read("forum_post_redacted.txt"), AuditConfig(adversary="llm"), components=parts
    )
    assert r.inferred_subjects == []
    v = assess(r)
    assert v.status == CANNOT_JUDGE
    assert any(n.kind == NoticeKind.NO_SUBJECTS_FOUND for n in r.notices)
    assert "no person" in v.reasons[0]


def _nobody_with_original() -> AuditReport:
    """With the original: the (fake) LLM adversary finds nobody in either text."""
    from spia_core.anonymizers.registry import create_anonymizer
    from spia_core.pipeline import build_matcher

    config = AuditConfig(adversary="llm", compute_span_metrics=False)
    parts = Components(
        anonymizer=create_anonymizer("ner-mask"),
        adversary=LLMAdversary(FakeLLM([NOBODY, NOBODY]), parallel=False),
        matcher=build_matcher(config),
    )
    return audit(_read("reference_letter_original.txt"), config, components=parts)


def test_with_original_empty_ground_truth_on_text_about_people_cannot_be_judged() -> None:
    r = _nobody_with_original()
    assert r.gt_subjects == []
    v = assess(r)
    assert v.status == CANNOT_JUDGE and "no person" in v.reasons[0]


def test_text_without_people_and_no_subjects_is_no_exposure() -> None:
    parts = _llm_components(NOBODY)
    text = "The quarterly report covers rainfall, river levels and reservoir capacity in detail."
    r = audit_redacted(text, AuditConfig(adversary="llm"), components=parts)
    assert no_subjects_notice(text, []) is None
    v = assess(r)
    assert v.status == NO_EXPOSURE_FOUND and not v.lower_bound


def _refused_report() -> AuditReport:
    """A real refusal: DeID-GPT whose (fake) model declines; faults' check_rewrite flags it."""
    from spia_core.anonymizers.deid_gpt import DeIDGPTAnonymizer
    from spia_core.pipeline import build_adversary, build_matcher

    config = AuditConfig(anonymizer="deid-gpt", compute_span_metrics=False)
    parts = Components(
        anonymizer=DeIDGPTAnonymizer(FakeLLM(["I'm sorry, but I can't help with that."])),
        adversary=build_adversary(config),
        matcher=build_matcher(config),
    )
    return audit(_read("reference_letter_original.txt"), config, components=parts)


def test_refusal_cannot_be_judged() -> None:
    r = _refused_report()
    refusal = next(n for n in r.notices if n.kind == NoticeKind.ANONYMIZER_REFUSED)
    v = assess(r)
    assert v.status == CANNOT_JUDGE and v.reasons[0] == refusal.message


def test_degraded_or_failed_report_cannot_be_judged(letter_report: AuditReport) -> None:
    import dataclasses

    from spia_core.model import Failure

    degraded = dataclasses.replace(letter_report, degraded=True, notices=[])
    assert assess(degraded).status == CANNOT_JUDGE
    failed = dataclasses.replace(
        letter_report, failures=[Failure("x", "match", "RuntimeError: boom")], notices=[]
    )
    v = assess(failed)
    assert v.status == CANNOT_JUDGE and "match" in v.reasons[0]


def test_no_green_verdict_on_any_broken_input() -> None:
    """The issue's target: zero safe / meets-the-target verdicts on these inputs."""
    reports = [
        audit_redacted(_read("german_note.txt"), AuditConfig()),
        audit(_read("german_note.txt"), AuditConfig(anonymizer="ner-mask")),
        audit_redacted(
            _read("forum_post_redacted.txt"),
            AuditConfig(adversary="llm"),
            components=_llm_components(FakeAPIError(401, message="bad key")),
        ),
        audit_redacted(
            _read("committee_minutes_redacted.txt"),
            AuditConfig(adversary="llm"),
            components=_llm_components(NOBODY),
        ),
        _refused_report(),
        _nobody_with_original(),
    ]
    statuses = [assess(r).status for r in reports]
    assert statuses == [CANNOT_JUDGE] * len(reports)
    assert not set(statuses) & set(GREEN)


# --------------------------------------------------------------------------- CLI and report.json


def test_cli_redacted_only_writes_valid_redacted_reports(tmp_path: Path) -> None:
    src = tmp_path / "letter.txt"
    src.write_text(_read("reference_letter_redacted.txt"), encoding="utf-8")
    assert main(["audit", str(src), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["verdict"]["status"] == UNSAFE and data["mode"] == "redacted_only"
    assert data["metrics"]["cpr"] is None and "No CPR" in data["metrics"]["note"]
    assert data["redacted"] and "personal data" in data["personal_data"]
    values = [i["value"] for s in data["subjects"] for i in s["inferred"]]
    assert values and all(
        v == f"[{i['tag']}]"
        for s in data["subjects"]
        for i, v in zip(s["inferred"], [x["value"] for x in s["inferred"]], strict=True)
    )
    raw = (tmp_path / "out" / "report.json").read_text() + (
        tmp_path / "out" / "report.html"
    ).read_text()
    for secret in ("07700 900123", "47 years old", "Payroll Analyst"):
        assert secret not in raw
    page = (tmp_path / "out" / "report.html").read_text()
    assert "personal data" in page
    assert data["data_id"] == "letter" and "<h1>SPIA audit report: letter</h1>" in page
    # each caveat once: the short verdict lines give way to the notices that say them at length
    assert page.count("lower bound") == 1 and page.count("no ground truth") == 1
    assert page.count("A stronger check is") == 1 and "--original FILE" in page
    assert "What was inferred through it" in page and "(#0):" in page  # not "0:SEX"
    # only the settings a redacted-only audit uses (no matcher, judge or span settings)
    assert "<th>min_certainty</th>" in page and "<th>judge</th>" not in page


def test_cli_with_values_and_original(tmp_path: Path) -> None:
    red = tmp_path / "letter.md"
    red.write_text(_read("reference_letter_redacted.txt"), encoding="utf-8")
    orig = tmp_path / "original.txt"
    orig.write_text(_read("reference_letter_original.txt"), encoding="utf-8")
    out = tmp_path / "out"
    args = ["audit", str(red), "--original", str(orig), "--out", str(out), "--quiet"]
    assert main([*args, "--with-values", "--include-original"]) == 0
    data = json.loads((out / "report.json").read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["mode"] == "with_original" and data["metrics"]["cpr"] is not None
    assert data["verdict"]["status"] in (UNSAFE, MEETS_TARGET, CANNOT_JUDGE)
    assert (
        data["text"]["original"].startswith("To whom")
        and "07700 900123" in data["text"]["analysed"]
    )
    assert main(args) == 0  # default: redacted, no text
    redacted = json.loads((out / "report.json").read_text())
    jsonschema.validate(redacted, SCHEMA)
    assert "text" not in redacted and "Harrogate" not in json.dumps(redacted)


def test_cli_console_verdict_masks_names_as_the_report_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "post.txt"
    src.write_text(
        "Big thanks to everyone at Eastbrook Primary for the leaving card. Twenty-two years "
        "teaching Year 4 and I'll miss every one of you. Moving to Porto with my husband Anselm "
        "next month. Greta Lindqvist",
        encoding="utf-8",
    )
    args = ["audit", str(src), "--anonymizer", "ner-mask", "--out", str(tmp_path / "out")]
    assert main(args) == 0
    shown = capsys.readouterr().out
    assert "[NAME] (subject" in shown and "Anselm" not in shown and "Greta" not in shown
    assert main([*args, "--with-values"]) == 0
    assert "Greta Lindqvist (subject" in capsys.readouterr().out


def test_cli_german_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "note.txt"
    src.write_text(_read("german_note.txt"), encoding="utf-8")
    assert main(["audit", str(src), "--out", str(tmp_path / "o"), "--quiet"]) == 0
    data = json.loads((tmp_path / "o" / "report.json").read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["verdict"]["status"] == CANNOT_JUDGE
    assert main(["audit", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "empty.txt").write_text("   \n")
    assert main(["audit", str(tmp_path / "empty.txt"), "--out", str(tmp_path / "o")]) == 2
    assert "whitespace" in capsys.readouterr().err
    (tmp_path / "many.jsonl").write_text('{"id": "a", "text": "My aunt is a nurse."}\n')
    assert main(["audit", str(tmp_path / "many.jsonl"), "--out", str(tmp_path / "o")]) == 2
    assert "python -m spia_core check" in capsys.readouterr().err
    assert main(["audit", str(tmp_path), "--out", str(tmp_path / "o2")]) == 2  # a folder
    err = capsys.readouterr().err
    assert "is a folder; audit reads one document" in err and "spia_core check" in err


def test_verdict_markdown_escapes_document_text(letter_report: AuditReport) -> None:
    import dataclasses

    from spia_core.verdict import verdict_markdown

    v = dataclasses.replace(
        assess(letter_report),
        headline="unsafe: [x](https://evil.example) **is** exposed",
        reasons=["<img src=x> # not a heading"],
    )
    md = verdict_markdown(v)
    assert "](https" not in md and "[x]" not in md
    assert "\\<img" in md and "<img" not in md.replace("\\<img", "")
    assert md.startswith("**Verdict: ") and "\n- " in md


def test_cli_reads_a_word_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import docx

    document = docx.Document()
    for paragraph in _read("committee_minutes_redacted.txt").split("\n\n"):
        document.add_paragraph(paragraph)
    src = tmp_path / "minutes.docx"
    document.save(str(src))
    assert main(["audit", str(src), "--out", str(tmp_path / "o"), "--quiet"]) == 0
    data = json.loads((tmp_path / "o" / "report.json").read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["mode"] == "redacted_only" and data["exposure"]["n_placeholders"] >= 3
    assert "note: minutes.docx" not in capsys.readouterr().out
    # a comment left in the file is audited and said
    document.add_comment(document.paragraphs[0].runs[0], text="Ask Wilf first", author="K")
    document.save(str(src))
    assert main(["audit", str(src), "--out", str(tmp_path / "o"), "--quiet"]) == 0
    assert "note: minutes.docx: the file holds 1 comment(s)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("Our new intern, a keen cyclist from the coast, starts on Monday.", "intern"),
        ("Present: the chair, the treasurer and one guest.", "treasurer"),
        ("Mr *** repaired the fence after the storm.", "mr"),
        ("[PERSON_2] moved to [CITY] last year.", "[person_2]"),
        ("We repainted the stairwell in blue and grey.", "we"),
        ("Two nurses and a porter waited at the lift.", "nurses"),
    ],
)
def test_people_without_pronouns_still_block_no_exposure(text: str, cue: str) -> None:
    """Nobody found in a text about people is "cannot judge", also when the people are named
    by a role, a placeholder, an honorific or "we" rather than by he/she/I. Invented texts."""
    r = audit_redacted(text, AuditConfig(adversary="llm"), components=_llm_components(NOBODY))
    notice = no_subjects_notice(text, [])
    assert notice is not None and cue in notice.detail["cues"]
    assert assess(r).status == CANNOT_JUDGE


def test_texts_about_things_are_not_taken_for_people() -> None:
    for text in (
        "The bridge was closed for repairs; traffic moved to the ring road until May.",
        "Invoice 2291: forty units of cable, delivered to the depot, paid in full.",
    ):
        assert no_subjects_notice(text, []) is None, text


def test_role_placeholders_are_person_cues() -> None:
    """The safety net reads role placeholders as the local adversary does."""
    from spia_core.readability import people_cues

    cues = people_cues("Signed by [WITNESS] and {CLIENT_2} today.")
    assert "[witness]" in cues and "{client_2}" in cues
    assert people_cues("Shipped from [LOC] on [DATE].") == []


def test_an_original_that_is_already_redacted_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A redacted note audited as an original (anonymizer run over it): a warning notice and a
    printed note say its CPR covers only what is left and how to audit it alone."""
    src = tmp_path / "minutes.txt"
    src.write_text(
        "Present: *** (chair), Mrs *** and Mr ***. Mr *** has kept bees on plot 9 since he "
        "retired from the fire service. Mrs *** asked about the broken gate.\n"
    )
    out = tmp_path / "out"
    assert main(["audit", str(src), "--anonymizer", "ner-mask", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "note: The original text already holds 5 redaction placeholders" in printed
    notices = json.loads((out / "report.json").read_text())["notices"]
    assert [n["severity"] for n in notices if n["kind"] == "input_quirk"] == ["warning"]
    assert already_redacted_message("Mr *** met [NAME] at the fair.") == ""  # two: not enough


def test_placeholder_readings_are_said_per_person_in_words() -> None:
    labels = {0: "Tenant", 2: "Landlord"}
    text = readings_text(["0:OCCUPATION", "0:POSITION", "3:SEX", "2:AGE"], labels)
    assert text == "Tenant (#0): Occupation, Position; subject 3: Sex; Landlord (#2): Age"
    assert readings_text([], labels) == ""


def test_cli_refuses_a_bad_out_folder_or_a_missing_key_before_auditing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exit 2 with a one-line reason, no traceback: --out is a file (checked before the audit
    runs, so no finished audit is lost at the end), or an LLM adversary without its key."""
    src = tmp_path / "note.txt"
    src.write_text("My brother [NAME] repairs boilers in [CITY].\n")
    taken = tmp_path / "taken.txt"
    taken.write_text("x")
    assert main(["audit", str(src), "--out", str(taken), "--quiet"]) == 2
    assert "is an existing file, not a directory" in capsys.readouterr().err
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    args = ["audit", str(src), "--out", str(tmp_path / "o"), "--adversary", "llm", "--quiet"]
    assert main(args) == 2
    assert "ANTHROPIC_API_KEY" in capsys.readouterr().err


BOILER_NOTE = (
    "Our boiler engineer Piotr came round on Tuesday morning and replaced the pressure valve, "
    "then stayed for coffee and told us about his allotment, where he grows enormous marrows "
    "and far too many courgettes every summer for his neighbours to eat."
)
CYCLING_NOTE = (
    "The cycling club meets every Sunday outside the library; newcomers should bring lights, "
    "a spare inner tube and enough water, because the hill route towards the reservoir gets "
    "exposed and windy after lunch during most of the winter months."
)


def test_a_redaction_of_another_text_is_flagged() -> None:
    """A user who pairs a redaction with the wrong original is told so (CPR would compare two
    unrelated texts); a masked copy of the original is not flagged."""
    assert "shares only 3% of its words" in unrelated_pair_message(BOILER_NOTE, CYCLING_NOTE)
    masked = BOILER_NOTE.replace("Piotr", "[NAME]").replace("Tuesday", "[DATE]")
    assert unrelated_pair_message(BOILER_NOTE, masked) == ""
    assert unrelated_pair_message(BOILER_NOTE, "Too short to judge.") == ""


def test_cli_prints_the_unrelated_pair_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orig, red = tmp_path / "original.txt", tmp_path / "redacted.txt"
    orig.write_text(BOILER_NOTE)
    red.write_text(CYCLING_NOTE)
    args = ["audit", str(red), "--original", str(orig), "--out", str(tmp_path / "o"), "--quiet"]
    assert main(args) == 0
    assert "note: The redacted text shares only" in capsys.readouterr().out


def test_cli_says_how_many_reasons_it_did_not_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "rota.txt"
    src.write_text(
        "Rota: [PERSON_1] is a nurse, [PERSON_2] is a porter, [PERSON_3] is a chef, [PERSON_4] "
        "is a cleaner, [PERSON_5] is a driver, [PERSON_6] is a plumber and [PERSON_7] is a "
        "welder. She, he and they all start at six.\n"
    )
    assert main(["audit", str(src), "--out", str(tmp_path / "o"), "--quiet"]) == 0
    printed = capsys.readouterr().out
    shown = printed.count("\n  - ")
    reasons = json.loads((tmp_path / "o" / "report.json").read_text())["verdict"]["reasons"]
    assert len(reasons) > 5 and shown == 5
    assert f"  ... and {len(reasons) - 5} more in report.html" in printed


def test_one_identifying_fact_is_singular() -> None:
    report = audit_redacted("Ring me on 07700 900461 after six.", AuditConfig(adversary="local"))
    verdict = assess(report)
    assert verdict.status == UNSAFE and "gets 1 identifying fact with" in verdict.headline


def test_cli_progress_names_each_step_and_says_when_a_stage_is_still_running() -> None:
    """A long text's parse reports nothing for many seconds: the CLI says the stage is still
    running (with the seconds elapsed) instead of falling silent."""
    import io
    import time

    from spia_core.commands.audit import ProgressLines

    out = io.StringIO()
    lines = ProgressLines(heartbeat=0.2, stream=out)
    lines("infer", 1 / 3)
    lines("infer", 1 / 3, {"done": 0, "total": 1, "unit": "parse"})
    time.sleep(0.7)
    lines("infer", 0.5, {"done": 10, "total": 20, "unit": "people"})
    lines("infer", 0.51, {"done": 11, "total": 20, "unit": "people"})  # same tenth: no line
    lines("done", 1.0)
    printed = out.getvalue().splitlines()
    assert printed[0] == "[ 33%] infer 0 s" and printed[1] == "[ 33%] infer (parse) 0 s"
    assert any(
        p.startswith("[ 33%] infer (parse) ") and p.endswith(", still running") for p in printed
    )
    assert sum("people" in p for p in printed) == 1 and printed[-1].startswith("[100%] done")
    time.sleep(0.5)
    assert out.getvalue().splitlines() == printed  # closed by 'done': no line after it


def test_placeholders_of_a_text_read_again_are_fresh_readings() -> None:
    text = "Dear [PERSON_1], your [ORG] account (name withheld) ends XXXX 4411. ███ signed"
    first = find_placeholders(text)
    assert [(p.text, p.label) for p in first] == [
        ("[PERSON_1]", "PERSON"),
        ("[ORG]", "ORG"),
        ("(name withheld)", "NAME"),
        ("XXXX", ""),
        ("███", ""),
    ]
    first[0].inferred.append("0:NAME")  # what an audit writes into a reading
    first[0].seen_through = True
    again = find_placeholders(text)  # the same text again (read from a cache)
    assert again == find_placeholders(text) and again[0] is not first[0]
    assert again[0].inferred == [] and not again[0].seen_through
