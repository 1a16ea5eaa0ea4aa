"""python -m assistant ingest FILE.pdf --municipality ID [--json]

Validates and parses a PDF (or a text transcription) of a municipality's code into
the same models as the corpus and prints a summary, or the Document with --json.
Nothing on disk changes.
"""

from __future__ import annotations

from pathlib import Path

from assistant.commands._common import print_json
from assistant.corpus import resolve_municipality
from assistant.parsing import ParseError, parse_document
from assistant.types import Document


def add_parser(sub):
    p = sub.add_parser(
        "ingest",
        help="parse a PDF of a municipality's code and print what it holds (changes nothing)",
        description=__doc__,
    )
    p.add_argument("file", help="PDF file (or a .txt transcription in the corpus format)")
    p.add_argument("--municipality", "-m", required=True, help="id, name or alias (corpus/manifest.yaml)")
    p.add_argument("--json", action="store_true", help="print the parsed Document as JSON")
    p.add_argument("--timeout", type=float, default=None, help="seconds allowed to read the PDF")
    return p


def ingest_file(path: Path, municipality: str, timeout_s: float | None = None) -> Document:
    """Parse ``path`` for ``municipality``; ParseError (one line) on any bad input."""
    from assistant.parsing.pdf import DEFAULT_TIMEOUT_S, parse_pdf

    m = resolve_municipality(municipality)
    if m is None:
        raise ParseError("--municipality is required")
    if path.suffix.lower() == ".txt":
        from assistant.bounded_input import read_regular_file
        from assistant.settings import get_settings

        try:
            text = read_regular_file(path, get_settings().max_upload_bytes).decode("utf-8")
        except FileNotFoundError:
            raise ParseError(f"no such file: {path}") from None
        except OSError as exc:
            raise ParseError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ParseError(f"{path.name} is not UTF-8 text") from None
        except ValueError as exc:  # not a regular file, or too large
            raise ParseError(str(exc)) from None
        return parse_document(m, text)
    return parse_pdf(m, path, timeout_s=timeout_s or DEFAULT_TIMEOUT_S)


def summary(doc: Document, path: Path) -> list[str]:
    m = doc.municipality
    pages = sorted({n for p in doc.passages for n in (p.page, p.page_end) if n is not None})
    lines = [
        f"{path.name}: {m.name} Code, ch. {m.chapter} {m.chapter_title}",
        f"  {len(doc.sections)} sections, {len(doc.passages)} passages"
        + (f", pages {pages[0]}–{pages[-1]}" if pages else ""),
    ]
    for s in doc.sections:
        num = f"{s.section} " if s.section else ""
        page = f", p. {s.page}" if s.page is not None else ""
        count = f"{len(s.passages)} passage" + ("" if len(s.passages) == 1 else "s")
        lines.append(f"  {num}{s.title}{page}: {count}")
    lines.append(f"  {len(doc.warnings)} warnings" + (":" if doc.warnings else ""))
    lines += [f"    - {w}" for w in doc.warnings]
    lines.append("  nothing was changed on disk")
    return lines


def run(args) -> int:
    path = Path(args.file)
    doc = ingest_file(path, args.municipality, args.timeout)
    if args.json:
        print_json(doc.model_dump(mode="json"))
    else:
        print("\n".join(summary(doc, path)))
    return 0
