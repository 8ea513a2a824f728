"""The Audit page's configuration and the run itself, with a stage-by-stage status."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import streamlit as st

from pages.components.keys import api_keys, endpoint
from pages.components.resources import audit_session, warm_nlp
from pages.components.stage_config import destinations_ok, llm_scoring_widgets, stage_widgets
from pages.components.text import md
from spia_core.model import AuditReport, Document
from spia_core.service import engines
from spia_core.taxonomy import DEFAULT_MIN_CERTAINTY
from spia_core.verdict import CANNOT_JUDGE, Target, Verdict, assess

K_TARGET = "target"


def target() -> Target:
    """The release target chosen on the page (default CPR >= 0.90, every subject >= 0.80)."""
    return st.session_state.get(K_TARGET, Target())


def current_verdict(report: AuditReport) -> Verdict:
    """:func:`spia_core.verdict.assess` against the page's target."""
    return assess(report, target())


def configuration(
    has_redacted: bool, has_gt: bool = True, *, redacted_only: bool = False
) -> dict[str, Any] | None:
    """The stage, scoring and target choices; None until the choice is complete (a cloud
    backbone also needs the consent tick). Redacted-only: no scoring against a ground truth,
    the certainty threshold is what counts as exposure."""
    stages = stage_widgets(provided=has_redacted, alone=redacted_only)
    if stages is None:
        return None
    if redacted_only:
        min_cert = st.slider(
            "Min certainty counted as exposure",
            1,
            5,
            DEFAULT_MIN_CERTAINTY,
            key="min_cert",
            help="An inferred value counts toward a person's exposure from this certainty.",
        )
        cfg = {**stages, "min_certainty": min_cert}
        return cfg if destinations_ok(cfg, has_gt=True) else None
    c = st.columns(4)
    scoring = c[0].selectbox(
        "Scoring",
        ["default", "reference"],
        key="scoring",
        help="default: the SPIA rules with documented fixes; reference: the paper's scorer "
        "exactly as released.",
    )
    min_cert = c[1].slider("Min GT certainty", 1, 5, DEFAULT_MIN_CERTAINTY, key="min_cert")
    min_cpr = c[2].number_input("Target CPR", 0.0, 1.0, 0.90, 0.05, key="t_cpr")
    min_sub = c[3].number_input("Target per subject", 0.0, 1.0, 0.80, 0.05, key="t_sub")
    st.session_state[K_TARGET] = Target(min_cpr, min_sub)
    cfg = {**stages, "scoring_mode": scoring, "min_certainty": min_cert, **llm_scoring_widgets()}
    return cfg if destinations_ok(cfg, has_gt) else None


def _counts(args: tuple, kwargs: dict) -> str:
    """The counts a stage reports beside its fraction (spia_core.progress: a dict with done,
    total and unit), as text: ', people 120 of 450'."""
    counts = args[0] if args and isinstance(args[0], dict) else kwargs
    if {"done", "total"} <= set(counts):
        unit = f"{counts.get('unit')} " if counts.get("unit") else ""
        return f", {unit}{counts['done']} of {counts['total']}"
    return ""


def _finish(status: Any, report: AuditReport, name: str, seconds: float) -> None:
    """Close the status: "done" only when the audit can be judged; otherwise the reason."""
    v = current_verdict(report)
    if v.status == CANNOT_JUDGE:
        reason = v.reasons[0] if v.reasons else v.headline
        status.update(
            label=f"Audit of {name} cannot judge ({seconds:.2f}s): {md(reason)[:200]}",
            state="error",
            expanded=False,
        )
        return
    status.update(label=f"Audit of {name} done in {seconds:.2f}s", state="complete", expanded=False)


#: Seconds between two refreshes of the progress bar while an audit runs.
REFRESH_S = 0.5


@contextlib.contextmanager
def _ticking(refresh: Callable[[], None]) -> Iterator[None]:
    """Within the block, a helper thread (with this page's script context) calls ``refresh()``
    every ``REFRESH_S``, so that the bar and its seconds move during a long parse, when no
    stage reports. The audit itself stays in the script thread: a rerun or the Cancel button
    stops it at its next progress call, as before (spaCy's BLAS in a thread of our own
    aborted the process at exit)."""
    from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(REFRESH_S):
            try:
                refresh()
            except BaseException:  # the page is rerunning or gone: stop ticking
                return

    thread = threading.Thread(target=tick, name="spia-progress", daemon=True)
    add_script_run_ctx(thread, get_script_run_ctx(suppress_warning=True))
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def run_audit(
    doc: Document | None,
    redacted: str | None,
    cfg: dict[str, Any],
    label: str,
    data_id: str = "redacted",
) -> AuditReport | None:
    """Run one audit with a stage-by-stage status; None when it failed or was cancelled.
    Without ``doc`` the redacted text is audited alone."""
    warm_nlp()
    session = audit_session()
    t0 = time.perf_counter()
    name = md(doc.data_id if doc is not None else data_id)
    with st.status(f"Auditing {name} ({label})...", expanded=True) as status:
        bar = st.progress(0.0, text="Starting...")
        log: list[str] = []
        now: dict[str, Any] = {"fraction": 0.0, "text": "Stage: starting"}
        lock = threading.Lock()

        def show() -> None:
            with lock:
                seconds = time.perf_counter() - t0
                bar.progress(now["fraction"], text=f"{now['text']} ({seconds:.1f}s)")

        def on_stage(stage: str, fraction: float = 0.0, *args: Any, **kwargs: Any) -> None:
            # the bar moves on every call (and between calls: _ticking); the log (written
            # once, at the end) has one line per stage
            at = time.perf_counter() - t0
            if not log or not log[-1].endswith(f"  {stage}"):
                log.append(f"{at:5.2f}s  {stage}")
            now.update(fraction=min(max(float(fraction), 0.0), 1.0))
            now.update(text=f"Stage: {stage}{_counts(args, kwargs)}")
            show()

        try:
            with _ticking(show):
                report = session.run(
                    doc,
                    cfg,
                    provided_text=redacted,
                    data_id=data_id,
                    endpoint=endpoint(),
                    api_keys=api_keys(),
                    on_stage=on_stage,
                )
        except engines.pipeline.AuditCancelled as exc:
            status.update(label=f"Cancelled: {md(exc)}", state="error")
            return None
        except Exception as exc:  # shown to the user, never swallowed
            status.update(label=f"Audit failed: {md(exc)}", state="error")
            st.exception(exc)
            return None
        status.code("\n".join(log), language=None)
        _finish(status, report, name, time.perf_counter() - t0)
    return report
