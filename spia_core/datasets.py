"""SPIA JSONL, entity JSONL and anonymized JSONL: read with validation, write back losslessly.

Readers never crash on the known data quirks (notes section 1): each one is recorded on
``Document.warnings``. Invalid input raises :class:`DatasetError` naming the file, the 1-based
line and the field, e.g. ``spia_tab_144.jsonl line 12, field subjects[2].PIIs[3].certainty:
expected an integer 0-5, got 'high'``.

Nothing read is lost: unknown top-level keys of a record are kept in
``metadata["_extra"]`` and unknown keys of subjects, PIIs and entity mentions in
``metadata["_extra_nested"]`` (keyed by field path, e.g. ``"entities[3]"``); the writers put
them back, so ``json.loads`` of a written line equals the line read.
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spia_core.model import PII, Document, EntityMention, Evidence, Subject
from spia_core.paths import DATA_DIR as BUNDLED_DATA_DIR
from spia_core.taxonomy import IDENTIFIER_TYPES, TAB_ENTITY_TYPES, TAGS

#: Repository data directory (spia_core/../data).
DATA_DIR: Path = BUNDLED_DATA_DIR

#: Bundled datasets: name -> (subject GT file, entity file).
BUNDLED: dict[str, tuple[Path, Path]] = {
    "TAB-144": (
        DATA_DIR / "spia" / "spia_tab_144.jsonl",
        DATA_DIR / "entity" / "entity_tab_144.jsonl",
    ),
    "PANORAMA-151": (
        DATA_DIR / "spia" / "spia_panorama_151.jsonl",
        DATA_DIR / "entity" / "entity_panorama_151.jsonl",
    ),
}

#: Metadata keys this module owns (stripped from ``metadata`` when writing).
EXTRA_KEY = "_extra"
NESTED_EXTRA_KEY = "_extra_nested"
ANONYMIZED_KEY = "anonymized_text"
ANALYSED_KEY = "analysed_text"
#: After load_dataset: the entity file's metadata as read, and the keys copied from it.
ENTITY_METADATA_KEY = "entity_metadata"
MERGED_KEYS_KEY = "_merged_keys"
RESERVED_METADATA_KEYS: frozenset[str] = frozenset(
    {
        EXTRA_KEY,
        NESTED_EXTRA_KEY,
        ANONYMIZED_KEY,
        ANALYSED_KEY,
        ENTITY_METADATA_KEY,
        MERGED_KEYS_KEY,
    }
)

_SPIA_RECORD_KEYS = ("metadata", "text", ANONYMIZED_KEY, "subjects")
_ENTITY_RECORD_KEYS = ("metadata", "text", "entities")
_SUBJECT_KEYS = ("id", "description", "PIIs")
_PII_KEYS = ("tag", "keyword", "certainty", "hardness", "evidence")
_MENTION_KEYS = (
    "span_text",
    "entity_type",
    "start_offset",
    "end_offset",
    "entity_id",
    "span_id",
    "identifier_type",
)
#: How far (in characters) to look for a mis-placed entity span_text.
NEARBY_WINDOW = 50


class DatasetError(ValueError):
    """Invalid dataset input, located by file, 1-based line and field path."""

    def __init__(
        self,
        message: str,
        path: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.path = None if path is None else str(path)
        self.line = line
        self.field = field
        self.message = message
        where = []
        if path is not None:
            where.append(Path(path).name)
        if line is not None:
            where.append(f"line {line}")
        prefix = " ".join(where)
        if field:
            prefix = f"{prefix}, field {field}" if prefix else f"field {field}"
        super().__init__(f"{prefix}: {message}" if prefix else message)


class DatasetWarning(UserWarning):
    """A cross-file inconsistency that is not fatal (e.g. a data_id in only one file)."""


@dataclass
class AnonymizedRecord:
    """One anonymized document for span metrics.

    ``masked_spans`` are [start, end) offsets into the ORIGINAL text (None when the file gives
    none); ``span_source`` says where they came from: "masked_spans", "entities" or "".
    """

    data_id: str
    anonymized_text: str
    masked_spans: list[tuple[int, int]] | None = None
    span_source: str = ""
    text: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- line reading


@dataclass
class _Line:
    """Context for one JSONL line: raises located errors."""

    path: Path
    number: int

    def error(self, field_path: str | None, message: str) -> DatasetError:
        return DatasetError(message, self.path, self.number, field_path)


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DatasetError(f"cannot read file: {exc.strerror or exc}", path) from exc
    if not data.strip():
        raise DatasetError("the file is empty", path)
    if b"\x00" in data:
        pos = data.index(b"\x00")
        raise DatasetError(
            f"binary file (NUL byte at position {pos}), expected UTF-8 JSON lines",
            path,
            data.count(b"\n", 0, pos) + 1,
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DatasetError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start})",
            path,
            data.count(b"\n", 0, exc.start) + 1,
        ) from exc


def _records(path: str | Path) -> Iterator[tuple[_Line, dict[str, Any]]]:
    """Yield (line context, JSON object) for every non-blank line."""
    path = Path(path)
    seen = 0
    for number, raw in enumerate(_read_text(path).split("\n"), start=1):
        if not raw.strip():
            continue
        ctx = _Line(path, number)
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ctx.error(None, f"malformed JSON: {exc.msg} (column {exc.colno})") from exc
        if not isinstance(record, dict):
            raise ctx.error(None, f"expected a JSON object, got {_type_name(record)}")
        seen += 1
        yield ctx, record
    if not seen:
        raise DatasetError("the file has no JSON lines", path)


def _type_name(value: Any) -> str:
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _got(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --------------------------------------------------------------------------- field checks


def _require(ctx: _Line, obj: dict[str, Any], key: str, prefix: str) -> Any:
    if key not in obj:
        raise ctx.error(f"{prefix}{key}", "missing")
    return obj[key]


def _str(ctx: _Line, value: Any, fpath: str, *, non_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise ctx.error(fpath, f"expected a string, got {_type_name(value)} {_got(value)}")
    if non_empty and not value.strip():
        raise ctx.error(fpath, "must not be empty")
    return value


def _int(ctx: _Line, value: Any, fpath: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ctx.error(fpath, f"expected an integer, got {_type_name(value)} {_got(value)}")
    if value < minimum:
        raise ctx.error(fpath, f"expected an integer >= {minimum}, got {value}")
    return value


def _likert(ctx: _Line, value: Any, fpath: str, warn: list[str]) -> int:
    """An integer 0-5; a digit string ("5") is accepted with a warning."""
    if isinstance(value, str) and value.strip().isdigit():
        warn.append(f"{fpath}: given as a string ({value!r}), read as {int(value)}")
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
        raise ctx.error(fpath, f"expected an integer 0-5, got {_got(value)}")
    return value


def _list(ctx: _Line, value: Any, fpath: str) -> list[Any]:
    if not isinstance(value, list):
        raise ctx.error(fpath, f"expected an array, got {_type_name(value)}")
    return value


def _obj(ctx: _Line, value: Any, fpath: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ctx.error(fpath, f"expected an object, got {_type_name(value)}")
    return value


def _keep_unknown(
    obj: dict[str, Any], known: tuple[str, ...], fpath: str, nested: dict[str, Any]
) -> None:
    extra = {k: v for k, v in obj.items() if k not in known}
    if extra:
        nested[fpath] = extra


def _metadata(ctx: _Line, record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    meta = dict(_obj(ctx, _require(ctx, record, "metadata", ""), "metadata"))
    data_id = _str(ctx, _require(ctx, meta, "data_id", "metadata."), "metadata.data_id")
    if not data_id.strip():
        raise ctx.error("metadata.data_id", "must not be empty")
    clash = RESERVED_METADATA_KEYS & meta.keys()
    if clash:
        raise ctx.error(f"metadata.{min(clash)}", "is a reserved key of this reader")
    return data_id, meta


def _check_number_of_subjects(meta: dict[str, Any], n: int, warn: list[str]) -> None:
    if "number_of_subjects" not in meta:
        return
    value = meta["number_of_subjects"]
    if isinstance(value, str):
        warn.append(f"metadata.number_of_subjects: given as a string ({value!r}), kept as is")
        value = int(value) if value.strip().isdigit() else None
    if isinstance(value, bool) or not isinstance(value, int):
        warn.append(
            f"metadata.number_of_subjects: not a number ({_got(meta['number_of_subjects'])})"
        )
    elif value != n:
        warn.append(f"metadata.number_of_subjects: says {value}, the record has {n} subjects")


# --------------------------------------------------------------------------- SPIA subjects


def _evidence(ctx: _Line, value: Any, fpath: str, text: str, warn: list[str]) -> list[Evidence]:
    out: list[Evidence] = []
    for k, item in enumerate(_list(ctx, value, fpath)):
        ipath = f"{fpath}[{k}]"
        if isinstance(item, list):
            if len(item) not in (2, 3):
                raise ctx.error(
                    ipath, f"expected [start, end] or [start, end, text], got {_got(item)}"
                )
            start, end, etext = item[0], item[1], item[2] if len(item) == 3 else ""
            names = (f"{ipath}[0]", f"{ipath}[1]", f"{ipath}[2]")
        elif isinstance(item, dict):
            start = _require(ctx, item, "start", f"{ipath}.")
            end = _require(ctx, item, "end", f"{ipath}.")
            etext = item.get("text", "")
            names = (f"{ipath}.start", f"{ipath}.end", f"{ipath}.text")
        else:
            raise ctx.error(ipath, f"expected an array or an object, got {_type_name(item)}")
        start = _int(ctx, start, names[0])
        end = _int(ctx, end, names[1])
        etext = _str(ctx, etext, names[2])
        if end < start:
            raise ctx.error(ipath, f"end {end} is before start {start}")
        if end > len(text):
            warn.append(
                f"{ipath}: span {start}:{end} is beyond the analysed text ({len(text)} chars)"
            )
        elif etext and text[start:end] != etext:
            warn.append(
                f"{ipath}: text[{start}:{end}] is {text[start:end]!r}, not {etext!r} (kept as is)"
            )
        out.append(Evidence(start, end, etext))
    return out


def _pii(
    ctx: _Line, value: Any, fpath: str, text: str, warn: list[str], nested: dict[str, Any]
) -> PII:
    obj = _obj(ctx, value, fpath)
    tag = _str(ctx, _require(ctx, obj, "tag", f"{fpath}."), f"{fpath}.tag")
    if tag not in TAGS:
        raise ctx.error(f"{fpath}.tag", f"unknown tag {tag!r} (expected one of {', '.join(TAGS)})")
    keyword = _str(ctx, _require(ctx, obj, "keyword", f"{fpath}."), f"{fpath}.keyword")
    certainty = _likert(
        ctx, _require(ctx, obj, "certainty", f"{fpath}."), f"{fpath}.certainty", warn
    )
    hardness = _likert(ctx, obj.get("hardness", 0), f"{fpath}.hardness", warn)
    evidence = (
        _evidence(ctx, obj["evidence"], f"{fpath}.evidence", text, warn)
        if "evidence" in obj
        else []
    )
    if keyword != keyword.strip() and keyword.strip():
        warn.append(f"{fpath}.keyword: {keyword!r} has leading/trailing spaces (kept as is)")
    if not keyword.strip() and certainty > 0:
        warn.append(f"{fpath} ({tag}): empty keyword with certainty {certainty} (treated as empty)")
    _keep_unknown(obj, _PII_KEYS, fpath, nested)
    return PII(tag, keyword, certainty, hardness, evidence)


def _subjects(
    ctx: _Line, value: Any, text: str, warn: list[str], nested: dict[str, Any]
) -> list[Subject]:
    subjects: list[Subject] = []
    seen: dict[int, int] = {}
    for i, item in enumerate(_list(ctx, value, "subjects")):
        spath = f"subjects[{i}]"
        obj = _obj(ctx, item, spath)
        sid = _int(ctx, _require(ctx, obj, "id", f"{spath}."), f"{spath}.id")
        if sid in seen:
            raise ctx.error(
                f"{spath}.id", f"duplicate subject id {sid} (also subjects[{seen[sid]}])"
            )
        seen[sid] = i
        desc = _str(ctx, _require(ctx, obj, "description", f"{spath}."), f"{spath}.description")
        raw_piis = _list(ctx, _require(ctx, obj, "PIIs", f"{spath}."), f"{spath}.PIIs")
        piis = [
            _pii(ctx, p, f"{spath}.PIIs[{j}]", text, warn, nested) for j, p in enumerate(raw_piis)
        ]
        tags = [p.tag for p in piis]
        for tag in dict.fromkeys(t for t in tags if tags.count(t) > 1):
            values = [p.keyword for p in piis if p.tag == tag]
            warn.append(
                f"{spath} (id {sid}): duplicate tag {tag} ({len(values)} entries: {values})"
            )
        _keep_unknown(obj, _SUBJECT_KEYS, spath, nested)
        subjects.append(Subject(sid, desc, piis))
    ids = [s.id for s in subjects]
    if sorted(ids) != list(range(len(ids))):
        warn.append(f"subjects: ids are not 0..{len(ids) - 1}: {ids}")
    return subjects


def _spia_document(ctx: _Line, record: dict[str, Any]) -> Document:
    data_id, meta = _metadata(ctx, record)
    text = _str(ctx, _require(ctx, record, "text", ""), "text")
    warn: list[str] = []
    nested: dict[str, Any] = {}
    analysed = text
    if ANONYMIZED_KEY in record:
        analysed = _str(ctx, record[ANONYMIZED_KEY], ANONYMIZED_KEY)
        meta[ANONYMIZED_KEY] = analysed
        meta[ANALYSED_KEY] = ANONYMIZED_KEY
    subjects = _subjects(ctx, _require(ctx, record, "subjects", ""), analysed, warn, nested)
    _check_number_of_subjects(meta, len(subjects), warn)
    extra = {k: v for k, v in record.items() if k not in _SPIA_RECORD_KEYS}
    if extra:
        meta[EXTRA_KEY] = extra
    if nested:
        meta[NESTED_EXTRA_KEY] = nested
    return Document(data_id, text, subjects, None, meta, warn)


def _read_all(
    path: str | Path, build: Callable[[_Line, dict[str, Any]], Document]
) -> list[Document]:
    docs: list[Document] = []
    first_line: dict[str, int] = {}
    for ctx, record in _records(path):
        doc = build(ctx, record)
        if doc.data_id in first_line:
            raise ctx.error(
                "metadata.data_id",
                f"duplicate data_id {doc.data_id!r} (first on line {first_line[doc.data_id]})",
            )
        first_line[doc.data_id] = ctx.number
        docs.append(doc)
    return docs


def read_spia_jsonl(path: str | Path) -> list[Document]:
    """Read a SPIA subject file (GT or inference output; ``anonymized_text`` is kept).

    When a record has ``anonymized_text``, ``metadata["analysed_text"]`` is "anonymized_text":
    the subjects and their evidence offsets refer to that text, not to ``text``.
    """
    return _read_all(path, _spia_document)


# --------------------------------------------------------------------------- SPIA writing


def _clean_metadata(doc: Document, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """Metadata to write: without this module's keys nor keys merged from an entity file."""
    source = doc.metadata if metadata is None else metadata
    merged = set(source.get(MERGED_KEYS_KEY, ()))
    meta = {k: v for k, v in source.items() if k not in RESERVED_METADATA_KEYS and k not in merged}
    if meta.get("data_id") != doc.data_id:
        meta = {"data_id": doc.data_id, **{k: v for k, v in meta.items() if k != "data_id"}}
    return meta


def _evidence_out(ev: Evidence) -> dict[str, Any]:
    return {"start": ev.start, "end": ev.end, "text": ev.text}


def _spia_record(doc: Document) -> dict[str, Any]:
    nested: dict[str, Any] = doc.metadata.get(NESTED_EXTRA_KEY, {})
    record: dict[str, Any] = {"metadata": _clean_metadata(doc), "text": doc.text}
    if ANONYMIZED_KEY in doc.metadata:
        record[ANONYMIZED_KEY] = doc.metadata[ANONYMIZED_KEY]
    subjects = []
    for i, subject in enumerate(doc.subjects):
        spath = f"subjects[{i}]"
        piis = []
        for j, pii in enumerate(subject.piis):
            p: dict[str, Any] = {
                "tag": pii.tag,
                "keyword": pii.keyword,
                "certainty": pii.certainty,
                "hardness": pii.hardness,
            }
            if pii.evidence:
                p["evidence"] = [_evidence_out(ev) for ev in pii.evidence]
            if pii.explanation is not None:  # an extra key: the reference scorer ignores it
                p["explanation"] = {
                    "rule": pii.explanation.rule,
                    "text": pii.explanation.text,
                    "evidence": [_evidence_out(ev) for ev in pii.explanation.evidence],
                }
            p.update(nested.get(f"{spath}.PIIs[{j}]", {}))
            piis.append(p)
        s = {"id": subject.id, "description": subject.description, "PIIs": piis}
        s.update(nested.get(spath, {}))
        subjects.append(s)
    record["subjects"] = subjects
    record.update(doc.metadata.get(EXTRA_KEY, {}))
    return record


def _write_lines(records: Iterator[dict[str, Any]], path: str | Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")


def write_spia_jsonl(docs: list[Document], path: str | Path) -> None:
    """Write documents in SPIA format (metadata, text, [anonymized_text], subjects).

    Values normalised on reading (a string certainty "5") are written normalised (5); evidence
    is written as ``{"start", "end", "text"}`` objects; a missing hardness is written as 0.
    """
    _write_lines((_spia_record(d) for d in docs), path)


# --------------------------------------------------------------------------- entity files


def _find_nearby(text: str, needle: str, start: int) -> int | None:
    """Start of the occurrence of ``needle`` closest to ``start`` within NEARBY_WINDOW."""
    if not needle:
        return None
    lo = max(0, start - NEARBY_WINDOW)
    hi = min(len(text), start + len(needle) + NEARBY_WINDOW)
    hits = [m.start() + lo for m in re.finditer(re.escape(needle), text[lo:hi])]
    return min(hits, key=lambda h: (abs(h - start), h), default=None)


def _mention(
    ctx: _Line, value: Any, fpath: str, text: str, warn: list[str], nested: dict[str, Any]
) -> EntityMention:
    obj = _obj(ctx, value, fpath)

    def req(key: str) -> Any:
        return _require(ctx, obj, key, f"{fpath}.")

    span_text = _str(ctx, req("span_text"), f"{fpath}.span_text")
    etype = _str(ctx, req("entity_type"), f"{fpath}.entity_type")
    if etype not in TAB_ENTITY_TYPES:
        raise ctx.error(
            f"{fpath}.entity_type",
            f"unknown entity type {etype!r} (expected one of {', '.join(TAB_ENTITY_TYPES)})",
        )
    start = _int(ctx, req("start_offset"), f"{fpath}.start_offset")
    end = _int(ctx, req("end_offset"), f"{fpath}.end_offset")
    if end <= start:
        raise ctx.error(f"{fpath}.end_offset", f"end {end} is not after start {start}")
    if end > len(text):
        raise ctx.error(f"{fpath}.end_offset", f"{end} is beyond the text ({len(text)} chars)")
    entity_id = _str(ctx, req("entity_id"), f"{fpath}.entity_id", non_empty=True)
    span_id = _str(ctx, obj.get("span_id", ""), f"{fpath}.span_id")
    ident = _str(ctx, req("identifier_type"), f"{fpath}.identifier_type")
    if ident not in IDENTIFIER_TYPES:
        raise ctx.error(
            f"{fpath}.identifier_type",
            f"unknown identifier type {ident!r} (expected one of {', '.join(IDENTIFIER_TYPES)})",
        )
    if text[start:end] != span_text:
        found = _find_nearby(text, span_text, start)
        where = (
            f"span_text found at {found}:{found + len(span_text)} (shift {found - start:+d})"
            if found is not None
            else f"span_text not found within {NEARBY_WINDOW} characters"
        )
        warn.append(
            f"{fpath}: text[{start}:{end}] is {text[start:end]!r}, not span_text "
            f"{span_text!r}; {where}; offsets kept as given"
        )
    _keep_unknown(obj, _MENTION_KEYS, fpath, nested)
    return EntityMention(span_text, etype, start, end, entity_id, ident, span_id)


def _entity_document(ctx: _Line, record: dict[str, Any]) -> Document:
    data_id, meta = _metadata(ctx, record)
    text = _str(ctx, _require(ctx, record, "text", ""), "text")
    warn: list[str] = []
    nested: dict[str, Any] = {}
    raw = _list(ctx, _require(ctx, record, "entities", ""), "entities")
    entities = [_mention(ctx, e, f"entities[{i}]", text, warn, nested) for i, e in enumerate(raw)]
    if isinstance(meta.get("number_of_subjects"), str):
        warn.append(
            f"metadata.number_of_subjects: given as a string "
            f"({meta['number_of_subjects']!r}), kept as is"
        )
    extra = {k: v for k, v in record.items() if k not in _ENTITY_RECORD_KEYS}
    if extra:
        meta[EXTRA_KEY] = extra
    if nested:
        meta[NESTED_EXTRA_KEY] = nested
    return Document(data_id, text, [], entities, meta, warn)


def read_entity_jsonl(path: str | Path) -> list[Document]:
    """Read a TAB-style entity file (span annotations, metadata with provenance)."""
    return _read_all(path, _entity_document)


def _entity_record(doc: Document) -> dict[str, Any]:
    source: dict[str, Any] = doc.metadata.get(ENTITY_METADATA_KEY, doc.metadata)
    nested: dict[str, Any] = source.get(NESTED_EXTRA_KEY, {})
    entities = []
    for i, m in enumerate(doc.entities or []):
        e: dict[str, Any] = {
            "span_text": m.span_text,
            "entity_type": m.entity_type,
            "start_offset": m.start,
            "end_offset": m.end,
            "entity_id": m.entity_id,
            "span_id": m.span_id,
            "identifier_type": m.identifier_type,
        }
        e.update(nested.get(f"entities[{i}]", {}))
        entities.append(e)
    record: dict[str, Any] = {"metadata": _clean_metadata(doc, source), "text": doc.text}
    record["entities"] = entities
    record.update(source.get(EXTRA_KEY, {}))
    return record


def write_entity_jsonl(docs: list[Document], path: str | Path) -> None:
    """Write documents in entity format (metadata, text, entities)."""
    _write_lines((_entity_record(d) for d in docs), path)


# --------------------------------------------------------------------------- datasets


def _same(a: Any, b: Any) -> bool:
    return a == b or (isinstance(a, (int, str)) and isinstance(b, (int, str)) and str(a) == str(b))


def _merge(doc: Document, ent: Document, entity_path: Path) -> None:
    """Attach ``ent``'s mentions to ``doc`` and copy its metadata keys that ``doc`` lacks.

    The entity metadata as read is kept whole under ``metadata["entity_metadata"]`` (so
    :func:`write_entity_jsonl` reproduces the entity file and nothing conflicting is lost).
    """
    doc.entities = ent.entities
    doc.warnings.extend(f"entity file: {w}" for w in ent.warnings)
    doc.metadata[ENTITY_METADATA_KEY] = ent.metadata
    merged = []
    for key, value in ent.metadata.items():
        if key in RESERVED_METADATA_KEYS:
            continue
        if key not in doc.metadata:
            doc.metadata[key] = value
            merged.append(key)
        elif not _same(doc.metadata[key], value):
            doc.warnings.append(
                f"metadata.{key}: {_got(doc.metadata[key])} in the subject file, "
                f"{_got(value)} in {entity_path.name} (kept the subject file's; the entity "
                f"file's is in metadata.{ENTITY_METADATA_KEY})"
            )
    if merged:
        doc.metadata[MERGED_KEYS_KEY] = merged


def load_dataset(spia_path: str | Path, entity_path: str | Path | None = None) -> list[Document]:
    """SPIA GT documents, with entity mentions and metadata (provenance) merged by data_id.

    Ids found in only one file give a :class:`DatasetWarning` (and a warning on the document
    when it is the GT document that has no entities). Texts that differ raise DatasetError.
    """
    docs = read_spia_jsonl(spia_path)
    if entity_path is None:
        return docs
    entity_path = Path(entity_path)
    by_id = {d.data_id: d for d in read_entity_jsonl(entity_path)}
    missing = []
    for doc in docs:
        ent = by_id.pop(doc.data_id, None)
        if ent is None:
            missing.append(doc.data_id)
            doc.warnings.append(f"no entity annotations (data_id absent from {entity_path.name})")
            continue
        if ent.text != doc.text:
            pos = next(
                (i for i, (a, b) in enumerate(zip(doc.text, ent.text, strict=False)) if a != b),
                min(len(doc.text), len(ent.text)),
            )
            raise DatasetError(
                f"data_id {doc.data_id!r}: the text differs from {Path(spia_path).name} "
                f"(first difference at character {pos})",
                entity_path,
                field="text",
            )
        _merge(doc, ent, entity_path)
    if missing:
        warnings.warn(
            f"{len(missing)} data_id(s) of {Path(spia_path).name} are absent from "
            f"{entity_path.name}: {missing[:5]}",
            DatasetWarning,
            stacklevel=2,
        )
    if by_id:
        warnings.warn(
            f"{len(by_id)} data_id(s) of {entity_path.name} are absent from "
            f"{Path(spia_path).name} (ignored): {list(by_id)[:5]}",
            DatasetWarning,
            stacklevel=2,
        )
    return docs


def load_bundled(name: str) -> list[Document]:
    """Load a bundled dataset by name (see :data:`BUNDLED`)."""
    if name not in BUNDLED:
        raise DatasetError(f"unknown bundled dataset {name!r}; choose one of {', '.join(BUNDLED)}")
    spia_path, entity_path = BUNDLED[name]
    for p in (spia_path, entity_path):
        if not p.is_file():
            raise DatasetError(
                f"bundled dataset {name!r} is missing its file {p} (expected under {DATA_DIR})", p
            )
    return load_dataset(spia_path, entity_path)


def dataset_hash(path: str | Path) -> str:
    """sha256 hex digest of the file's bytes (for run manifests)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


# --------------------------------------------------------------------------- anonymized files


def _spans(ctx: _Line, value: Any, fpath: str, keys: tuple[Any, Any]) -> list[tuple[int, int]]:
    spans = []
    for k, item in enumerate(_list(ctx, value, fpath)):
        ipath = f"{fpath}[{k}]"
        if keys == (0, 1):
            if not isinstance(item, list) or len(item) != 2:
                raise ctx.error(ipath, f"expected [start, end], got {_got(item)}")
            names = (f"{ipath}[0]", f"{ipath}[1]")
            raw = (item[0], item[1])
        else:
            obj = _obj(ctx, item, ipath)
            names = (f"{ipath}.{keys[0]}", f"{ipath}.{keys[1]}")
            raw = (
                _require(ctx, obj, keys[0], f"{ipath}."),
                _require(ctx, obj, keys[1], f"{ipath}."),
            )
        start, end = _int(ctx, raw[0], names[0]), _int(ctx, raw[1], names[1])
        if end <= start:
            raise ctx.error(ipath, f"end {end} is not after start {start}")
        spans.append((start, end))
    return spans


def _anonymized_record(
    ctx: _Line, record: dict[str, Any], texts: Mapping[str, str] | None
) -> AnonymizedRecord:
    meta: dict[str, Any] = {}
    if "metadata" in record:
        meta = dict(_obj(ctx, record["metadata"], "metadata"))
    if "data_id" in record:
        data_id = _str(ctx, record["data_id"], "data_id", non_empty=True)
    elif "data_id" in meta:
        data_id = _str(ctx, meta["data_id"], "metadata.data_id", non_empty=True)
    else:
        raise ctx.error("data_id", "missing (give data_id or metadata.data_id)")
    anonymized = _str(ctx, _require(ctx, record, ANONYMIZED_KEY, ""), ANONYMIZED_KEY)
    text = _str(ctx, record["text"], "text") if "text" in record else None
    rec = AnonymizedRecord(data_id, anonymized, text=text, metadata=meta)
    fpath = ""
    if "masked_spans" in record:
        fpath = "masked_spans"
        rec.masked_spans = _spans(ctx, record["masked_spans"], fpath, (0, 1))
        rec.span_source = fpath
        if "entities" in record:
            rec.warnings.append("both masked_spans and entities given; used masked_spans")
    elif "entities" in record:
        fpath = "entities"
        rec.masked_spans = _spans(ctx, record["entities"], fpath, ("start_offset", "end_offset"))
        rec.span_source = fpath
        if any(isinstance(e, dict) and "identifier_type" in e for e in record["entities"]):
            rec.warnings.append(
                "entities carry identifier_type, like ground-truth annotations: they are read "
                "as the anonymizer's masked spans; check they are not the GT spans"
            )
    original = text if text is not None else (texts or {}).get(data_id)
    if rec.masked_spans is not None and original is not None:
        for k, (start, end) in enumerate(rec.masked_spans):
            if end > len(original):
                raise ctx.error(
                    f"{fpath}[{k}]",
                    f"span {start}:{end} is beyond the original text ({len(original)} chars)",
                )
            item = record[fpath][k]
            span_text = item.get("span_text") if isinstance(item, dict) else None
            if isinstance(span_text, str) and original[start:end] != span_text:
                rec.warnings.append(
                    f"{fpath}[{k}]: original text[{start}:{end}] is "
                    f"{original[start:end]!r}, not span_text {span_text!r}"
                )
    return rec


def read_anonymized_jsonl(
    path: str | Path, texts: Mapping[str, str] | None = None
) -> dict[str, AnonymizedRecord]:
    """Read anonymized documents (one per line) for span metrics.

    Each line has ``data_id`` (or ``metadata.data_id``), ``anonymized_text`` and optionally
    ``masked_spans`` ([[start, end], ...]) or the reference's ``entities`` (start_offset /
    end_offset), both in ORIGINAL-text offsets. Spans are checked against the record's ``text``
    or, when absent, ``texts[data_id]`` (e.g. the GT texts) when given.
    """
    out: dict[str, AnonymizedRecord] = {}
    lines: dict[str, int] = {}
    for ctx, record in _records(path):
        rec = _anonymized_record(ctx, record, texts)
        if rec.data_id in out:
            raise ctx.error(
                "data_id", f"duplicate data_id {rec.data_id!r} (first on line {lines[rec.data_id]})"
            )
        out[rec.data_id] = rec
        lines[rec.data_id] = ctx.number
    return out
