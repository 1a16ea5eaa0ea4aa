"""Real PDFs through pypdf: the Delafield round trip, hostile files, the ingest verb."""

from __future__ import annotations

import io
import struct
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from assistant.__main__ import main
from assistant.corpus import municipality_by_id, source_text
from assistant.parsing import ParseError
from assistant.parsing.paged import parse_paged
from assistant.parsing.pages import Page
from assistant.parsing.pdf import pages_from_pdf, parse_pdf, pdf_text, strip_running_lines
from assistant.parsing.transcript import pages_from_transcript
from assistant.types import Document, normalize_ws

RUNNING_HEADER = "Town of Delafield Code - Ch. 8"
TIME_BOUND_S = 20.0


def _unicode_font() -> Path | None:
    candidates = []
    try:
        import matplotlib

        candidates.append(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf")
    except ImportError:
        pass
    candidates.append(Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
    return next((c for c in candidates if c.is_file()), None)


def build_pdf(pages: list[Page], *, header: str | None = RUNNING_HEADER, font: Path | None) -> bytes:
    """One PDF page per transcript page: a running header, the text, the page number as footer."""
    from fpdf import FPDF

    class CodePDF(FPDF):
        def header(self):
            if header:
                self.set_font(self.family_name, size=8)
                self.cell(0, 6, header, align="C")
                self.ln(10)

        def footer(self):
            self.set_y(-12)
            self.set_font(self.family_name, size=8)
            self.cell(0, 6, str(self.page_no()), align="C")

    pdf = CodePDF(format="letter")
    if font:
        pdf.add_font("body", fname=str(font))
        pdf.family_name = "body"
    else:
        pdf.family_name = "helvetica"
    pdf.set_auto_page_break(False)
    for p in pages:
        pdf.add_page()
        pdf.set_font(pdf.family_name, size=9)
        pdf.multi_cell(0, 4.2, p.text, align="J")
    return bytes(pdf.output())


@pytest.fixture(scope="module")
def delafield():
    return municipality_by_id("delafield")


@pytest.fixture(scope="module")
def transcript_pages() -> list[Page]:
    pages = pages_from_transcript(source_text(municipality_by_id("delafield")))
    if _unicode_font() is None:  # core fonts are latin-1 only
        pages = [Page(p.number, p.text.encode("latin-1", "replace").decode("latin-1"), p.start) for p in pages]
    return pages


@pytest.fixture(scope="module")
def pdf_path(tmp_path_factory, transcript_pages) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "delafield-ch8.pdf"
    path.write_bytes(build_pdf(transcript_pages, font=_unicode_font()))
    return path


@pytest.fixture(scope="module")
def pdf_pages(pdf_path) -> list[Page]:
    return pages_from_pdf(pdf_path)


@pytest.fixture(scope="module")
def pdf_doc(delafield, pdf_path) -> Document:
    return parse_pdf(delafield, pdf_path)


@pytest.fixture(scope="module")
def transcript_doc(delafield, transcript_pages) -> Document:
    return parse_paged(delafield, transcript_pages)


# --------------------------------------------------------------------------- round trip


def test_pages_round_trip_without_headers_and_footers(pdf_pages, transcript_pages):
    assert [p.number for p in pdf_pages] == [p.number for p in transcript_pages] == list(range(1, 16))
    for got, want in zip(pdf_pages, transcript_pages):
        assert normalize_ws(got.text) == normalize_ws(want.text), got.number
        assert RUNNING_HEADER not in got.text
    text = pdf_text(pdf_pages)
    assert all(text[p.start : p.end] == p.text for p in pdf_pages)


def test_document_round_trip(pdf_doc, transcript_doc):
    def shape(d: Document):
        return [
            (p.title, p.section, p.subsection, p.page, p.page_end, p.heading, tuple(p.notes), normalize_ws(p.text))
            for p in d.passages
        ]

    assert [s.title for s in pdf_doc.sections] == [s.title for s in transcript_doc.sections]
    assert len(pdf_doc.sections) == 19
    assert shape(pdf_doc) == shape(transcript_doc)
    assert pdf_doc.warnings == transcript_doc.warnings
    assert [p.id for p in pdf_doc.passages] == [p.id for p in transcript_doc.passages]
    for p in pdf_doc.passages:
        assert RUNNING_HEADER not in p.text


def test_pdf_spans_point_into_the_extracted_text(pdf_doc, pdf_pages):
    text = pdf_text(pdf_pages)
    for p in pdf_doc.passages:
        parts = [text[max(p.start, pg.start) : min(p.end, pg.end)] for pg in pdf_pages if pg.start < p.end and pg.end > p.start]
        raw = " ".join(parts)
        raw = normalize_ws(raw)
        for note in p.notes:  # notes are stored with whitespace normalised
            raw = raw.replace(note, " ")
        assert normalize_ws(raw).replace(" ", "") == normalize_ws(p.text).replace(" ", ""), p.id


def test_key_citation_survives_the_round_trip(pdf_doc):
    (p,) = [p for p in pdf_doc.passages if p.title == "EXCAVATION IN PUBLIC RIGHT-OF-WAY" and p.subsection == "(2)(b)2."]
    assert (p.page, p.page_end) == (4, 5)
    assert "each person and $20,000 each accident" in normalize_ws(p.text)


# --------------------------------------------------------------------------- running lines


def test_strip_running_lines_takes_page_numbers_from_footers():
    words = ["alpha", "beta", "gamma", "delta", "epsilon"]
    raw = [f"ACME CODE\nChapter 9 Roads\n{w} begins\n{w} ends\nPage {i + 4} of 12" for i, w in enumerate(words, 1)]
    pages, running = strip_running_lines(raw)
    assert [n for n, _ in pages] == [5, 6, 7, 8, 9]
    assert pages[0][1] == "alpha begins\nalpha ends"
    assert "acme code" in running


def test_strip_running_lines_without_numbers_counts_pages():
    raw = ["Header\nalpha", "Header\nbeta", "Header\ngamma"]
    pages, _ = strip_running_lines(raw)
    assert pages == [(1, "alpha"), (2, "beta"), (3, "gamma")]
    # a single page keeps its lines: nothing repeats
    assert strip_running_lines(["Only page\ntext"])[0] == [(1, "Only page\ntext")]


# --------------------------------------------------------------------------- hostile input


def _raw_pdf(content: bytes, extra_stream_dict: bytes = b"") -> bytes:
    """A minimal one-page PDF whose content stream is ``content`` (as given)."""
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length " + str(len(content)).encode() + extra_stream_dict + b" >>\nstream\n" + content + b"\nendstream",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(out.tell())
        out.write(f"{i} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode())
    for off in offsets:
        out.write(f"{off:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def _flate_bomb(total_mb: int = 2048, chunk_mb: int = 16) -> bytes:
    """A zlib stream of ~``total_mb`` MB of zeros, a few MB long (repeated full-flush blocks)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = c.compress(b"\0" * (chunk_mb << 20)) + c.flush(zlib.Z_FULL_FLUSH)
    return b"\x78\xda" + chunk * (total_mb // chunk_mb) + b"\x03\x00" + struct.pack(">I", 1)


def _encrypted(pdf: bytes, user_password: str) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="RC4-128")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


@dataclass(frozen=True)
class Hostile:
    name: str
    make: Callable[[bytes], bytes]  # from the good PDF's bytes
    message: str


HOSTILE = [
    Hostile("empty", lambda good: b"", "empty"),
    Hostile("whitespace", lambda good: b"  \n\n", "empty"),
    Hostile("binary garbage", lambda good: bytes((i * 7919 + 13) % 256 for i in range(50_000)), "not a PDF"),
    Hostile("text file", lambda good: b"This is a plain text ordinance.\n" * 100, "not a PDF"),
    Hostile("truncated", lambda good: good[: len(good) // 2], "truncated"),
    Hostile("truncated header only", lambda good: b"%PDF-1.7\n", "truncated"),
    Hostile("encrypted", lambda good: _encrypted(good, "secret"), "encrypted"),
    Hostile("garbage after header", lambda good: b"%PDF-1.4\n" + bytes(range(256)) * 40 + b"\n%%EOF\n", "cannot be read"),
    Hostile(
        "decompression bomb",
        lambda good: _raw_pdf(_flate_bomb(), b" /Filter /FlateDecode"),
        "decompression bomb",
    ),
    Hostile("no text", lambda good: _raw_pdf(b"0 0 m 100 100 l S"), "no extractable text"),
]


@pytest.mark.parametrize("case", HOSTILE, ids=lambda c: c.name)
def test_hostile_input_is_a_one_line_parse_error(case: Hostile, pdf_path, tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(case.make(pdf_path.read_bytes()))
    t0 = time.monotonic()
    with pytest.raises(ParseError) as err:
        pages_from_pdf(bad)
    assert time.monotonic() - t0 < TIME_BOUND_S
    msg = str(err.value)
    assert msg and "\n" not in msg and "Traceback" not in msg
    assert case.message in msg, msg


def test_limits_on_size_pages_and_time(pdf_path):
    with pytest.raises(ParseError, match="too large"):
        pages_from_pdf(pdf_path, max_bytes=1000)
    with pytest.raises(ParseError, match="too many pages"):
        pages_from_pdf(pdf_path, max_pages=5)
    t0 = time.monotonic()
    with pytest.raises(ParseError, match="longer than"):
        pages_from_pdf(pdf_path, timeout_s=0.01)
    assert time.monotonic() - t0 < TIME_BOUND_S


def test_memory_limit_of_the_reader(pdf_path):
    with pytest.raises(ParseError) as err:
        pages_from_pdf(pdf_path, memory_mb=30)  # too little even to start the reader
    assert "\n" not in str(err.value)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ParseError, match="no such file"):
        pages_from_pdf(tmp_path / "nope.pdf")
    with pytest.raises(ParseError, match="directory"):
        pages_from_pdf(tmp_path)


def test_bytes_input_and_owner_only_encryption_are_read(pdf_path, transcript_pages):
    pages = pages_from_pdf(_encrypted(pdf_path.read_bytes(), ""))  # opens without a password
    assert [p.number for p in pages] == [p.number for p in transcript_pages]


# --------------------------------------------------------------------------- CLI


def _snapshot(*dirs: Path) -> dict[str, float]:
    return {str(f): f.stat().st_mtime for d in dirs if d.exists() for f in d.rglob("*")}


@pytest.fixture
def isolated_data_dir(tmp_path, monkeypatch):
    from assistant.settings import get_settings

    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(data))
    get_settings.cache_clear()
    yield data
    get_settings.cache_clear()


def test_ingest_cli_summary_and_json(pdf_path, capsys, isolated_data_dir):
    from assistant.settings import get_settings

    s = get_settings()
    assert Path(s.data_dir) == isolated_data_dir
    before = _snapshot(Path(s.corpus_dir), Path(s.data_dir))
    assert main(["ingest", str(pdf_path), "--municipality", "Town of Delafield"]) == 0
    out = capsys.readouterr().out
    assert "19 sections" in out and "pages 1–15" in out and "EXCAVATION IN PUBLIC RIGHT-OF-WAY, p. 4" in out
    assert "2 warnings" in out
    assert main(["ingest", str(pdf_path), "-m", "delafield", "--json"]) == 0
    doc = Document.model_validate_json(capsys.readouterr().out)
    assert len(doc.sections) == 19 and doc.passages[0].page == 1
    assert _snapshot(Path(s.corpus_dir), Path(s.data_dir)) == before


@pytest.mark.parametrize(
    "argv_tail, message",
    [
        (["-m", "delafield"], "not a PDF"),
        (["-m", "Springfield"], "unknown municipality"),
    ],
)
def test_ingest_cli_errors_are_one_line(tmp_path, capsys, argv_tail, message):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"\x00\x01garbage" * 100)
    assert main(["ingest", str(bad), *argv_tail]) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert captured.out == ""


def test_ingest_cli_reads_a_transcription(capsys):
    from assistant.corpus import corpus_dir

    path = corpus_dir() / municipality_by_id("delafield").source_file
    assert main(["ingest", str(path), "-m", "delafield"]) == 0
    assert "19 sections" in capsys.readouterr().out


# --------------------------------------------------------------------------- eCode-format PDFs


def test_ecode_pdf_routes_to_the_ecode_parser(tmp_path):
    """A PDF of the Brandon text (paragraphs wrapped over lines and pages) reaches the
    eCode parser through the paragraph reflow and gives the same sections."""
    pytest.importorskip("assistant.parsing.ecode")
    from fpdf import FPDF

    from assistant.corpus import document

    m = municipality_by_id("brandon")
    text = source_text(m).replace("\t", " ")
    pdf = FPDF(format="letter")
    font = _unicode_font()
    if font:
        pdf.add_font("body", fname=str(font))
        pdf.set_font("body", size=9)
    else:
        pdf.set_font("helvetica", size=9)
        text = text.encode("latin-1", "replace").decode("latin-1")
    pdf.add_page()
    for line in text.splitlines():
        pdf.multi_cell(0, 4.2, line or " ", align="J", new_x="LMARGIN", new_y="NEXT")
    path = tmp_path / "brandon.pdf"
    path.write_bytes(bytes(pdf.output()))
    assert pdf.page > 5
    doc = parse_pdf(m, path)
    want = document("brandon")
    assert [(s.section, s.title) for s in doc.sections] == [(s.section, s.title) for s in want.sections]
