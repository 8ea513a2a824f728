"""No dataset text in code: no multi-word NAME value of the bundled ground truth appears in
spia_core/ or data/lexicons/ (rules and lexicons hold general knowledge; tests of rules use
invented sentences)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = [ROOT / "spia_core", ROOT / "data" / "lexicons"]
SUFFIXES = {".py", ".tsv", ".json", ".md", ".txt", ".toml", ".yaml", ".yml"}


def _gt_names() -> set[str]:
    names: set[str] = set()
    for path in sorted((ROOT / "data" / "spia").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            for subject in json.loads(line).get("subjects", []):
                for pii in subject.get("PIIs", []):
                    value = " ".join(str(pii.get("keyword", "")).split())
                    if pii.get("tag") == "NAME" and len(value.split()) >= 2:
                        names.add(value)
    return names


def _files() -> list[Path]:
    return [
        p
        for base in SCANNED
        for p in sorted(base.rglob("*"))
        if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts
    ]


def test_ground_truth_names_are_read():
    assert len(_gt_names()) > 100  # the check below is not vacuous


def test_no_ground_truth_name_in_code_or_lexicons():
    names = _gt_names()
    pattern = re.compile(
        r"(?<![\w])(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        + r")(?![\w])",
        re.IGNORECASE,
    )
    found = []
    for path in _files():
        text = path.read_text(encoding="utf-8", errors="ignore")
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r}")
    assert not found, "dataset names in code or lexicons:\n" + "\n".join(found)
