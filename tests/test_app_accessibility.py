"""The web app for everyone: WCAG 2.1 AA (axe-core), keyboard only, a phone, source
boxes and section links, and a status banner that tells the truth at page load.

Headless Chromium (Debian's /usr/bin/chromium) through Playwright, against the fake
assistant of test_app_api (real corpus passages and citations, no model, so it is fast).
axe-core is vendored (tests/data/axe-core/axe.min.js, MPL-2.0, from the npm registry):
nothing is downloaded at run time. Screenshots go to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest

from assistant.corpus import cite
from assistant.settings import Settings
from assistant.types import Answer, Citation
from assistant.webapp import render
from tests.test_app_api import FakeAssistant, make_settings

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
AXE = Path(__file__).resolve().parent / "data" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# three sentences of one provision (Brandon § 404-6A(4)) and one of another (§ 404-7F)
SURCHARGE = ["a surcharge shall be levied for any street opening",
             "The surcharge shall be determined as follows",
             "In addition to any permit fees or Village expenses"]
NOTICE = "at least one business day before such work is to commence"


class ManyQuotesAssistant(FakeAssistant):
    """The fake, answering with three quotes of one section and one of another."""

    def ask(self, question, municipality=None, history=None):
        base = super().ask(question, municipality, history)
        if "surcharge" not in question.lower():
            return base
        cites = [cite("brandon", q, section="404-6") for q in SURCHARGE]
        cites.append(cite("brandon", NOTICE, section="404-7"))
        return base.model_copy(update={"citations": cites, "answer": "A surcharge of **5 times** the permit fee."})


# --------------------------------------------------------------------------- servers and browser


class _Server:
    def __init__(self, assistant=None, settings: Settings | None = None, loader=None):
        from tests.test_app_api import free_port

        from app import build_app

        self.demo = build_app(assistant, settings=settings, loader=loader)
        self.port = free_port()
        self.demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=self.port)
        self.url = f"http://127.0.0.1:{self.port}/"


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    pytest.importorskip("playwright.sync_api")
    # staff credentials set: the Staff tab is there, and checked too
    s = _Server(ManyQuotesAssistant(), make_settings(tmp_path_factory.mktemp("a11y"), staff_user="clerk",
                                                     staff_password="correct horse"))
    yield s.url
    s.demo.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _open(browser, url: str, width: int = 1280, height: int = 900, scheme: str = "light", **kw):
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                  accept_downloads=True, **kw)
    page = context.new_page()
    page.offsite = []  # type: ignore[attr-defined]
    page.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1", "data:", "blob:"))
            else page.offsite.append(r.url))  # type: ignore[attr-defined]
    page.set_default_timeout(30_000)
    page.goto(url)
    page.wait_for_selector("#oa-question textarea", state="attached")  # a section link opens on Look up
    return context, page


@pytest.fixture()
def open_page(browser, app_url):
    contexts = []

    def opener(path: str = "", **kw):
        context, page = _open(browser, app_url + path, **kw)
        contexts.append((context, page))
        return page

    yield opener
    for context, page in contexts:
        assert not page.offsite, f"the page reached beyond loopback: {page.offsite[:5]}"
        context.close()


def axe_violations(page, rules: list[str] | None = None) -> list[dict]:
    """axe-core's WCAG 2.0/2.1 A and AA violations on the page as it is now (or only those
    of the named rules)."""
    page.wait_for_timeout(300)  # let gradio finish rendering and our mends run
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    run_only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": WCAG_TAGS}
    return page.evaluate(
        """async (runOnly) => {
            const r = await axe.run(document, {runOnly});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
        }""",
        run_only,
    )


def assert_no_violations(page, where: str, rules: list[str] | None = None) -> None:
    found = axe_violations(page, rules)
    assert not found, f"{where}: " + "\n".join(f"{v['id']} ({v['impact']}): {v['help']} {v['nodes']}" for v in found)


def _field(page, elem_id: str):
    return page.locator(f"#{elem_id} textarea, #{elem_id} input").first


def _ask(page, question: str) -> None:
    n = page.locator("#oa-chat .message-row.bot-row").count()
    _field(page, "oa-question").fill(question)
    page.locator("#oa-ask").click()
    page.wait_for_function("n => document.querySelectorAll('#oa-chat .message-row.bot-row').length > n", arg=n)
    page.get_by_text("Answered by", exact=False).last.wait_for()


# --------------------------------------------------------------------------- WCAG 2.1 AA (axe-core)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_violation_on_any_tab_or_state(open_page, scheme):
    """Every WCAG A/AA rule in light mode; in dark mode (which changes only colours) the
    contrast rule, to keep the run short."""
    page = open_page(scheme=scheme)
    rules = ["color-contrast"] if scheme == "dark" else None

    def check(where: str) -> None:
        assert_no_violations(page, f"{scheme}: {where}", rules)

    check("Ask, empty")
    _ask(page, "What is the surcharge for opening a street?")
    page.locator("#oa-chat [role=button]", has_text="Source:").first.click()  # an open source box too
    page.locator("#oa-chat a", has_text="Look up tab").first.wait_for()
    check("Ask, after an answer with an open source box")

    page.get_by_role("tab", name="Look up").click()
    check("Look up, empty")
    _field(page, "oa-lookup-q").fill("backfill compaction")
    page.locator("#oa-lookup-go").click()
    page.locator("#oa-lookup-results mark").first.wait_for()
    page.locator("#oa-open").click()
    page.locator("#oa-section h3").wait_for()
    page.get_by_text("Browse each chapter's outline").click()
    page.locator("#oa-outline-muni").get_by_text("Village of Brandon").click()
    page.locator("#oa-outline li").first.wait_for()
    check("Look up, after a search, a section and an outline")

    page.get_by_role("tab", name="Contractor checklist").click()
    check("Checklist, empty")
    page.get_by_text("Contractor's insurance certificate and bond").click()
    _field(page, "oa-cl-location").fill("Main St at 2nd St")
    page.locator("#oa-cl-go").click()
    page.locator("#oa-cl-md").wait_for(state="visible")
    check("Checklist, made")

    page.get_by_role("tab", name="Staff").click()
    check("Staff, signed out")
    _field(page, "oa-staff-user").fill("clerk")
    _field(page, "oa-staff-pw").fill("correct horse")
    page.locator("#oa-staff-login").click()
    page.locator("#oa-staff-reindex").wait_for()
    check("Staff, signed in")


def test_axe_finds_no_violation_on_a_phone(open_page):
    page = open_page(width=390, height=844, is_mobile=True, has_touch=True)
    assert_no_violations(page, "phone, Ask, empty")
    _ask(page, "What is the surcharge for opening a street?")
    assert_no_violations(page, "phone, Ask, after an answer")


def test_every_control_has_a_label_and_answers_are_announced(open_page):
    page = open_page()
    _ask(page, "What is the surcharge for opening a street?")
    live = page.locator("#oa-announce")
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "status"
    # (the announcement follows the answer's rendering; on a loaded machine it may still show the progress timer)
    page.wait_for_function("() => (document.querySelector('#oa-announce').innerText || '').startsWith('Answer:')",
                           timeout=30_000)
    said = live.inner_text()
    assert said.startswith("Answer: A surcharge of 5 times the permit fee.") and "2 sources" in said, said
    # the conversation is still a log to read; the concise announcement is the live region's
    assert page.locator("#oa-chat [role=log]").get_attribute("aria-live") == "off"
    # the source boxes say whether they are open, and their arrow is not a second control
    title = page.locator("#oa-chat [role=button]", has_text="Source:").first
    assert title.get_attribute("aria-expanded") == "false"
    title.click()
    page.wait_for_function("el => el.getAttribute('aria-expanded') === 'true'", arg=title.element_handle())
    assert page.locator("#oa-chat .thought-group .title button:not([inert] *)").count() == 0
    # the checklist's message is announced; staff sign-in fields say what they hold, and its
    # messages are announced
    page.get_by_role("tab", name="Contractor checklist").click()
    assert page.locator("#oa-cl-msg").get_attribute("aria-live") == "polite"
    page.get_by_role("tab", name="Staff").click()
    page.locator("#oa-staff-pw input[autocomplete=current-password]").wait_for()
    assert _field(page, "oa-staff-user").get_attribute("autocomplete") == "username"
    page.locator("#oa-staff-login").click()
    message = page.locator("#oa-staff .block[aria-live=polite]", has_text="Wrong user or password.")
    message.wait_for()
    assert message.get_attribute("role") == "status"


# --------------------------------------------------------------------------- keyboard only


def _focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement; const cs = getComputedStyle(e);
        return {tag: e.tagName, id: (e.closest('[id]') || {}).id || '',
                text: (e.innerText || e.value || '').slice(0, 80),
                label: e.getAttribute('aria-label') || '', role: e.getAttribute('role') || '',
                outline: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2}; }""")


def _tab_to(page, predicate, limit: int = 80, back: bool = False) -> dict:
    """Press Tab (or Shift+Tab) until the focused element matches; every stop shows focus."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        f = _focused(page)
        if f["tag"] != "BODY":
            assert f["outline"], f"no visible focus on {f}"
        if predicate(f):
            return f
    raise AssertionError(f"not reached by {limit} Tab presses")


def test_a_conversation_and_a_checklist_by_keyboard_only(open_page):
    page = open_page()
    kb = page.keyboard
    # the question box, from the top of the page
    _tab_to(page, lambda f: f["id"] == "oa-question" and f["tag"] == "TEXTAREA")
    kb.type("What is the surcharge")
    kb.press("Shift+Enter")  # a new line, not a send
    kb.type("for opening a street?")
    assert _field(page, "oa-question").input_value() == "What is the surcharge\nfor opening a street?"
    assert page.locator("#oa-chat .message-row").count() == 0
    kb.press("Enter")  # sends
    page.get_by_text("Answered by", exact=False).first.wait_for()
    assert _field(page, "oa-question").input_value() == ""
    # a follow-up, by Enter again
    page.locator("#oa-question textarea").focus()
    kb.type("And when must I give notice?")
    kb.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#oa-chat .message-row.user-row').length === 2")
    page.get_by_text("Answered by", exact=False).nth(1).wait_for()
    # open a source box and follow its link to the Look up tab
    _tab_to(page, lambda f: f["role"] == "button" and f["text"].startswith("Source:"), back=True)
    kb.press("Enter")
    _tab_to(page, lambda f: f["tag"] == "A" and "Look up tab" in f["text"])
    kb.press("Enter")
    page.locator("#oa-section h3").wait_for()
    page.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'H3'")
    assert page.get_by_role("tab", name="Look up").get_attribute("aria-selected") == "true"
    assert "§ 404-7" in _focused(page)["text"]

    # the checklist: reach its tab, fill the form, make it, download it
    _tab_to(page, lambda f: f["role"] == "tab" and f["text"] == "Contractor checklist", back=True)
    kb.press("Enter")
    page.locator("#oa-cl-location").wait_for()
    _tab_to(page, lambda f: f["id"] == "oa-cl-location")
    kb.type("Main St at 2nd St")
    _tab_to(page, lambda f: f["id"] == "oa-cl-start")
    kb.press("ControlOrMeta+a")
    kb.type("2025-03-10")
    _tab_to(page, lambda f: f["id"] == "oa-cl-pavement")  # gradio's radios are one Tab stop each
    kb.press("Space")  # the first, Bituminous (asphalt)
    assert page.locator("#oa-cl-pavement").get_attribute("aria-labelledby")  # the group has a name
    assert page.locator("#oa-cl-pavement input[value=bituminous]").is_checked()
    _tab_to(page, lambda f: f["id"] == "oa-cl-paved")
    kb.type("2024-06-01")
    _tab_to(page, lambda f: f["id"] == "oa-cl-emergency")
    _tab_to(page, lambda f: f["id"] == "oa-cl-go")
    kb.press("Enter")
    page.locator("#oa-cl-md").wait_for(state="visible")
    assert "items" in page.locator("#oa-cl-msg").inner_text()
    assert "5 times the permit fee" in page.locator("#oa-cl-view").inner_text()
    _tab_to(page, lambda f: f["id"] == "oa-cl-md")
    with page.expect_download() as download:
        kb.press("Enter")
    path = ARTIFACTS / "keyboard-checklist.md"
    download.value.save_as(path)
    assert path.read_text(encoding="utf-8").startswith("# Pre-application checklist")


# --------------------------------------------------------------------------- phone and desktop


def _in_view(page, box: dict | None) -> bool:
    vp = page.viewport_size
    return bool(box) and box["y"] >= -1 and box["x"] >= -1 and box["y"] + box["height"] <= vp["height"] + 1 \
        and box["x"] + box["width"] <= vp["width"] + 1


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 900)])
def test_question_box_and_last_answer_fit_the_screen(open_page, width, height):
    phone = width < 600
    page = open_page(width=width, height=height, is_mobile=phone, has_touch=phone)
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / f"layout-{width}x{height}-empty.png"))
    checks = """() => {
        const doc = document.documentElement;
        const muni = document.querySelector('#oa-ask-muni input');
        const tabs = [...document.querySelectorAll('#oa-tabs [role=tab]')].map(t => t.innerText);
        const more = document.querySelector('#oa-tabs .overflow-menu');
        const examples = [...document.querySelectorAll('#oa-tabs .gallery-item')].map(b => b.innerText.trim());
        return {pageOverflow: doc.scrollWidth - window.innerWidth, muniClipped: muni.scrollWidth > muni.clientWidth + 1,
                muniValue: muni.value, tabs, moreTabs: !!(more && more.offsetParent && more.offsetWidth),
                examples}; }"""
    state = page.evaluate(checks)
    assert state["pageOverflow"] <= 0, state
    assert state["muniValue"] == "Detect from my question" and not state["muniClipped"], state
    assert state["tabs"] == ["Ask", "Look up", "Contractor checklist", "Staff"] and not state["moreTabs"], state
    from assistant.webapp.ui import _examples

    assert state["examples"] == _examples(), state  # shown whole (gradio cuts a long one to "…a...")
    assert _in_view(page, page.locator("#oa-question textarea").bounding_box())
    assert _in_view(page, page.locator("#oa-ask").bounding_box())

    for question in ("What is the surcharge for opening a street?", "When must I give notice?"):
        _ask(page, question)
    page.wait_for_timeout(400)
    page.screenshot(path=str(ARTIFACTS / f"layout-{width}x{height}-answered.png"))
    assert page.evaluate("() => window.scrollY") == 0  # nothing scrolled the page
    assert _in_view(page, page.locator("#oa-question textarea").bounding_box())
    # the last answer's words are on screen, inside the conversation's visible part
    chat = page.locator("#oa-chat .bubble-wrap").bounding_box()
    answer = page.locator("#oa-chat .message-row.bot-row").last.get_by_text("Give notice", exact=False)
    box = answer.bounding_box()
    assert _in_view(page, box), (box, chat)
    assert chat["y"] <= box["y"] and box["y"] + box["height"] <= chat["y"] + chat["height"] + 0.5, (box, chat)
    assert page.evaluate(checks)["pageOverflow"] <= 0


CLIPPED = """() => {
    const shown = e => e.offsetParent !== null && e.getClientRects().length > 0;
    const inputs = [...document.querySelectorAll('input[type=text], input:not([type]), input[type=number]')]
        .filter(shown).filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => (e.closest('[id]') || {}).id + ': ' + e.value);
    const boxes = [...document.querySelectorAll('label:has(input[type=checkbox])')].filter(shown)
        .filter(l => l.getBoundingClientRect().width < 150).map(l => l.innerText.trim());
    return {pageOverflow: document.documentElement.scrollWidth - window.innerWidth, inputs, boxes};
}"""


def test_nothing_is_clipped_on_a_phone_on_any_tab(open_page):
    """At 390x844 every tab's fields show their whole value and checkboxes their label (the
    checklist's dropdowns read 'Village of Brandor' and its checkboxes were a few pixels wide)."""
    page = open_page(width=390, height=844, is_mobile=True, has_touch=True)
    clean = {"pageOverflow": 0, "inputs": [], "boxes": []}
    assert page.evaluate(CLIPPED) == clean
    page.get_by_role("tab", name="Look up").click()
    page.get_by_text("Browse each chapter's outline").click()
    page.get_by_text("Open a citation (e.g.").click()
    page.locator("#oa-ref").wait_for()
    assert page.evaluate(CLIPPED) == clean
    page.get_by_role("tab", name="Contractor checklist").click()
    page.get_by_text("Contractor's insurance certificate and bond").click()
    page.get_by_text("Details for sidewalks, driveways and heavy vehicles").click()
    page.locator("#oa-cl-lug").wait_for()
    page.screenshot(path=str(ARTIFACTS / "checklist-390x844.png"), full_page=True)
    assert page.evaluate(CLIPPED) == clean
    page.get_by_role("tab", name="Staff").click()
    page.locator("#oa-staff-user").wait_for()
    assert page.evaluate(CLIPPED) == clean


# --------------------------------------------------------------------------- sources and section links


def test_one_source_box_per_provision_listing_its_quotes():
    c = [cite("brandon", q, section="404-6") for q in SURCHARGE] + [cite("brandon", NOTICE, section="404-7")]
    c.append(c[0])  # a sentence quoted twice is listed once
    msgs = render.answer_messages(Answer(status="answered", answer="x", municipality="brandon", citations=c,
                                         backend="fake"))
    boxes = [m for m in msgs if (m.get("metadata") or {}).get("title", "").startswith("Source: ")]
    assert [b["metadata"]["title"] for b in boxes] == [
        "Source: " + c[0].label() + " — 3 quotes", "Source: " + c[3].label()]
    body = boxes[0]["content"]
    assert [line for line in body.splitlines() if line.startswith("> ")] == ["> " + render.escape_markdown(q)
                                                                             for q in SURCHARGE]
    assert "(?section=404-6A%284%29&m=brandon)" in body and "[Open § 404-6A(4) in the Look up tab]" in body


@pytest.mark.parametrize("ref", ["404-7H", "404-6A(4)", "8.01(4)", "EXCAVATION IN PUBLIC RIGHT-OF-WAY (2)(b)1."])
def test_section_links_read_back_to_their_provision(ref):
    from assistant.retrieval.citations import parse_citation

    mid = "brandon" if ref.startswith("404") else "delafield"
    parsed = parse_citation(ref, mid)
    assert parsed is not None and parsed.municipality == mid
    cited = Citation(municipality=mid, chapter="", section=parsed.section, title=parsed.title,
                     subsection=parsed.subsection, quote="")
    assert render.section_ref(cited) == ref


@pytest.mark.parametrize("ref,mid,expected", [
    ("404-7H", "brandon", "cited: H"),
    ("8.01(4)", "delafield", "cited: (4)"),
    ("404-7", "", "§ 404-7"),
    ("999-9", "brandon", "not found"),
    ("<script>alert(1)</script>", "brandon", "not found"),
    ("404-7H", "<img src=x onerror=alert(1)>", "no known municipality"),
])
def test_a_section_link_opens_its_section_or_says_why_not(ref, mid, expected):
    from assistant.webapp.ui import _section_from_link

    html, said = _section_from_link(ref, mid)
    assert expected in html or expected in said, (html[:300], said)
    assert "<script" not in html and "<img" not in html


def test_the_page_shows_one_box_per_provision(open_page):
    page = open_page()
    _ask(page, "What is the surcharge for opening a street?")
    titles = page.locator("#oa-chat [role=button]", has_text="Source:").all_inner_texts()
    assert len(titles) == 2 and "§ 404-6A(4)" in titles[0] and "3 quotes" in titles[0], titles
    page.locator("#oa-chat [role=button]", has_text="Source:").first.click()
    box = page.locator("#oa-chat .thought-group").filter(has_text="3 quotes")
    for q in SURCHARGE:
        box.get_by_text(q, exact=False).first.wait_for()


def test_a_url_opens_a_section_directly(open_page):
    page = open_page("?section=404-7H&m=brandon", width=390, height=844, is_mobile=True, has_touch=True)
    heading = page.locator("#oa-section h3")
    heading.wait_for()
    assert page.get_by_role("tab", name="Look up").get_attribute("aria-selected") == "true"
    assert "§ 404-7" in heading.inner_text() and "cited: H" in heading.inner_text()
    cited = page.locator("#oa-section .oa-cited").first
    assert "Emergency excavation" in cited.inner_text()
    page.wait_for_timeout(300)
    assert _in_view(page, cited.bounding_box())  # scrolled to the cited part
    assert page.locator("#oa-section a", has_text="Link to this section").get_attribute("href") == \
        "?section=404-7H&m=brandon"
    page.screenshot(path=str(ARTIFACTS / "section-link-390x844.png"))
    assert_no_violations(page, "a section opened by URL")

    bad = open_page("?section=999-9&m=brandon")
    bad.locator("#oa-section .oa-error").wait_for()
    assert "not found" in bad.locator("#oa-section").inner_text()


# --------------------------------------------------------------------------- status banner


def test_banner_tells_the_real_state_at_page_load(browser, tmp_path):
    """Loading: the banner shows the real progress. Ready: a new visitor never sees a
    banner, not even for a moment (the page was built while loading, at 1%, and once
    showed that to every later visitor until its first poll)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from assistant.webapp.loader import AssistantLoader

    release = threading.Event()

    def slow_factory(progress):
        progress(0.42, "building the search index")
        release.wait(60)
        return FakeAssistant()

    loader = AssistantLoader(factory=slow_factory)
    loader.start()
    server = _Server(settings=make_settings(tmp_path), loader=loader)
    try:
        context, page = _open(browser, server.url)
        banner = page.locator("#oa-loading")
        banner.wait_for()
        assert re.search(r"Preparing the assistant .* 42%", banner.inner_text()), banner.inner_text()
        assert_no_violations(page, "the loading banner")
        release.set()
        banner.wait_for(state="detached", timeout=15_000)  # and it goes when the assistant is ready
        context.close()

        assert loader.wait(15)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        # record every banner the page ever shows, from the first paint on
        page.add_init_script("""
            window.__banner = [];
            new MutationObserver(() => {
                const b = document.querySelector('#oa-status .oa-loading, #oa-status .oa-error');
                if (b) window.__banner.push(b.innerText.trim()); })
              .observe(document, {childList: true, subtree: true, characterData: true});""")
        page.goto(server.url)
        page.wait_for_selector("#oa-question textarea")
        page.wait_for_timeout(1500)
        assert page.evaluate("window.__banner") == []
        context.close()
    finally:
        release.set()
        server.demo.close()
