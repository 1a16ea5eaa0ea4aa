"""The staff-only area: login, re-index, and a validated upload of a new chapter PDF.

Credentials come from settings (``staff_user`` / ``staff_password``); with either one
unset the area does not exist at all. Login state lives in the server-side session
state, and every staff action checks it again. An uploaded PDF is parsed with
``assistant.parsing.pdf`` (size, header, encryption, extraction in a bounded child
process) and compared with the chapter it would replace; only a PDF that passes is
converted to the corpus's own text format and installed (atomically); the previous
text is kept beside it as a backup, and the index is rebuilt.
"""

from __future__ import annotations

import hmac
import logging
import shutil
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

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
    report: str  # Markdown, our own words (titles escaped)
    sections: int = 0
    passages: int = 0
    text_path: str | None = None  # the chapter in the corpus's own format, ready to install


def corpus_text_from_pages(source_format: str, pages: list) -> str:
    """The PDF's pages in the format the corpus already reads for this municipality, so
    the same parser serves the new text (and the manifest need not change)."""
    if source_format == "pdf_transcript":  # one line per page: "N text N"
        return "\n\n".join(f"{p.number} {' '.join(p.text.split())} {p.number}" for p in pages) + "\n"
    if source_format == "ecode_text":
        return "\n\n".join(p.text for p in pages) + "\n"
    raise ValueError(f"cannot install a PDF for source format {source_format!r}")


def validate_chapter_pdf(mid: str, pdf_path: str | Path, settings: Settings) -> Validation:
    """Read the PDF safely (assistant.parsing.pdf), convert it to the corpus format, parse
    that text exactly as the corpus will, and compare it with the chapter it would replace."""
    import tempfile

    from assistant.corpus import document, municipality_by_id
    from assistant.parsing import ParseError, parse_document
    from assistant.parsing.pdf import pages_from_pdf
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
            False, mid, f"Rejected: the file is {size:,} bytes; the limit is {settings.max_upload_bytes:,} bytes."
        )
    try:
        pages = pages_from_pdf(path, max_bytes=settings.max_upload_bytes, max_pages=settings.max_pdf_pages)
        text = corpus_text_from_pages(m.source_format, pages)
        doc = parse_document(m, text)
    except (ParseError, ValueError) as exc:
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
        f"**{escape_markdown(m.name)}**, ch. {escape_markdown(m.chapter)}: {len(pages)} pages, {n_sections} "
        f"sections, {n_passages} passages; {overlap:.0%} of the current section titles found.",
    ]
    for w in doc.warnings[:10]:
        lines.append(f"- parser warning: {escape_markdown(w)}")
    if problems:
        lines.append("")
        lines.append("**Rejected**: " + "; ".join(escape_markdown(p) for p in problems) + ".")
        return Validation(False, mid, "\n".join(lines), n_sections, n_passages)
    fd, tmp = tempfile.mkstemp(prefix=f"chapter-{mid}-", suffix=".txt")
    with open(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    lines.append("")
    lines.append("**Valid.** Press *Replace the chapter* to use it (the current text is kept as a backup).")
    return Validation(True, mid, "\n".join(lines), n_sections, n_passages, tmp)


def replace_chapter(v: Validation, settings: Settings) -> str:
    """Install a validated chapter: back up the current text, then replace it atomically.
    The caller re-indexes."""
    import os

    from assistant.corpus import municipality_by_id, reset_caches
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
    target = Path(settings.corpus_dir) / m.source_file
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    backup = target.with_name(f"{target.name}.{stamp}.bak")
    shutil.copy2(target, backup)
    tmp = target.with_name(f"{target.name}.new")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)
    reset_caches()  # the next read parses the new text
    log.info("replaced %s with an uploaded PDF (%d sections); backup %s", target, len(doc.sections), backup)
    return f"Replaced {m.source_file} ({len(doc.sections)} sections); the previous text is kept as {backup.name}."
