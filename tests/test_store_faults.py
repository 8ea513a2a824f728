"""Store and cache under corrupt state (issue 15, defects 2, 4, 5 (store), 6 and 7).

A lone surrogate fails one document, named, with its stage; a damaged store or cache says
which file and how out; a swapped row is refused, not used; a run made by other code is not
resumed silently; the cache key includes the endpoint and a garbage cache row is re-fetched;
credentials in a base URL are never stored or printed.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from llm_test_server import Reply, ScriptedServer

from spia_core.batch import BatchConfig, DatasetRef, load_dataset_ref, run_batch
from spia_core.cli import main
from spia_core.llm.base import Message
from spia_core.llm.cache import ResponseCache
from spia_core.llm.catalog import ModelSpec, make_llm
from spia_core.model import Document
from spia_core.pipeline import AuditConfig, audit
from spia_core.sqlite_files import DamagedFileError
from spia_core.store import ResultStore, RunVersionMismatch
from spia_core.textio import InputError

LOCAL = AuditConfig(anonymizer="none", adversary="local", compute_span_metrics=False)


@pytest.fixture(scope="module")
def three() -> DatasetRef:
    ref = load_dataset_ref("PANORAMA-151")
    return DatasetRef(ref.name, ref.documents[:3], ref.hash)


def _run(ref: DatasetRef, tmp: Path, **extra: Any) -> Any:
    cfg = BatchConfig(
        dataset=ref.name, audit=LOCAL, data_dir=tmp / "store", out_dir=tmp / "out", **extra
    )
    return run_batch(cfg, progress=False, dataset=ref)


def test_a_lone_surrogate_fails_only_its_document(three: DatasetRef, tmp_path: Path) -> None:
    """Before: UnicodeEncodeError in store.save_document stopped the run, on every rerun."""
    bad = Document("bad-doc", "Posted by a gardener \ud800 from the hills.")
    ref = DatasetRef("mixed", [three.documents[0], bad, three.documents[1]], "h")
    result = _run(ref, tmp_path)
    by_id = {o.data_id: o for o in result.outcomes}
    assert by_id["bad-doc"].status == "failed"
    assert by_id["bad-doc"].error.startswith("validate: InputError:")
    assert "unpaired surrogate" in by_id["bad-doc"].error
    assert sum(o.status == "ok" for o in result.outcomes) == 2
    assert result.summary["status"] == "done" and result.summary["n_failed"] == 1
    lines = (tmp_path / "out" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3


def _garble(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\x00garbage" * 50)


def test_a_damaged_store_names_its_file_and_the_way_out(tmp_path: Path, capsys: Any) -> None:
    ResultStore(tmp_path).close()
    _garble(tmp_path / "results.sqlite3")
    with pytest.raises(DamagedFileError) as info:
        ResultStore(tmp_path)
    assert str(tmp_path / "results.sqlite3") in str(info.value)
    assert "store repair" in str(info.value)
    assert main(["store", "check", "--data-dir", str(tmp_path)]) == 1
    assert "damaged" in capsys.readouterr().out
    assert main(["store", "repair", "--data-dir", str(tmp_path)]) == 0
    assert list(tmp_path.glob("results.sqlite3.damaged-*"))
    with ResultStore(tmp_path) as store:
        assert store.list_runs() == []
    assert main(["store", "check", "--data-dir", str(tmp_path)]) == 0


def test_cli_reports_a_damaged_store_without_a_traceback(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "results.sqlite3").write_bytes(b"SQLite format 3\x00" + b"\x07" * 600)
    code = main(
        ["evaluate", "--dataset", "PANORAMA-151", "--limit", "1", "--quiet",
         "--data-dir", str(tmp_path / "store"), "--out", str(tmp_path / "out")]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "results.sqlite3 cannot be used" in err and "Traceback" not in err


def test_a_damaged_or_newer_cache_is_named(tmp_path: Path) -> None:
    path = tmp_path / "llm_cache.sqlite3"
    ResponseCache(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=99")
    conn.commit()
    conn.close()
    with pytest.raises(DamagedFileError, match="newer than this program knows"):
        ResponseCache(path)
    path.write_bytes(b"not a database at all" * 40)
    with pytest.raises(DamagedFileError, match="LLM response cache"):
        ResponseCache(path)


def test_purge_needs_yes(tmp_path: Path) -> None:
    ResultStore(tmp_path).close()
    ResponseCache(tmp_path / "llm_cache.sqlite3").close()
    assert main(["store", "purge", "--data-dir", str(tmp_path)]) == 2
    assert (tmp_path / "results.sqlite3").exists()
    assert main(["store", "purge", "--only", "cache", "--yes", "--data-dir", str(tmp_path)]) == 0
    assert not (tmp_path / "llm_cache.sqlite3").exists()
    assert (tmp_path / "results.sqlite3").exists()


def test_a_swapped_row_is_refused_and_re_audited(
    three: DatasetRef, tmp_path: Path, capsys: Any
) -> None:
    """Before: the swapped row was used silently (one document twice in predictions.jsonl)."""
    first = _run(three, tmp_path)
    db = sqlite3.connect(tmp_path / "store" / "results.sqlite3")
    rows = db.execute("SELECT data_id, result FROM documents ORDER BY rowid").fetchall()
    (a, ra), (b, rb) = rows[0], rows[1]
    db.execute("UPDATE documents SET result=? WHERE data_id=?", (rb, a))
    db.execute("UPDATE documents SET result=? WHERE data_id=?", (ra, b))
    db.commit()
    db.close()
    second = _run(three, tmp_path)
    err = capsys.readouterr().err
    assert f"stored result of {a!r} not resumed" in err
    assert second.summary["n_resumed"] == 1 and second.summary["n_rows_rejected"] == 2
    ids = [
        json.loads(x)["metadata"]["data_id"]
        for x in (tmp_path / "out" / "predictions.jsonl").read_text().splitlines()
    ]
    assert sorted(ids) == sorted(d.data_id for d in three.documents)
    assert second.summary["cpr"] == first.summary["cpr"]


def test_a_run_made_by_other_code_is_not_resumed_silently(
    three: DatasetRef, tmp_path: Path
) -> None:
    _run(three, tmp_path)
    db = sqlite3.connect(tmp_path / "store" / "results.sqlite3")
    db.execute("UPDATE runs SET code_hash='0123456789abcdef'")
    db.commit()
    db.close()
    with pytest.raises(RunVersionMismatch, match="--no-resume"):
        _run(three, tmp_path)
    fresh = _run(three, tmp_path, resume=False)
    assert fresh.summary["n_resumed"] == 0 and len(fresh.summary["code_hash"]) == 64


SPEC = ModelSpec(id="m", provider="openai-compatible", model="m", structured_output="json_schema")
SCHEMA = {"title": "a", "type": "object", "properties": {"ok": {"type": "boolean"}},
          "required": ["ok"]}  # fmt: skip


def test_cache_key_includes_the_endpoint(tmp_path: Path) -> None:
    """Before: after switching --base-url the second server was never asked."""
    cache = ResponseCache(tmp_path / "c.sqlite3")
    msgs = [Message("user", "q")]
    answers = []
    with ScriptedServer() as one, ScriptedServer() as two:
        one.responder = lambda body: Reply(content='{"ok": true}')
        two.responder = lambda body: Reply(content='{"ok": false}')
        for server in (one, two, one):
            llm = make_llm("m", base_url=server.base_url, cache=cache, catalog={"m": SPEC})
            answers.append(llm.complete(msgs, schema=SCHEMA).parsed["ok"])
        assert (len(one.requests), len(two.requests)) == (1, 1)
    assert answers == [True, False, True]


def test_a_garbage_cache_row_is_dropped_and_fetched_again(tmp_path: Path) -> None:
    """Before: the garbage row failed its document on every rerun (KeyError: 'subjects')."""
    cache = ResponseCache(tmp_path / "c.sqlite3")
    msgs = [Message("user", "q")]
    with ScriptedServer() as server:
        server.responder = lambda body: Reply(content='{"ok": true}')
        llm = make_llm("m", base_url=server.base_url, cache=cache, catalog={"m": SPEC})
        llm.complete(msgs, schema=SCHEMA)
        conn = sqlite3.connect(cache.path)
        conn.execute("UPDATE responses SET text='{\"nope\": 1}', parsed='{\"nope\": 1}'")
        conn.commit()
        conn.close()
        again = llm.complete(msgs, schema=SCHEMA)
        third = llm.complete(msgs, schema=SCHEMA)
        assert len(server.requests) == 2
    assert again.parsed == {"ok": True} and not again.cached
    assert third.cached and cache.dropped == 1


def test_credentials_in_the_base_url_are_never_stored_or_printed(
    tmp_path: Path, capsys: Any, local_catalog: Any
) -> None:
    local_catalog("loc")
    with ScriptedServer() as server:
        server.responder = lambda body: Reply(content="<anonymized>\nx\n</anonymized>")
        url = server.base_url.replace("http://", "http://alice:hunter2pw@")
        main(
            ["evaluate", "--dataset", "PANORAMA-151", "--limit", "1", "--quiet",
             "--anonymizer", "deid-gpt", "--backbone", "loc", "--base-url", url,
             "--data-dir", str(tmp_path / "store"), "--out", str(tmp_path / "out")]
        )  # fmt: skip
    captured = capsys.readouterr()
    assert "hunter2pw" not in captured.out + captured.err
    assert "local server http://127.0.0.1" in captured.err
    for path in [*(tmp_path / "out").iterdir(), *(tmp_path / "store").iterdir()]:
        assert b"hunter2pw" not in path.read_bytes(), path


def test_audit_refuses_what_is_not_text() -> None:
    with pytest.raises(TypeError, match="expected the text as a str, got NoneType"):
        audit(None, LOCAL)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="got bytes, not text"):
        audit(b"some text", LOCAL)  # type: ignore[arg-type]


def test_run_batch_refuses_a_negative_limit(three: DatasetRef, tmp_path: Path) -> None:
    """Before: limit=-2 silently ran 3 of 5 documents."""
    with pytest.raises(ValueError, match="limit must be a positive number"):
        _run(three, tmp_path, limit=-2)
