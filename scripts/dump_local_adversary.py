"""Dump every output of the local adversary, to check that a refactoring changes nothing.

Runs the offline adversary over the bundled datasets (TAB-144, PANORAMA-151) and the written
sets (tests/fixtures/written/documents.jsonl and blind_pii.jsonl; the held-out set is left
out), each text as written and as the ner-mask anonymizer masks it, and writes one JSON line
per text: subjects (description, PII with certainty, evidence and explanation), the subject
decisions and the document country. Timings are left out, so two runs of the same code give
the same bytes; the sha256 of the file is printed.

    python scripts/dump_local_adversary.py before.jsonl            # on the old code
    python scripts/dump_local_adversary.py after.jsonl             # on the new code
    cmp before.jsonl after.jsonl

``--texts FILE`` caches the texts (masking is the slow part) and reuses them when present.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

WRITTEN = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "written"


def collect_texts() -> list[tuple[str, str]]:
    """(key, text) of every bundled and written text, then of each after ner-mask."""
    from spia_core.anonymizers.registry import create_anonymizer
    from spia_core.datasets import load_bundled, read_spia_jsonl

    texts: list[tuple[str, str]] = []
    for name in ("TAB-144", "PANORAMA-151"):
        texts += [(f"{name}/{d.data_id}", d.text) for d in load_bundled(name)]
    for line in (WRITTEN / "documents.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        texts.append((f"written/{record['id']}", record["text"]))
    texts += [(f"blind/{d.data_id}", d.text) for d in read_spia_jsonl(WRITTEN / "blind_pii.jsonl")]
    masker = create_anonymizer("ner-mask")
    return texts + [(f"{key}#mask", masker.anonymize(text).text) for key, text in texts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="JSONL file to write")
    parser.add_argument("--texts", type=Path, help="cache of the texts (read when present)")
    args = parser.parse_args()
    if args.texts is not None and args.texts.is_file():
        texts = [tuple(t) for t in json.loads(args.texts.read_text(encoding="utf-8"))]
    else:
        texts = collect_texts()
        if args.texts is not None:
            args.texts.write_text(json.dumps(texts), encoding="utf-8")

    from spia_core.adversary.local.adversary import LocalAdversary
    from spia_core.model import to_dict

    adversary = LocalAdversary()
    with args.out.open("w", encoding="utf-8") as fh:
        for key, text in texts:
            result = adversary.infer(text)
            trace = {k: v for k, v in result.trace.items() if k != "timings_s"}
            record = {
                "key": key,
                "subjects": [to_dict(s) for s in result.subjects],
                "trace": trace,
                "warnings": result.warnings,
            }
            fh.write(json.dumps(record, ensure_ascii=False, sort_keys=True, default=repr) + "\n")
    print(args.out, hashlib.sha256(args.out.read_bytes()).hexdigest())


if __name__ == "__main__":
    main()
