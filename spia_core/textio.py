"""Document input for the dashboard upload and the CLI: bytes or pasted text -> clean text.

Supported: .txt and .md (UTF-8), .docx (paragraphs and table cells, via python-docx) and
.pdf (page text layer, via pypdf). Every refusal is an :class:`InputError` whose message says
what is wrong and what to do.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

#: Longest text accepted (characters, after extraction).
MAX_CHARS = 200_000
#: Largest upload accepted (bytes), for any format.
MAX_UPLOAD_BYTES = 20_000_000

TEXT_EXTENSIONS: tuple[str, ...] = (".txt", ".md")
SUPPORTED_EXTENSIONS: tuple[str, ...] = (*TEXT_EXTENSIONS, ".docx", ".pdf")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class InputError(ValueError):
    """Input text or file that cannot be used, with a message meant for the user."""


def _prefix(filename: str) -> str:
    return f"{filename}: " if filename else ""


def _size(n: int) -> str:
    return f"{n:,}"


def validate_text(text: str, filename: str = "") -> str:
    """Check pasted or extracted text (not empty, within MAX_CHARS); normalise newlines."""
    if isinstance(text, (bytes, bytearray)):
        raise InputError(
            f"{_prefix(filename)}got bytes, not text: decode the file first "
            "(spia_core.textio.decode_text or extract_text)"
        )
    if not isinstance(text, str):
        raise TypeError(f"{_prefix(filename)}expected the text as a str, got {type(text).__name__}")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    surrogate = _LONE_SURROGATE.search(text)
    if surrogate is not None:
        raise InputError(
            f"{_prefix(filename)}the text contains an unpaired surrogate "
            f"(U+{ord(surrogate.group()):04X}) at character {surrogate.start()}: it is not "
            "valid Unicode; re-export the text as UTF-8"
        )
    if not text:
        raise InputError(f"{_prefix(filename)}the text is empty")
    if not text.strip():
        raise InputError(f"{_prefix(filename)}the text contains only whitespace")
    if len(text) > MAX_CHARS:
        raise InputError(
            f"{_prefix(filename)}the text has {_size(len(text))} characters; the limit is "
            f"{_size(MAX_CHARS)}. Split it into smaller documents."
        )
    return text


def _check_upload_size(data: bytes, filename: str) -> None:
    if not data:
        raise InputError(f"{_prefix(filename)}the file is empty")
    if len(data) > MAX_UPLOAD_BYTES:
        raise InputError(
            f"{_prefix(filename)}the file is {_size(len(data))} bytes; the limit is "
            f"{_size(MAX_UPLOAD_BYTES)} bytes"
        )


def _wide_encoding(data: bytes) -> str:
    """'utf-32' or 'utf-16' when ``data`` starts with that byte-order mark, else ''."""
    if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "utf-32"
    return "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ""


def decode_text(data: bytes, filename: str = "") -> str:
    """Decode an uploaded plain-text file (UTF-8 with optional BOM, UTF-16/32 with a BOM, or
    else Windows-1252 when it decodes as that) and validate it."""
    return _decode(data, filename)[0]


def _decode(data: bytes, filename: str) -> tuple[str, str]:
    """(validated text, the encoding it was read in): see :func:`decode_text`."""
    _check_upload_size(data, filename)
    if len(data) > 4 * MAX_CHARS:  # UTF-8 needs at most 4 bytes a character
        raise InputError(
            f"{_prefix(filename)}the file is {_size(len(data))} bytes, more than the limit of "
            f"{_size(MAX_CHARS)} characters. Split it into smaller documents."
        )
    wide = _wide_encoding(data)
    if wide:  # Windows "Unicode" text: UTF-16 (or UTF-32) with its byte-order mark
        try:
            return validate_text(data.decode(wide), filename), wide
        except UnicodeDecodeError:
            raise InputError(
                f"{_prefix(filename)}the file starts like {wide.upper()} text but does not "
                "decode as it; save it as UTF-8 and try again"
            ) from None
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(
            f"{_prefix(filename)}this looks like a binary file, not text "
            f"(NUL byte at position {nul})"
        )
    encoding = "utf-8"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        try:
            text, encoding = data.decode(LEGACY_ENCODING), LEGACY_ENCODING
        except UnicodeDecodeError:
            raise InputError(
                f"{_prefix(filename)}the file is neither UTF-8 nor Windows-1252 text (byte "
                f"0x{data[exc.start]:02x} at position {exc.start}); save it as UTF-8 and try again"
            ) from None
    return validate_text(text, filename), encoding


#: The encoding of a plain-text file that is not UTF-8: Windows' "ANSI" code page of Western
#: Europe and the Americas, what Notepad and older Office exports wrote before UTF-8.
LEGACY_ENCODING = "cp1252"


# --------------------------------------------------------------------------- .docx


def _docx_blocks(container: Any) -> Iterator[str]:
    """Text of paragraphs and table rows (cells joined by ' | '), in document order."""
    from docx.table import Table

    for block in container.iter_inner_content():
        if isinstance(block, Table):
            for row in block.rows:
                seen: list[Any] = []
                cells: list[str] = []
                for cell in row.cells:
                    if any(cell._tc is tc for tc in seen):  # a merged cell repeats
                        continue
                    seen.append(cell._tc)
                    text = "\n".join(t for t in _docx_blocks(cell) if t.strip())
                    if text.strip():
                        cells.append(text)
                if cells:
                    yield " | ".join(cells)
        else:
            yield block.text


def _docx_margins(document: Any) -> tuple[list[str], list[str]]:
    """Text of the page headers and footers of every section, each text once."""
    heads: dict[str, None] = {}
    feet: dict[str, None] = {}
    for section in document.sections:
        for kind, into in (("header", heads), ("footer", feet)):
            for part in (f"first_page_{kind}", kind, f"even_page_{kind}"):
                text = "\n".join(t for t in _docx_blocks(getattr(section, part)) if t.strip())
                if text:
                    into.setdefault(text)
    return list(heads), list(feet)


def _docx_leftovers(document: Any) -> tuple[list[str], list[str]]:
    """Text a redaction can leave behind in a .docx: (tracked deletions, comments)."""
    ns = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    deleted = [
        "".join(t.text or "" for t in d.iter(f"{ns}delText"))
        for d in document.element.body.iter(f"{ns}del")
    ]
    comments = [c.text for c in document.comments if c.text.strip()]
    return [t for t in deleted if t.strip()], comments


def _listed(heading: str, items: list[str]) -> list[str]:
    return ["", heading, *items] if items else []


def _extract_docx(data: bytes) -> tuple[str, Leftovers]:
    """Page headers, body (paragraphs and tables), page footers, then what a redaction can
    leave behind unseen (tracked deletions, comments): an adversary with the file reads all."""
    import docx

    document = docx.Document(io.BytesIO(data))
    heads, feet = _docx_margins(document)
    body = list(_docx_blocks(document))
    deleted, comments = _docx_leftovers(document)
    hidden = [
        *_listed("Tracked deletions still in the file:", deleted),
        *_listed("Comments in the file:", comments),
    ]
    found = Leftovers(comments=len(comments), deletions=len(deleted))
    return "\n".join([*heads, *body, *feet, *hidden]), found


# --------------------------------------------------------------------------- .pdf


def _extract_pdf(data: bytes) -> tuple[str, Leftovers]:
    """The page text, then the comments' words; with the unapplied redaction marks counted."""
    reader = _pdf_reader(data)
    pages = [(page.extract_text() or "").strip() for page in reader.pages]
    text = "\n\n".join(p for p in pages if p)
    annots = _pdf_annotations(reader)
    comments = [c for kind, c in annots if c and kind != "/Redact"]
    found = Leftovers(marks=sum(kind == "/Redact" for kind, _ in annots), comments=len(comments))
    return "\n".join([text, *_listed("Comments in the file:", comments)]), found


def _pdf_reader(data: bytes) -> Any:
    import pypdf

    # pypdf logs what it repairs ("invalid pdf header") to stderr; a corrupt file is already
    # reported once, as an InputError, so its own warnings would only be noise on the console.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    reader = pypdf.PdfReader(io.BytesIO(data))
    if reader.is_encrypted and not reader.decrypt(""):
        raise InputError("this PDF is password-protected; remove the password or paste the text")
    return reader


def _pdf_annotations(reader: Any) -> list[tuple[str, str]]:
    """(subtype, text) of every annotation: '/Redact' marks, comments ('/Text', '/FreeText',
    highlights ...) with the words they carry ('' for none; links are left out)."""
    out = []
    for page in reader.pages:
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            kind = str(annot.get("/Subtype", ""))
            if kind not in ("/Link", "/Popup", "/Widget"):
                out.append((kind, str(annot.get("/Contents", "") or "").strip()))
    return out


@dataclass(frozen=True)
class Leftovers:
    """What a reader of a .docx or .pdf sees beyond its text, counted."""

    marks: int = 0  # PDF redaction marks never applied
    comments: int = 0
    deletions: int = 0  # tracked deletions of a .docx

    def notes(self, filename: str) -> list[str]:
        notes = []
        if self.marks:
            notes.append(
                f"{filename}: {self.marks} redaction mark(s) are not applied: the text under "
                "them is still in the file (and is audited). Apply the redactions before release."
            )
        held = [f"{self.deletions} tracked deletion(s)"] * bool(self.deletions)
        held += [f"{self.comments} comment(s)"] * bool(self.comments)
        if held:
            notes.append(
                f"{filename}: the file holds {' and '.join(held)} that anyone with the file can "
                "read; they are audited with the text (at its end). Remove them before release."
            )
        return notes


def _legacy_note(filename: str) -> str:
    return (
        f"{filename}: the file is not UTF-8; it was read as Windows-1252 (Western European "
        "'ANSI'). Check that accented letters and symbols (é, £, ’) look right; save it as "
        "UTF-8 to be sure."
    )


def file_notes(data: bytes, filename: str) -> list[str]:
    """What the user should know of how the file was read (:attr:`FileText.notes`; [] for an
    unreadable file). Reads the file: when you need its text as well, call :func:`read_file`."""
    try:
        return read_file(data, filename).notes
    except InputError:  # the extraction itself reports an unreadable file
        return []


# --------------------------------------------------------------------------- dispatch


_EXTRACTORS: dict[str, tuple[str, Callable[[bytes], tuple[str, Leftovers]]]] = {
    ".docx": ("Word (.docx)", _extract_docx),
    ".pdf": ("PDF", _extract_pdf),
}


#: Markdown markup that is no part of the words: heading marks, bold (never a run of three
#: or more asterisks, a blacked-out placeholder), and links (their text stays).
_MD_HEADING = re.compile(r"^[ ]{0,3}#{1,6}[ \t]+", re.MULTILINE)
_MD_BOLD = re.compile(r"(?<![*\w])(\*\*|__)([^*_\s](?:[^*\n]*?[^*_\s])?)\1(?![*\w])")
_MD_LINK = re.compile(r"\[([^\]\n]+)\]\((?:https?://|mailto:|/|#)[^)\s]*\)")


def plain_markdown(text: str) -> str:
    """The words of a Markdown text: '# Minutes' -> 'Minutes', '**Present:**' -> 'Present:',
    '[site](https://...)' -> 'site'. Placeholders such as '***' and '[PERSON_1]' stay."""
    text = _MD_HEADING.sub("", text)
    text = _MD_BOLD.sub(r"\2", text)
    return _MD_LINK.sub(r"\1", text)


@dataclass(frozen=True)
class FileText:
    """A file's text and what the user should know of how it was read: a plain-text file
    read as Windows-1252; unapplied PDF redaction marks, comments, tracked deletions."""

    text: str
    notes: list[str] = field(default_factory=list)


def extract_text(data: bytes, filename: str) -> str:
    """Text of an uploaded .txt, .md, .docx or .pdf file (chosen by the file's extension)."""
    return read_file(data, filename).text


def read_file(data: bytes, filename: str) -> FileText:
    """Text and notes of an uploaded .txt, .md, .docx or .pdf file, from one parse of it
    (raises :class:`InputError` with a clear message when it cannot be read)."""
    ext = PurePath(filename).suffix.lower()
    if ext in TEXT_EXTENSIONS:
        text, encoding = _decode(data, filename)
        notes = [_legacy_note(filename)] if encoding == LEGACY_ENCODING else []
        return FileText(plain_markdown(text) if ext == ".md" else text, notes)
    if ext not in _EXTRACTORS:
        hint = " (save it as .docx)" if ext == ".doc" else ""
        raise InputError(
            f"{_prefix(filename)}unsupported file type {ext or '(no extension)'}{hint}; "
            f"supported: {', '.join(SUPPORTED_EXTENSIONS)}"
        )
    _check_upload_size(data, filename)
    label, extract = _EXTRACTORS[ext]
    try:
        text, found = extract(data)
    except InputError as exc:
        raise InputError(f"{_prefix(filename)}{exc}") from None
    except Exception as exc:  # parsers raise many types on corrupt input
        raise InputError(
            f"{_prefix(filename)}this is not a readable {label} file "
            f"({type(exc).__name__}: {exc}); check the file or paste the text"
        ) from None
    if not text.strip():
        if ext == ".pdf":
            raise InputError(
                f"{_prefix(filename)}this PDF has no text layer (scanned?); "
                "run OCR first or paste the text"
            )
        raise InputError(f"{_prefix(filename)}this {label} file contains no text")
    return FileText(validate_text(text, filename), found.notes(filename))
