"""The staff-only area: login, re-index, and a validated upload of a new chapter PDF.

Credentials come from settings (``staff_user`` / ``staff_password``); with either one
unset the area does not exist at all. Login state lives in the server-side session
state, and every staff action checks it again. Failed sign-ins are limited per client
address and overall, across sessions (``login_guard.LoginGuard``); a signed-in session
holds the upload grant without which no upload is stored (``request_gate``). An uploaded PDF is parsed with
``assistant.parsing.pdf`` (size, header, encryption, extraction in a bounded child
process) and compared with the chapter it would replace; only a PDF that passes is
converted to the corpus's own text format and installed (atomically); the previous
text is kept beside it as a backup, and the index is rebuilt.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from dataclasses import dataclass
from pathlib import Path

from assistant.settings import Settings
from assistant.webapp.login_guard import LoginGuard, UploadGrants

log = logging.getLogger("assistant.webapp")

FAILURE_DELAY_S = 1.0
MIN_SECTIONS = 3
MIN_TITLE_OVERLAP = 0.5


def staff_enabled(settings: Settings) -> bool:
    return bool(settings.staff_user) and bool(settings.staff_password)


def check_login(settings: Settings, user: str, password: str) -> bool:
    """Constant-time comparison of both fields; False when staff access is disabled."""
    if not staff_enabled(settings):
        return False
    ok_user = hmac.compare_digest((user or "").encode(), str(settings.staff_user).encode())
    ok_pw = hmac.compare_digest((password or "").encode(), str(settings.staff_password).encode())
    return ok_user and ok_pw


@dataclass(frozen=True)
class SignIn:
    ok: bool
    message: str
    token: str = ""  # the upload grant of a signed-in session


async def sign_in(settings: Settings, guard: LoginGuard, grants: UploadGrants | None, user: str, password: str,
                  address: str) -> SignIn:
    """One staff sign-in attempt from ``address``. A locked address (or app) is refused at
    once, without comparing; a failure is counted and answered after a pause that holds no
    thread (so a flood of attempts cannot starve the workers that answer residents)."""
    decision = guard.check(address)
    if not decision.allowed:
        log.warning("staff sign-in refused for %s: locked", address[:64])
        return SignIn(False, decision.message)
    if check_login(settings, (user or "")[:200], (password or "")[:200]):
        guard.succeeded(address)
        log.info("staff signed in from %s", address[:64])
        return SignIn(True, "", grants.issue() if grants is not None else "")
    guard.failed(address)
    log.warning("failed staff sign-in from %s", address[:64])
    await asyncio.sleep(FAILURE_DELAY_S)
    return SignIn(False, "Wrong user or password.")


def login_guard_for(settings: Settings) -> LoginGuard:
    return LoginGuard(settings.staff_login_failures_per_address, settings.staff_login_failures_overall)


def client_address(request) -> str:
    """The client's address as the server saw it (a proxy's forwarded headers are not
    trusted: anyone can write them)."""
    client = getattr(request, "client", None)
    return str(getattr(client, "host", None) or "unknown")


@dataclass
class Validation:
    ok: bool
    municipality: str
    report: str  # Markdown, our own words (titles escaped)
    sections: int = 0
    passages: int = 0
    text_path: str | None = None  # the chapter in the corpus's own format, ready to install
    from_file: str | None = None  # the uploaded file's name, for the amendment record


def corpus_text_from_pages(source_format: str, pages: list) -> str:
    """Kept for callers of the old name: see assistant.amendments.corpus_text_from_pages."""
    from assistant.amendments import corpus_text_from_pages as convert

    return convert(source_format, pages)


def validate_chapter_pdf(mid: str, pdf_path: str | Path, settings: Settings) -> Validation:
    """Read the PDF exactly as ``ingest`` does (assistant.parsing.pdf, bounded), convert it to the
    corpus format, parse that text as the corpus will, and report the section-by-section diff
    with the chapter in use and every calculator and checklist item it touches."""
    import tempfile

    from assistant.amendments import chapter_diff, provision_impacts, read_new_chapter, report_markdown
    from assistant.corpus import document, municipality_by_id
    from assistant.parsing import ParseError
    from assistant.webapp.render import escape_markdown

    m = municipality_by_id(mid)
    if m is None:
        return Validation(False, mid, f"Unknown municipality {escape_markdown(mid)}.")
    path = Path(pdf_path)
    if path.suffix.lower() != ".pdf":
        return Validation(False, mid, "Rejected: only a PDF file (.pdf) can replace a chapter.")
    try:
        size = path.stat().st_size
    except OSError:
        return Validation(False, mid, "The upload could not be read; please upload it again.")
    if size > settings.max_upload_bytes:
        return Validation(
            False, mid, f"Rejected: the file is {size:,} bytes; the limit is {settings.max_upload_bytes:,} bytes."
        )
    try:
        new = read_new_chapter(m, path, max_bytes=settings.max_upload_bytes, max_pages=settings.max_pdf_pages,
                               text_allowed=False)
        old = document(mid)
        diff = chapter_diff(old, new.document)
        impacts = provision_impacts(old, new.document)
    except (ParseError, ValueError) as exc:
        return Validation(False, mid, f"Rejected: {escape_markdown(str(exc))}")
    except Exception as exc:  # a broken PDF must never take the page down
        log.exception("PDF validation failed")
        return Validation(False, mid, f"Rejected: the PDF could not be read ({escape_markdown(type(exc).__name__)}).")
    doc = new.document
    n_sections = len(doc.sections)
    n_passages = len(doc.passages)
    problems = []
    if n_sections < MIN_SECTIONS:
        problems.append(f"only {n_sections} section(s) found (at least {MIN_SECTIONS} expected)")
    current = {s.title.strip().lower() for s in old.sections}
    found = {s.title.strip().lower() for s in doc.sections}
    overlap = len(current & found) / len(current) if current else 1.0
    if overlap < MIN_TITLE_OVERLAP:
        problems.append(
            f"only {overlap:.0%} of the current chapter's section titles appear in it "
            f"(at least {MIN_TITLE_OVERLAP:.0%} expected): is it the right chapter?"
        )
    lines = [
        f"**{escape_markdown(m.name)}**, ch. {escape_markdown(m.chapter)}: {new.pages} pages, {n_sections} "
        f"sections, {n_passages} passages; {overlap:.0%} of the current section titles found.",
    ]
    for w in doc.warnings[:10]:
        lines.append(f"- parser warning: {escape_markdown(w)}")
    if problems:
        lines.append("")
        lines.append("**Rejected**: " + "; ".join(escape_markdown(p) for p in problems) + ".")
        return Validation(False, mid, "\n".join(lines), n_sections, n_passages)
    lines.append("")
    lines.append(report_markdown(diff, impacts, escape_markdown))
    fd, tmp = tempfile.mkstemp(prefix=f"chapter-{mid}-", suffix=".txt")
    with open(fd, "w", encoding="utf-8") as fh:
        fh.write(new.text)
    lines.append("")
    lines.append("**Valid.** Press *Replace the chapter* to use it (the current text is kept as a backup).")
    return Validation(True, mid, "\n".join(lines), n_sections, n_passages, tmp, Path(pdf_path).name)


def replace_chapter(v: Validation, settings: Settings) -> str:
    """Install a validated chapter: back up the current text, replace it atomically and record
    the amendment (its date is what calculators whose rule changed report). The caller re-indexes."""
    from assistant.amendments import chapter_diff, install_chapter, provision_impacts
    from assistant.corpus import document, municipality_by_id
    from assistant.parsing import parse_document

    if not v.ok or not v.text_path:
        return "Nothing to replace: validate a PDF first."
    m = municipality_by_id(v.municipality)
    if m is None:
        return "Unknown municipality."
    text = Path(v.text_path).read_text(encoding="utf-8")
    doc = parse_document(m, text)  # once more, on exactly the bytes to be installed
    if len(doc.sections) < MIN_SECTIONS:
        return "Not replaced: the converted text no longer parses as a chapter."
    old = document(m.id)
    rec = install_chapter(m, text, from_file=v.from_file or "upload.pdf", diff=chapter_diff(old, doc),
                          impacts=provision_impacts(old, doc), folder=Path(settings.corpus_dir))
    log.info("replaced %s with an uploaded PDF (%d sections); backup %s", m.source_file, len(doc.sections), rec.backup)
    affected = f"; {rec.provisions_affected} provision(s) of calculators or checklist items await a rule-data update" \
        if rec.provisions_affected else ""
    return (f"Replaced {m.source_file} ({len(doc.sections)} sections); the previous text is kept as "
            f"{rec.backup}{affected}.")
