"""Real-browser end-to-end test: Debian chromium driven by PyPI playwright (never
`playwright install`). Run: pytest -m browser tests/browser -s"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import CHROMIUM_ARGS, ROOT

pytestmark = pytest.mark.browser
SHOTS = ROOT / "artifacts" / "browser"


def _run_button(page: Any) -> Any:
    """The enabled "Run audit" button: while a rerun settles, Streamlit can show a stale,
    disabled copy beside the new one (two buttons of that name: a strict-mode error)."""
    return page.locator("button:enabled").filter(has_text="Run audit").first


def test_offline_audit_of_bundled_sample(chromium_path: str, streamlit_server: dict) -> None:
    from playwright.sync_api import expect, sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

        page.goto(str(streamlit_server["url"]))
        expect(page.get_by_role("heading", name="Audit a document")).to_be_visible(timeout=60_000)
        t_first = time.perf_counter() - float(streamlit_server["t_launch"])

        page.get_by_text("Bundled sample", exact=True).click()
        run = _run_button(page)
        try:
            expect(run).to_be_enabled(timeout=30_000)
        except AssertionError:
            page.screenshot(path=str(SHOTS / "debug_sample.png"))
            raise
        # let the background pre-warm finish, as a user reading the page would
        time.sleep(8)
        t0 = time.perf_counter()
        run.click()
        expect(page.get_by_text("Verdict:", exact=False).first).to_be_visible(timeout=120_000)
        t_run = time.perf_counter() - t0

        # metric tiles and subjects render
        for label in ("Token recall", "ER_di", "CPR", "IPR", "1-AAC"):
            expect(
                page.get_by_test_id("stMetricLabel").filter(has_text=label).first
            ).to_be_visible()
        expect(page.get_by_role("heading", name="Subjects")).to_be_visible()
        expect(page.locator("mark.spia-hl").first).to_be_attached(timeout=30_000)
        expect(page.get_by_text("identifier spans masked", exact=False).first).to_be_visible()
        page.screenshot(path=str(SHOTS / "audit_sample.png"))
        page.locator("mark.spia-hl").first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "audit_sample_evidence.png"))
        assert not dialogs, dialogs  # nothing executed from the document

        # a TAB document (about 9,000 characters) from the bundled dataset, warm
        page.get_by_text("SPIA dataset document", exact=True).click()
        expect(page.get_by_text("GT subjects; span annotations", exact=False)).to_be_visible(
            timeout=60_000
        )
        _wait_idle(page)
        t0 = time.perf_counter()
        _run_button(page).click()
        expect(page.get_by_text(re.compile(r"Audit of TAB-\w+ done in")).first).to_be_visible(
            timeout=120_000
        )
        expect(page.get_by_test_id("stMetricLabel").filter(has_text="CPR").first).to_be_visible()
        t_tab = time.perf_counter() - t0
        _wait_idle(page)
        expect(page.locator(".spia-doc")).to_have_count(2)
        t_tab_idle = time.perf_counter() - t0
        page.screenshot(path=str(SHOTS / "audit_tab.png"))

        # the whole results page in one tall viewport (Streamlit scrolls inside its own
        # container, so full_page screenshots do not work), then the other result tabs
        page.set_viewport_size({"width": 1500, "height": 6000})
        _wait_idle(page)
        page.wait_for_timeout(1500)
        page.screenshot(path=str(SHOTS / "audit_tab_full.png"))
        for tab, shot, probe in (
            ("Subjects", "tab_subjects", page.get_by_test_id("stDataFrame")),
            ("Charts", "tab_charts", page.locator(".js-plotly-plot >> visible=true")),
            ("Fix and re-audit", "tab_fix", page.get_by_text("Redact all evidence for subject")),
            ("Adjudicate", "tab_adjudicate", page.get_by_role("button", name="Apply override")),
            ("Export", "tab_export", page.get_by_role("button", name="Report (HTML)")),
        ):
            page.get_by_role("tab", name=tab).click()
            expect(probe.first).to_be_visible(timeout=30_000)
            _wait_idle(page)
            page.wait_for_timeout(800)
            page.screenshot(path=str(SHOTS / f"{shot}.png"))
        browser.close()
    print(
        f"\nTIMING first page after `streamlit run`: {t_first:.2f}s; Run -> results: sample "
        f"{t_run:.2f}s, TAB document {t_tab:.2f}s (page idle {t_tab_idle:.2f}s)"
    )
    assert not [e for e in errors if "spia" in e.lower()], errors
    # Speed is reported (printed above), not asserted: machines here are noisy.


def _wait_idle(page: object, timeout: float = 60.0) -> None:
    """Wait until the app has finished its rerun (no "running" status widget)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.get_by_test_id("stStatusWidget").count() == 0:  # type: ignore[attr-defined]
            return
        time.sleep(0.05)


def test_script_in_pasted_text_is_inert(chromium_path: str, streamlit_server: dict) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(str(streamlit_server["url"]))
        area = page.get_by_role("textbox", name="Original text")
        expect(area).to_be_visible(timeout=60_000)
        area.fill(
            "Mr John Smith, a Norwegian engineer, lives in Oslo. <script>alert('xss')</script>"
            "<img src=x onerror=alert('img')> <b>bold</b>"
        )
        area.press("Control+Enter")
        run = _run_button(page)
        expect(run).to_be_enabled(timeout=30_000)
        run.click()
        expect(page.get_by_text("Verdict:", exact=False).first).to_be_visible(timeout=120_000)
        doc = page.locator(".spia-doc").first
        expect(doc).to_contain_text("<script>alert('xss')</script>")
        assert page.locator(".spia-doc script, .spia-doc img, .spia-doc b").count() == 0
        assert not dialogs, dialogs
        page.screenshot(path=str(SHOTS / "inert_script.png"), full_page=True)
        browser.close()


REDACTED_NOTE = """Meeting note, 14 March

[PERSON] came in about the complaint from the warehouse. He is 38, has worked the night shift
as a forklift driver for six years and lives with his partner in [LOCATION]. He said the
supervisor, a woman in her fifties, shouted at him in front of the team. [PERSON] asked that
his name stay out of the report; his union representative, Priya Nandakumar, was present.
Follow-up with HR next week."""


def test_redacted_only_audit_makes_no_external_request(
    chromium_path: str, streamlit_server: dict
) -> None:
    """A redacted note audited alone, in a real browser: people, exposure, no CPR; every
    request the page makes goes to the app itself (no font host, no CDN)."""
    from playwright.sync_api import expect, sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    base = str(streamlit_server["url"])
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1800})
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(base)
        expect(page.get_by_role("heading", name="Audit a document")).to_be_visible(timeout=60_000)
        expect(page.get_by_text("only your redacted version", exact=False)).to_be_visible()
        page.get_by_test_id("stCheckbox").filter(has_text="I already have the redacted").click()
        area = page.get_by_label("Redacted text")
        expect(area).to_be_visible(timeout=30_000)
        area.fill(REDACTED_NOTE)
        area.press("Control+Enter")
        run = _run_button(page)
        expect(run).to_be_enabled(timeout=30_000)
        run.click()
        expect(
            page.get_by_test_id("stMetricLabel").filter(has_text="People singled out")
        ).to_be_visible(timeout=120_000)
        expect(page.get_by_text("Verdict:", exact=False).first).to_be_visible()
        expect(page.get_by_text("No CPR without the original.", exact=True)).to_be_visible()
        page.set_viewport_size({"width": 1500, "height": 4200})  # the whole results page
        _wait_idle(page)
        page.wait_for_timeout(1500)
        page.screenshot(path=str(SHOTS / "redacted_only.png"))
        for tab, shot in (("Evidence", "redacted_evidence"), ("Placeholders", "redacted_ph")):
            page.get_by_role("tab", name=tab).click()
            page.wait_for_timeout(500)
            _wait_idle(page)
            page.wait_for_timeout(1000)
            page.screenshot(path=str(SHOTS / f"{shot}.png"))
        browser.close()
    outside = [u for u in requests if not u.startswith((base, "data:", "blob:"))]
    assert requests and not outside, outside


GERMAN_NOTE = (
    "Liebe Frau Albers, mein Name ist Konrad Weil, ich bin 47 Jahre alt und arbeite als "
    "Elektriker bei einer Firma in der Nähe des Bahnhofs. Meine Tochter geht dort zur Schule."
)
EVIL = "[x](https://evil.example)"


def test_german_cannot_judge_and_markdown_in_a_file_name(
    chromium_path: str, streamlit_server: dict
) -> None:
    """A German note: the verdict is "cannot judge" with the reason, the status never "done".
    An uploaded file named like a Markdown link: its name is shown as text, never a link."""
    from playwright.sync_api import expect, sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 2400})
        page.goto(str(streamlit_server["url"]))
        page.get_by_text("Upload a file", exact=True).click()
        page.locator("input[type=file]").first.set_input_files(
            files=[
                {"name": f"{EVIL}.txt", "mimeType": "text/plain", "buffer": GERMAN_NOTE.encode()}
            ]
        )
        run = _run_button(page)
        expect(run).to_be_enabled(timeout=60_000)
        run.click()
        verdict = page.get_by_text("Verdict: cannot judge", exact=False).first
        expect(verdict).to_be_visible(timeout=120_000)
        expect(page.get_by_text("cannot judge (", exact=False).first).to_be_visible()
        assert page.get_by_text(re.compile(r"Audit of .* done in")).count() == 0
        expect(page.get_by_text("Audit of [x](https", exact=False).first).to_be_visible()
        links = page.locator('a[href*="evil.example"]')
        where = [
            links.nth(i).evaluate("e => e.closest('[data-testid]')?.outerHTML.slice(0, 600)")
            for i in range(links.count())
        ]
        assert not where, where
        _wait_idle(page)
        page.wait_for_timeout(1000)
        page.screenshot(path=str(SHOTS / "german_cannot_judge.png"))
        browser.close()
