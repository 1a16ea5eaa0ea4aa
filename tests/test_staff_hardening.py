"""Staff mode under abuse (issue 13, item 4), against real apps on 127.0.0.1.

* an anonymous upload stores 0 bytes; a signed-in session's upload is size-capped and
  only a PDF is validated;
* failed sign-ins are limited per client address and overall, across sessions;
* a 40-attempt sign-in flood leaves every resident's question answered;
* request bodies are bounded and long log records cut.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import httpx
import pytest

from assistant.webapp.log_limits import TruncateLongRecords
from assistant.webapp.login_guard import LoginGuard, UploadGrants
from tests.test_app_api import FakeAssistant, Server, make_settings, staff_login, texts

STAFF = dict(staff_user="clerk", staff_password="correct horse")


def _files_under(folder: str | Path) -> dict[str, int]:
    root = Path(folder)
    return {str(p): p.stat().st_size for p in root.rglob("*") if p.is_file()} if root.exists() else {}


@pytest.fixture()
def staff_app(tmp_path):
    s = Server(FakeAssistant(), make_settings(tmp_path, max_upload_bytes=200_000, **STAFF))
    yield s
    s.close()


# -- uploads -------------------------------------------------------------------------------------
def test_an_anonymous_upload_stores_nothing(staff_app):
    upload_dir = staff_app.demo.server_app.uploaded_file_dir
    before = _files_under(upload_dir)
    url = staff_app.url + "gradio_api/upload"
    body = {"files": ("chapter.pdf", b"%PDF-1.4 " + b"x" * 19_000_000, "application/pdf")}
    for attempt in (dict(), dict(cookies={"oa_staff": "forged"}), dict(headers={"x-oa-staff-token": "forged"})):
        r = httpx.post(url, files=body, timeout=60, **attempt)
        assert r.status_code == 403 and "signed-in staff" in r.text
    time.sleep(0.5)  # gradio moves uploads to its cache in a background task
    assert _files_under(upload_dir) == before


def test_a_signed_in_upload_is_capped_and_revoked_at_sign_out(staff_app):
    c = staff_app.client()
    assert staff_login(c) == ""
    token = c.cookies["oa_staff"]
    url = staff_app.url + "gradio_api/upload"
    small = {"files": ("chapter.pdf", b"%PDF-1.4 " + b"x" * 1000, "application/pdf")}
    big = {"files": ("chapter.pdf", b"%PDF-1.4 " + b"x" * 400_000, "application/pdf")}
    assert httpx.post(url, files=small, cookies={"oa_staff": token}).status_code == 200
    assert httpx.post(url, files=small, headers={"x-oa-staff-token": token}).status_code == 200
    assert httpx.post(url, files=big, cookies={"oa_staff": token}).status_code == 413
    staff_app.demo.upload_grants.revoke(token)  # what "Sign out" does
    assert httpx.post(url, files=small, cookies={"oa_staff": token}).status_code == 403


def test_only_a_pdf_is_validated(staff_app, tmp_path):
    from gradio_client import handle_file

    from assistant.webapp.staff import validate_chapter_pdf

    c = staff_app.client()
    staff_login(c)
    text = tmp_path / "chapter.txt"
    text.write_text("%PDF-1.4 pretending")
    with pytest.raises(Exception, match=r"Invalid file type.*\.pdf"):  # gradio checks file_types itself
        c.predict("brandon", handle_file(str(text)), api_name="/staff_validate")
    v = validate_chapter_pdf("brandon", text, staff_app.settings)  # and so does the validation
    assert not v.ok and "only a PDF" in v.report


# -- sign-in limits -------------------------------------------------------------------------------
def test_the_lockout_is_per_address_and_overall():
    g = LoginGuard(per_address="3/15 minutes", overall="5/15 minutes")
    for _ in range(3):
        assert g.check("10.0.0.1").allowed
        g.failed("10.0.0.1")
    d = g.check("10.0.0.1")
    assert not d.allowed and "from your address" in d.message and "15 minutes" in d.message
    assert g.check("10.0.0.2").allowed  # another address is not locked by the first
    g.failed("10.0.0.2")
    g.failed("10.0.0.3")
    d = g.check("10.0.0.4")  # 5 failures over all addresses: everyone waits
    assert not d.allowed and "paused" in d.message


def test_a_success_clears_the_address_but_not_the_overall_count():
    g = LoginGuard(per_address="2/15 minutes", overall="100/15 minutes")
    g.failed("a")
    g.succeeded("a")
    g.failed("a")
    assert g.check("a").allowed


def test_the_lockout_survives_new_sessions(tmp_path):
    s = Server(FakeAssistant(), make_settings(tmp_path, staff_login_failures_per_address="3/15 minutes", **STAFF))
    try:
        for _ in range(3):
            assert s.client().predict("clerk", "guess", api_name="/staff_login") == ("Wrong user or password.", "")
        fresh = s.client()  # a new browser session, and the right password
        t0 = time.monotonic()
        msg, token = fresh.predict("clerk", "correct horse", api_name="/staff_login")
        assert "Too many failed sign-ins" in msg and token == ""
        assert time.monotonic() - t0 < 1.0  # refused at once, no pause
        assert fresh.predict(api_name="/staff_reindex") == "Please sign in first."
    finally:
        s.close()


def test_grants_are_bounded_and_expire():
    g = UploadGrants(ttl_s=0.2, max_grants=3)
    tokens = [g.issue() for _ in range(4)]
    assert not g.valid(tokens[0]) and all(g.valid(t) for t in tokens[1:])
    time.sleep(0.3)
    assert not any(g.valid(t) for t in tokens)
    assert not g.valid(None) and not g.valid("")


# -- a sign-in flood and residents ----------------------------------------------------------------
def test_residents_are_answered_during_a_40_attempt_sign_in_flood(tmp_path):
    s = Server(FakeAssistant(delay_s=0.3),
               make_settings(tmp_path, queue_concurrency=2, queue_max_size=16, **STAFF))
    try:
        from gradio_client import Client

        def client():  # a generous read timeout: the shared 2-core machine is often loaded
            return Client(s.url, verbose=False, download_files=False, httpx_kwargs={"timeout": 60})

        attackers = [client() for _ in range(40)]
        residents = [client() for _ in range(6)]
        start = threading.Barrier(len(attackers) + len(residents))
        login_msgs: list[str] = []
        answers: list[str] = []
        errors: list[str] = []

        def attack(c):
            start.wait(30)
            try:
                login_msgs.append(c.predict("clerk", "guess", api_name="/staff_login")[0])
            except Exception as exc:  # noqa: BLE001
                errors.append(f"login: {exc}")

        def ask(c, i):
            start.wait(30)
            time.sleep(0.05 * i)  # while the flood is on
            try:
                history, _, _ = c.predict(f"When must I notify before digging? ({i})", "auto", [], api_name="/ask")
                answers.append("\n".join(texts(history)))
            except Exception as exc:  # noqa: BLE001
                errors.append(f"resident {i}: {exc}")

        threads = [threading.Thread(target=attack, args=(c,)) for c in attackers]
        threads += [threading.Thread(target=ask, args=(c, i)) for i, c in enumerate(residents)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        elapsed = time.monotonic() - t0
        assert not errors, errors[:5]
        assert len(answers) == len(residents) and all("Give notice" in a for a in answers), answers
        assert len(login_msgs) == 40
        assert all(m in ("Wrong user or password.",) or "Too many failed" in m or "paused" in m for m in login_msgs)
        assert sum("Too many failed" in m or "paused" in m for m in login_msgs) >= 30  # locked after 5
        print(f"flood: 40 sign-ins and {len(residents)} residents in {elapsed:.1f} s")
    finally:
        s.close()


# -- bodies and logs -------------------------------------------------------------------------------
def test_an_oversize_request_body_is_refused_unread(tmp_path, caplog):
    s = Server(FakeAssistant(), make_settings(tmp_path))
    try:
        history = [{"role": "nobody", "content": "x" * 20, "n": i} for i in range(100_000)]  # ~3.9 MB
        body = {"data": ["hello", "auto", history], "fn_index": 0, "session_hash": "abc"}
        caplog.set_level(logging.INFO)
        r = httpx.post(s.url + "gradio_api/queue/join", json=body, timeout=60)
        assert r.status_code == 413 and "too large" in r.text
        assert sum(len(rec.getMessage()) for rec in caplog.records) < 10_000
        # an ordinary request still goes through
        history, _, _ = s.client().predict("When must I notify?", "auto", [], api_name="/ask")
        assert any("Give notice" in t for t in texts(history))
    finally:
        s.close()


def test_long_log_records_are_cut():
    logger = logging.getLogger("test.cut")
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(self.format(record))

    logger.addHandler(Keep())
    logger.addFilter(TruncateLongRecords(max_message=500, max_traceback=1000))
    logger.propagate = False
    logger.warning("history: %s", "h" * 1_000_000)
    try:
        raise ValueError("v" * 1_000_000)
    except ValueError:
        logger.exception("failed")
    assert len(records) == 2 and all(len(r) < 2_000 for r in records)
    assert "characters cut" in records[0] and "characters cut" in records[1]
    assert "ValueError" in records[1]


# -- the real page: sign in, the grant cookie, an upload, sign out -------------------------------------
@pytest.mark.browser
def test_the_page_signs_in_uploads_and_signs_out(staff_app, tmp_path):
    import os

    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    if not Path(chromium).exists():
        pytest.skip(f"no Chromium at {chromium}")
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.test_app_api import _chapter_pdf

    pdf = _chapter_pdf(tmp_path / "ch8.pdf")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True,
                              args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            context = b.new_context()
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(staff_app.url)
            page.get_by_role("tab", name="Staff").click()
            page.locator("#oa-staff-user input, #oa-staff-user textarea").first.fill("clerk")
            page.locator("#oa-staff-pw input").first.fill("correct horse")
            page.locator("#oa-staff-login").click()
            page.get_by_text("Re-index now").wait_for()
            page.wait_for_function("document.cookie.includes('oa_staff=')")
            [cookie] = [c for c in context.cookies() if c["name"] == "oa_staff"]
            assert staff_app.demo.upload_grants.valid(cookie["value"])
            with page.expect_response(lambda r: r.url.endswith("/gradio_api/upload") or "/upload?" in r.url) as up:
                page.locator("#oa-replace-file input[type=file]").set_input_files(str(pdf))
            assert up.value.status == 200
            page.get_by_role("button", name="Validate").click()
            page.get_by_text("15 pages", exact=False).wait_for()  # the uploaded PDF was read
            page.get_by_role("button", name="Sign out").click()
            page.wait_for_function("!document.cookie.includes('oa_staff=')")
            assert not staff_app.demo.upload_grants.valid(cookie["value"])
        finally:
            b.close()
