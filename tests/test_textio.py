"""Tests for spia_core.textio: decoding, validation and .txt/.md/.docx/.pdf extraction."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pypdf
import pytest

from spia_core import textio
from spia_core.textio import (
    MAX_CHARS,
    InputError,
    decode_text,
    extract_text,
    file_notes,
    validate_text,
)


def _pdf(lines: list[str]) -> bytes:
    """A minimal valid one-page PDF whose text layer holds ``lines`` (Helvetica)."""
    esc = [s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for s in lines]
    content = "BT /F1 12 Tf 72 720 Td " + " ".join(f"({s}) Tj 0 -16 Td" for s in esc) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        "/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return out


def _blank_pdf() -> bytes:
    writer = pypdf.PdfWriter()
    writer.add_blank_page(width=200, height=200)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def _docx(build) -> bytes:  # type: ignore[no-untyped-def]
    document = docx.Document()
    build(document)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


# --------------------------------------------------------------------------- plain text


def test_decode_text_utf8_bom_and_newlines() -> None:
    data = "\ufeffLine one — Zoë\r\nLine two\r".encode()
    assert decode_text(data) == "Line one — Zoë\nLine two\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_decode_text_windows_unicode_with_a_byte_order_mark(encoding: str) -> None:
    """Notepad's "Unicode" (UTF-16 with a BOM) is text, not a binary file."""
    text = "Line one — Zoë\r\nLine two\n"
    data = ("\ufeff" + text if encoding == "utf-16-be" else text).encode(encoding)
    assert decode_text(data, "notes.txt") == "Line one — Zoë\nLine two\n"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b"\xff\xfe\x00\xd8", "starts like UTF-16 text but does not decode"),
        (b"  \n\t \r\n", "only whitespace"),
        (b"caf\xe9 \x81u lait", "neither UTF-8 nor Windows-1252 text (byte 0xe9 at position 3)"),
        (b"abc\x00def", "binary file, not text (NUL byte at position 3)"),
    ],
)
def test_decode_text_refusals(data: bytes, message: str) -> None:
    with pytest.raises(InputError, match=r"^notes\.txt: ") as info:
        decode_text(data, "notes.txt")
    assert message in str(info.value)


def test_windows_1252_text_is_read_and_the_user_told() -> None:
    """A Notepad "ANSI" file (not UTF-8) is read as Windows-1252, and file_notes says so."""
    text = "The fee was £38; the client’s café – open till 6 – was shut.\n"
    data = text.encode("cp1252")
    assert decode_text(data, "letter.txt") == text
    assert extract_text(data, "letter.md") == text
    (note,) = file_notes(data, "letter.txt")
    assert note.startswith("letter.txt: the file is not UTF-8; it was read as Windows-1252")
    assert file_notes(text.encode(), "letter.txt") == []  # UTF-8: nothing to say
    assert file_notes("\ufeffhi".encode("utf-16"), "letter.txt") == []


def test_size_limit() -> None:
    assert len(decode_text(b"a" * MAX_CHARS)) == MAX_CHARS
    with pytest.raises(InputError) as info:
        decode_text(b"a" * (MAX_CHARS + 1))
    assert "200,001 characters; the limit is 200,000" in str(info.value)
    with pytest.raises(InputError, match="more than the limit of 200,000 characters"):
        decode_text(b"a" * (4 * MAX_CHARS + 1))
    with pytest.raises(InputError, match="200,001 characters"):
        validate_text("é" * (MAX_CHARS + 1))


def test_validate_text() -> None:
    assert validate_text("a\r\nb\rc") == "a\nb\nc"
    with pytest.raises(InputError, match="empty"):
        validate_text("")
    with pytest.raises(InputError, match="only whitespace"):
        validate_text(" \r\n ")


@pytest.mark.parametrize("name", ["a.txt", "B.MD", "dir/c.md"])
def test_extract_plain(name: str) -> None:
    assert extract_text(b"Hello Ada\r\n", name) == "Hello Ada\n"


def test_markdown_files_are_read_as_their_words() -> None:
    """Heading marks, bold and links are markup, not words (the adversary took '**Present:**'
    into people's descriptions); blacked-out placeholders and bracket tags stay."""
    md = (
        "# Minutes of [LOCATION_1]\n\n**Present:** Cllr [PERSON_1] (Chair), Mrs ***, Mr **** "
        "****.\nSee [the plan](https://example.org/p) and 2**10 in snake_case_name.\n"
    )
    assert extract_text(md.encode(), "minutes.md") == (
        "Minutes of [LOCATION_1]\n\nPresent: Cllr [PERSON_1] (Chair), Mrs ***, Mr **** ****.\n"
        "See the plan and 2**10 in snake_case_name.\n"
    )
    assert extract_text(md.encode(), "minutes.txt") == md  # plain text stays as it is


# --------------------------------------------------------------------------- docx


def test_extract_docx_paragraphs_and_tables() -> None:
    def build(d: docx.document.Document) -> None:
        d.add_heading("Memo", level=1)
        d.add_paragraph("Dear Ms Ilsa Varga,")
        table = d.add_table(rows=2, cols=3)
        table.cell(0, 0).text = "Name"
        table.cell(0, 1).text = "Phone"
        table.cell(0, 2).text = ""
        table.cell(1, 0).merge(table.cell(1, 2)).text = "Ilsa Varga, +44 20 7946 0001"
        d.add_paragraph("Regards")

    text = extract_text(_docx(build), "memo.docx")
    assert text == "Memo\nDear Ms Ilsa Varga,\nName | Phone\nIlsa Varga, +44 20 7946 0001\nRegards"


def test_extract_docx_reads_what_a_redaction_can_leave_behind() -> None:
    """Page headers and footers are part of the document; tracked deletions and comments stay
    in the file after a redaction, so the audit reads them too (an adversary with the file can)."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    def build(d: docx.document.Document) -> None:
        d.sections[0].header.paragraphs[0].text = "Pell & Odum, solicitors: Rhoda Pell"
        d.sections[0].footer.paragraphs[0].text = "14 Quay Street"
        para = d.add_paragraph("Our client ")
        deletion = OxmlElement("w:del")
        deletion.set(qn("w:id"), "1")
        deletion.set(qn("w:author"), "RP")
        run = OxmlElement("w:r")
        gone = OxmlElement("w:delText")
        gone.text = "Cosmo Brill"
        run.append(gone)
        deletion.append(run)
        para._p.append(deletion)
        para.add_run("[NAME] repairs clocks.")
        d.add_comment(para.runs[0], text="Cosmo is 61", author="RP")

    notes = textio.file_notes(_docx(build), "letter.docx")
    assert notes == [
        "letter.docx: the file holds 1 tracked deletion(s) and 1 comment(s) that anyone with "
        "the file can read; they are audited with the text (at its end). Remove them before "
        "release."
    ]
    assert extract_text(_docx(build), "letter.docx") == (
        "Pell & Odum, solicitors: Rhoda Pell\nOur client [NAME] repairs clocks.\n14 Quay Street"
        "\n\nTracked deletions still in the file:\nCosmo Brill\n\nComments in the file:\n"
        "Cosmo is 61"
    )


def test_read_file_parses_a_word_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text and notes come from one parse of the file (extract_text and file_notes parsed it
    twice)."""
    data = _docx(lambda d: d.add_comment(d.add_paragraph("[NAME] sings.").runs[0], text="Alto"))
    calls = []
    real = docx.Document
    monkeypatch.setattr(docx, "Document", lambda *a: calls.append(1) or real(*a))
    read = textio.read_file(data, "choir.docx")
    assert read.text == "[NAME] sings.\n\nComments in the file:\nAlto"
    assert read.notes and "1 comment(s)" in read.notes[0]
    assert len(calls) == 1


def _annotated_pdf() -> bytes:
    """A PDF with a redaction mark that was never applied and a sticky-note comment."""
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        TextStringObject,
    )

    writer = pypdf.PdfWriter()
    writer.append(pypdf.PdfReader(io.BytesIO(_pdf(["Witness: Ivor Penhale, 58, of Mill Row."]))))
    for kind, words in (("/Redact", ""), ("/Text", "Ivor asked us to keep his age out")):
        annot = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject(kind),
                NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (70, 700, 300, 730)]),
            }
        )
        if words:
            annot[NameObject("/Contents")] = TextStringObject(words)
        writer.add_annotation(0, annot)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def test_pdf_comments_are_read_and_unapplied_redactions_are_said() -> None:
    data = _annotated_pdf()
    assert extract_text(data, "w.pdf") == (
        "Witness: Ivor Penhale, 58, of Mill Row.\n\nComments in the file:\n"
        "Ivor asked us to keep his age out"
    )
    marks, held = textio.file_notes(data, "w.pdf")
    assert marks.startswith("w.pdf: 1 redaction mark(s) are not applied: the text under them")
    assert "the file holds 1 comment(s) that anyone with the file can read" in held
    assert textio.file_notes(_pdf(["Plain words."]), "p.pdf") == []
    assert textio.file_notes(b"not a pdf", "bad.pdf") == []  # extraction reports it


def test_extract_docx_nested_table() -> None:
    def build(d: docx.document.Document) -> None:
        outer = d.add_table(rows=1, cols=2)
        outer.cell(0, 0).text = "left"
        inner = outer.cell(0, 1).add_table(rows=1, cols=1)
        inner.cell(0, 0).text = "inner cell"

    assert "inner cell" in extract_text(_docx(build), "n.docx")


def test_extract_docx_empty_and_corrupt() -> None:
    with pytest.raises(InputError, match=r"e.docx: this Word \(.docx\) file contains no text"):
        extract_text(_docx(lambda d: d.add_paragraph("  ")), "e.docx")
    with pytest.raises(InputError, match=r"not a readable Word \(.docx\) file"):
        extract_text(b"PK\x03\x04 definitely not a zip", "x.docx")
    with pytest.raises(InputError, match=r"not a readable Word \(.docx\) file"):
        extract_text(b"plain text renamed", "x.docx")


def test_extract_docx_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textio, "MAX_CHARS", 10)
    with pytest.raises(InputError, match="the limit is 10"):
        extract_text(_docx(lambda d: d.add_paragraph("x" * 11)), "big.docx")


# --------------------------------------------------------------------------- pdf


def test_extract_pdf_text() -> None:
    text = extract_text(_pdf(["Judgment of 3 May 2021", "The applicant, Mr Tomas Brandl"]), "j.pdf")
    assert "Judgment of 3 May 2021" in text
    assert "Mr Tomas Brandl" in text


def test_extract_pdf_without_text_layer() -> None:
    with pytest.raises(InputError) as info:
        extract_text(_blank_pdf(), "scan.pdf")
    assert str(info.value) == (
        "scan.pdf: this PDF has no text layer (scanned?); run OCR first or paste the text"
    )


@pytest.mark.parametrize("data", [b"%PDF-1.4 garbage", b"hello", _pdf(["x"])[:60]])
def test_extract_corrupt_pdf(data: bytes) -> None:
    with pytest.raises(InputError, match=r"bad.pdf: this is not a readable PDF file"):
        extract_text(data, "bad.pdf")


def test_extract_encrypted_pdf() -> None:
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(_pdf(["secret text"]))))
    try:
        writer.encrypt(user_password="pw", algorithm="RC4-128")
    except Exception as exc:  # pragma: no cover - depends on optional crypto backends
        pytest.skip(f"pypdf cannot encrypt here: {exc}")
    buf = io.BytesIO()
    writer.write(buf)
    with pytest.raises(InputError, match="password-protected"):
        extract_text(buf.getvalue(), "locked.pdf")


# --------------------------------------------------------------------------- dispatch


@pytest.mark.parametrize(
    ("name", "hint"), [("a.rtf", ".rtf"), ("old.doc", "save it as .docx"), ("README", "no ext")]
)
def test_unsupported_extension(name: str, hint: str) -> None:
    with pytest.raises(InputError) as info:
        extract_text(b"text", name)
    assert hint in str(info.value)
    assert "supported: .txt, .md, .docx, .pdf" in str(info.value)


def test_upload_byte_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textio, "MAX_UPLOAD_BYTES", 100)
    with pytest.raises(InputError, match="the file is 101 bytes; the limit is 100 bytes"):
        extract_text(b"x" * 101, "big.pdf")
    with pytest.raises(InputError, match="the file is empty"):
        extract_text(b"", "empty.docx")


def test_shipped_samples_are_valid_inputs(data_dir: Path) -> None:
    samples = sorted((data_dir / "samples").glob("*.txt"))
    assert len(samples) == 3
    for path in samples:
        text = extract_text(path.read_bytes(), path.name)
        assert 600 <= len(text) <= 2500, path.name
        assert path.name in (data_dir / "samples" / "README.md").read_text(encoding="utf-8")
