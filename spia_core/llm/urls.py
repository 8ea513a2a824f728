"""Endpoint URLs without credentials: what may be stored, printed, hashed or exported."""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

_USERINFO = re.compile(r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s]+@")


def redact_url(url: str | None) -> str | None:
    """``url`` without ``user:password@`` (None stays None; an unparsable URL is masked)."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return _USERINFO.sub(r"\g<scheme>", url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def redact_urls_in(text: str) -> str:
    """Every ``scheme://user:pass@`` in free text (error messages, logs) without credentials."""
    return _USERINFO.sub(r"\g<scheme>", text)
