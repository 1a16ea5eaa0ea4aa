"""The web app through its HTTP API (gradio_client), against a fake assistant.

The fake answers from the real corpus (real passages, real citations) so that what the
page shows is what the product would show; one test at the end runs the real Assistant.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from assistant.corpus import all_passages, cite, document
from assistant.settings import Settings
from assistant.types import Answer, ChatTurn, Passage, ToolCall

gradio_client = pytest.importorskip("gradio_client")
from gradio_client import Client, handle_file  # noqa: E402

INJECTION = "<script>alert('corpus')</script><img src=x onerror=alert(1)> backfill"


# --------------------------------------------------------------------------- the fake


@dataclass
class Hit:
    passage: Passage
    score: float
    matched_terms: list[str] = field(default_factory=list)


class FakeAssistant:
    """ask/search/show/reindex over the real corpus, scripted and recorded."""

    def __init__(self, delay_s: float = 0.0):
        self.asked: list[tuple[str, str | None, list[ChatTurn] | None]] = []
        self.reindexed = 0
        self.delay_s = delay_s

    def ask(self, question: str, municipality: str | None = None, history: list[ChatTurn] | None = None) -> Answer:
        self.asked.append((question, municipality, history))
        if self.delay_s:
            time.sleep(self.delay_s)
        if "boom" in question:
            raise RuntimeError("secret internal detail /etc/shadow")
        mid = municipality or ("delafield" if "delafield" in question.lower() else "brandon")
        if mid == "delafield":
            c = cite("delafield", "given at least 48 hrs. before the commencement of the work")
        else:
            c = cite("brandon", "at least one business day before such work is to commence", section="404-7")
        evil = c.model_copy(update={"quote": c.quote + " <script>alert('quote')</script>"})
        return Answer(
            status="answered",
            answer="Give notice **before** the work starts. <img src=x onerror=alert('answer')>",
            municipality=mid,
            citations=[c, evil],
            tool_calls=[ToolCall(name="excavation_notice_deadlines", arguments={"work_start": "2025-03-10T07:00"},
                                 result={"tool": "excavation_notice_deadlines", "explanation": "Work starting Monday.",
                                         "earliest_latest": "2025-03-07", "assumptions": ["read so"]})],
            notes=["The two start notices both bind."],
            backend="fake",
        )

    def search(self, query: str, municipality: str | None = None, k: int = 10) -> list[Hit]:
        words = [w.lower() for w in query.split() if len(w) > 2]
        hits = []
        for p in all_passages():
            if municipality and p.municipality != municipality:
                continue
            n = sum(p.text.lower().count(w) for w in words)
            if n:
                hits.append(Hit(p, float(n), [w for w in words if w in p.text.lower()]))
        hits.sort(key=lambda h: -h.score)
        if "inject" in words:
            p0 = all_passages()[0]
            evil = p0.model_copy(update={"text": INJECTION, "title": "<b onmouseover=alert(2)>Title</b>"})
            hits.insert(0, Hit(evil, 9.0, ["backfill", "script"]))
        return hits[:k]

    def show(self, ref: str) -> list[Passage]:
        for s in document("brandon").sections:
            if s.section and s.section in ref:
                return s.passages
        raise LookupError(f"no section {ref}")

    def reindex(self) -> None:
        self.reindexed += 1


# --------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, assistant: Any, settings: Settings):
        from app import build_app

        self.assistant = assistant
        self.settings = settings
        self.demo = build_app(assistant, settings=settings)
        self.port = free_port()
        self.demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=self.port)
        self.url = f"http://127.0.0.1:{self.port}/"

    def client(self) -> Client:
        return Client(self.url, verbose=False, download_files=False)

    def close(self) -> None:
        self.demo.close()


def make_settings(tmp: Path, **kw: Any) -> Settings:
    base = dict(data_dir=tmp / "data", staff_user=None, staff_password=None, queue_concurrency=2,
                queue_max_size=16, max_question_chars=1000)
    base.update(kw)
    return Settings(**base)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(FakeAssistant(), make_settings(tmp_path_factory.mktemp("app")))
    yield s
    s.close()


@pytest.fixture(scope="module")
def staff_server(tmp_path_factory):
    s = Server(FakeAssistant(), make_settings(tmp_path_factory.mktemp("staff"), staff_user="clerk",
                                              staff_password="correct horse"))
    yield s
    s.close()


def texts(history: list[dict]) -> list[str]:
    out = []
    for m in history:
        c = m["content"]
        out.append(c if isinstance(c, str) else "".join(p.get("text", "") for p in c))
    return out


# --------------------------------------------------------------------------- Ask


def test_ask_shows_answer_backend_calculator_and_collapsible_citations(server):
    history, box, detected = server.client().predict("When must I notify before digging?", "auto", [],
                                                     api_name="/ask")
    assert box == ""
    t = texts(history)
    assert history[0]["role"] == "user" and "notify" in t[0]
    assert "Give notice **before** the work starts." in t[1]
    assert "Answered by the fake backend" in t[1]
    titles = [(m.get("metadata") or {}).get("title") or "" for m in history]
    # the calculator used, with its explanation
    calc = titles.index("Calculator: excavation_notice_deadlines")
    assert "Work starting Monday." in t[calc] and "read so" in t[calc]
    # one collapsed box per cited provision (the fake quotes § 404-7F twice), titled with the
    # section; body with subsection, page, each quote and a link that opens the section
    cit = [i for i, title in enumerate(titles) if title.startswith("Source: ")]
    assert len(cit) == 1
    assert "§ 404-7F" in titles[cit[0]] and titles[cit[0]].endswith("— 2 quotes")
    assert history[cit[0]]["metadata"]["status"] == "done"
    assert "subsection F" in t[cit[0]] and "page" in t[cit[0]]
    quotes = [line for line in t[cit[0]].splitlines() if line.startswith("> ")]
    assert len(quotes) == 2 and all("at least one business day before such work is to commence" in q for q in quotes)
    assert "(?section=404-7F&m=brandon)" in t[cit[0]]
    assert "Village of Brandon" in detected and "detected" in detected


def test_answer_and_quotes_are_escaped(server):
    history, _, _ = server.client().predict("When must I notify?", "auto", [], api_name="/ask")
    joined = "\n".join(texts(history))
    assert "<script" not in joined and "<img" not in joined
    assert "&lt;script&gt;" in joined or "&lt;script" in joined


def test_ask_passes_history_and_chosen_municipality(server):
    c = server.client()
    history, _, _ = c.predict("First question about notice", "auto", [], api_name="/ask")
    before = len(server.assistant.asked)
    history2, _, detected = c.predict("And in the Town?", "delafield", history, api_name="/ask")
    q, mid, turns = server.assistant.asked[before]
    assert q == "And in the Town?" and mid == "delafield"
    assert [t.role for t in turns] == ["user", "assistant"]
    assert turns[0].content == "First question about notice"
    assert "Answered by" not in turns[1].content  # the footer is ours, not the answer's
    assert "Town of Delafield" in detected and "your choice" in detected
    assert len(history2) > len(history)


def test_over_long_question_is_refused_without_asking(server):
    before = len(server.assistant.asked)
    long_q = "x" * (server.settings.max_question_chars + 1)
    history, box, _ = server.client().predict(long_q, "auto", [], api_name="/ask")
    assert len(server.assistant.asked) == before
    assert "limit is 1,000" in texts(history)[-1]
    assert box == long_q  # kept so the user can shorten it


def test_errors_are_friendly_never_a_traceback(server):
    history, _, _ = server.client().predict("boom", "auto", [], api_name="/ask")
    last = texts(history)[-1]
    assert "something went wrong" in last.lower()
    assert "secret internal detail" not in last and "Traceback" not in last


# --------------------------------------------------------------------------- Look up


def test_lookup_ranks_highlights_and_offers_a_citation(server):
    c = server.client()
    html, pick, citation = c.predict("backfill compaction", "auto", api_name="/lookup")
    assert html.index("<mark>") > 0
    assert "<mark>compaction</mark>" in html.lower() or "<mark>Compaction</mark>" in html
    assert "1." in html and "score" in html
    assert pick["choices"][0][1] == "0"
    assert citation.startswith("Village of Brandon Code § 404-7") or "Delafield" in citation
    section = c.predict("0", api_name="/open_section")
    assert "<h3>" in section and "backfill" in section.lower()


def test_lookup_filters_by_municipality(server):
    html, pick, _ = server.client().predict("culvert", "delafield", api_name="/lookup")
    assert "Town of Delafield" in html and "Village of Brandon" not in html
    assert all("Delafield" in label for label, _ in pick["choices"])


def test_corpus_text_is_rendered_escaped(server):
    html, _, _ = server.client().predict("inject backfill", "auto", api_name="/lookup")
    assert "<script" not in html and "<img" not in html and "<b onmouseover" not in html
    # a matched word inside a tag is highlighted as text: the tag itself stays escaped
    assert "&lt;<mark>script</mark>&gt;" in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<mark>backfill</mark>" in html and "&lt;b onmouseover=alert(2)&gt;Title" in html


def test_open_reference_and_outline(server):
    c = server.client()
    html = c.predict("§ 404-7H", api_name="/open_reference")
    assert "Emergency excavation" in html
    missing = c.predict("§ 999-1", api_name="/open_reference")
    assert "not found" in missing.lower() and "Traceback" not in missing
    outline, sections = c.predict("delafield", api_name="/outline")
    assert "EXCAVATION IN PUBLIC RIGHT-OF-WAY" in outline and "p. 4" in outline
    assert any(v.startswith("delafield|") for _, v in sections["choices"])


# --------------------------------------------------------------------------- Checklist


def file_url(server: Server, value: Any) -> str:
    """The URL the page downloads a returned file from (a FileData dict, or a path)."""
    if isinstance(value, dict):
        return value.get("url") or server.url + "gradio_api/file=" + value["path"]
    return server.url + "gradio_api/file=" + value

FORM = dict(municipality="brandon", work="street_opening", location="100 Main St", start_date="2025-03-10",
            duration_days=5, pavement="bituminous", final_paving_date="2024-06-01", emergency=False,
            public_utility=False, village_utility=False, service_loss=False, lane_closures="none",
            per_person=500000, per_accident=None, property_damage=1000000, expires="2025-12-31",
            self_insured=False, indemnity_bond=None, permit_fee=None, commercial=False, driveway_approach=False,
            driveway_surface="", road_jurisdiction="local", vehicle_weight_tons=None, lugged_wheels=False)


def test_checklist_form_produces_markdown_and_pdf_downloads(server):
    msg, md_btn, pdf_btn, preview = server.client().predict(**FORM, api_name="/checklist")
    assert "items" in msg and "warning" in msg
    assert md_btn["visible"] and pdf_btn["visible"]
    md = httpx.get(file_url(server, md_btn["value"])).text
    assert md.startswith("# Pre-application checklist")
    assert "5 times the permit fee" in md and "Shortfall" in md and "$1,000,000" in md
    assert "2024-11-15" in md  # the winter window the March start falls in
    pdf = httpx.get(file_url(server, pdf_btn["value"])).content
    assert pdf.startswith(b"%PDF-")
    assert "Pre-application checklist" in preview


def test_checklist_form_errors_name_the_field(server):
    bad = dict(FORM, start_date="10/03/2025")
    msg, md_btn, _, _ = server.client().predict(**bad, api_name="/checklist")
    assert "Start date" in msg and "YYYY-MM-DD" in msg
    assert not md_btn["visible"]
    bad = dict(FORM, final_paving_date="2026-01-01")
    msg, _, _, _ = server.client().predict(**bad, api_name="/checklist")
    assert "Date of final paving" in msg and "after" in msg and "Traceback" not in msg


@pytest.mark.parametrize("change, words", [
    (dict(start_date="9999-12-31"), "Start date: 9999-12-31 is out of range"),
    (dict(per_person=1e300), "Bodily injury, each person: Input should be less than or equal to"),
])
def test_checklist_form_out_of_range_is_a_form_message_not_sorry(server, change, words):
    """Issue 13: these gave "Sorry" and a server traceback."""
    msg, md_btn, _, _ = server.client().predict(**dict(FORM, **change), api_name="/checklist")
    assert msg.startswith("**Please check the form:**") and words in msg, msg
    assert "Sorry" not in msg and not md_btn["visible"]


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("path", [
    "/gradio_api/file=/etc/passwd",
    "/gradio_api/file=%2Fetc%2Fpasswd",
    "/gradio_api/file=//etc/passwd",
    "/gradio_api/file=/tmp/../etc/passwd",
    "/gradio_api/file=..%2F..%2F..%2F..%2Fetc%2Fpasswd",
    "/gradio_api/file=../../../../etc/passwd",
    "/gradio_api/file=/proc/self/environ",
    "/gradio_api/file=app.py",
    "/gradio_api/file=corpus/manifest.yaml",
    "/gradio_api/file=.env",
    "/file=/etc/passwd",
    "/assets/..%2F..%2F..%2Fetc%2Fpasswd",
])
def test_serves_no_file_outside_its_assets(server, path):
    raw = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:  # raw: no client-side normalising
        s.sendall(raw)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    assert status in (400, 403, 404), data[:200]
    assert b"root:" not in data and b"documents:" not in data and b"import gradio" not in data


def test_absolute_path_of_a_project_file_is_refused(server):
    target = Path(__file__).resolve().parent.parent / "app.py"
    r = httpx.get(server.url + "gradio_api/file=" + str(target))
    assert r.status_code in (403, 404) and "build_app" not in r.text


# --------------------------------------------------------------------------- staff


def _component_ids(url: str) -> set[str]:
    cfg = httpx.get(url + "config").json()
    return {c.get("props", {}).get("elem_id") for c in cfg["components"]} - {None}


def test_staff_area_absent_without_credentials(server):
    assert "oa-staff" not in _component_ids(server.url)
    api = server.client().view_api(print_info=False, return_format="dict")["named_endpoints"]
    assert not any(name.startswith("/staff") for name in api)


def staff_login(c: Client, password: str = "correct horse") -> str:
    """Sign the client's session in; its upload grant goes with its uploads (as the page's cookie)."""
    msg, token = c.predict("clerk", password, api_name="/staff_login")
    if token:
        c.cookies["oa_staff"] = token
    return msg


def test_uploads_are_refused_without_a_staff_area_or_a_signed_in_session(server, staff_server):
    big = {"files": ("chapter.pdf", b"%PDF-1.4 " + b"x" * 5000, "application/pdf")}
    assert httpx.post(server.url + "gradio_api/upload", files=big).status_code == 403
    assert httpx.post(staff_server.url + "gradio_api/upload", files=big).status_code == 403
    c = staff_server.client()
    assert staff_login(c) == ""
    r = httpx.post(staff_server.url + "gradio_api/upload", files=big, cookies={"oa_staff": c.cookies["oa_staff"]})
    assert r.status_code == 200


def test_staff_area_behind_login_with_credentials(staff_server):
    assert "oa-staff" in _component_ids(staff_server.url)
    c = staff_server.client()
    assert c.predict(api_name="/staff_reindex") == "Please sign in first."
    assert staff_server.assistant.reindexed == 0
    assert c.predict("clerk", "wrong", api_name="/staff_login") == ("Wrong user or password.", "")
    assert staff_login(c) == ""
    assert c.predict(api_name="/staff_reindex") == "Re-indexed."
    assert staff_server.assistant.reindexed == 1
    other = staff_server.client()  # a new session is not signed in
    assert other.predict(api_name="/staff_reindex") == "Please sign in first."


def test_staff_upload_is_validated_before_anything_is_replaced(staff_server, tmp_path):
    c = staff_server.client()
    staff_login(c)
    fake_pdf = tmp_path / "chapter.pdf"
    fake_pdf.write_text("not a pdf at all")
    corpus = Path(staff_server.settings.corpus_dir)
    before = sorted(p.name for p in corpus.rglob("*"))
    report = c.predict("brandon", handle_file(str(fake_pdf)), api_name="/staff_validate")
    assert report.startswith("Rejected") and "PDF" in report
    assert c.predict(api_name="/staff_replace") == "Validate a PDF first."
    assert sorted(p.name for p in corpus.rglob("*")) == before


def _chapter_pdf(path: Path) -> Path:
    """A real PDF of the Delafield chapter: one PDF page per transcript page, a running
    header and the page number as footer (core font, so Latin-1 text)."""
    from fpdf import FPDF

    from assistant.corpus import municipality_by_id, source_text
    from assistant.parsing.transcript import pages_from_transcript

    pages = pages_from_transcript(source_text(municipality_by_id("delafield")))

    class ChapterPDF(FPDF):
        def header(self):
            self.set_font("helvetica", size=8)
            self.cell(0, 6, "Town of Delafield Code - Ch. 8", align="C")
            self.ln(10)

        def footer(self):
            self.set_y(-12)
            self.set_font("helvetica", size=8)
            self.cell(0, 6, str(self.page_no()), align="C")

    pdf = ChapterPDF(format="letter")
    pdf.set_auto_page_break(False)
    for p in pages:
        pdf.add_page()
        pdf.set_font("helvetica", size=9)
        pdf.multi_cell(0, 4.2, p.text.encode("latin-1", "replace").decode("latin-1"))
    path.write_bytes(bytes(pdf.output()))
    return path


def test_staff_replaces_a_chapter_with_a_validated_pdf(tmp_path):
    import shutil

    from assistant.corpus import corpus_dir
    from assistant.parsing import parse_document

    corpus = tmp_path / "corpus"
    shutil.copytree(corpus_dir(), corpus)
    original = (corpus / "delafield-wi-code-ch8-highways.txt").read_text(encoding="utf-8")
    real_before = (corpus_dir() / "delafield-wi-code-ch8-highways.txt").read_bytes()
    s = Server(FakeAssistant(), make_settings(tmp_path, corpus_dir=corpus, staff_user="clerk",
                                              staff_password="correct horse"))
    try:
        c = s.client()
        assert c.predict(api_name="/staff_replace") == "Please sign in first."
        staff_login(c)
        report = c.predict("delafield", handle_file(str(_chapter_pdf(tmp_path / "ch8.pdf"))),
                           api_name="/staff_validate")
        assert "**Valid.**" in report and "15 pages" in report, report
        msg = c.predict(api_name="/staff_replace")
        assert msg.startswith("Replaced delafield-wi-code-ch8-highways.txt") and "Re-indexed." in msg, msg
        assert s.assistant.reindexed == 1
        new = (corpus / "delafield-wi-code-ch8-highways.txt").read_text(encoding="utf-8")
        assert new != original
        backups = list(corpus.glob("delafield-wi-code-ch8-highways.txt.*.bak"))
        assert len(backups) == 1 and backups[0].read_text(encoding="utf-8") == original
        from assistant.corpus import municipality_by_id

        m = municipality_by_id("delafield")
        old_titles = [sec.title for sec in parse_document(m, original).sections]
        assert [sec.title for sec in parse_document(m, new).sections] == old_titles
        assert (corpus_dir() / "delafield-wi-code-ch8-highways.txt").read_bytes() == real_before
    finally:
        s.close()
        from assistant.corpus import _document

        _document.cache_clear()


def test_staff_adds_a_municipality_after_reading_its_report(tmp_path, monkeypatch):
    import shutil

    from assistant.corpus import corpus_dir, reset_caches
    from assistant.settings import get_settings

    sample = Path(__file__).resolve().parents[2] / "shared" / "corpus-samples" / "williams-az-ch152" / "text.txt"
    if not sample.is_file():
        pytest.skip(f"the corpus samples are not at {sample.parent.parent}")
    corpus = tmp_path / "corpus"
    shutil.copytree(corpus_dir(), corpus)
    monkeypatch.setenv("ASSISTANT_CORPUS_DIR", str(corpus))
    get_settings.cache_clear()
    reset_caches()
    s = Server(FakeAssistant(), make_settings(tmp_path, corpus_dir=corpus, staff_user="clerk",
                                              staff_password="correct horse"))
    try:
        c = s.client()
        assert c.predict(api_name="/staff_add") == "Please sign in first."
        staff_login(c)
        minutes = tmp_path / "minutes.txt"
        minutes.write_text("The council met and adjourned.\n", encoding="utf-8")
        before = (corpus / "manifest.yaml").read_text(encoding="utf-8")
        bad = c.predict(handle_file(str(minutes)), "x", "City of X", "OH", "city", "", "", api_name="/staff_add_read")
        assert bad.startswith("Not added: no section structure found"), bad
        assert c.predict(api_name="/staff_add") == "Read a chapter first."
        report = c.predict(handle_file(str(sample)), "williams", "City of Williams", "az", "city", "", "",
                           api_name="/staff_add_read")
        assert "City of Williams, AZ" in report and "22 sections" in report and "§ 152.16 SNOW AND ICE" in report
        assert (corpus / "manifest.yaml").read_text(encoding="utf-8") == before  # reading changes nothing
        msg = c.predict(api_name="/staff_add")
        assert msg.startswith("added City of Williams, AZ ch. 152") and msg.endswith("Indexed."), msg
        assert s.assistant.reindexed == 1
        assert "id: williams" in (corpus / "manifest.yaml").read_text(encoding="utf-8")
        assert (corpus / "williams-ch152.txt").is_file()
    finally:
        s.close()
        get_settings.cache_clear()
        reset_caches()


# --------------------------------------------------------------------------- load


def test_queue_is_bounded_and_a_burst_gets_busy(tmp_path):
    s = Server(FakeAssistant(delay_s=1.0), make_settings(tmp_path, queue_concurrency=1, queue_max_size=2))
    try:
        n = 8
        clients = [s.client() for _ in range(n)]  # connected first, so the burst arrives at once
        start = threading.Barrier(n)
        results: list[str] = []

        def one(i: int) -> None:
            start.wait(10)
            try:
                clients[i].predict(f"question {i}", "auto", [], api_name="/ask")
                results.append("ok")
            except Exception as exc:  # gradio_client raises on a full queue
                results.append("busy" if "queue is full" in str(exc).lower() else f"error: {exc}")

        threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(results) == n
        assert all(r in ("ok", "busy") for r in results), results
        # one running and two waiting fit; the rest are told the app is busy
        assert 1 <= results.count("ok") <= 4 and results.count("busy") >= n - 4, results
    finally:
        s.close()


# --------------------------------------------------------------------------- real assistant


@pytest.mark.slow
def test_real_assistant_answers_with_citations(tmp_path):
    from assistant.webapp.loader import AssistantLoader

    from app import build_app

    loader = AssistantLoader()
    loader.start()
    assert loader.wait(300), loader.status()
    demo = build_app(settings=Settings(staff_user=None, staff_password=None), loader=loader)
    port = free_port()
    demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port)
    try:
        c = Client(f"http://127.0.0.1:{port}/", verbose=False, download_files=False)
        history, _, detected = c.predict("When must I notify the Director of Public Works before excavating "
                                         "in Brandon?", "auto", [], api_name="/ask")
        titles = [(m.get("metadata") or {}).get("title") or "" for m in history]
        assert any(t.startswith("Source: Village of Brandon Code § 404-7") for t in titles), titles
        assert "Brandon" in detected
        html, _, citation = c.predict("frozen ground", "delafield", api_name="/lookup")
        assert "<mark>" in html and "Delafield" in citation
    finally:
        demo.close()


class CountingAssistant(FakeAssistant):
    """Records how many answers are being computed at once."""

    def __init__(self, delay_s: float):
        super().__init__(delay_s=delay_s)
        self._lock = threading.Lock()
        self.running = 0
        self.most = 0

    def ask(self, *args: Any, **kwargs: Any) -> Answer:
        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            return super().ask(*args, **kwargs)
        finally:
            with self._lock:
                self.running -= 1


def test_the_concurrency_setting_is_how_many_answers_run_at_once(tmp_path):
    s = Server(CountingAssistant(delay_s=0.6), make_settings(tmp_path, queue_concurrency=3, queue_max_size=16))
    try:
        n = 7
        clients = [s.client() for _ in range(n)]
        start = threading.Barrier(n)
        done: list[bool] = []

        def one(i: int) -> None:
            start.wait(10)
            clients[i].predict(f"question {i}", "auto", [], api_name="/ask")
            done.append(True)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(done) == n  # all answered: the rest waited in the queue
        assert s.assistant.most == 3
    finally:
        s.close()
