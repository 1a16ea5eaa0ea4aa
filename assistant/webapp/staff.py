"""The staff-only area: login, re-index, and a validated upload of a new chapter PDF.

Credentials come from settings (``staff_user`` / ``staff_password``); with either one
unset the area does not exist at all. Login state lives in the server-side session
state, and every staff action checks it again. An uploaded PDF is parsed with
``assistant.parsing.pdf`` (size, header, encryption, extraction in a bounded child
process) and compared with the chapter it would replace; only a PDF that passes is
copied into the corpus, and the previous file is kept beside it.
"""

from __future__ import annotations

import hmac
import logging
import shutil
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from assistant.settings import Settings

log = logging.getLogger("assistant.webapp")

MAX_LOGIN_FAILURES = 5
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


def failure_pause() -> None:
    time.sleep(FAILURE_DELAY_S)


@dataclass
class Validation:
    ok: bool
    municipality: str
    report: str  # Markdown, our own words (titles escaped by the caller)
    sections: int = 0
    passages: int = 0
    pdf_path: str | None = None


def validate_chapter_pdf(mid: str, pdf_path: str | Path, settings: Settings) -> Validation:
    """Parse the PDF as municipality ``mid``'s chapter and compare it with the current one."""
    from assistant.corpus import document, municipality_by_id
    from assistant.parsing import ParseError
    from assistant.parsing.pdf import parse_pdf
    from assistant.webapp.render import escape_markdown

    m = municipality_by_id(mid)
    if m is None:
        return Validation(False, mid, f"Unknown municipality {escape_markdown(mid)}.")
    path = Path(pdf_path)
    try:
        size = path.stat().st_size
    except OSError:
        return Validation(False, mid, "The upload could not be read; please upload it again.")
    if size > settings.max_upload_bytes:
        return Validation(
            False, mid, f"The file is {size:,} bytes; the limit is {settings.max_upload_bytes:,} bytes."
        )
    pdf_m = m.model_copy(update={"source_format": "pdf"})
    try:
        doc = parse_pdf(pdf_m, path, max_bytes=settings.max_upload_bytes, max_pages=settings.max_pdf_pages)
    except ParseError as exc:
        return Validation(False, mid, f"Rejected: {escape_markdown(str(exc))}")
    except Exception as exc:  # a broken PDF must never take the page down
        log.exception("PDF validation failed")
        return Validation(False, mid, f"Rejected: the PDF could not be read ({escape_markdown(type(exc).__name__)}).")
    n_sections = len(doc.sections)
    n_passages = len(doc.passages)
    problems = []
    if n_sections < MIN_SECTIONS:
        problems.append(f"only {n_sections} section(s) found (at least {MIN_SECTIONS} expected)")
    current = {s.title.strip().lower() for s in document(mid).sections}
    found = {s.title.strip().lower() for s in doc.sections}
    overlap = len(current & found) / len(current) if current else 1.0
    if overlap < MIN_TITLE_OVERLAP:
        problems.append(
            f"only {overlap:.0%} of the current chapter's section titles appear in it "
            f"(at least {MIN_TITLE_OVERLAP:.0%} expected): is it the right chapter?"
        )
    lines = [
        f"**{escape_markdown(m.name)}**, ch. {escape_markdown(m.chapter)}: {n_sections} sections, "
        f"{n_passages} passages; {overlap:.0%} of the current section titles found.",
    ]
    for w in doc.warnings[:10]:
        lines.append(f"- parser warning: {escape_markdown(w)}")
    if problems:
        lines.append("")
        lines.append("**Rejected**: " + "; ".join(escape_markdown(p) for p in problems) + ".")
        return Validation(False, mid, "\n".join(lines), n_sections, n_passages)
    lines.append("")
    lines.append("**Valid.** Press *Replace the chapter* to use it (the current file is kept as a backup).")
    return Validation(True, mid, "\n".join(lines), n_sections, n_passages, str(path))


def replace_chapter(v: Validation, settings: Settings) -> str:
    """Copy a validated PDF into the corpus, via the ingest command when it exists."""
    if not v.ok or not v.pdf_path:
        return "Nothing to replace: validate a PDF first."
    try:
        from assistant.commands import ingest as ingest_cmd  # the CLI's own routine, when present
    except ImportError:
        ingest_cmd = None
    fn = getattr(ingest_cmd, "ingest_pdf", None) if ingest_cmd else None
    if callable(fn):
        result: Any = fn(v.municipality, v.pdf_path)
        return f"Replaced: {result}" if result else "Replaced."
    dest_dir = Path(settings.corpus_dir) / "uploads"
    dest_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    dest = dest_dir / f"{v.municipality}-{stamp}.pdf"
    shutil.copyfile(v.pdf_path, dest)
    return (
        f"Saved as corpus/uploads/{dest.name}. The manifest still points at the current text: "
        "this build has no ingest routine to switch the chapter over."
    )
