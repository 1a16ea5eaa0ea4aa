"""End to end in a real headless Chromium: ask, look up, make and download a checklist.

Runs the real Assistant (the index is built on first start, behind the page's progress
bar) on loopback, drives Debian's /usr/bin/chromium with Playwright, and keeps
screenshots and the downloads under tests/artifacts/. Every request the page makes must
stay on loopback: the app needs no network.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
LOAD_TIMEOUT_MS = 600_000  # first start builds the index


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def app_url():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    pytest.importorskip("playwright.sync_api")
    from assistant.settings import Settings
    from assistant.webapp.loader import AssistantLoader

    from app import build_app

    loader = AssistantLoader()  # the real Assistant, loading in the background
    demo = build_app(settings=Settings(staff_user=None, staff_password=None), loader=loader)
    loader.start()
    port = _free_port()
    demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port)
    yield f"http://127.0.0.1:{port}/"
    demo.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture()
def page(browser, app_url, request):
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 1000})
    pg = context.new_page()
    pg.offsite: list[str] = []  # type: ignore[attr-defined]
    pg.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1", "data:", "blob:"))
          else pg.offsite.append(r.url))  # type: ignore[attr-defined]
    pg.set_default_timeout(60_000)
    pg.goto(app_url)
    pg.wait_for_selector("#oa-question textarea")
    # the banner is filled by the page load's status request: wait for a state, then for ready
    pg.wait_for_selector("#oa-status .oa-loading, #oa-status .oa-ready, #oa-status .oa-error", state="attached")
    loading = pg.locator("#oa-loading")
    if loading.count() and loading.is_visible():
        pg.screenshot(path=str(ARTIFACTS / "00-loading.png"), full_page=True)
        loading.wait_for(state="detached", timeout=LOAD_TIMEOUT_MS)
    pg.wait_for_selector("#oa-status .oa-ready", state="attached", timeout=LOAD_TIMEOUT_MS)
    yield pg
    assert not pg.offsite, f"the page reached beyond loopback: {pg.offsite[:5]}"  # type: ignore[attr-defined]
    context.close()


def _field(page, elem_id: str):
    return page.locator(f"#{elem_id} textarea, #{elem_id} input").first


def test_ask_a_question_and_see_a_cited_answer(page):
    _field(page, "oa-question").fill("When must I notify the Director of Public Works before excavating in Brandon?")
    page.locator("#oa-ask").click()
    chat = page.locator("#oa-chat")
    chat.get_by_text("Answered by", exact=False).first.wait_for(timeout=120_000)
    source = chat.locator("[role=button]", has_text="Source: Village of Brandon Code § 404-7").first
    source.wait_for()
    body = chat.get_by_text("Section 404-7 ·", exact=False).first
    assert not body.is_visible()  # quotes start collapsed
    source.click()  # open the collapsed quote: section, subsection, page and the words
    body.wait_for()
    assert "subsection" in body.inner_text()
    assert "Village of Brandon" in page.locator("#oa-detected").inner_text()
    page.screenshot(path=str(ARTIFACTS / "01-ask.png"), full_page=True)


def test_run_a_lookup_and_open_the_section(page):
    page.get_by_role("tab", name="Look up").click()
    _field(page, "oa-lookup-q").fill("backfill compaction")
    page.locator("#oa-lookup-go").click()
    page.locator("#oa-lookup-results mark").first.wait_for()
    marks = page.locator("#oa-lookup-results mark").all_inner_texts()
    assert any(m.lower().startswith(("backfill", "compact")) for m in marks)
    citation = _field(page, "oa-citation")
    page.wait_for_function("el => el.value.length > 0", arg=citation.element_handle())
    assert "Code" in citation.input_value()
    page.locator("#oa-open").click()
    page.locator("#oa-section h3").wait_for()
    page.screenshot(path=str(ARTIFACTS / "02-lookup.png"), full_page=True)


def test_make_a_checklist_and_download_it(page):
    page.get_by_role("tab", name="Contractor checklist").click()
    _field(page, "oa-cl-location").fill("Main St at 2nd St")
    _field(page, "oa-cl-start").fill("2025-03-10")
    page.locator("#oa-cl-pavement").get_by_text("Bituminous (asphalt)").click()
    _field(page, "oa-cl-paved").fill("2024-06-01")
    page.locator("#oa-cl-go").click()
    page.locator("#oa-cl-md").wait_for(state="visible")
    assert "items" in page.locator("#oa-cl-msg").inner_text()
    assert "5 times the permit fee" in page.locator("#oa-cl-view").inner_text()
    with page.expect_download() as md_download:
        page.locator("#oa-cl-md").click()
    md_path = ARTIFACTS / "checklist.md"
    md_download.value.save_as(md_path)
    md = md_path.read_text(encoding="utf-8")
    assert md.startswith("# Pre-application checklist") and "§ 404-7" in md and "2025-04-02" in md
    with page.expect_download() as pdf_download:
        page.locator("#oa-cl-pdf").click()
    pdf_path = ARTIFACTS / "checklist.pdf"
    pdf_download.value.save_as(pdf_path)
    assert pdf_path.read_bytes().startswith(b"%PDF-")
    page.screenshot(path=str(ARTIFACTS / "03-checklist.png"), full_page=True)
