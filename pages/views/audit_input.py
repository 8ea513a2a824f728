"""The Audit page's input: the original document and, optionally, the user's redaction."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from pages.components.resources import (
    BUNDLED,
    K_OPEN_DOC,
    bundled_dataset,
    sample_files,
)
from pages.components.text import md
from spia_core.model import Document
from spia_core.textio import InputError, read_file, validate_text

SOURCES = ("Paste text", "Upload a file", "Bundled sample", "SPIA dataset document")
TYPES = ["txt", "md", "docx", "pdf"]


@dataclass
class AuditInput:
    """What the user gave: the original (None when only the redaction is given)."""

    original: Document | None
    redacted: str | None
    redacted_name: str = "redacted"

    @property
    def has_gt(self) -> bool:
        return bool(self.original is not None and self.original.subjects)

    @property
    def redacted_only(self) -> bool:
        """Only a redacted text: the adversary reads it alone (no ground truth, no CPR)."""
        return self.original is None and self.redacted is not None

    @property
    def ready(self) -> bool:
        return self.original is not None or self.redacted is not None


def extract(data: bytes, name: str) -> str | None:
    """The text of an uploaded file, or None with the reason shown."""
    try:
        read = read_file(data, name)
    except InputError as exc:  # its message starts with the file name
        st.error(md(exc))
        return None
    for note in read.notes:  # unapplied redactions, comments, tracked deletions
        st.warning(md(note))
    return read.text


def _pasted() -> Document | None:
    text = st.text_area(
        "Original text",
        height=200,
        key="paste_text",
        help="Only the redacted version? Leave this empty and tick *I already have the "
        "redacted version* below: it is audited alone.",
    )
    if not text.strip():
        return None
    try:
        return Document("pasted", validate_text(text, "pasted text"))
    except InputError as exc:
        st.error(md(exc))
        return None


def _uploaded() -> Document | None:
    up = st.file_uploader(
        "Original document (.txt, .md, .docx, .pdf)", type=TYPES, key="upload_original"
    )
    if up is None:
        return None
    text = extract(up.getvalue(), up.name)
    return Document(up.name, text) if text is not None else None


def _sample() -> Document | None:
    files = sample_files()
    if not files:
        st.info("No bundled samples found under data/samples/.")
        return None
    pick = st.selectbox("Sample", files, format_func=lambda p: p.stem, key="sample_pick")
    return Document(pick.stem, pick.read_text(encoding="utf-8"))


def _dataset_document() -> Document:
    opened = st.session_state.get(K_OPEN_DOC)
    names = list(BUNDLED)
    ds = st.selectbox(
        "Dataset", names, index=names.index(opened[0]) if opened else 0, key="ds_pick"
    )
    docs = bundled_dataset(ds)
    ids = [d.data_id for d in docs]
    idx = ids.index(opened[1]) if opened and opened[0] == ds and opened[1] in ids else 0
    data_id = st.selectbox("Document", ids, index=idx, key=f"doc_pick_{ds}")
    doc = docs[ids.index(data_id)]
    st.caption(
        f"{len(doc.subjects)} GT subjects; span annotations: "
        f"{'yes' if doc.entities else 'no'}. Its GT and spans are used for scoring."
    )
    return doc


def _redacted() -> tuple[str | None, str]:
    """The user's own redacted version (paste or upload) and its name, when they have one."""
    if not st.checkbox(
        "I already have the redacted version",
        key="has_redacted",
        help="Audit your redacted text. Without the original it is audited alone: who can "
        "be singled out and what can be inferred (no CPR without the original).",
    ):
        return None, ""
    how = st.radio("Redacted version", ["Paste", "Upload"], horizontal=True, key="red_how")
    if how == "Paste":
        text = st.text_area("Redacted text", height=160, key="red_text")
        if not text.strip():
            return None, ""
        try:
            return validate_text(text, "redacted text"), "redacted"
        except InputError as exc:
            st.error(md(exc))
            return None, ""
    up = st.file_uploader("Redacted document", type=TYPES, key="upload_redacted")
    if up is None:
        return None, ""
    return extract(up.getvalue(), up.name), up.name


def audit_input() -> AuditInput:
    """The input widgets: the document to audit and, optionally, its redacted version."""
    source = st.radio("Input", SOURCES, horizontal=True, key="input_source")
    readers = {
        SOURCES[0]: _pasted,
        SOURCES[1]: _uploaded,
        SOURCES[2]: _sample,
        SOURCES[3]: _dataset_document,
    }
    original = readers[source]()
    redacted, name = _redacted()
    return AuditInput(original, redacted, name or "redacted")
