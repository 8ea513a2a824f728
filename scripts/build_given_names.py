"""Build ``data/lexicons/given_names_sex.tsv`` from the name data of the ``nomquamgender``
wheel (MIT; Van Buskirk, Clauset and Larremore's aggregate of public name-gender sources
from many countries). Run once, by hand; the product reads only the TSV.

    pip download --no-deps nomquamgender==0.1.4 && unzip -o nomquamgender-0.1.4-*.whl
    python scripts/build_given_names.py nomquamgender/name_data.json

Kept: names (accents folded, letters only, two letters or more) given by at least 3 sources
with at least 20 people. Columns: the folded name and the share of women (two decimals).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spia_core.text.normalise import fold

MIN_SOURCES = 3
MIN_PEOPLE = 20
OUT = Path(__file__).resolve().parents[1] / "data" / "lexicons" / "given_names_sex.tsv"


def main(path: str) -> None:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    best: dict[str, tuple[float, int]] = {}
    for raw, row in data.items():
        sources, people, p_female = row[0], row[1], row[2]
        name = fold(raw)
        if not (name.isascii() and name.isalpha() and len(name) >= 2):
            continue
        if sources < MIN_SOURCES or people < MIN_PEOPLE:
            continue
        if name not in best or best[name][1] < people:
            best[name] = (p_female, people)
    lines = ["# name\tp_female (nomquamgender 0.1.4, MIT; see SOURCES.md)"]
    lines += [f"{name}\t{best[name][0]:.2f}" for name in sorted(best)]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(best)} names -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
