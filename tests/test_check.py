"""``check``: the release gate over folders of redacted documents (policy, resume, exit codes)."""

from __future__ import annotations

import csv
import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spia_core.cli import main
from spia_core.scale.discover import DiscoveryError, discover
from spia_core.scale.policy import PolicyError, load_policy, parse_rule
from tests._redacted_corpus import write_corpus

ROOT = Path(__file__).resolve().parents[1]
N_DOCS = 500


def test_policy_rules_and_file(tmp_path: Path) -> None:
    row = {"status": "ok", "verdict": "unsafe", "n_direct_identifiers": 0, "exposure": 4}
    row.update(n_exposed_subjects=2, max_inferred_share=0.4, n_seen_through=1)
    assert load_policy().evaluate(row) == []  # default: direct-identifier only
    assert parse_rule("subjects-exposed>1").broken_by(row)
    assert not parse_rule("subjects-exposed>2").broken_by(row)
    assert parse_rule("subjects-exposed>=2").broken_by(row)
    assert parse_rule("inferred-share>0.3").broken_by(row)
    assert parse_rule("unsafe").broken_by(row)
    for bad in ("subjects-exposed", "direct-identifier>1", "inferred-share>2", "cpr<0.9"):
        with pytest.raises(PolicyError):
            parse_rule(bad)
    toml = tmp_path / "policy.toml"
    toml.write_text('[policy]\nfail_on = ["exposure>3"]\ncannot_judge = "pass"\n')
    policy = load_policy(["seen-through>0"], toml)
    assert policy.evaluate(row) == ["exposure>3", "seen-through>0"]
    assert policy.evaluate({**row, "verdict": "cannot_judge"}) == []
    assert load_policy().evaluate({**row, "verdict": "cannot_judge"}) == ["cannot_judge"]
    toml.write_text('fail_on = ["exposure>3"]\nthreshold = 2\n')
    with pytest.raises(PolicyError, match="unknown key"):
        load_policy(None, toml)


def test_discovery_files_folders_globs_and_ids(tmp_path: Path) -> None:
    write_corpus(tmp_path / "in", 12)
    (tmp_path / "in" / "notes" / "skip.csv").write_text("a,b\n")
    found = discover([str(tmp_path / "in")])
    assert len(found) == 12 and len({f.data_id for f in found}) == 12
    assert any(f.data_id.startswith("batch.jsonl#r") for f in found)
    globbed = discover([str(tmp_path / "in" / "**" / "*.txt")])
    assert globbed and all(f.source.endswith(".txt") for f in globbed)
    with pytest.raises(DiscoveryError, match="no such file"):
        discover([str(tmp_path / "missing")])
    with pytest.raises(DiscoveryError, match="matches no file"):
        discover([str(tmp_path / "in" / "*.docx")])


def test_a_repeated_jsonl_id_is_one_unreadable_record_not_a_stopped_run(tmp_path: Path) -> None:
    dup = tmp_path / "dup.jsonl"
    dup.write_text('{"id": 1, "text": "a"}\n{"id": 2, "text": "b"}\n{"id": 1, "text": "c"}\n')
    found = {f.data_id: f for f in discover([str(dup)])}
    assert list(found) == [f"{dup.as_posix()}#1", f"{dup.as_posix()}#2", f"{dup.as_posix()}#line3"]
    assert found[f"{dup.as_posix()}#1"].text == "a"  # the first record keeps its id
    assert found[f"{dup.as_posix()}#line3"].error == (
        "the id '1' is also on line 1; give each record a unique id"
    )
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"id": "e1", "text": "  "}\n')
    assert main(["check", str(empty), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    (row,) = csv.DictReader((tmp_path / "o" / "summary.csv").open())
    assert row["error"] == f"{empty.as_posix()}#e1: the text contains only whitespace"


def test_two_folders_with_the_same_file_names_are_both_checked(tmp_path: Path) -> None:
    for folder, text in (("incoming", "My sister is a vet."), ("archive", "He drives a bus.")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "letter.txt").write_text(text)
    a, b = str(tmp_path / "incoming"), str(tmp_path / "archive")
    found = discover([a, b, str(tmp_path / "incoming" / "letter.txt")])  # one file named twice
    assert sorted(f.data_id for f in found) == [
        (tmp_path / "archive" / "letter.txt").as_posix(),
        (tmp_path / "incoming" / "letter.txt").as_posix(),
    ]
    assert [f.data_id for f in discover([a])] == ["letter.txt"]  # alone: the short id


def test_bad_configuration_and_unreadable_input_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "in"
    write_corpus(folder, 3)
    out = tmp_path / "out"
    assert main(["check", str(folder), "--out", str(out), "--fail-on", "cpr<1"]) == 2
    assert main(["check", str(tmp_path / "nope"), "--out", str(out)]) == 2
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not really a pdf")
    (folder / "empty.txt").write_text("   \n")
    code = main(["check", str(folder), "--out", str(out), "--workers", "1", "--quiet"])
    assert code == 2
    printed = capsys.readouterr().out  # each unjudged document is named with its reason
    assert "not judged (2;" in printed
    assert "  empty.txt: the text contains only whitespace\n" in printed
    assert "  broken.pdf: this is not a readable PDF file" in printed
    rows = {r["data_id"]: r for r in csv.DictReader((out / "summary.csv").open())}
    assert rows["broken.pdf"]["status"] == rows["empty.txt"]["status"] == "input_error"
    assert "PDF" in rows["broken.pdf"]["error"]
    assert sum(r["status"] == "ok" for r in rows.values()) == 3  # the others were checked


def _one_document(tmp_path: Path, name: str, text: str) -> tuple[list[str], Path]:
    """A folder holding one document: the `check` arguments for it and its output folder."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / name).write_text(text)
    out = tmp_path / "out"
    return ["check", str(folder), "--out", str(out), "--workers", "1", "--quiet"], out


def test_a_text_it_cannot_judge_fails_with_blank_figures(tmp_path: Path) -> None:
    args, out = _one_document(
        tmp_path,
        "nota.txt",
        "Hola a todos. Me llamo ***, vivo en un pueblo cerca de la costa y trabajo en una "
        "panadería desde hace diez años. Mi hermana *** es maestra en la escuela del barrio.\n",
    )
    assert main(args) == 1
    (row,) = csv.DictReader((out / "summary.csv").open())
    assert (row["status"], row["verdict"], row["policy"]) == ("ok", "cannot_judge", "fail")
    # no zeros that would read as "nobody found": the engine did not read the text
    assert row["n_subjects"] == row["exposure"] == row["max_inferred_share"] == ""


def test_unsafe_documents_that_pass_a_lenient_policy_are_pointed_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args, _ = _one_document(
        tmp_path,
        "minutes.txt",
        "Present: [PERSON_1] (chair) and Mrs [PERSON_2], who keeps bees behind the church. "
        "[PERSON_3], a retired dentist, asked about the shed. She will write to the council.\n",
    )
    assert main([*args, "--fail-on", "direct-identifier"]) == 0
    printed = capsys.readouterr().out
    assert "1 document(s) pass the policy although their verdict is unsafe" in printed
    assert main([*args, "--fail-on", "subjects-exposed>0", "--no-resume"]) == 1
    assert "although their verdict is unsafe" not in capsys.readouterr().out


def _rows_in_store(db: Path) -> int:
    if not db.is_file():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_500_documents_kill_and_restart_lose_nothing(tmp_path: Path) -> None:
    folder, out = tmp_path / "in", tmp_path / "out"
    leaks = write_corpus(folder, N_DOCS)
    cmd = [sys.executable, "-m", "spia_core", "check", str(folder), "--out", str(out)]
    cmd += ["--workers", "2", "--quiet", "--top", "5"]
    db = out / ".spia-check" / "results.sqlite3"
    first = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and _rows_in_store(db) < N_DOCS // 4:
            assert first.poll() is None, "check finished before it could be killed"
            time.sleep(0.2)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    at_kill = _rows_in_store(db)
    assert N_DOCS // 4 <= at_kill < N_DOCS

    second = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert second.returncode == 1, second.stderr[-2000:]  # leaked identifiers fail the gate
    summary = json.loads((out / "summary.json").read_text())
    assert summary["counts"]["n_resumed"] == at_kill
    assert summary["counts"]["n_checked"] == N_DOCS
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert sorted(r["data_id"] for r in rows) == sorted(leaks)  # each once, none lost
    assert _rows_in_store(db) == N_DOCS
    for r in rows:
        assert r["status"] == "ok" and r["verdict"] in {"unsafe", "no_exposure_found"}
        assert (out / r["report_json"]).is_file() and (out / r["report_html"]).is_file()
        report = json.loads((out / r["report_json"]).read_text())
        assert report["mode"] == "redacted_only" and report["verdict"]["status"] == r["verdict"]
    failing = {r["data_id"] for r in rows if r["policy"] == "fail"}
    assert failing == {d for d, leak in leaks.items() if leak}
    assert "riskiest documents" in second.stdout

    # a new policy re-gates the stored results without auditing anything again
    third = subprocess.run(
        [*cmd, "--fail-on", "exposure>1000"], cwd=ROOT, capture_output=True, text=True
    )
    assert third.returncode == 0, third.stderr[-2000:]
    again = json.loads((out / "summary.json").read_text())
    assert again["counts"]["n_resumed"] == N_DOCS and again["counts"]["n_policy_fail"] == 0


def test_reports_of_documents_no_longer_checked_are_pointed_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A document dropped from the folder keeps its old report folder (nothing is deleted), and
    the run says so: a release script globbing OUT/reports would otherwise pick it up."""
    args, _ = _one_document(tmp_path, "keep.txt", "My cousin [NAME] fits kitchens in [CITY].\n")
    (tmp_path / "in" / "drop.txt").write_text("Our lodger, a retired pilot, moved out.\n")
    main(args)
    assert "report folder(s)" not in capsys.readouterr().out
    (tmp_path / "in" / "drop.txt").unlink()
    main(args)
    printed = capsys.readouterr().out
    assert "note: 1 report folder(s) in " in printed and ": drop.txt-" in printed


def test_a_comment_left_in_a_word_file_is_in_its_report(tmp_path: Path) -> None:
    import docx

    folder = tmp_path / "in"
    folder.mkdir()
    document = docx.Document()
    document.add_paragraph("Our tenant [NAME] has paid the rent late twice.")
    document.add_comment(document.paragraphs[0].runs[0], text="She works nights", author="L")
    document.save(str(folder / "notice.docx"))
    out = tmp_path / "out"
    main(["check", str(folder), "--out", str(out), "--workers", "1", "--quiet"])
    (row,) = csv.DictReader((out / "summary.csv").open())
    report = json.loads((out / row["report_json"]).read_text())
    notes = [n["message"] for n in report["notices"] if n["kind"] == "input_quirk"]
    assert notes and notes[0].startswith("notice.docx: the file holds 1 comment(s)")
    assert "the file holds 1 comment(s)" in (out / row["report_html"]).read_text()
    assert row["file_notes"] == notes[0]  # summary.csv says it too, beside the figures


def test_summary_csv_file_notes_column_is_blank_for_a_clean_file(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "plain.txt").write_text("Our tenant [NAME] has paid the rent late twice.\n")
    (folder / "ansi.txt").write_bytes(
        "Our tenant [NAME] owes £40 since the café shut.".encode("cp1252")
    )
    out = tmp_path / "out"
    main(["check", str(folder), "--out", str(out), "--workers", "1", "--quiet"])
    rows = {r["data_id"]: r for r in csv.DictReader((out / "summary.csv").open())}
    assert rows["plain.txt"]["file_notes"] == ""
    assert "it was read as Windows-1252" in rows["ansi.txt"]["file_notes"]


def test_the_bar_shows_the_stage_of_the_document_in_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One long document would leave the bar at 0 for minutes: its stage is shown beside it."""
    src = tmp_path / "note.txt"
    src.write_text("My neighbour [NAME] is a retired postman; his wife teaches piano.\n")
    main(["check", str(src), "--out", str(tmp_path / "out"), "--workers", "1"])
    err = capsys.readouterr().err
    assert "infer people 1/" in err and "exposure" in err
