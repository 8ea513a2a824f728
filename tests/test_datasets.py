"""Tests for spia_core.datasets: counts, quirks, validation errors and lossless round trips."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from spia_core.datasets import (
    BUNDLED,
    DatasetError,
    DatasetWarning,
    dataset_hash,
    load_bundled,
    load_dataset,
    read_anonymized_jsonl,
    read_entity_jsonl,
    read_spia_jsonl,
    write_entity_jsonl,
    write_spia_jsonl,
)
from spia_core.model import Evidence

TEXT = "Mr John Doe, a teacher from Oslo, met his wife Ann Doe."


def _pii(tag: str, keyword: str = "", certainty: int = 0, hardness: int = 0) -> dict[str, Any]:
    return {"tag": tag, "keyword": keyword, "certainty": certainty, "hardness": hardness}


def _record(data_id: str = "X-1", **overrides: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "metadata": {"data_id": data_id, "number_of_subjects": 2, "annotator": "a1"},
        "text": TEXT,
        "subjects": [
            {
                "id": 0,
                "description": "John Doe - teacher",
                "PIIs": [_pii("NAME", "John Doe", 5, 1), _pii("OCCUPATION", "teacher", 5, 1)],
            },
            {"id": 1, "description": "Ann Doe - wife", "PIIs": [_pii("NAME", "Ann Doe", 5, 1)]},
        ],
    }
    rec.update(overrides)
    return rec


def _entity_record(data_id: str = "X-1", **overrides: Any) -> dict[str, Any]:
    start = TEXT.index("John Doe")
    rec: dict[str, Any] = {
        "metadata": {"data_id": data_id, "number_of_subjects": 2, "provenance": {"applicant": "J"}},
        "text": TEXT,
        "entities": [
            {
                "span_text": "John Doe",
                "entity_type": "PERSON",
                "start_offset": start,
                "end_offset": start + 8,
                "entity_id": "e1",
                "span_id": "s1",
                "identifier_type": "DIRECT",
                "annotator": "a1",
            }
        ],
    }
    rec.update(overrides)
    return rec


def _write(tmp_path: Path, records: list[Any], name: str = "f.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records),
        encoding="utf-8",
    )
    return path


def _lines(path: Path) -> list[Any]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


# --------------------------------------------------------------------------- shipped data


def _counts(docs: list[Any]) -> tuple[int, int, int, int, int]:
    piis = [p for d in docs for s in d.subjects for p in s.piis if not p.is_empty]
    return (
        len(docs),
        sum(len(d.subjects) for d in docs),
        len(piis),
        sum(p.certainty >= 3 for p in piis),
        sum(len(d.entities or []) for d in docs),
    )


@pytest.mark.parametrize(
    ("name", "expected"),
    [("TAB-144", (144, 586, 3350, 3064, 6613)), ("PANORAMA-151", (151, 360, 1201, 943, 580))],
)
def test_bundled_counts(name: str, expected: tuple[int, ...]) -> None:
    docs = load_bundled(name)
    assert _counts(docs) == expected
    assert all(d.entities is not None for d in docs)
    assert all("provenance" in d.metadata for d in docs)


def test_panorama_quirks_are_warnings(panorama_gt_path: Path, panorama_entity_path: Path) -> None:
    docs = load_dataset(panorama_gt_path, panorama_entity_path)
    warns = [w for d in docs for w in d.warnings]
    assert sum("duplicate tag" in w for w in warns) == 2
    assert sum("ids are not 0.." in w for w in warns) == 2
    assert sum("empty keyword with certainty" in w for w in warns) == 17
    offset_warns = [w for w in warns if "not span_text" in w]
    assert len(offset_warns) == 5
    assert all("found at" in w and "offsets kept" in w for w in offset_warns)
    # the offsets are kept as given, not silently moved
    bad = [m for d in docs for m in d.entities or [] if d.text[m.start : m.end] != m.span_text]
    assert len(bad) == 5
    # leading/trailing spaces: warned and kept raw
    spaced = [p for d in docs for s in d.subjects for p in s.piis if p.keyword != p.keyword.strip()]
    assert spaced and sum("leading/trailing spaces" in w for w in warns) == len(spaced)
    # string number_of_subjects in the entity file
    assert sum("number_of_subjects: given as a string" in w for w in warns) == len(docs)


def test_tab_has_no_structural_quirks(tab_gt_path: Path) -> None:
    warns = [w for d in read_spia_jsonl(tab_gt_path) for w in d.warnings]
    assert not [w for w in warns if "duplicate" in w or "ids are not" in w or "empty keyword" in w]


@pytest.mark.parametrize("fixture", ["tab_gt_path", "panorama_gt_path"])
def test_spia_round_trip(fixture: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    src: Path = request.getfixturevalue(fixture)
    docs = read_spia_jsonl(src)
    out = tmp_path / "out.jsonl"
    write_spia_jsonl(docs, out)
    assert _lines(out) == _lines(src)
    assert read_spia_jsonl(out) == docs


@pytest.mark.parametrize("fixture", ["tab_entity_path", "panorama_entity_path"])
def test_entity_round_trip(fixture: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    src: Path = request.getfixturevalue(fixture)
    docs = read_entity_jsonl(src)
    out = tmp_path / "out.jsonl"
    write_entity_jsonl(docs, out)
    assert _lines(out) == _lines(src)
    assert read_entity_jsonl(out) == docs


def test_merged_dataset_writes_back_both_files(
    panorama_gt_path: Path, panorama_entity_path: Path, tmp_path: Path
) -> None:
    docs = load_dataset(panorama_gt_path, panorama_entity_path)
    write_spia_jsonl(docs, tmp_path / "s.jsonl")
    write_entity_jsonl(docs, tmp_path / "e.jsonl")
    assert _lines(tmp_path / "s.jsonl") == _lines(panorama_gt_path)

    def by_id(rows: list[Any]) -> dict[str, Any]:
        return {r["metadata"]["data_id"]: r for r in rows}

    # the entity file lists documents in another order: compare by data_id
    assert by_id(_lines(tmp_path / "e.jsonl")) == by_id(_lines(panorama_entity_path))


def test_bundled_paths_resolve_under_data(data_dir: Path) -> None:
    for spia, entity in BUNDLED.values():
        assert spia.is_file() and entity.is_file()
        assert data_dir.resolve() in spia.parents


def test_dataset_hash(tmp_path: Path, tab_gt_path: Path) -> None:
    assert dataset_hash(tab_gt_path) == hashlib.sha256(tab_gt_path.read_bytes()).hexdigest()
    a = _write(tmp_path, [_record()], "a.jsonl")
    h = dataset_hash(a)
    a.write_bytes(a.read_bytes().replace(b"teacher", b"Teacher"))
    assert dataset_hash(a) != h


# --------------------------------------------------------------------------- validation


def test_error_message_names_file_line_and_field(tmp_path: Path) -> None:
    bad = _record("X-2")
    bad["subjects"][1]["PIIs"][0]["certainty"] = "high"
    path = _write(tmp_path, [_record("X-1"), bad], "spia_x.jsonl")
    with pytest.raises(DatasetError) as info:
        read_spia_jsonl(path)
    err = info.value
    assert (err.line, err.field) == (2, "subjects[1].PIIs[0].certainty")
    assert err.path == str(path)
    assert str(err) == (
        "spia_x.jsonl line 2, field subjects[1].PIIs[0].certainty: "
        "expected an integer 0-5, got 'high'"
    )


def _mutate(path: str, value: Any) -> dict[str, Any]:
    """_record() with the value at a dotted path replaced (value None deletes the key)."""
    rec = _record()
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
    target: Any = rec
    for key in keys[:-1]:
        target = target[key]
    if value is None:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return rec


@pytest.mark.parametrize(
    ("mutation", "field", "message"),
    [
        (("metadata.data_id", None), "metadata.data_id", "missing"),
        (("metadata", None), "metadata", "missing"),
        (("text", None), "text", "missing"),
        (("text", 3), "text", "expected a string"),
        (("metadata.data_id", 7), "metadata.data_id", "expected a string"),
        (("metadata.data_id", " "), "metadata.data_id", "must not be empty"),
        (("subjects", {}), "subjects", "expected an array"),
        (("subjects.0.id", "0"), "subjects[0].id", "expected an integer"),
        (("subjects.1.id", 0), "subjects[1].id", "duplicate subject id 0"),
        (("subjects.0.PIIs.1.tag", "JOB"), "subjects[0].PIIs[1].tag", "unknown tag 'JOB'"),
        (("subjects.0.PIIs.1.certainty", 6), "subjects[0].PIIs[1].certainty", "0-5, got 6"),
        (("subjects.0.PIIs.1.certainty", True), "subjects[0].PIIs[1].certainty", "0-5"),
        (("subjects.0.PIIs.1.certainty", None), "subjects[0].PIIs[1].certainty", "missing"),
        (("subjects.0.PIIs.1.keyword", None), "subjects[0].PIIs[1].keyword", "missing"),
        (("subjects.0.PIIs.1.keyword", 5), "subjects[0].PIIs[1].keyword", "expected a string"),
        (("subjects.0.PIIs.1.hardness", -1), "subjects[0].PIIs[1].hardness", "0-5"),
        (("subjects.0.PIIs.1.evidence", [[5, 2]]), "subjects[0].PIIs[1].evidence[0]", "before"),
        (("subjects.0.PIIs.1.evidence", [[1]]), "subjects[0].PIIs[1].evidence[0]", "expected"),
        (("subjects.0.PIIs.1", "NAME"), "subjects[0].PIIs[1]", "expected an object"),
        (("metadata.analysed_text", "x"), "metadata.analysed_text", "reserved"),
    ],
)
def test_invalid_records(
    tmp_path: Path, mutation: tuple[str, Any], field: str, message: str
) -> None:
    path = _write(tmp_path, [_record("X-0"), _mutate(*mutation)])
    with pytest.raises(DatasetError) as info:
        read_spia_jsonl(path)
    assert info.value.line == 2
    assert info.value.field == field
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        (b"", None, "empty"),
        (b"\n  \n", None, "empty"),
        (b'{"a": 1\n', 1, "malformed JSON"),
        (b"[1, 2]\n", 1, "expected a JSON object, got an array"),
        (b'{"a": "\xff\xfe"}\n', 1, "not UTF-8 text (byte 0xff at position 7)"),
        (b"\n\x89PNG\r\n\x1a\n\x00\x00", 4, "binary file"),
    ],
)
def test_invalid_files(tmp_path: Path, content: bytes, line: int | None, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    for reader in (read_spia_jsonl, read_entity_jsonl, read_anonymized_jsonl):
        with pytest.raises(DatasetError) as info:
            reader(path)
        assert message in str(info.value)
        assert info.value.line == line


def test_missing_file_is_a_dataset_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="cannot read file"):
        read_spia_jsonl(tmp_path / "nope.jsonl")


def test_duplicate_data_id(tmp_path: Path) -> None:
    path = _write(tmp_path, [_record("A"), _record("B"), _record("A")])
    with pytest.raises(DatasetError, match=r"duplicate data_id 'A' \(first on line 1\)") as info:
        read_spia_jsonl(path)
    assert info.value.line == 3


def test_bom_and_blank_lines_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(_record()).encode() + b"\r\n\n")
    assert [d.data_id for d in read_spia_jsonl(path)] == ["X-1"]


# --------------------------------------------------------------------------- quirks


def test_tolerated_quirks_warn(tmp_path: Path) -> None:
    rec = _record()
    rec["metadata"]["number_of_subjects"] = "3"
    rec["subjects"][1]["id"] = 2
    piis = rec["subjects"][0]["PIIs"]
    piis[0]["certainty"] = "5"
    piis[1]["keyword"] = " teacher "
    piis.append(_pii("EMAIL_ADDRESS", "", 4, 0))
    piis.append(_pii("NAME", "Johnny", 3, 2))
    (doc,) = read_spia_jsonl(_write(tmp_path, [rec]))
    text = "\n".join(doc.warnings)
    assert "PIIs[0].certainty: given as a string ('5'), read as 5" in text
    assert doc.subjects[0].piis[0].certainty == 5
    assert "' teacher ' has leading/trailing spaces" in text
    assert doc.subjects[0].piis[1].keyword == " teacher "
    assert "empty keyword with certainty 4" in text
    assert "duplicate tag NAME" in text
    assert "ids are not 0..1: [0, 2]" in text
    assert "number_of_subjects: given as a string" in text
    assert "says 3, the record has 2 subjects" in text
    assert len(doc.warnings) == 7


def test_unknown_keys_and_anonymized_text_survive(tmp_path: Path) -> None:
    rec = _record(anonymized_text="Mr *** , a teacher.", model="m1", extra={"k": [1]})
    rec["subjects"][0]["confidence_note"] = "x"
    rec["subjects"][0]["PIIs"][0]["source"] = "stage-b"
    rec["subjects"][0]["PIIs"][0]["evidence"] = [[3, 6, "***"], {"start": 9, "end": 18, "text": ""}]
    rec["subjects"][0]["PIIs"][1]["evidence"] = [{"start": 0, "end": 2, "text": "Xx"}]
    src = _write(tmp_path, [rec], "in.jsonl")
    (doc,) = read_spia_jsonl(src)
    assert doc.text == TEXT
    assert doc.metadata["anonymized_text"] == "Mr *** , a teacher."
    assert doc.metadata["analysed_text"] == "anonymized_text"
    assert doc.subjects[0].piis[0].evidence == [Evidence(3, 6, "***"), Evidence(9, 18, "")]
    # evidence offsets refer to the analysed (anonymized) text
    assert any("evidence[0]: text[0:2] is 'Mr', not 'Xx'" in w for w in doc.warnings)
    out = tmp_path / "out.jsonl"
    write_spia_jsonl([doc], out)
    (line,) = _lines(out)
    assert line["model"] == "m1" and line["extra"] == {"k": [1]}
    assert line["anonymized_text"] == rec["anonymized_text"]
    assert line["subjects"][0]["confidence_note"] == "x"
    assert line["subjects"][0]["PIIs"][0]["source"] == "stage-b"
    assert line["subjects"][0]["PIIs"][0]["evidence"][0] == {"start": 3, "end": 6, "text": "***"}
    assert "analysed_text" not in line["metadata"]
    assert read_spia_jsonl(out) == [doc]


# --------------------------------------------------------------------------- entity files


def test_entity_offset_warning_points_to_real_span(tmp_path: Path) -> None:
    rec = _entity_record()
    rec["entities"][0]["start_offset"] += 2
    rec["entities"][0]["end_offset"] += 2
    (doc,) = read_entity_jsonl(_write(tmp_path, [rec]))
    (mention,) = doc.entities or []
    real = TEXT.index("John Doe")
    assert mention.start == real + 2  # kept, not moved
    (warning,) = doc.warnings
    assert f"span_text found at {real}:{real + 8} (shift -2)" in warning


def test_entity_offset_not_found_nearby(tmp_path: Path) -> None:
    rec = _entity_record()
    rec["entities"][0]["span_text"] = "Zed"
    rec["entities"][0]["end_offset"] = rec["entities"][0]["start_offset"] + 3
    (doc,) = read_entity_jsonl(_write(tmp_path, [rec]))
    assert "not found within" in doc.warnings[0]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("end_offset", 999, "beyond the text"),
        ("end_offset", 3, "not after start"),
        ("start_offset", "3", "expected an integer"),
        ("identifier_type", "MAYBE", "unknown identifier type"),
        ("entity_type", "ANIMAL", "unknown entity type"),
        ("entity_id", "", "must not be empty"),
    ],
)
def test_invalid_entities(tmp_path: Path, key: str, value: Any, message: str) -> None:
    rec = _entity_record()
    rec["entities"][0][key] = value
    with pytest.raises(DatasetError, match=message) as info:
        read_entity_jsonl(_write(tmp_path, [rec]))
    assert info.value.field == f"entities[0].{key}"


def test_load_dataset_merges_and_warns(tmp_path: Path) -> None:
    gt = _write(tmp_path, [_record("A"), _record("B")], "gt.jsonl")
    ent = _write(tmp_path, [_entity_record("A"), _entity_record("C")], "ent.jsonl")
    with pytest.warns(DatasetWarning) as record:
        docs = load_dataset(gt, ent)
    messages = " ".join(str(w.message) for w in record)
    assert "['B']" in messages and "['C']" in messages
    a, b = docs
    assert a.entities and a.entities[0].span_text == "John Doe"
    assert a.metadata["provenance"] == {"applicant": "J"}
    assert b.entities is None and "no entity annotations" in b.warnings[0]


def test_load_dataset_rejects_different_texts(tmp_path: Path) -> None:
    gt = _write(tmp_path, [_record("A")], "gt.jsonl")
    ent_rec = _entity_record("A", text=TEXT.replace("wife", "Wife"))
    ent = _write(tmp_path, [ent_rec], "ent.jsonl")
    with pytest.raises(DatasetError, match="text differs") as info:
        load_dataset(gt, ent)
    assert str(TEXT.index("wife")) in str(info.value)


def test_load_bundled_unknown_name() -> None:
    with pytest.raises(DatasetError, match="TAB-144"):
        load_bundled("NOPE")


# --------------------------------------------------------------------------- anonymized files


def test_read_anonymized(tmp_path: Path) -> None:
    rows = [
        {"data_id": "A", "anonymized_text": "x", "masked_spans": [[0, 2], [5, 9]]},
        {"metadata": {"data_id": "B"}, "text": TEXT, "anonymized_text": "y",
         "entities": [{"start_offset": 3, "end_offset": 11, "span_text": "John Doe"}]},
        {"data_id": "C", "anonymized_text": "z"},
    ]  # fmt: skip
    recs = read_anonymized_jsonl(_write(tmp_path, rows), texts={"A": TEXT})
    assert recs["A"].masked_spans == [(0, 2), (5, 9)] and recs["A"].span_source == "masked_spans"
    assert recs["B"].masked_spans == [(3, 11)] and recs["B"].span_source == "entities"
    assert recs["B"].text == TEXT
    assert recs["C"].masked_spans is None and recs["C"].span_source == ""
    assert not recs["A"].warnings and not recs["B"].warnings


def test_read_anonymized_warnings(tmp_path: Path) -> None:
    ent = {
        "start_offset": 3,
        "end_offset": 11,
        "span_text": "Jane Doe",
        "identifier_type": "DIRECT",
    }
    row = {"data_id": "A", "text": TEXT, "anonymized_text": "x", "entities": [ent]}
    (rec,) = read_anonymized_jsonl(_write(tmp_path, [row])).values()
    assert rec.masked_spans == [(3, 11)]
    assert any("like ground-truth annotations" in w for w in rec.warnings)
    assert any("is 'John Doe', not span_text 'Jane Doe'" in w for w in rec.warnings)


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        ({"anonymized_text": "x"}, "data_id", "missing"),
        ({"data_id": "A"}, "anonymized_text", "missing"),
        ({"data_id": "A", "anonymized_text": 1}, "anonymized_text", "expected a string"),
        ({"data_id": "A", "anonymized_text": "x", "masked_spans": [[3, 3]]},
         "masked_spans[0]", "not after start"),
        ({"data_id": "A", "anonymized_text": "x", "masked_spans": [[1.5, 3]]},
         "masked_spans[0][0]", "expected an integer"),
        ({"data_id": "A", "anonymized_text": "x", "masked_spans": [[-1, 3]]},
         "masked_spans[0][0]", ">= 0"),
        ({"data_id": "A", "anonymized_text": "x", "masked_spans": [[1, 2, 3]]},
         "masked_spans[0]", "expected [start, end]"),
        ({"data_id": "A", "anonymized_text": "x", "masked_spans": [[1, 999]]},
         "masked_spans[0]", "beyond the original text"),
        ({"data_id": "A", "anonymized_text": "x", "entities": [{"start_offset": 1}]},
         "entities[0].end_offset", "missing"),
    ],
)  # fmt: skip
def test_invalid_anonymized(tmp_path: Path, row: dict[str, Any], field: str, message: str) -> None:
    path = _write(tmp_path, [row])
    with pytest.raises(DatasetError) as info:
        read_anonymized_jsonl(path, texts={"A": TEXT})
    assert (info.value.line, info.value.field) == (1, field)
    assert message in str(info.value)


def test_anonymized_duplicate_id(tmp_path: Path) -> None:
    row = {"data_id": "A", "anonymized_text": "x"}
    with pytest.raises(DatasetError, match="duplicate data_id"):
        read_anonymized_jsonl(_write(tmp_path, [row, copy.deepcopy(row)]))
