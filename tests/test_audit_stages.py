"""The staged audit: plans of registered stages over one typed state, notices, progress."""

from __future__ import annotations

import pytest

from spia_core.anonymizers.base import AnonymizedText
from spia_core.audit.runner import check_plan, run_stages
from spia_core.audit.stages import AUDIT_STAGES, STANDARD_PLAN, bind_components
from spia_core.audit.state import AuditState
from spia_core.evaluation.judge import JUDGES, RulesOnlyJudge
from spia_core.evaluation.matching import MATCHERS
from spia_core.model import NoticeKind, Severity
from spia_core.pipeline import AuditConfig, audit, build_components, build_judge

TEXT = (
    "Dr. Lena Hartmann, a 52-year-old surgeon from Graz, wrote to her brother Felix about "
    "the clinic she runs with her husband.\n"
)


def test_the_standard_plan_reads_only_what_earlier_stages_write() -> None:
    check_plan(STANDARD_PLAN)
    with pytest.raises(ValueError, match="reads"):
        check_plan(["match", "validate"])  # match reads gt_subjects before anyone writes it


def test_progress_reports_stages_and_counts_inside_a_stage() -> None:
    simple: list[tuple[str, float]] = []
    audit(TEXT, AuditConfig(anonymizer="ner-mask"), on_stage=lambda s, f: simple.append((s, f)))
    assert [s for s, _ in simple] == [*STANDARD_PLAN, "done"]  # two-argument callbacks: stages

    counted: list[tuple[str, float, dict | None]] = []

    def on_stage(stage: str, fraction: float, counts: dict | None = None) -> None:
        counted.append((stage, fraction, counts))

    audit(TEXT, AuditConfig(anonymizer="ner-mask"), on_stage=on_stage)
    fractions = [f for _, f, _ in counted]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    people = [c for s, _, c in counted if s == "infer" and c and c["unit"] == "people"]
    assert people and people[-1]["done"] == people[-1]["total"] > 0
    infer = STANDARD_PLAN.index("infer") / len(STANDARD_PLAN)
    assert all(infer <= f < infer + 1 / len(STANDARD_PLAN) for s, f, _ in counted if s == "infer")


def test_every_caveat_is_a_typed_notice_and_warnings_are_derived() -> None:
    report = audit(TEXT, AuditConfig(anonymizer="ner-mask"))
    kinds = {n.kind for n in report.notices}
    assert {NoticeKind.LOWER_BOUND, NoticeKind.NO_GROUND_TRUTH} <= kinds
    assert all(n.data_id == report.data_id for n in report.notices)
    assert report.warnings == list(dict.fromkeys(n.message for n in report.notices))
    assert report.failures == [] and not any(n.blocks_verdict for n in report.notices)


def test_a_failed_stage_is_an_error_notice_and_a_failure() -> None:
    config = AuditConfig(anonymizer="none")
    parts = build_components(config)

    class Broken:
        name = "broken"

        def match(self, gt, pred, **_):
            raise RuntimeError("matcher exploded")

    parts.matcher = Broken()
    report = audit(TEXT, config, components=parts)
    (notice,) = [n for n in report.notices if n.kind == NoticeKind.STAGE_FAILED]
    assert notice.stage == "match" and notice.severity == Severity.ERROR
    assert notice.message == "RuntimeError: matcher exploded"
    assert [(f.stage, f.reason) for f in report.failures] == [("match", notice.message)]
    assert report.metrics.cpr is None  # not scored, never "protected"


def test_a_failed_llm_utility_is_a_warning_the_privacy_figures_stand() -> None:
    config = AuditConfig(anonymizer="none")
    parts = build_components(config)

    class BrokenUtility:
        def assess(self, original, anonymized):
            raise RuntimeError("utility model down")

    parts.utility = BrokenUtility()
    report = audit(TEXT, config, components=parts)
    (notice,) = [n for n in report.notices if n.stage == "utility"]
    assert notice.kind == NoticeKind.STAGE_FAILED and notice.severity == Severity.WARNING
    assert report.utility is not None and report.utility.rouge_l == 1.0
    assert report.metrics.cpr is not None
    assert [f.stage for f in report.failures] == ["utility"]


def test_stages_skip_cleanly_without_an_original_text() -> None:
    config = AuditConfig(anonymizer="provided")
    state = AuditState(config, components=build_components(config))
    bind_components(state)
    state.anonymized = AnonymizedText("[PERSON], a surgeon from [LOCATION], wrote to us.\n")
    plan = [name for name in STANDARD_PLAN if name not in ("validate", "anonymize")]
    run_stages(state, plan)
    assert state.notices == []
    assert state.gt_source == "none" and state.gt_subjects is None
    assert state.inferred is not None and state.inferred.subjects
    assert state.assignment is None and state.metrics is None
    assert state.span_metrics is None and state.utility is None


def test_a_registered_stage_can_join_a_plan() -> None:
    @AUDIT_STAGES.register("test_word_count")
    class WordCount:
        name = "test_word_count"
        reads = ("document",)
        writes = ()
        records_failures = True
        failure_severity = Severity.WARNING

        def run(self, state: AuditState) -> None:
            state.note(NoticeKind.CAVEAT, self.name, f"{len(state.original_text.split())} words")

    config = AuditConfig(anonymizer="none")
    state = AuditState(config, source=TEXT)
    run_stages(state, ["validate", "test_word_count"])
    assert [n.message for n in state.notices] == ["21 words"]
    assert set(state.timings) == {"validate", "test_word_count"}


def test_matchers_and_judges_are_registered_by_name() -> None:
    assert {"local", "llm"} <= set(MATCHERS.names())
    assert {"rules", "llm"} <= set(JUDGES.names())
    assert isinstance(build_judge(AuditConfig(judge="rules")), RulesOnlyJudge)
    with pytest.raises(KeyError, match="unknown judge 'oracle'; available: llm, rules"):
        build_judge(AuditConfig(judge="oracle"))
