"""TAB span metrics: hand-worked cases, parity with the TAB evaluation script, the CLI."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from spia_core.cli import main
from spia_core.datasets import read_entity_jsonl
from spia_core.evaluation.span_metrics import (
    MaskInput,
    automatic_gt_mentions,
    compute_span_metrics,
    document_span_metrics,
    group_entities,
)
from spia_core.model import Document, EntityMention, SpanMetrics
from spia_core.nlp import Pipeline, load_pipeline

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from parity_masks import mask_sets  # noqa: E402


def _doc(text: str, *specs: tuple[str, str, str], data_id: str = "d1", nth: int = 0) -> Document:
    """Mentions from (substring, entity_id, identifier_type); "sub@k" = k-th occurrence."""
    mentions = []
    for sub, eid, itype in specs:
        word, _, k = sub.partition("@")
        start = -1
        for _ in range(int(k or 0) + 1):
            start = text.index(word, start + 1)
        mentions.append(EntityMention(word, "MISC", start, start + len(word), eid, itype))
    return Document(data_id, text, entities=mentions)


def _span(text: str, sub: str) -> tuple[int, int]:
    start = text.index(sub)
    return (start, start + len(sub))


def _run(doc: Document, *subs: str, **kw: object) -> SpanMetrics:
    spans = [_span(doc.text, s) for s in subs]
    return document_span_metrics(doc, "", masked_spans=spans, method="spans", **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- hand-worked


def test_identifier_type_comes_from_first_mention() -> None:
    text = "Ali Kaya met Kaya and Kaya."
    doc = _doc(text, ("Ali Kaya", "e1", "QUASI"), ("Kaya@1", "e1", "DIRECT"))
    m = _run(doc)
    assert (m.n_direct_entities, m.n_quasi_entities) == (0, 1)
    assert m.er_di is None and m.er_qi == 0.0
    doc = _doc(text, ("Ali Kaya", "e1", "NO_MASK"), ("Kaya@1", "e1", "DIRECT"))
    (ent,) = group_entities(doc.entities or [])
    assert ent.need_masking and not ent.is_direct
    # only the must-mask (second) mention needs masking for the entity to count as masked
    m = _run(doc, "Kaya and")
    assert m.n_quasi_entities == 1 and m.er_qi == 1.0


def test_no_mask_mentions_of_must_mask_entity_count_in_token_recall() -> None:
    text = "John Smith met Smith in Paris."
    doc = _doc(
        text,
        ("John Smith", "e1", "DIRECT"),
        ("Smith@1", "e1", "NO_MASK"),
        ("Paris", "e2", "NO_MASK"),
    )
    m = _run(doc, "John Smith")
    assert (m.n_tokens, m.n_mentions) == (3, 2)  # Paris: entity needs no masking
    assert m.token_recall == pytest.approx(2 / 3)
    assert m.mention_recall == 0.5
    assert m.er_di == 1.0  # the NO_MASK mention is not required for the entity


def test_punctuation_is_ignored() -> None:
    text = "Contact Smith, J. today."
    doc = _doc(text, ("Smith, J.", "e1", "DIRECT"))
    assert _run(doc, "Smith", "J").er_di == 1.0
    assert _run(doc, "Smith").er_di == 0.0


def test_titles_are_ignored_and_count_as_masked_tokens() -> None:
    text = "Mr John Smith met the judges."
    doc = _doc(text, ("Mr John Smith", "e1", "DIRECT"))
    m = _run(doc, "John Smith")
    assert m.er_di == 1.0 and m.token_recall == 1.0 and m.n_tokens == 3
    m = _run(doc, "Mr John")
    assert m.er_di == 0.0 and m.token_recall == pytest.approx(2 / 3)


def test_determiners_are_ignored_with_a_tagger_only() -> None:
    text = "He met the judges of the European Court in Paris."
    doc = _doc(text, ("the European Court", "e1", "QUASI"))
    m = _run(doc, "European Court")
    assert m.tagger != "blank" and m.er_qi == 1.0
    import spacy

    blank = Pipeline(nlp=spacy.blank("en"), model_name="blank", degraded=True)
    with pytest.warns(UserWarning, match="no POS tagger"):
        m = _run(doc, "European Court", pipeline=blank)
    assert m.tagger == "blank" and m.er_qi == 0.0
    assert any("no POS tagger" in w for w in m.warnings)


def test_overlapping_masks_and_token_precision() -> None:
    text = "John Smith lives in Paris."
    doc = _doc(text, ("John Smith", "e1", "DIRECT"), ("Paris", "e2", "NO_MASK"))
    m = document_span_metrics(
        doc, "", masked_spans=[(0, 4), (0, 10), _span(text, "Paris")], method="spans"
    )
    assert m.er_di == 1.0 and m.token_recall == 1.0
    # tokens: John | John, Smith | Paris (NO_MASK is no true positive); duplicates count (TAB)
    assert m.token_precision == pytest.approx(3 / 4)


def test_entity_ids_are_per_document() -> None:
    a = _doc("Ali Kaya lives here.", ("Ali Kaya", "e1", "DIRECT"), data_id="a")
    b = _doc("Eve Ross lives here.", ("Eve Ross", "e1", "DIRECT"), data_id="b")
    masks = {"a": MaskInput("", [(0, 8)]), "b": MaskInput("", [])}
    m = compute_span_metrics([a, b], masks, method="spans")
    assert m.n_direct_entities == 2 and m.er_di == 0.5


def test_missing_and_extra_documents_are_reported() -> None:
    a = _doc("Ali Kaya lives here.", ("Ali Kaya", "e1", "DIRECT"), data_id="a")
    b = _doc("Eve Ross lives here.", ("Eve Ross", "e1", "DIRECT"), data_id="b")
    m = compute_span_metrics(
        [a, b], {"a": MaskInput("", [(0, 8)]), "zz": MaskInput("", [])}, method="spans"
    )
    assert m.n_direct_entities == 1 and m.er_di == 1.0
    assert any("no anonymized text: b" in w for w in m.warnings)
    assert any("not in the GT: zz" in w for w in m.warnings)


def test_invalid_mention_offsets_raise() -> None:
    doc = Document("d1", "short", entities=[EntityMention("x", "MISC", 2, 9, "e1", "DIRECT")])
    with pytest.raises(ValueError, match="d1: mention 'e1' has invalid offsets"):
        _run(doc)


def test_methods_and_precision_availability() -> None:
    text = "Ali Kaya lives in Ankara."
    doc = _doc(text, ("Ali Kaya", "e1", "DIRECT"), ("Ankara", "e2", "QUASI"))
    anon = "[NAME] lives in Ankara."
    same_length = "******** lives in Ankara."
    for method, text_ in (("span_search", anon), ("offset_comparison", same_length)):
        m = document_span_metrics(doc, text_, method=method)
        assert m.method == method and m.token_precision is None
        assert m.er_di == 1.0 and m.er_qi == 0.0
    # offset_comparison after a length-changing replacement: shifted offsets look "masked"
    assert document_span_metrics(doc, anon, method="offset_comparison").er_qi == 1.0
    m = document_span_metrics(doc, anon)
    assert m.method == "alignment" and m.token_precision == 1.0 and m.er_di == 1.0
    m = document_span_metrics(doc, anon, masked_spans=[(0, 8)])
    assert m.method == "spans" and m.token_recall == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="unknown method"):
        document_span_metrics(doc, anon, method="diff")


def test_automatic_ground_truth() -> None:
    pipe = load_pipeline()
    if not pipe.has_ner:
        pytest.skip("no NER model installed")
    text = "John Smith visited Paris on 3 May 2001 with 25 French engineers."
    types = {(m.span_text, m.entity_type, m.identifier_type) for m in automatic_gt_mentions(text)}
    assert ("John Smith", "PERSON", "DIRECT") in types
    assert ("Paris", "LOC", "QUASI") in types
    assert any(t == "DATETIME" for _, t, _ in types)
    doc = Document("d1", text, entities=None)
    m = document_span_metrics(doc, text)
    assert m.gt_source == "automatic" and m.n_direct_entities >= 1 and m.er_di == 0.0


# --------------------------------------------------------------------------- whole datasets

PARITY = json.loads((FIXTURES / "tab_eval_parity.json").read_text(encoding="utf-8"))
NER_SPANS = json.loads((FIXTURES / "tab_eval_parity_ner_spans.json").read_text(encoding="utf-8"))
ENTITY_FILES = {"TAB-144": "entity_tab_144.jsonl", "PANORAMA-151": "entity_panorama_151.jsonl"}


def _dataset(data_dir: Path, name: str) -> tuple[list[Document], list[dict]]:
    path = data_dir / "entity" / ENTITY_FILES[name]
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    return read_entity_jsonl(path), rows


def _spans_metrics(docs: list[Document], masks: dict[str, list[list[int]]]) -> SpanMetrics:
    inputs = {k: MaskInput("", [(s, e) for s, e in v]) for k, v in masks.items()}
    return compute_span_metrics(docs, inputs, method="spans")


@pytest.mark.slow
@pytest.mark.parametrize("dataset", list(ENTITY_FILES))
def test_parity_with_tab_evaluation_script(data_dir: Path, dataset: str) -> None:
    if load_pipeline().model_name != PARITY["model"]:
        pytest.skip(f"parity figures were produced with {PARITY['model']}")
    docs, rows = _dataset(data_dir, dataset)
    sets = mask_sets(rows, NER_SPANS[dataset])
    assert set(sets) == set(PARITY["datasets"][dataset])
    for name, masks in sets.items():
        expected = PARITY["datasets"][dataset][name]["expected"]
        got = _spans_metrics(docs, masks)
        for key in ("token_recall", "mention_recall", "er_di", "er_qi", "token_precision"):
            want, have = expected[key], getattr(got, key)
            if have is None:  # TAB returns 0 for an empty denominator
                assert want == 0, (name, key)
            else:
                assert have == pytest.approx(want, abs=1e-9), (name, key)
        assert got.per_entity_type == pytest.approx(expected["per_entity_type"], abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("dataset", list(ENTITY_FILES))
def test_gt_masking_and_no_masking(data_dir: Path, dataset: str) -> None:
    docs, _ = _dataset(data_dir, dataset)
    must = {
        d.data_id: [[m.start, m.end] for m in d.entities or [] if m.identifier_type != "NO_MASK"]
        for d in docs
    }
    exact = _spans_metrics(docs, must)
    assert exact.er_di == 1.0 and exact.er_qi == 1.0
    # token recall < 1 comes only from NO_MASK mentions of must-mask entities: masking
    # them too gives 1.0
    extra = {}
    for d in docs:
        ents = {e.entity_id: e for e in group_entities(d.entities or [])}
        extra[d.data_id] = must[d.data_id] + [
            [m.start, m.end]
            for m in d.entities or []
            if m.identifier_type == "NO_MASK" and ents[m.entity_id].need_masking
        ]
    assert _spans_metrics(docs, extra).token_recall == 1.0
    if dataset == "TAB-144":
        assert exact.token_recall is not None and exact.token_recall < 0.99
    none = _spans_metrics(docs, {d.data_id: [] for d in docs})
    assert none.er_di is not None and none.er_di < 0.01 and none.er_qi == 0.0


# --------------------------------------------------------------------------- CLI


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def small_entity_file(tmp_path: Path, panorama_entity_path: Path) -> tuple[Path, list[dict]]:
    rows = [json.loads(x) for x in panorama_entity_path.open(encoding="utf-8").readlines()[:3]]
    return _write_jsonl(tmp_path / "ent.jsonl", rows), rows


def test_cli_reports_scores_and_missing_documents(
    tmp_path: Path, small_entity_file: tuple[Path, list[dict]], capsys: pytest.CaptureFixture[str]
) -> None:
    ent_path, rows = small_entity_file
    anon = []
    for r in rows[:2]:
        spans = [
            [e["start_offset"], e["end_offset"]]
            for e in r["entities"]
            if e["identifier_type"] != "NO_MASK"
        ]
        anon.append(
            {"data_id": r["metadata"]["data_id"], "anonymized_text": "x", "masked_spans": spans}
        )
    # the reference's format: entities with start_offset / end_offset
    anon[1]["entities"] = [
        {"start_offset": s, "end_offset": e} for s, e in anon[1].pop("masked_spans")
    ]
    anon_path = _write_jsonl(tmp_path / "anon.jsonl", anon)
    out = tmp_path / "report.json"
    code = main(
        ["span", "--entities", str(ent_path), "--anonymized", str(anon_path), "--out", str(out)]
    )
    printed = capsys.readouterr()
    assert code == 0
    assert "2 of 3 scored" in printed.out and "ER_di" in printed.out
    assert rows[2]["metadata"]["data_id"] in printed.err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["missing_docs"] == [rows[2]["metadata"]["data_id"]]
    assert report["method"] == "spans" and report["er_di"] == 1.0 and report["n_docs_scored"] == 2


def test_cli_errors_exit_2(
    tmp_path: Path, small_entity_file: tuple[Path, list[dict]], capsys: pytest.CaptureFixture[str]
) -> None:
    ent_path, rows = small_entity_file
    did = rows[0]["metadata"]["data_id"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"data_id": "x", "anonymized_text": 3}\n', encoding="utf-8")
    assert main(["span", "--entities", str(ent_path), "--anonymized", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: bad.jsonl line 1") and "\n" not in err
    plain = _write_jsonl(tmp_path / "plain.jsonl", [{"data_id": did, "anonymized_text": "x"}])
    args = ["span", "--entities", str(ent_path), "--anonymized", str(plain)]
    assert main([*args, "--method", "spans"]) == 2
    assert "has no masked_spans" in capsys.readouterr().err
    other = _write_jsonl(tmp_path / "other.jsonl", [{"data_id": "nope", "anonymized_text": "x"}])
    assert main(["span", "--entities", str(ent_path), "--anonymized", str(other)]) == 2
    assert "no data_id" in capsys.readouterr().err
