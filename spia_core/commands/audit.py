"""``python -m spia_core audit FILE``: audit one document, write report.json and report.html.

* ``audit REDACTED --out DIR``: redacted-only audit (no original): who the adversary singles
  out, what it infers, which placeholders it sees through, the exposure score; no CPR.
* ``audit REDACTED --original ORIGINAL --out DIR``: the redaction is scored against the
  original (CPR, IPR, 1-AAC, span metrics).
* ``audit ORIGINAL --anonymizer NAME --out DIR``: anonymize the text, then score it.

Files: .txt, .md, .docx, .pdf. Reports are redacted (values masked to their tag, no text)
unless ``--with-values`` / ``--include-original``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "audit",
        help="audit one document (redacted alone, or against its original); write a report",
        description=(
            "Audit FILE and write OUT/report.json (schema: docs/report.schema.json) and "
            "OUT/report.html. Without --original FILE is read as a redacted text and audited "
            "alone (exposure, no CPR); with --original it is scored against the original; "
            "with --anonymizer FILE is an original that the anonymizer redacts first. Exit "
            "code 0 when the report is written, whatever the verdict (to gate releases on the "
            "verdict use check); 2 for bad input or configuration."
        ),
    )
    p.add_argument("file", type=Path, help="the document (.txt, .md, .docx, .pdf)")
    p.add_argument("--original", type=Path, help="the original of FILE (enables CPR)")
    p.add_argument(
        "--anonymizer",
        help="anonymize FILE with this anonymizer first (FILE is then the original)",
    )
    p.add_argument("--backbone", help="LLM backbone of an LLM anonymizer")
    p.add_argument("--adversary", default="local", help="adversary: local (default) or llm")
    p.add_argument("--adversary-backbone", help="LLM backbone of the adversary")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint of a local LLM server")
    p.add_argument(
        "--llm-timeout",
        type=float,
        help="seconds before an LLM call times out (default 120; a local server is not retried)",
    )
    p.add_argument(
        "--min-certainty",
        type=int,
        default=DEFAULT_MIN_CERTAINTY,
        help=f"certainty an inference needs to count (default {DEFAULT_MIN_CERTAINTY})",
    )
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument(
        "--with-values",
        action="store_true",
        help="write inferred values and the analysed text (default: masked to their tag)",
    )
    p.add_argument(
        "--include-original",
        action="store_true",
        help="write the original text into the report (default: never)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(func=run)


def read_document(path: Path) -> Any:
    """Text and notes of a .txt/.md/.docx/.pdf file (a :class:`~spia_core.textio.FileText`;
    raises InputError with a clear message)."""
    from spia_core.textio import InputError, read_file

    if path.is_dir():
        raise InputError(
            f"{path} is a folder; audit reads one document. To audit every document in it "
            f"run: python -m spia_core check {path} --out DIR"
        )
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.suffix.lower() == ".jsonl":
        raise InputError(
            f"{path.name}: audit reads one document; for a JSONL file of {{id, text}} records "
            f"run: python -m spia_core check {path} --out DIR"
        )
    return read_file(path.read_bytes(), path.name)


#: Seconds without a progress line after which the CLI says the stage is still running.
HEARTBEAT_S = 10.0


class ProgressLines:
    """Progress on stderr: a line per stage, per step inside it (parse, then people) and per
    tenth of the bar, each with the seconds elapsed; while nothing moves for ``heartbeat``
    seconds (a long parse of a long text), a line saying the stage is still running."""

    def __init__(self, heartbeat: float = HEARTBEAT_S, stream: Any = None) -> None:
        import threading
        import time

        self._clock = time.monotonic
        self._t0 = self._shown = self._clock()
        self._stream = stream
        self._lock = threading.Lock()
        self._last: tuple[Any, ...] = ()
        self._line = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, args=(heartbeat,), daemon=True)
        self._thread.start()

    def __call__(self, stage: str, fraction: float, counts: dict[str, Any] | None = None) -> None:
        unit = counts["unit"] if counts else ""
        key = (stage, unit, int(fraction * 10))
        with self._lock:
            if key == self._last:
                return  # at most one line per stage, step and tenth of the bar
            self._last = key
            extra = ""
            if counts:
                total = counts["total"]
                extra = f" ({unit})" if total <= 1 else f" ({unit} {counts['done']} of {total})"
            self._line = f"[{fraction:4.0%}] {stage}{extra}"
            self._print("")
        if stage == "done":
            self.close()

    def _print(self, tail: str) -> None:
        self._shown = now = self._clock()
        stream = self._stream or sys.stderr
        print(f"{self._line} {now - self._t0:.0f} s{tail}", file=stream, flush=True)

    def _beat(self, every: float) -> None:
        while not self._stop.wait(min(every, 1.0)):
            with self._lock:
                if self._line and self._clock() - self._shown >= every:
                    self._print(", still running")

    def close(self) -> None:
        self._stop.set()


def _progress(quiet: bool) -> ProgressLines | None:
    return None if quiet else ProgressLines()


def build_report(args: argparse.Namespace, notes: list[str] | None = None) -> Any:
    """Run the audit the arguments ask for and return its report; what the user should know
    of how FILE was read is added to ``notes``."""
    from spia_core.pipeline import AuditConfig

    if args.original is not None and args.anonymizer:
        raise ValueError("give either --original (FILE is its redaction) or --anonymizer")
    read = read_document(args.file)
    text = read.text
    if notes is not None:
        notes.extend(read.notes)
    config = AuditConfig(
        adversary=args.adversary,
        adversary_backbone=args.adversary_backbone,
        base_url=args.base_url,
        min_certainty=args.min_certainty,
    )
    progress = _progress(args.quiet)
    try:
        return _run_audit(args, text, config, progress)
    finally:
        if progress is not None:
            progress.close()


def _run_audit(args: argparse.Namespace, text: str, config: Any, progress: Any) -> Any:
    from spia_core.llm.connection import CallPolicy
    from spia_core.model import Document
    from spia_core.pipeline import audit, audit_redacted, build_components

    policy = CallPolicy(timeout=getattr(args, "llm_timeout", None))
    if args.original is None and not args.anonymizer:
        parts = build_components(config, policy=policy)
        return audit_redacted(
            text, config, on_stage=progress, components=parts, data_id=args.file.stem
        )
    if args.original is not None:
        original = read_document(args.original).text
        config.anonymizer = "provided"
        config.provided_text = text
    else:
        original = text
        config.anonymizer = args.anonymizer
        config.anonymizer_backbone = args.backbone
    doc = Document(data_id=args.file.stem, text=original)
    parts = build_components(config, policy=policy)
    return audit(doc, config, on_stage=progress, components=parts)


def run(args: argparse.Namespace) -> int:
    from spia_core.commands.preflight import check_out_dir
    from spia_core.export_safety import masker_for
    from spia_core.model import NoticeKind, Severity
    from spia_core.report_export import write_report
    from spia_core.textio import InputError
    from spia_core.verdict import assess

    problem = check_out_dir(args.out)  # before the audit: its work is not lost at the end
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    notes: list[str] = []
    try:
        report = build_report(args, notes)
    except (InputError, ValueError, KeyError, RuntimeError) as exc:  # RuntimeError: LLMError
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f"error: missing dependency: {exc}", file=sys.stderr)
        return 2
    paths = write_report(
        report,
        args.out,
        include_original=args.include_original,
        redact_values=not args.with_values,
    )
    verdict = assess(report)
    shown = masker_for(report).mask if not args.with_values else str  # as the report files
    print(f"verdict: {shown(verdict.headline)}")
    for reason in verdict.reasons[:5]:
        print(f"  - {shown(reason)}")
    if len(verdict.reasons) > 5:
        print(f"  ... and {len(verdict.reasons) - 5} more in {paths['html'].name}")
    for notice in report.notices:  # the lower bound is the verdict's own caveat
        if notice.severity == Severity.WARNING and notice.kind != NoticeKind.LOWER_BOUND:
            print(f"note: {notice.message}")
    for note in notes:
        print(f"note: {note}")
    print(f"wrote {paths['json']} and {paths['html']}")
    return 0
