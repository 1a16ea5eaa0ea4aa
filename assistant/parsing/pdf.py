"""Real PDFs -> pages -> Document, safely.

A PDF comes from outside: it may be empty, not a PDF, truncated, encrypted, huge, or a
decompression bomb. Every such file raises ``ParseError`` with a one-line message,
within a time and memory bound:

1. cheap checks on the bytes first (size before reading, ``%PDF-`` header, ``%%EOF``
   trailer, an ``/Encrypt`` entry);
2. text extraction with pypdf in a child process with an address-space limit, a CPU
   limit and a wall-clock timeout (pypdf's own stream limits apply inside it), so a
   bomb or a parser loop kills the child, not the caller;
3. running headers and footers (lines repeated at the top or bottom of most pages) are
   stripped, and a bare page number or "Page N" footer becomes the page's number.

The pages then go to the parser for the municipality's source format.

The extraction child runs ``_child_main``: PDF bytes on stdin, JSON on stdout.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from assistant.parsing import ParseError
from assistant.parsing.pages import Page, join_pages
from assistant.types import Document, Municipality

DEFAULT_TIMEOUT_S = 30.0
DEFAULT_MEMORY_MB = 1024
MAX_TEXT_CHARS = 5_000_000  # extracted text of the whole file (a code chapter is ~50k)
_ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------- checks


def _read(source: str | os.PathLike | bytes, max_bytes: int) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if len(data) > max_bytes:
            raise ParseError(f"the file is too large ({len(data):,} bytes; the limit is {max_bytes:,})")
        return data
    from assistant.bounded_input import read_regular_file

    path = Path(source)
    try:
        return read_regular_file(path, max_bytes)  # a FIFO or /dev/zero is refused before it is read
    except FileNotFoundError:
        raise ParseError(f"no such file: {path}") from None
    except OSError as exc:
        raise ParseError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # not a regular file, or too large
        msg = str(exc)
        if " is a directory," in msg:
            msg = f"{path} is a directory, not a PDF file"
        raise ParseError(msg) from None


def check_pdf_bytes(data: bytes) -> None:
    """Cheap structural checks before any parsing; raise ParseError on failure."""
    if not data.strip():
        raise ParseError("the file is empty")
    head = data[:1024]
    if b"%PDF-" not in head:
        raise ParseError("not a PDF file (no %PDF- header)")
    if b"%%EOF" not in data[-4096:]:
        raise ParseError("the PDF is truncated or damaged (no %%EOF marker at its end)")


def _has_encrypt_entry(data: bytes) -> bool:
    return re.search(rb"/Encrypt\s*(?:\d+\s+\d+\s+R|<<)", data) is not None


# ---------------------------------------------------------------------------- child


def _extract(data: bytes, max_pages: int) -> dict:
    """Runs in the child: text of each page, or an error message."""
    import logging

    logging.disable(logging.WARNING)  # pypdf warns on every oddity; errors still raise
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError, LimitReachedError, PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception:  # noqa: BLE001 - missing AES backend, bad key...
                ok = 0
            if not ok:
                return {"error": "the PDF is encrypted (password-protected); provide an unencrypted copy"}
        n = len(reader.pages)
        if n == 0:
            return {"error": "the PDF has no pages"}
        if n > max_pages:
            return {"error": f"the PDF has too many pages ({n}; the limit is {max_pages})"}
        texts, total = [], 0
        for page in reader.pages:
            contents = page.get_contents()  # decode first: extract_text hides decoding limits
            if contents is not None:
                contents.get_data()
            t = page.extract_text() or ""
            total += len(t)
            if total > MAX_TEXT_CHARS:
                return {"error": f"the PDF holds too much text (more than {MAX_TEXT_CHARS:,} characters)"}
            texts.append(t)
        return {"pages": texts}
    except LimitReachedError:
        return {"error": "a stream in the PDF inflates beyond the size limit (decompression bomb?)"}
    except FileNotDecryptedError:
        return {"error": "the PDF is encrypted (password-protected); provide an unencrypted copy"}
    except MemoryError:
        return {"error": "reading the PDF exceeded the memory limit"}
    except RecursionError:
        return {"error": "the PDF's object structure is too deeply nested"}
    except (PdfReadError, Exception) as exc:  # noqa: BLE001 - any failure is a bad file
        msg = " ".join(str(exc).split())[:160] or type(exc).__name__
        return {"error": f"the PDF cannot be read ({msg})"}


def _child_main() -> None:
    max_pages = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    data = sys.stdin.buffer.read()
    result = _extract(data, max_pages)
    sys.stdout.write(json.dumps(result))
    sys.stdout.flush()


# The child sets its own limits before it imports anything heavy (no preexec_fn: that
# is unsafe in a process with threads, such as the web app).
_CHILD_CODE = """
import resource, sys
mem, cpu, root = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
sys.path.insert(0, root)
sys.argv = sys.argv[:1] + sys.argv[4:]
from assistant.parsing.pdf import _child_main
_child_main()
"""


def extract_page_texts(
    data: bytes, *, max_pages: int, timeout_s: float = DEFAULT_TIMEOUT_S, memory_mb: int = DEFAULT_MEMORY_MB
) -> list[str]:
    """Raw text of each page, extracted by pypdf in a bounded child process."""
    cpu_s = max(1, math.ceil(timeout_s))
    cmd = [
        sys.executable, "-I", "-c", _CHILD_CODE,
        str(memory_mb * 1024 * 1024), str(cpu_s), str(_ROOT), str(max_pages),
    ]
    try:
        proc = subprocess.run(cmd, input=data, capture_output=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise ParseError(
            f"reading the PDF took longer than {timeout_s:g} s (malformed file or decompression bomb?)"
        ) from None
    except OSError as exc:
        raise ParseError(f"cannot start the PDF reader: {exc.strerror or exc}") from None
    encrypted = _has_encrypt_entry(data)
    if proc.returncode != 0:
        if proc.returncode < 0:
            raise ParseError(
                "reading the PDF exceeded the time or memory limit (malformed file or decompression bomb?)"
            )
        last = (proc.stderr.decode("utf-8", "replace").strip().splitlines() or ["unknown failure"])[-1]
        if "MemoryError" in last:
            raise ParseError("reading the PDF exceeded the memory limit (decompression bomb?)")
        raise ParseError(f"the PDF cannot be read ({last[:160]})")
    try:
        result = json.loads(proc.stdout.decode("utf-8"))
    except ValueError:
        raise ParseError("the PDF cannot be read (no result from the extractor)") from None
    if "error" in result:
        msg = result["error"]
        if encrypted and "encrypted" not in msg:
            msg = f"the PDF is encrypted and could not be opened without a password ({msg})"
        raise ParseError(msg)
    return list(result["pages"])


# ---------------------------------------------------------------------------- headers


_PAGE_NUMBER_LINE = re.compile(
    r"(?:page|p\.|-|–)?\s*(?P<n>\d{1,4})\s*(?:(?:of|/)\s*\d{1,4})?\s*(?:-|–)?", re.IGNORECASE
)
_EDGE_LINES = 3  # lines at the top and at the bottom of a page where running lines sit


def _shape(line: str) -> str:
    """A line with its digits masked: 'Page 3 of 9' and 'Page 4 of 9' have one shape."""
    return re.sub(r"\d+", "#", " ".join(line.split())).lower()


def strip_running_lines(raw_pages: list[str]) -> tuple[list[tuple[int, str]], list[str]]:
    """Remove running headers/footers; take printed page numbers from them.

    Returns ([(page number, body text)], removed line shapes). A line counts as running
    when, digits masked, it sits among the first or last lines of at least 60% of the
    pages (and of two pages at least). A bare number or "Page N (of M)" in those edge
    lines is the printed page number; a page without one gets previous + 1 (or its
    position when no page has one).
    """
    pages_lines = [[ln.strip() for ln in t.splitlines() if ln.strip()] for t in raw_pages]
    n = len(pages_lines)
    counts: Counter[str] = Counter()
    for lines in pages_lines:
        edge = set(_shape(ln) for ln in lines[:_EDGE_LINES] + lines[-_EDGE_LINES:])
        counts.update(edge)
    threshold = max(2, math.ceil(0.6 * n))
    running = {
        shape
        for shape, c in counts.items()
        if c >= threshold and not _PAGE_NUMBER_LINE.fullmatch(shape.replace("#", "0"))
    }
    out: list[tuple[int, str]] = []
    prev: int | None = None
    for i, lines in enumerate(pages_lines):
        number: int | None = None
        top = 0
        while top < min(_EDGE_LINES, len(lines)):
            ln = lines[top]
            m = _PAGE_NUMBER_LINE.fullmatch(ln)
            if m and number is None:
                number = int(m["n"])
            elif _shape(ln) not in running:
                break
            top += 1
        bottom = len(lines)
        while bottom > top and len(lines) - bottom < _EDGE_LINES:
            ln = lines[bottom - 1]
            m = _PAGE_NUMBER_LINE.fullmatch(ln)
            if m and (number is None or len(lines) - bottom == 0):
                number = int(m["n"])
            elif _shape(ln) not in running:
                break
            bottom -= 1
        if number is None:
            number = prev + 1 if prev is not None else i + 1
        prev = number
        out.append((number, "\n".join(lines[top:bottom])))
    return out, sorted(running)


# ---------------------------------------------------------------------------- API


def pages_from_pdf(
    source: str | os.PathLike | bytes,
    *,
    max_bytes: int | None = None,
    max_pages: int | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> list[Page]:
    """Pages of a PDF with running headers/footers removed; ``Page.start`` points into
    ``pdf_text(pages)`` (the page texts joined by blank lines)."""
    from assistant.settings import get_settings

    settings = get_settings()
    max_bytes = settings.max_upload_bytes if max_bytes is None else max_bytes
    max_pages = settings.max_pdf_pages if max_pages is None else max_pages
    data = _read(source, max_bytes)
    check_pdf_bytes(data)
    texts = extract_page_texts(data, max_pages=max_pages, timeout_s=timeout_s, memory_mb=memory_mb)
    numbered, _ = strip_running_lines(texts)
    if not any(t.strip() for _, t in numbered):
        raise ParseError("the PDF has no extractable text (a scanned image? run OCR first)")
    _, pages = join_pages(numbered)
    return pages


def pdf_text(pages: list[Page]) -> str:
    """The text that PDF pages' offsets (and their passages' spans) point into."""
    text, _ = join_pages([(p.number, p.text) for p in pages])
    return text


def reflow_paragraphs(pages: list[Page]) -> str:
    """Page texts -> one text, a paragraph per line block, blank lines between.

    For line-oriented parsers (eCode text), since a PDF wraps a paragraph over lines and
    pages. A line ends its paragraph when it is clearly shorter than the page's full
    lines, or when it ends a sentence and the next line starts with a capital, "(" or
    "§"; a line starting with "§" always starts one; a line ending in a hyphen joins
    without a space. Without glyph positions this is approximate (on a PDF made from
    the Brandon text, about 6 paragraphs in 7 come back exactly).
    """
    paragraphs: list[str] = []
    current = ""
    current_open = False
    for page in pages:
        lines = [ln.strip() for ln in page.text.splitlines() if ln.strip()]
        if not lines:
            continue
        lengths = sorted(len(ln) for ln in lines)
        full = lengths[int(0.9 * (len(lengths) - 1))]
        for i, ln in enumerate(lines):
            if current and (ln.startswith("§") or not current_open):
                paragraphs.append(current)
                current = ""
            if current:
                current += ("" if re.search(r"[A-Za-z]-$", current) else " ") + ln
            else:
                current = ln
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            ends_sentence = re.search(r"[.:;]['\"”’)]?$", ln) and re.match(r"[A-Z(§\[]", nxt)
            current_open = len(ln) >= 0.8 * full and not ln.startswith("§") and not ends_sentence
        # an open paragraph at the foot of a page runs on to the next page
    if current:
        paragraphs.append(current)
    return "\n\n".join(paragraphs) + "\n"


def parse_pages(m: Municipality, pages: list[Page]) -> Document:
    """Route pages into the parser for the municipality's source format."""
    if m.source_format in ("pdf_transcript", "pdf"):
        from assistant.parsing.paged import parse_paged

        return parse_paged(m, pages)
    if m.source_format == "ecode_text":
        try:
            from assistant.parsing.ecode import parse_ecode
        except ImportError:
            raise ParseError("the eCode parser is not available") from None
        return _guarded(parse_ecode, m, reflow_paragraphs(pages))
    raise ParseError(f"no parser for source format {m.source_format!r}")


def _guarded(parser, m: Municipality, text: str) -> Document:
    """Run another format's parser; a crash on odd input becomes a one-line ParseError."""
    try:
        return parser(m, text)
    except ParseError:
        raise
    except Exception as exc:  # noqa: BLE001
        detail = " ".join(str(exc).split())[:120]
        raise ParseError(
            f"the text of the PDF does not parse as {m.source_format} ({type(exc).__name__}{': ' + detail if detail else ''})"
        ) from exc


def parse_pdf(m: Municipality, path: str | os.PathLike | bytes, **limits) -> Document:
    """A PDF of municipality ``m``'s code -> Document (same models as the corpus text)."""
    return parse_pages(m, pages_from_pdf(path, **limits))
