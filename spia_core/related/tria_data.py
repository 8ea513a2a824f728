"""TRIA collections: who is known (background documents) and which documents are protected.

A collection is JSONL, one record per line: ``{"id": ..., "individual": ..., "background":
str | null, "text": str | null}``. ``background`` is public knowledge about the individual
(null: the attacker does not know them, which lowers the maximum TRIR); ``text`` is the
document to protect (null: the individual is only a distractor of the attacker). The bundled
demo (``tria-demo``) is built from PANORAMA-151 by :func:`build_panorama_collection`.
"""

from __future__ import annotations

import ast
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from spia_core.datasets import DATA_DIR

DEMO_PATH = DATA_DIR / "tria" / "tria_demo_panorama.jsonl"
DEMO_NAMES = ("tria-demo",)
#: Profile fields a people-search page or social profile could show (rendered as background).
#: Identity documents, finances and health fields are left out: not public knowledge.
PUBLIC_FIELDS: tuple[tuple[str, str], ...] = (
    ("Gender", "Gender"),
    ("Age", "Age"),
    ("Birth Date", "Born on"),
    ("Birth City", "Born in"),
    ("Nationality", "Nationality"),
    ("Address", "Lives at"),
    ("Job Title", "Works as"),
    ("Employer", "Employer"),
    ("Education Info", "Education"),
    ("Marital Status", "Marital status"),
    ("Spouse Name", "Spouse"),
    ("Children Count", "Children"),
    ("Father's Name", "Father"),
    ("Mother's Name", "Mother"),
    ("Email Address", "E-mail"),
    ("Work Email", "Work e-mail"),
    ("Phone Number", "Phone"),
    ("Work Phone", "Work phone"),
    ("Social Media Handles", "Social media"),
)


@dataclass
class Record:
    id: str
    individual: str
    background: str | None
    text: str | None


def render_profile(profile: dict[str, Any]) -> str:
    """A background document from a synthetic profile: name, then one line per public field."""
    name = f"{profile.get('First Name', '')} {profile.get('Last Name', '')}".strip()
    lines = [name]
    for key, label in PUBLIC_FIELDS:
        value = _plain(profile.get(key, ""))
        if value and value.upper() != "N/A":
            lines.append(f"{label}: {value}")
    return "\n".join(lines)


def _plain(value: Any) -> str:
    """A field value as text; a dict written as a string ("{'A': 'x'}") becomes "A x, ..."."""
    text = str(value).strip()
    if text.startswith("{") and text.endswith("}"):
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return text
        if isinstance(parsed, dict):
            return ", ".join(f"{k} {v}" for k, v in parsed.items())
    return text


def build_panorama_collection(entity_path: Path | None = None) -> list[Record]:
    """One record per PANORAMA profile: its rendered profile, and its first post protected."""
    path = entity_path or DATA_DIR / "entity" / "entity_panorama_151.jsonl"
    records: dict[str, Record] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        meta = row["metadata"]
        profile = meta["provenance"]["profile"]
        who = str(profile["Unique ID"])
        if who not in records:
            records[who] = Record(meta["data_id"], who, render_profile(profile), row["text"])
    return list(records.values())


def write_collection(records: list[Record], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(asdict(r), ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


class CollectionError(ValueError):
    """A collection file that cannot be used (names the file, line and field)."""


def load_collection(dataset: str) -> list[Record]:
    """``tria-demo`` (bundled) or a JSONL path; validated with a clear message."""
    path = DEMO_PATH if dataset.lower() in DEMO_NAMES else Path(dataset)
    if not path.is_file():
        raise CollectionError(
            f"no TRIA collection {dataset!r}: use 'tria-demo' or a JSONL file with "
            "id, individual, background, text"
        )
    records = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CollectionError(f"{path.name} line {n}: invalid JSON ({exc.msg})") from None
        for key in ("id", "individual"):
            if not isinstance(row.get(key), str) or not row[key].strip():
                raise CollectionError(f"{path.name} line {n}, field {key}: a non-empty string")
        for key in ("background", "text"):
            if row.get(key) is not None and not isinstance(row[key], str):
                raise CollectionError(f"{path.name} line {n}, field {key}: a string or null")
        records.append(Record(row["id"], row["individual"], row.get("background"), row.get("text")))
    if not any(r.text for r in records):
        raise CollectionError(f"{path.name}: no record has a text to protect")
    if len({r.individual for r in records if r.background}) < 2:
        raise CollectionError(f"{path.name}: background documents of >= 2 individuals needed")
    return records


def read_anonymized(path: str | Path) -> dict[str, str]:
    """``data_id -> anonymized_text`` from a JSONL (evaluate's results.jsonl, or your own)."""
    out: dict[str, str] = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CollectionError(f"{Path(path).name} line {n}: invalid JSON ({exc.msg})") from None
        data_id = row.get("data_id") or (row.get("metadata") or {}).get("data_id")
        text = row.get("anonymized_text")
        if not isinstance(data_id, str) or not isinstance(text, str):
            raise CollectionError(
                f"{Path(path).name} line {n}: needs data_id and anonymized_text (strings)"
            )
        out[data_id] = text
    return out
