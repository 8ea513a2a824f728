"""Versioned prompt templates (``<name>.v<N>.txt``) and their loader.

A template file starts with ``# key: value`` header lines (``prompt``, ``version``, ``purpose``),
then a ``=== system ===`` and a ``=== user ===`` section. Placeholders are ``{{name}}``;
substitution is a single pass, so a document that contains ``{{...}}`` is never expanded.
Text that is data (documents, annotations) goes through :func:`data_block`, which wraps it in
``<tag>...</tag>`` and neutralises look-alike delimiters inside it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from spia_core.llm.base import Message

PROMPT_DIR = Path(__file__).resolve().parent
_FILE = re.compile(r"^(?P<name>[a-z0-9_]+)\.v(?P<version>\d+)\.txt$")
_SECTION = re.compile(r"^=== (system|user) ===\s*$", re.MULTILINE)
_PLACEHOLDER = re.compile(r"\{\{([a-z_]+)\}\}")
#: Tag names used as data delimiters; any look-alike inside data is neutralised.
DATA_TAGS = (
    "document",
    "original_document",
    "anonymized_document",
    "annotation_a",
    "annotation_b",
    "subjects",
    "inferences",
    "pairs",
    "anonymized",
    "invalid_reply",
    "target",
    "history",
    "clues",
    "critique",
)
_DELIMITER = re.compile(r"<\s*/?\s*(?:" + "|".join(DATA_TAGS) + r")\b[^>]*>", re.IGNORECASE)


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    version: int
    purpose: str
    system: str
    user: str

    @property
    def version_id(self) -> str:
        """E.g. ``"subject_identification.v1"`` (cache keys, run manifests)."""
        return f"{self.name}.v{self.version}"

    def placeholders(self) -> set[str]:
        return set(_PLACEHOLDER.findall(self.system + self.user))

    def render(self, **values: str) -> list[Message]:
        """System + user messages with every ``{{name}}`` replaced (all must be given)."""
        missing = self.placeholders() - set(values)
        if missing:
            names = ", ".join(sorted(missing))
            raise KeyError(f"prompt {self.version_id}: missing value(s) {names}")

        def fill(text: str) -> str:
            return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)

        messages = [Message("system", fill(self.system))] if self.system else []
        return [*messages, Message("user", fill(self.user))]


def _defang(match: re.Match[str]) -> str:
    return match.group(0).replace("<", "‹").replace(">", "›")


def neutralise(text: str) -> str:
    """Defang delimiter look-alikes inside data (``</document>`` -> ``‹/document›``).

    Look-alikes are found on a normalised view of the text (NFKC, so full-width ``＜/document＞``
    is ``</document>``; format characters such as zero-width spaces removed, so
    ``</doc\u200bument>`` is found too); each one is replaced in place, and the rest of the
    text is left exactly as it was.
    """
    if text.isascii():
        return _DELIMITER.sub(_defang, text)
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if unicodedata.category(ch) == "Cf":  # zero-width space / joiner, soft hyphen, BOM ...
            continue
        for norm in unicodedata.normalize("NFKC", ch):
            chars.append(norm)
            origin.append(i)
    view = "".join(chars)
    out: list[str] = []
    cursor = 0
    for match in _DELIMITER.finditer(view):
        start, end = origin[match.start()], origin[match.end() - 1] + 1
        out.extend((text[cursor:start], _defang(match)))
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def data_block(tag: str, text: str) -> str:
    """``text`` wrapped in ``<tag>`` delimiters, declared as data by every template."""
    if tag not in DATA_TAGS:
        raise ValueError(f"unknown data tag {tag!r}")
    return f"<{tag}>\n{neutralise(text)}\n</{tag}>"


def _parse(path: Path) -> PromptTemplate:
    match = _FILE.match(path.name)
    if not match:
        raise ValueError(f"{path}: prompt files are named <name>.v<N>.txt")
    raw = path.read_text(encoding="utf-8")
    header: dict[str, str] = {}
    for line in raw.splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        header[key.strip()] = value.strip()
    if header.get("prompt") != match["name"] or header.get("version") != match["version"]:
        raise ValueError(f"{path}: header prompt/version does not match the file name")
    parts = _SECTION.split(raw)
    sections = {parts[i]: parts[i + 1].strip("\n") for i in range(1, len(parts) - 1, 2)}
    if "user" not in sections:
        raise ValueError(f"{path}: missing '=== user ===' section")
    return PromptTemplate(
        name=match["name"],
        version=int(match["version"]),
        purpose=header.get("purpose", ""),
        system=sections.get("system", "").strip(),
        user=sections["user"].strip(),
    )


@cache
def load_prompt(name: str, version: int | None = None) -> PromptTemplate:
    """The template ``name`` at ``version`` (default: the highest version shipped)."""
    candidates = sorted(
        (int(m["version"]), p)
        for p in PROMPT_DIR.glob(f"{name}.v*.txt")
        if (m := _FILE.match(p.name)) and m["name"] == name
    )
    if version is not None:
        candidates = [c for c in candidates if c[0] == version]
    if not candidates:
        raise KeyError(f"no prompt template {name!r}" + (f" v{version}" if version else ""))
    return _parse(candidates[-1][1])


def available_prompts() -> dict[str, str]:
    """``name -> latest version id`` for every shipped template."""
    names = {m["name"] for p in PROMPT_DIR.glob("*.txt") if (m := _FILE.match(p.name))}
    return {n: load_prompt(n).version_id for n in sorted(names)}
