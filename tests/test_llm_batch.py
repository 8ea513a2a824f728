"""``--llm-mode batch``: the real anthropic and openai SDKs against fake batch endpoints.

No network, no key: every SDK client gets an httpx2.MockTransport to
:class:`tests.fake_batch_api.FakeBatchProvider`. The adversary is Claude Haiku (Anthropic
Message Batches), the judge GPT-4.1 mini (OpenAI Batch), both priced from the catalog.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fake_batch_api import OCCUPATION, USAGE_ANTHROPIC, USAGE_OPENAI, FakeBatchProvider

from spia_core.batch import BatchConfig, run_batch
from spia_core.cli import main
from spia_core.llm.batch_api import custom_id, request_key
from spia_core.llm.catalog import get_spec
from spia_core.llm.runtime import LLMRuntime
from spia_core.pipeline import AuditConfig
from spia_core.store import SCHEMA_VERSION, ResultStore

KEY_A = "sk-ant-TESTKEY-batch-0123456789"
KEY_O = "sk-proj-TESTKEY-batch-9876543210"
#: Invented posts: (data_id, writer, their trade).
POSTS = [
    ("post-1", "Orla Venn", "I repair clocks in a small harbour town.", "clock repairer"),
    ("post-2", "Tomas Reyk", "I drive the night bus across the valley.", "bus driver"),
    ("post-3", "Ines Marow", "I teach violin to children at weekends.", "violin teacher"),
    ("post-4", "Pavel Suto", "I bake bread before sunrise every day.", "baker"),
]


def _record(data_id: str, name: str, sentence: str, job: str) -> dict[str, Any]:
    piis = [
        {"tag": "NAME", "keyword": name, "certainty": 5, "hardness": 1},
        {"tag": "OCCUPATION", "keyword": job, "certainty": 4, "hardness": 2},
    ]
    return {
        "metadata": {"data_id": data_id},
        "text": f"Posted by {name}. {sentence}",
        "subjects": [{"id": 0, "description": "the writer", "PIIs": piis}],
    }


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "posts.jsonl"
    path.write_text("".join(json.dumps(_record(*p)) + "\n" for p in POSTS), encoding="utf-8")
    return path


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeBatchProvider:
    """A fake provider that every LLM client of the run talks to (keys from the environment)."""
    provider = FakeBatchProvider()
    client = httpx2.Client(transport=httpx2.MockTransport(provider))
    original = LLMRuntime.connection

    def connection(self: LLMRuntime, backbone: str, base_url: str | None = None) -> Any:
        conn = original(self, backbone, base_url)
        return dataclasses.replace(conn, options={**conn.options, "http_client": client})

    monkeypatch.setattr(LLMRuntime, "connection", connection)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY_A)
    monkeypatch.setenv("OPENAI_API_KEY", KEY_O)
    monkeypatch.delenv("SPIA_MODELS_JSON", raising=False)
    return provider


def _config(dataset: Path, tmp_path: Path, **extra: Any) -> BatchConfig:
    audit = AuditConfig(
        adversary="llm",
        adversary_backbone="claude-haiku-4-5",
        judge="llm",
        judge_backbone="gpt-4.1-mini",
    )
    values: dict[str, Any] = {
        "dataset": str(dataset),
        "audit": audit,
        "data_dir": tmp_path / "store",
        "out_dir": tmp_path / "out",
        "llm_mode": "batch",
        "batch_poll": 0.0,
    }
    values.update(extra)
    return BatchConfig(**values)


def _inferred_names(result: Any) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for outcome in result.outcomes:
        subjects = outcome.report.inferred_subjects if outcome.report else []
        names[outcome.data_id] = [p.keyword for s in subjects for p in s.piis if p.tag == "NAME"]
    return names


def _batch_price(model: str, usage: tuple[int, int]) -> float:
    spec = get_spec(model)
    return spec.batch_cost(*usage)


# --------------------------------------------------------------------------- a full run


def test_batch_run_in_rounds_maps_results_back_and_prices_at_the_batch_rate(
    fake: FakeBatchProvider, dataset: Path, tmp_path: Path
) -> None:
    # post-3's non-code request errors at the provider: that document fails, the others stand
    fake.error_if = lambda title, body: title == "non_code_profile" and "Ines Marow" in body
    result = run_batch(_config(dataset, tmp_path), progress=False)
    summary = result.summary

    assert fake.interactive_calls == 0
    submitted = fake.submitted()
    assert len(submitted) == len(set(submitted))  # every request submitted exactly once
    rounds = [(b["provider"], b["stage"], b["round"]) for b in summary["llm_batches"]]
    assert rounds == [  # one round per step of the audit, one batch per backbone
        ("anthropic", "adversary", 1),  # Stage A of every document
        ("anthropic", "adversary", 2),  # Stage B (code + non-code) of every document
        ("openai", "judge", 3),  # the judge, once the inference is there
    ]
    sizes = [len(b.requests) for b in fake.batches.values()]
    assert sizes == [4, 8, 3]
    assert all(b["status"] == "ended" for b in summary["llm_batches"])

    # results came back in reverse order; each document got its own writer's name
    names = _inferred_names(result)
    assert names == {"post-1": ["Orla Venn"], "post-2": ["Tomas Reyk"], "post-3": [],
                     "post-4": ["Pavel Suto"]}  # fmt: skip
    status = {o.data_id: o.status for o in result.outcomes}
    assert status == {"post-1": "ok", "post-2": "ok", "post-3": "failed", "post-4": "ok"}, [
        o.error for o in result.outcomes
    ]
    failed = next(o for o in result.outcomes if o.data_id == "post-3")
    reasons = [f.reason for f in failed.report.failures]
    assert any("batch_errored" in r and "prompt is too long" in r for r in reasons), reasons
    # the judge's "yes" overturned the rule score of the occupation pair
    ok = next(o for o in result.outcomes if o.data_id == "post-1").report
    judged = [s for r in ok.subject_results for s in r.scores if s.tag == "OCCUPATION"]
    assert judged and judged[0].pred_keyword == OCCUPATION and judged[0].score == 1.0

    usage = summary["usage"]
    adversary_price = _batch_price("claude-haiku-4-5", USAGE_ANTHROPIC)
    assert adversary_price == pytest.approx(get_spec("claude-haiku-4-5").cost(1000, 100) / 2)
    assert usage["adversary"]["calls"] == 12  # 11 answered + 1 errored
    assert usage["adversary"]["cost_usd"] == pytest.approx(11 * adversary_price)
    assert usage["judge"]["calls"] == 3
    assert usage["judge"]["cost_usd"] == pytest.approx(
        3 * _batch_price("gpt-4.1-mini", USAGE_OPENAI)
    )
    assert summary["llm_mode"] == "batch" and summary["batch_requests_submitted"] == 15


def test_matcher_and_utility_requests_are_batched_too(
    fake: FakeBatchProvider, dataset: Path, tmp_path: Path
) -> None:
    audit = AuditConfig(
        adversary="llm",
        adversary_backbone="claude-haiku-4-5",
        matcher="llm",
        matcher_backbone="gpt-4.1-mini",
        utility_llm=True,
        utility_backbone="gpt-4.1-mini",
    )
    result = run_batch(_config(dataset, tmp_path, audit=audit), progress=False)
    stages = {(b["provider"], b["stage"]) for b in result.summary["llm_batches"]}
    assert stages == {
        ("anthropic", "adversary"),
        ("openai", "matcher"),
        ("openai", "utility"),
    }
    assert fake.interactive_calls == 0 and result.summary["n_failed"] == 0
    usage = result.summary["usage"]
    assert usage["matcher"]["calls"] == 4 and usage["utility"]["calls"] == 4
    report = result.outcomes[0].report
    assert report.utility is not None and report.utility.readability == 9


def test_kill_and_restart_polls_the_stored_batch_instead_of_resubmitting(
    fake: FakeBatchProvider, dataset: Path, tmp_path: Path
) -> None:
    fake.ready_after, fake.kill_on_poll = 5, 2
    with pytest.raises(KeyboardInterrupt):
        run_batch(_config(dataset, tmp_path), progress=False)
    assert len(fake.batches) == 1
    with ResultStore(tmp_path / "store") as store:
        run = store.list_runs()[0]
        assert run.status == "interrupted"
        (stored,) = store.llm_batches(run.id)
        requests = store.llm_batch_requests(run.id)
    first = next(iter(fake.batches.values()))
    assert stored.batch_id == first.id and stored.status == "in_progress"
    assert stored.provider == "anthropic" and stored.stage == "adversary"
    assert sorted(r.custom_id for r in requests) == sorted(cid for cid, _ in first.requests)
    assert {r.data_id for r in requests} == {p[0] for p in POSTS}

    fake.kill_on_poll = 0
    result = run_batch(_config(dataset, tmp_path), progress=False)
    assert first.polls > 2  # the stored batch was polled again ...
    submitted = fake.submitted()
    assert len(submitted) == len(set(submitted)) == 16  # ... and nothing was submitted twice
    assert result.summary["n_failed"] == 0
    assert _inferred_names(result)["post-2"] == ["Tomas Reyk"]


def test_a_kill_while_reading_results_and_a_busy_provider_resubmit_nothing(
    fake: FakeBatchProvider, dataset: Path, tmp_path: Path
) -> None:
    fake.kill_on_results, fake.poll_errors = 1, 2  # two 529s while polling, then a kill
    with pytest.raises(KeyboardInterrupt):
        run_batch(_config(dataset, tmp_path), progress=False)
    with ResultStore(tmp_path / "store") as store:
        run = store.list_runs()[0]
        assert store.llm_batches(run.id)[0].status == "ended"  # seen ending, not collected
        assert {r.state for r in store.llm_batch_requests(run.id)} == {"pending"}
    result = run_batch(_config(dataset, tmp_path), progress=False)
    submitted = fake.submitted()
    assert len(submitted) == len(set(submitted)) == 16
    assert result.summary["n_failed"] == 0 and fake.poll_errors == 0


def test_cached_answers_are_not_submitted_again(
    fake: FakeBatchProvider, dataset: Path, tmp_path: Path
) -> None:
    run_batch(_config(dataset, tmp_path), progress=False)
    n_batches = len(fake.batches)
    again = run_batch(_config(dataset, tmp_path, resume=False), progress=False)
    assert len(fake.batches) == n_batches  # everything answered from the response cache
    assert again.summary["llm_batches"] == []
    assert again.summary["usage"]["adversary"]["cache_hits"] == 12
    assert again.summary["n_failed"] == 0


def test_garbage_and_malformed_result_lines_fail_only_their_documents(
    fake: FakeBatchProvider, dataset: Path, tmp_path: Path
) -> None:
    fake.garbage_if = lambda title, body: title == "subjects" and "Orla Venn" in body
    fake.malformed_if = lambda title, body: title == "subjects" and "Pavel Suto" in body
    result = run_batch(_config(dataset, tmp_path), progress=False)
    status = {o.data_id: o.status for o in result.outcomes}
    assert status == {"post-1": "failed", "post-2": "ok", "post-3": "ok", "post-4": "failed"}
    errors = {o.data_id: o.error for o in result.outcomes}
    assert "no readable line" in errors["post-1"] and "1 unreadable" in errors["post-1"]
    assert "malformed_response" in errors["post-4"]
    assert _inferred_names(result)["post-3"] == ["Ines Marow"]
    assert fake.interactive_calls == 0


def test_expired_batch_gives_a_clear_message_and_a_failing_exit(
    fake: FakeBatchProvider, dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.ending = "expired"
    code = main(
        [
            "evaluate", "--dataset", str(dataset), "--adversary", "llm",
            "--adversary-backbone", "claude-haiku-4-5", "--llm-mode", "batch",
            "--batch-poll", "0", "--data-dir", str(tmp_path / "store"),
            "--out", str(tmp_path / "out"), "--quiet",
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1 and "TESTKEY" not in err
    assert "expired" in err and "4 of 4 request(s) got no answer" in err
    assert "Run the same command again" in err
    results = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [r["status"] for r in results] == ["failed"] * 4
    assert all("batch_expired" in r["error"] for r in results)


# --------------------------------------------------------------------------- refusals, ids, store


def test_local_backbone_refuses_batch_mode(tmp_path: Path, capsys: Any) -> None:
    code = main(
        [
            "evaluate", "--dataset", "PANORAMA-151", "--limit", "1", "--adversary", "llm",
            "--adversary-backbone", "llama-3.1-8b", "--base-url", "http://127.0.0.1:9/v1",
            "--llm-mode", "batch", "--data-dir", str(tmp_path / "s"), "--out", str(tmp_path / "o"),
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert "has no batch API" in err and "local OpenAI-compatible server" in err


def test_batch_mode_needs_an_llm_stage(tmp_path: Path, capsys: Any) -> None:
    code = main(
        [
            "evaluate", "--dataset", "PANORAMA-151", "--limit", "1", "--llm-mode", "batch",
            "--data-dir", str(tmp_path / "s"), "--out", str(tmp_path / "o"),
        ]
    )  # fmt: skip
    assert code == 2 and "no LLM stage" in capsys.readouterr().err


def test_custom_ids_are_stable_unique_and_provider_safe() -> None:
    key_a = request_key("anthropic", "https://api.anthropic.com", {"model": "m", "x": 1})
    key_b = request_key("anthropic", "https://api.anthropic.com", {"x": 1, "model": "m"})
    key_c = request_key("anthropic", "https://api.anthropic.com", {"model": "m", "x": 2})
    assert key_a == key_b != key_c
    cid = custom_id("TAB 001/ünïcode and a very long document id indeed", "adversary", key_a)
    assert len(cid) <= 64 and all(c.isascii() and (c.isalnum() or c in "_-") for c in cid)
    assert cid.endswith(key_a[:24]) and "-adversary-" in cid
    assert custom_id("d", "judge", key_a) != custom_id("d", "judge", key_c)


#: The results store of schema version 2 (before the `check` kind and the batch tables).
V2_SCHEMA = """
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_key TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('audit', 'evaluate')), config TEXT NOT NULL,
    package_version TEXT NOT NULL, prompt_versions TEXT NOT NULL DEFAULT '{}',
    dataset_name TEXT NOT NULL DEFAULT '', dataset_hash TEXT NOT NULL DEFAULT '',
    started_at TEXT NOT NULL, ended_at TEXT, status TEXT NOT NULL DEFAULT 'running',
    coverage TEXT NOT NULL DEFAULT '{}', summary TEXT NOT NULL DEFAULT '{}',
    code_hash TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_key ON runs (run_key);
CREATE TABLE documents (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE, data_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed')), error TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '{}', summary TEXT NOT NULL DEFAULT '{}',
    finished_at TEXT NOT NULL, input_sha256 TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, data_id)
);
"""


def test_a_version_2_store_gains_the_batch_tables_and_stays_readable(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(V2_SCHEMA)
    conn.execute(
        "INSERT INTO runs (run_key, kind, config, package_version, started_at)"
        " VALUES ('k', 'evaluate', '{}', '0.1', 'then')"
    )
    conn.execute(
        "INSERT INTO documents (run_id, data_id, status, finished_at) VALUES (1, 'd', 'ok', 'x')"
    )
    conn.execute("PRAGMA user_version=2")
    conn.commit()
    conn.close()
    with ResultStore(tmp_path) as store:
        (run,) = store.list_runs()
        assert run.run_key == "k" and run.n_ok == 1 and store.llm_batches(run.id) == []
        row = store.add_llm_batch(
            run.id, provider="openai", model="m", batch_id="b1", stage="judge", round=1,
            requests=[("c1", "k1", "d1")],
        )  # fmt: skip
        store.save_llm_batch_answers(row, [("c1", "succeeded", {"text": "{}"})])
        assert store.llm_batch_requests(run.id)[0].state == "succeeded"
        store.delete_run(run.id)  # the run's batches go with it
        assert store.llm_batch_requests(run.id) == []
    version = sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0]
    assert version == SCHEMA_VERSION == 4


def test_no_api_key_is_stored_cached_or_written(
    fake: FakeBatchProvider, dataset: Path, tmp_path: Path
) -> None:
    run_batch(_config(dataset, tmp_path), progress=False)
    assert any(KEY_A in k for k in fake.seen_keys) and any(KEY_O in k for k in fake.seen_keys)
    for path in [*(tmp_path / "store").iterdir(), *(tmp_path / "out").iterdir()]:
        data = path.read_bytes()
        assert KEY_A.encode() not in data and KEY_O.encode() not in data, path
        assert b"TESTKEY" not in data, path


# --------------------------------------------------------------------------- the broker itself


def test_polling_backs_off_reports_counts_and_names_a_failed_batch(tmp_path: Path) -> None:
    from spia_core.llm.base import LLMError, Message
    from spia_core.llm.batch_api import BatchPending
    from spia_core.llm.batch_broker import BatchBroker
    from spia_core.llm.catalog import make_llm

    fake = FakeBatchProvider(ready_after=3)
    client = httpx2.Client(transport=httpx2.MockTransport(fake))
    llm = make_llm("gpt-4.1-mini", api_key=KEY_O, http_client=client)
    sleeps: list[float] = []
    said: list[str] = []
    with ResultStore(tmp_path) as store:
        run = store.start_run("evaluate", {"t": 1})
        broker = BatchBroker(
            store, run.id, poll_interval=2.0, poll_cap=4.0, sleep=sleeps.append, notify=said.append
        )
        batched = broker.wrap(llm, "judge")
        asks = [[Message("user", f"{i}. tag: NAME | GT: 'a' | Pred: 'b'")] for i in range(3)]
        for i, ask in enumerate(asks):
            broker.document = f"doc-{i}"
            with pytest.raises(BatchPending):
                batched.complete(ask, schema=None, max_tokens=50)
        broker.run_round()
        assert sleeps == [2.0, 3.0, 4.0]  # x1.5 each time, capped
        assert any("in_progress: 0 succeeded, 0 errored, 3 pending" in s for s in said), said
        assert any("ended: 3 succeeded, 0 errored, 0 pending" in s for s in said), said
        (row,) = store.llm_batches(run.id)
        assert row.status == "ended" and row.counts["succeeded"] == 3

        fake.ending, fake.ready_after = "failed", 0
        broker.document = "doc-x"
        late = [Message("user", "4. tag: AGE | GT: '1' | Pred: '2'")]
        with pytest.raises(BatchPending):
            batched.complete(late)
        broker.run_round()
        (problem,) = broker.problems
        assert "failed: line 1: bad body; 1 of 1 request(s) got no answer" in problem
        with pytest.raises(LLMError, match="batch_failed: line 1: bad body"):
            batched.complete(late)
        assert batched.complete(asks[0], max_tokens=50).text == "OK"  # earlier answers stay
        assert fake.interactive_calls == 0
