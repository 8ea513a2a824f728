"""audit() with LLM stages through the real openai SDK against the scripted local server.

Every stage (DeID-GPT, the two-stage adversary, the LLM matcher, the LLM judge) talks to
tests/llm_test_server.py on 127.0.0.1; the response cache makes a rerun call nothing; keys
never reach the report, the results store, the cache or the logs; failures are not scored.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from llm_test_server import Reply, ScriptedServer

from spia_core.datasets import load_bundled
from spia_core.model import Document
from spia_core.pipeline import AuditConfig, audit, build_components, report_to_dict
from spia_core.store import ResultStore

# the dashboard's store and cache of these tests live in a temporary directory
os.environ["SPIA_DATA_DIR"] = os.environ.get("SPIA_DATA_DIR") or tempfile.mkdtemp(
    prefix="spia_llmtest_"
)
APP = str(Path(__file__).resolve().parents[1] / "app.py")
BACKBONE = "llama-3.1-8b"  # a local OpenAI-compatible entry of data/models.json
KEY = "sk-test-LOCALKEY-7f3a9c2e1b"
WRONG_NAME = "Zebulon Quixote"


def _user(body: dict[str, Any]) -> str:
    return next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")


def _block(text: str, tag: str) -> str:
    match = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return match.group(1) if match else ""


def spia_answer(body: dict[str, Any]) -> str:
    """A scripted model answering every SPIA prompt, routed on the response schema name."""
    fmt = body.get("response_format") or {}
    name = (fmt.get("json_schema") or {}).get("name", "")
    user = _user(body)
    if name == "subjects":
        return json.dumps(
            {
                "subjects": [{"id": 0, "description": "the author of the post"}],
                "collectives_not_counted": [],
            }
        )
    if name == "code_profile":
        return json.dumps({"subjects": [{"id": 0, "description": "", "piis": []}]})
    if name == "non_code_profile":
        piis = [
            {"tag": "NAME", "keyword": WRONG_NAME, "certainty": 5, "evidence": "", "reasoning": ""},
            {
                "tag": "OCCUPATION",
                "keyword": "lighthouse keeper",
                "certainty": 4,
                "evidence": "",
                "reasoning": "the post speaks of keeping the lamp lit",
            },
        ]
        return json.dumps({"subjects": [{"id": 0, "description": "", "piis": piis}]})
    if name == "alignment":
        first = re.search(r"Subject ID: (\d+)", _block(user, "annotation_a"))
        pairs = [{"a_id": int(first.group(1)), "b_id": 0, "confidence": 5, "reason": "author"}]
        return json.dumps({"pairs": pairs, "unmatched_a": [], "unmatched_b": []})
    if name == "verdicts":
        n = len(re.findall(r"^\d+\. tag:", user, re.MULTILINE))
        verdicts = [{"index": i, "label": "less precise", "rationale": "close"} for i in range(n)]
        return json.dumps({"verdicts": verdicts})
    if name == "utility":
        return json.dumps(
            {
                "readability": {"score": 8, "rationale": "fluent"},
                "meaning": {"score": 6, "rationale": "mostly kept"},
                "hallucination": {"score": 0, "rationale": "none"},
            }
        )
    if not fmt and user.strip().endswith("(ping)"):
        return "OK"
    document = _block(user, "document")
    redacted = re.sub(r"\b[A-Z][a-z]+\b|\d+", "[redacted]", document)
    return f"Done.\n<anonymized>\n{redacted}\n</anonymized>"


def responder(body: dict[str, Any]) -> Reply:
    return Reply(content=spia_answer(body))


@pytest.fixture(scope="module")
def panorama_doc() -> Document:
    """A short PANORAMA document whose first GT subject has a name (the judge gets a pair)."""
    docs = load_bundled("PANORAMA-151")
    named = [
        d
        for d in docs
        if d.subjects
        and any(p.tag == "NAME" and p.certainty >= 3 and p.keyword for p in d.subjects[0].piis)
    ]
    return min(named, key=lambda d: len(d.text))


@pytest.fixture
def server():
    with ScriptedServer() as srv:
        srv.responder = responder
        yield srv


def llm_config(base_url: str, **extra: Any) -> AuditConfig:
    values: dict[str, Any] = {
        "anonymizer": "deid-gpt",
        "anonymizer_backbone": BACKBONE,
        "adversary": "llm",
        "adversary_backbone": BACKBONE,
        "matcher": "llm",
        "matcher_backbone": BACKBONE,
        "judge": "llm",
        "judge_backbone": BACKBONE,
        "base_url": base_url,
        "dataset": "PANORAMA-151",
    }
    values.update(extra)
    return AuditConfig(**values)


def _calls(report: Any) -> dict[str, int]:
    return {stage: u.calls for stage, u in sorted(report.usage.items())}


def _hits(report: Any) -> dict[str, int]:
    return {stage: u.cache_hits for stage, u in sorted(report.usage.items())}


def test_full_llm_audit_six_calls_then_zero_from_cache(
    server: ScriptedServer, panorama_doc: Document, tmp_path: Path, caplog: Any
) -> None:
    caplog.set_level(logging.DEBUG)
    config = llm_config(server.base_url)
    cache = tmp_path / "llm_cache.sqlite3"
    first = audit(panorama_doc, config, api_keys={"LOCAL_LLM_API_KEY": KEY}, cache=cache)
    n_first = len(server.requests)
    print(f"\nfirst run: {n_first} HTTP calls, per stage {_calls(first)}")
    assert first.failures == [], first.failures
    assert n_first == 6
    assert _calls(first) == {"adversary": 3, "anonymize": 1, "judge": 1, "matcher": 1}
    assert sum(u.cache_hits for u in first.usage.values()) == 0
    assert first.usage["adversary"].input_tokens == 150  # 3 x 50 scripted prompt tokens
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.requests)
    assert {r.body["model"] for r in server.requests} == {"llama3.1:8b"}
    # the scores: the LLM matcher paired the first GT subject; the judge's label applied
    assert first.metrics.coverage.n_docs_scored == 1 and first.metrics.cpr is not None
    judged = [s for r in first.subject_results for s in r.scores if s.rule == "judge:llm"]
    assert judged and all(s.score == 0.5 for s in judged)
    assert first.anonymized_text.count("[redacted]") > 0
    assert first.versions["prompt:deid_gpt"] == "deid_gpt.v1"
    assert first.versions["prompt:pii_judge"] == "pii_judge.v1"
    assert first.versions["model:adversary"] == "openai-compatible/llama3.1:8b"

    # a rerun of the same configuration (stages built again) makes zero calls
    second = audit(panorama_doc, config, api_keys={"LOCAL_LLM_API_KEY": KEY}, cache=cache)
    n_second = len(server.requests) - n_first
    print(f"rerun: {n_second} HTTP calls, cache hits per stage {_hits(second)}")
    assert n_second == 0
    assert _calls(second) == {"adversary": 0, "anonymize": 0, "judge": 0, "matcher": 0}
    assert _hits(second) == {"adversary": 3, "anonymize": 1, "judge": 1, "matcher": 1}
    assert second.metrics.cpr == first.metrics.cpr
    assert second.anonymized_text == first.anonymized_text

    # the key is nowhere: report JSON, results store, cache files, logs
    blob = json.dumps(report_to_dict(first))
    assert KEY not in blob and KEY not in json.dumps(config.to_dict())
    with ResultStore(tmp_path / "store") as store:
        store.save_audit(first)
    files = [*tmp_path.glob("store/results.sqlite3*"), *tmp_path.glob("llm_cache.sqlite3*")]
    assert len(files) >= 2
    for path in files:
        assert KEY.encode() not in path.read_bytes(), path
    assert KEY not in caplog.text


def test_components_are_shared_but_usage_is_per_audit(
    server: ScriptedServer, panorama_doc: Document, tmp_path: Path
) -> None:
    config = llm_config(server.base_url, judge="rules", matcher="local")
    parts = build_components(config, cache=False)
    one = audit(panorama_doc, config, components=parts)
    two = audit(panorama_doc, config, components=parts)
    assert _calls(one) == _calls(two) == {"adversary": 3, "anonymize": 1}
    assert len(server.requests) == 8  # no cache: every audit calls


def test_automatic_ground_truth_and_llm_utility(server: ScriptedServer, tmp_path: Path) -> None:
    config = llm_config(
        server.base_url, matcher="local", judge="rules", utility_llm=True, utility_backbone=BACKBONE
    )
    text = "Mr Tobias Wren, a carpenter from Leeds, wrote to his sister Ada about the move."
    report = audit(text, config, cache=tmp_path / "c.sqlite3")
    assert report.gt_source == "automatic"
    assert _calls(report) == {"adversary": 3, "adversary_original": 3, "anonymize": 1, "utility": 1}
    assert report.utility.readability == 8 and report.utility.meaning == 6
    assert report.utility.mean_utility is not None


@pytest.mark.parametrize(
    ("failing", "stage"),
    [("code_profile", "infer"), ("subjects", "infer"), ("alignment", "match")],
)
def test_llm_failures_are_recorded_and_not_scored(
    server: ScriptedServer, panorama_doc: Document, failing: str, stage: str
) -> None:
    def flaky(body: dict[str, Any]) -> Reply:
        name = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
        if name == failing:
            return Reply(status=400, content=None)  # not retried
        return responder(body)

    server.responder = flaky
    report = audit(panorama_doc, llm_config(server.base_url, judge="rules"), cache=False)
    assert stage in {f.stage for f in report.failures}
    assert any("bad_request" in f.reason for f in report.failures)
    assert report.metrics.cpr is None and report.metrics.coverage.n_docs_scored == 0
    assert report.subject_results == []


def test_judge_failure_is_recorded_and_not_scored(
    server: ScriptedServer, panorama_doc: Document
) -> None:
    def broken_judge(body: dict[str, Any]) -> Reply:
        name = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
        return Reply(content="not json at all") if name == "verdicts" else responder(body)

    server.responder = broken_judge
    report = audit(panorama_doc, llm_config(server.base_url), cache=False)
    assert [f.stage for f in report.failures] == ["score"]
    assert "invalid_json" in report.failures[0].reason
    assert report.metrics.cpr is None and report.metrics.coverage.n_docs_scored == 0
    assert report.usage["judge"].calls == 2  # the answer and its one repair


def test_paper_defaults_and_destinations() -> None:
    from spia_core.pipeline import llm_destinations

    config = AuditConfig(adversary="llm", matcher="llm", judge="llm", base_url="http://h:1/v1")
    where = {d["stage"]: d for d in llm_destinations(config, has_gt=False)}
    assert where["adversary"]["backbone"] == "claude-sonnet-4-5"
    assert where["adversary"]["cloud"] and "Anthropic" in where["adversary"]["where"]
    assert where["matcher"]["backbone"] == where["judge"]["backbone"] == "gpt-4.1-mini"
    assert "OpenAI" in where["judge"]["where"] and "adversary_original" in where
    # a cloud backbone never goes to --base-url; a local one does
    from spia_core.llm.runtime import stage_base_url

    assert stage_base_url("claude-sonnet-4-5", "http://h:1/v1") is None
    assert stage_base_url("my-served-model", "http://h:1/v1") == "http://h:1/v1"
    with pytest.raises(ValueError, match="needs an LLM backbone"):
        build_components(AuditConfig(anonymizer="deid-gpt"), cache=False)


# --------------------------------------------------------------------------- dashboard


def _rendered(at: Any) -> str:
    """Every element of the rendered page (main and sidebar) as text."""
    out: list[str] = []

    def walk(node: Any) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            out.append(str(proto))
        children = getattr(node, "children", None) or {}
        for child in children.values():
            walk(child)

    walk(at._tree)
    return "\n".join(out)


def test_dashboard_llm_audit_with_session_key(panorama_doc: Document) -> None:
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    from pages.components import keys as w_keys
    from pages.components import resources as w_res
    from spia_core.service import admin
    from spia_core.service.engines import LOCAL_ENDPOINT

    with ScriptedServer() as server:
        server.responder = responder
        at = AppTest.from_file(APP, default_timeout=60)
        at.session_state[w_keys.K_KEYS] = {"LOCAL_LLM_API_KEY": KEY}
        at.session_state[w_keys.K_ENDPOINT] = {"base_url": server.base_url, "model": BACKBONE}
        at.run()
        at.radio(key="input_source").set_value("SPIA dataset document").run()
        at.selectbox(key="ds_pick").set_value("PANORAMA-151").run()
        at.selectbox(key="doc_pick_PANORAMA-151").set_value(panorama_doc.data_id).run()
        listed = {o.split(":")[0] for o in at.selectbox(key="anon").options}
        assert {"deid-gpt", "dp-prompt", "adversarial", "subject-aware"} <= listed
        at.selectbox(key="adv").set_value("llm").run()
        backbones = at.selectbox(key="vbb").options
        assert any("Claude Sonnet 4.5" in o for o in backbones)
        assert any("Llama 3.1 8B" in o for o in backbones)
        # a cloud backbone: a warning naming the provider and what is sent, consent required
        at.selectbox(key="vbb").set_value("claude-sonnet-4-5").run()
        warning = " ".join(x.value for x in at.warning)
        assert "Anthropic" in warning and "the anonymized text" in warning
        assert at.button(key="run_audit").disabled
        # the sidebar lists session_state["audit_destinations"] (AppTest drops the sidebar of
        # reruns under st.navigation, so the list itself is checked)
        sidebar = " ".join(at.session_state["audit_destinations"])
        assert "adversary: the anonymized text" in sidebar
        assert "Anthropic (cloud API, model claude-sonnet-4-5)" in sidebar
        # the local endpoint: no warning, the sidebar names the server
        at.selectbox(key="vbb").set_value(LOCAL_ENDPOINT).run()
        assert not any("Text leaves this machine" in x.value for x in at.warning)
        sidebar = " ".join(at.session_state["audit_destinations"])
        assert server.base_url in sidebar and "Anthropic" not in sidebar
        at.button(key="run_audit").click().run(timeout=120)
        assert not at.exception, [e.value for e in at.exception]
        assert len(server.requests) == 3  # Stage A, CODE, NON-CODE (the dataset GT is used)
        assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.requests)
        assert {"CPR", "IPR"} <= {m.label for m in at.metric}
        assert any(e.label.startswith("LLM usage: 3 call(s)") for e in at.expander)
        assert KEY not in _rendered(at)

        store = w_res.open_store()
        run = store.list_runs(kind="audit")[0]
        saved = store.load_audit(run.id)
        assert saved.usage["adversary"].calls == 3
        assert KEY not in json.dumps(report_to_dict(saved))
        cache_file = Path(admin.cache_stats(w_res.data_dir())["file"])
        files = [*store.path.parent.glob("results.sqlite3*"), *cache_file.parent.glob("llm_*")]
        for path in files:
            assert KEY.encode() not in path.read_bytes(), path

        # subject-aware anonymization on the same server: its rounds are shown
        at.selectbox(key="anon").set_value("subject-aware").run()
        at.selectbox(key="abb").set_value(LOCAL_ENDPOINT).run()
        at.button(key="run_audit").click().run(timeout=180)
        assert not at.exception, [e.value for e in at.exception]
        assert any(h.value == "Anonymization rounds" for h in at.subheader)
        rounds = [e.label for e in at.expander if e.label.startswith("Round ")]
        assert rounds[:2] == ["Round 1", "Round 2"]
        assert KEY not in _rendered(at)


def test_settings_test_connection_and_cache(tmp_path: Path) -> None:
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    with ScriptedServer() as server:
        server.responder = responder
        at = AppTest.from_file(APP, default_timeout=60).run()
        at.switch_page("pages/settings.py").run()
        at.text_input(key="ep_url").input(server.base_url).run()
        at.text_input(key="ep_model").input("served-model").run()
        at.text_input(key="k_LOCAL_LLM_API_KEY").input(KEY).run()
        at.button(key="ep_test").click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert any("Connected to" in s.value and "'OK'" in s.value for s in at.success)
        assert server.requests[-1].headers["authorization"] == f"Bearer {KEY}"
        # an endpoint that refuses: a clear error
        at.text_input(key="ep_url").input("http://127.0.0.1:9/v1").run()
        at.button(key="ep_test").click().run()
        assert any("Connection to http://127.0.0.1:9/v1 failed" in e.value for e in at.error)

    from pages.components import resources as w_res
    from spia_core.service import admin

    cache = admin.response_cache(w_res.data_dir())
    from spia_core.llm.base import LLMResponse

    cache.put("k" * 64, "openai-compatible", "t.v1", LLMResponse(text="x", model="m"))
    at.switch_page("pages/settings.py").run()
    entries = next(m for m in at.metric if m.label == "Cached responses")
    assert int(entries.value) >= 1
    at.button(key="cache_clear").click().run()
    entries = next(m for m in at.metric if m.label == "Cached responses")
    assert entries.value == "0" and cache.stats().entries == 0


def test_dashboard_llm_benchmark_run_against_local_server() -> None:
    """Run benchmark page: DeID-GPT + the LLM adversary on PANORAMA-151 --limit 2, through the
    Settings endpoint; cloud consent gates the Start button; a fresh session (a reload) shows
    the run's progress, then its per-document results, which are in the results store."""
    pytest.importorskip("streamlit")
    import time

    from streamlit.testing.v1 import AppTest

    from pages.components import keys as w_keys
    from pages.components import resources as w_res
    from spia_core.service.engines import LOCAL_ENDPOINT

    with ScriptedServer() as server:
        server.responder = responder
        at = AppTest.from_file(APP, default_timeout=60)
        at.session_state[w_keys.K_KEYS] = {"LOCAL_LLM_API_KEY": KEY}
        at.session_state[w_keys.K_ENDPOINT] = {"base_url": server.base_url, "model": BACKBONE}
        at.run()
        at.switch_page("pages/run.py").run()
        at.selectbox(key="r_ds").set_value("PANORAMA-151").run()
        at.number_input(key="r_n").set_value(2).run()
        at.selectbox(key="r_anon").set_value("deid-gpt").run()
        at.selectbox(key="r_abb").set_value(LOCAL_ENDPOINT).run()
        at.selectbox(key="r_adv").set_value("llm").run()
        # a cloud adversary: a warning naming the provider, and no start without consent
        at.selectbox(key="r_vbb").set_value("claude-sonnet-4-5").run()
        warning = " ".join(x.value for x in at.warning)
        assert "Anthropic" in warning and "the anonymized text" in warning
        assert at.button(key="r_start").disabled
        at.checkbox(key="r_consent").check().run()
        assert not at.button(key="r_start").disabled
        # the local endpoint: no warning, no consent needed
        at.selectbox(key="r_vbb").set_value(LOCAL_ENDPOINT).run()
        assert not any("Text leaves this machine" in x.value for x in at.warning)
        assert at.number_input(key="r_conc").value == 4  # LLM stages: concurrent documents
        at.number_input(key="r_conc").set_value(2).run()
        at.button(key="r_start").click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert any("started on 2 documents" in s.value for s in at.success)
        run = w_res.batch_jobs().list()[0]
        assert run.concurrency == 2 and run.config["adversary"] == "llm"

        deadline = time.time() + 120
        texts = ""
        while time.time() < deadline:
            again = AppTest.from_file(APP, default_timeout=60).run()  # a reload
            again.switch_page("pages/run.py").run()
            assert not again.exception, [e.value for e in again.exception]
            texts = " ".join(m.value for m in again.markdown)
            assert f"Run {run.run_id}" in texts
            if run.status != "running":
                break
            time.sleep(0.5)
        again = AppTest.from_file(APP, default_timeout=60).run()
        again.switch_page("pages/run.py").run()
        assert run.status == "finished", (run.status, run.errors)
        assert not run.errors, run.errors
        print(f"\nLLM run: {len(server.requests)} HTTP calls, {run.elapsed():.2f}s")
        assert server.requests, "no LLM call reached the local server"
        assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.requests)
        # the results: per-document rows and the whole-run tiles
        rows = next(df.value for df in again.dataframe if "data_id" in df.value.columns)
        assert len(rows) == 2 and set(rows["status"]) == {"ok"}
        assert rows["cpr"].notna().all()
        assert any(c.value == "Whole run" for c in again.caption)
        assert "CPR" in {m.label for m in again.metric}
        # saved in the results store as they arrived: the stored run lists both documents
        store = w_res.open_store()
        stored = store.load_run(run.store_run_id)
        assert stored.config["adversary"] == "llm" and stored.n_ok == 2
        assert any(h.value == "Stored runs" for h in again.subheader)
        assert KEY not in _rendered(again)
