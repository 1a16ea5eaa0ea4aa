"""Reading an amended chapter as ``ingest`` does, installing it (backup, atomic replace) and
recording the amendment in the corpus folder's ``amendments.yaml``; which provisions await a
rule-data update after it.
"""

from __future__ import annotations

import functools
import os
import shutil
from datetime import date, datetime
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from assistant.amendments.diff import ChapterDiff
from assistant.amendments.provisions import DATA_DIR, ProvisionImpact
from assistant.corpus import corpus_dir
from assistant.types import Document, Municipality, normalize_ws

RECORD_FILE = "amendments.yaml"


def corpus_text_from_pages(source_format: str, pages: list) -> str:
    """A PDF's pages in the format the corpus already reads for this municipality, so the
    same parser serves the new text (the manifest need not change). eCode text is reflowed
    into paragraphs first, exactly as ``ingest`` reads an eCode PDF."""
    if source_format == "pdf_transcript":  # one line per page: "N text N"
        return "\n\n".join(f"{p.number} {' '.join(p.text.split())} {p.number}" for p in pages) + "\n"
    if source_format == "ecode_text":
        from assistant.parsing.pdf import reflow_paragraphs

        return reflow_paragraphs(pages)
    raise ValueError(f"cannot install a PDF for source format {source_format!r}")


class NewChapter(BaseModel):
    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    text: str = Field(description="The chapter in the corpus's own format, as it would be installed.")
    document: Document = Field(description="That text parsed exactly as the corpus will parse it.")
    pages: int | None = Field(default=None, description="Pages of the PDF, when it was one.")


def read_new_chapter(m: Municipality, path: Path, *, max_bytes: int, max_pages: int,
                     timeout_s: float | None = None, text_allowed: bool = True) -> NewChapter:
    """Read a PDF (or a text in the corpus's format) as ``ingest`` does, and convert it to the
    text to install; ParseError (one line) when it cannot be read or the two readings differ."""
    from assistant.parsing import ParseError, parse_document
    from assistant.parsing.pdf import DEFAULT_TIMEOUT_S, pages_from_pdf, parse_pages

    if not path.exists():
        raise ParseError(f"no such file: {path}")
    if not path.is_file():
        raise ParseError(f"{path.name} is not a regular file")
    if path.stat().st_size > max_bytes:
        raise ParseError(f"the file is {path.stat().st_size:,} bytes; the limit is {max_bytes:,} bytes")
    if text_allowed and path.suffix.lower() == ".txt":
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ParseError(f"{path.name} is not UTF-8 text") from None
        return NewChapter(text=text, document=parse_document(m, text))
    pages = pages_from_pdf(path, max_bytes=max_bytes, max_pages=max_pages, timeout_s=timeout_s or DEFAULT_TIMEOUT_S)
    as_ingested = parse_pages(m, pages)
    text = corpus_text_from_pages(m.source_format, pages)
    try:
        doc = parse_document(m, text)
    except ParseError:
        raise
    except Exception as exc:  # noqa: BLE001 — odd text must give a one-line error
        raise ParseError(f"the converted text does not parse ({type(exc).__name__})") from exc
    if [(s.section, s.title) for s in doc.sections] != [(s.section, s.title) for s in as_ingested.sections]:
        raise ParseError("the text to install parses into other sections than the PDF itself; not installed")
    return NewChapter(text=text, document=doc, pages=len(pages))


class PendingProvision(BaseModel):
    """A provision whose paragraph changed or whose quote no longer resolves: calculators that
    rely on it answer "this rule changed" until the file holding it (``where``) is updated."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["changed", "gone"]
    quote: str
    section: str | None = None
    where: str = Field(description="The file holding the quote, relative to the package, and its key.")


class AmendmentRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    date: date
    at: datetime = Field(description="When the chapter was replaced (local time).")
    source_file: str
    backup: str
    from_file: str = Field(description="Name of the file the new text came from.")
    sections_added: list[str] = Field(default_factory=list)
    sections_removed: list[str] = Field(default_factory=list)
    sections_changed: list[str] = Field(default_factory=list)
    provisions_affected: int = 0
    pending: list[PendingProvision] = Field(default_factory=list)


def records(folder: Path | None = None) -> list[AmendmentRecord]:
    path = Path(folder or corpus_dir()) / RECORD_FILE
    try:
        st = path.stat()
    except OSError:
        return []
    return list(_records(str(path), (st.st_mtime_ns, st.st_size, st.st_ino)))


@functools.lru_cache(maxsize=8)
def _records(path: str, stamp: tuple[int, int, int]) -> tuple[AmendmentRecord, ...]:
    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
    return tuple(AmendmentRecord.model_validate(r) for r in raw)


def _holding_file(where: str) -> Path:
    name = where.split(" ", 1)[0]
    return DATA_DIR / name if "/" not in name else DATA_DIR.parent.parent.parent / name


def pending_change(municipality: str, quote: str) -> tuple[AmendmentRecord, PendingProvision] | None:
    """The amendment after which ``quote`` of ``municipality`` awaits a data update, if any: its
    paragraph changed (or it stopped resolving) and the file holding it is older than the amendment."""
    want = normalize_ws(quote)
    for rec in reversed(records()):
        if rec.municipality != municipality:
            continue
        for p in rec.pending:
            if normalize_ws(p.quote) != want:
                continue
            try:
                updated = datetime.fromtimestamp(_holding_file(p.where).stat().st_mtime) > rec.at
            except OSError:
                updated = False
            return None if updated else (rec, p)
    return None


def install_chapter(m: Municipality, text: str, *, from_file: str, diff: ChapterDiff,
                    impacts: list[ProvisionImpact], folder: Path | None = None,
                    today: date | None = None) -> AmendmentRecord:
    """Back up the chapter in use, replace it atomically with ``text`` and record the amendment."""
    folder = Path(folder or corpus_dir())
    target = folder / m.source_file
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    backup = target.with_name(f"{target.name}.{stamp}.bak")
    shutil.copy2(target, backup)
    tmp = target.with_name(f"{target.name}.new")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)
    now = datetime.now()
    rec = AmendmentRecord(
        municipality=m.id, date=today or now.date(), at=now, source_file=m.source_file, backup=backup.name,
        from_file=from_file,
        sections_added=[c.label for c in diff.of_kind("added")],
        sections_removed=[c.label for c in diff.of_kind("removed")],
        sections_changed=[c.label for c in diff.of_kind("changed")],
        provisions_affected=sum(i.status != "unchanged" for i in impacts),
        pending=[PendingProvision(status=i.status, quote=i.provision.quote, section=i.provision.section,
                                  where=i.provision.where) for i in impacts if i.status != "unchanged"],
    )
    all_records = [r.model_dump(mode="json") for r in records(folder)] + [rec.model_dump(mode="json")]
    rec_path = folder / RECORD_FILE
    rec_tmp = rec_path.with_name(f"{RECORD_FILE}.new")
    rec_tmp.write_text("# Chapters replaced (python -m assistant amend, or the staff tab); newest last.\n"
                       + yaml.safe_dump(all_records, sort_keys=False, allow_unicode=True), encoding="utf-8")
    os.replace(rec_tmp, rec_path)
    return rec
