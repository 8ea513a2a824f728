"""One document's audit in the dashboard: run, fix and re-audit, adjudicate, export."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import spia_core.service.engines as engines
from spia_core import render, report_export
from spia_core.model import AuditReport, Document
from spia_core.service.engines import ComponentCache, Endpoint
from spia_core.service.overrides import Overrides, overrides_key, with_overrides
from spia_core.verdict import Target

#: ``on_stage(stage, fraction, *counts)``: the pipeline's progress callback.
StageCallback = Callable[..., None]
REDACTED_ONLY = "redacted_only"


@dataclass
class Version:
    """One audited version of the document (v1, then each fix), with its overrides."""

    label: str
    report: AuditReport
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    store_id: int | None = None
    store_error: str = ""
    overrides: Overrides = field(default_factory=dict)
    _effective: tuple[str, AuditReport] | None = field(default=None, repr=False)

    @property
    def view_key(self) -> str:
        """Cache key of the version as shown: its id and its overrides."""
        return f"{self.id}|{overrides_key(self.overrides)}"

    @property
    def effective(self) -> AuditReport:
        """The report with the overrides applied and every metric recomputed."""
        if not self.overrides:
            return self.report
        key = self.view_key
        if self._effective is None or self._effective[0] != key:
            self._effective = (key, with_overrides(self.report, self.overrides))
        return self._effective[1]


@dataclass
class ExportFiles:
    """The downloads of one version."""

    json: str
    csv: str
    html: str
    redacted_text: str


@dataclass
class AuditSession:
    """The audits of one browser session: the document, its choices and its versions.

    ``store`` (a :class:`spia_core.store.ResultStore` or None) receives every version.
    """

    components: ComponentCache
    store: Any = None
    document: Document | None = None
    choices: dict[str, Any] = field(default_factory=dict)
    versions: list[Version] = field(default_factory=list)
    cancel_event: threading.Event | None = None

    # ------------------------------------------------------------------ running

    def run(
        self,
        document: Document | None,
        choices: dict[str, Any],
        *,
        provided_text: str | None = None,
        data_id: str | None = None,
        endpoint: Endpoint | None = None,
        api_keys: dict[str, str] | None = None,
        on_stage: StageCallback | None = None,
    ) -> AuditReport:
        """Audit ``document`` with the page's ``choices`` (``provided_text``: the user's own
        redaction). Without a document, ``provided_text`` is audited alone (redacted-only:
        no ground truth, no CPR; ``data_id`` names it). Raises ``pipeline.AuditCancelled``
        when :meth:`cancel` was called, and ``textio.InputError`` on unusable text. Adds no
        version."""
        if document is None and not provided_text:
            raise ValueError("nothing to audit: give the original text, the redacted one, or both")
        config = engines.audit_config(choices, provided_text, endpoint)
        parts = self.components.get(config, api_keys or {})
        self.cancel_event = threading.Event()
        kwargs = {"on_stage": on_stage, "cancel": self.cancel_event, "components": parts}
        if document is None:
            return engines.pipeline.audit_redacted(provided_text, config, data_id=data_id, **kwargs)
        return engines.pipeline.audit(document, config, **kwargs)

    def cancel(self) -> bool:
        """Stop the running audit between two stages; False when none runs."""
        if self.cancel_event is None:
            return False
        self.cancel_event.set()
        return True

    def start(
        self, document: Document | None, choices: dict[str, Any], report: AuditReport
    ) -> Version:
        """A new audit replaces every version: ``report`` becomes v1."""
        self.document, self.choices, self.versions = document, dict(choices), []
        how = "redacted only" if report.mode == REDACTED_ONLY else choices.get("anonymizer", "?")
        return self.add_version(f"v1 ({how})", report)

    def add_version(self, label: str, report: AuditReport) -> Version:
        """Append a version, saved to the results store when there is one (a failure to save
        is kept on the version, the audit is still shown)."""
        version = Version(label, report)
        if self.store is not None:
            try:
                version.store_id = self.store.save_audit(report)
            except Exception as exc:  # reported by the page
                version.store_error = f"{type(exc).__name__}: {exc}"
        self.versions.append(version)
        return version

    # ------------------------------------------------------------------ fix and re-audit

    def fix_choices(self, report: AuditReport) -> dict[str, Any]:
        """The choices of a re-audit: the same stages, the fixed text as the user's redaction."""
        base = dict(self.choices or report.config)
        base.update(anonymizer="provided", anonymizer_backbone=None)
        base.pop("provided_text", None)
        return base

    def fix_document(self, report: AuditReport) -> Document | None:
        """The document a fix is audited against (its GT when it came from a dataset); None
        for a redacted-only audit (the fix is audited alone too)."""
        if report.mode == REDACTED_ONLY:
            return None
        if self.document is not None and self.document.data_id == report.data_id:
            return self.document
        return Document(report.data_id, report.original_text, report.gt_subjects)

    @staticmethod
    def redact(report: AuditReport, spans: list[tuple[int, int]]) -> str:
        """The anonymized text with ``spans`` replaced by the redaction token."""
        return render.redact_spans(report.anonymized_text, spans)

    # ------------------------------------------------------------------ versions

    def version(self, vid: str) -> Version:
        return next(v for v in self.versions if v.id == vid)

    @property
    def latest(self) -> Version | None:
        return self.versions[-1] if self.versions else None

    def adjudicate(self, vid: str, overrides: Overrides) -> Version:
        """Replace the overrides of version ``vid`` (metrics recompute on next read)."""
        version = self.version(vid)
        version.overrides = dict(overrides)
        return version

    # ------------------------------------------------------------------ export

    @staticmethod
    def export_file(
        version: Version,
        kind: str,
        target: Target,
        *,
        redact_values: bool = True,
        include_original: bool = False,
    ) -> str:
        """One export of a version (``json``, ``csv``, ``html`` or ``text``), overrides included.

        Reports are personal data: by default every inferred or ground-truth value is masked
        to its tag and the original text is left out (``report_export`` states it in each).
        """
        report = version.effective
        if kind == "json":
            return report_export.report_json_text(
                report,
                target=target,
                include_original=include_original,
                redact_values=redact_values,
            )
        if kind == "csv":  # without an original nothing is scored: the inferences instead
            if report.mode == "redacted_only":
                return report_export.inferences_csv(report, redact_values=redact_values)
            return report_export.scores_csv(report, redact_values=redact_values)
        if kind == "html":
            return report_export.report_html(
                report, target, include_original=include_original, redact_values=redact_values
            )
        if kind == "text":
            return report.anonymized_text
        raise ValueError(f"unknown export {kind!r}: json, csv, html or text")

    @classmethod
    def export(cls, version: Version, target: Target, **options: bool) -> ExportFiles:
        """Every export of a version (see :meth:`export_file` for ``options``)."""
        return ExportFiles(
            *(
                cls.export_file(version, k, target, **options)
                for k in ("json", "csv", "html", "text")
            )
        )
