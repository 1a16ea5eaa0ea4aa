"""Parsers: source text -> Document (sections -> passages).

Brandon's eCode text (``ecode_text``) and Delafield's PDF transcription
(``pdf_transcript``) keep their own parsers (their outlines are reconstructed with
hints, and they must read exactly as before). Every other format — ``auto``, ``text``,
``markdown``, ``html``, ``xml``, ``pdf`` — goes to the general reader
(``assistant.parsing.reader``), one set of rules for all layouts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.types import ChapterSource, Document, Municipality


class ParseError(ValueError):
    """The input cannot be parsed; the message is one line meant for the user."""


def parse_document(m: "Municipality", text: str | bytes) -> "Document":
    """The municipality's first (or only) chapter from its source text."""
    ch = m.chapters[0] if m.chapters else None
    fmt = ch.source_format if ch else m.source_format
    if fmt == "ecode_text":
        from assistant.parsing.ecode import parse_ecode

        return parse_ecode(m, text if isinstance(text, str) else text.decode("utf-8"))
    if fmt == "pdf_transcript":
        from assistant.parsing.paged import parse_paged
        from assistant.parsing.transcript import pages_from_transcript

        return parse_paged(m, pages_from_transcript(text if isinstance(text, str) else text.decode("utf-8")))
    from assistant.types import GENERAL_FORMATS

    if fmt in GENERAL_FORMATS:
        return parse_general(m, ch, text)
    raise ParseError(f"no parser for source format {fmt!r}")


def read_code(source: str | bytes, fmt: str, filename: str | None):
    """(layout, split): the source's lines and, when it is a whole code (two or more
    chapter headings), its parts (``assistant.parsing.whole_code``); split is None for
    a single chapter."""
    from assistant.parsing.layouts import read_layout
    from assistant.parsing.whole_code import split_code

    lt = read_layout(source, fmt, filename)
    return lt, split_code(lt)


def parse_general(m: "Municipality", ch: "ChapterSource | None", source: str | bytes,
                  id_prefix: str | None = None, ordinal: int = 0, code=None) -> "Document":
    """A chapter in any layout, read by the general reader; ParseError when it holds no
    section structure. When the source is a whole code, the chapter is the part the code
    prints under that number (``code``: a ``read_code`` result to reuse)."""
    from assistant.parsing.reader import read_structure, to_sections
    from assistant.parsing.whole_code import part_layout
    from assistant.types import Document

    fmt = ch.source_format if ch else m.source_format
    filename = ch.source_file if ch else m.source_file
    chapter = ch.chapter if ch else m.chapter
    lt, split = code if code is not None else read_code(source, fmt, filename)
    if split is not None:
        part = next((p for p in split.parts if p.key == chapter), None)
        if part is None:
            keys = ", ".join(p.key for p in split.parts[:12]) + (" …" if len(split.parts) > 12 else "")
            raise ParseError(f"{filename} is a whole code and prints no chapter {chapter!r} (its chapters: {keys})")
        lt = part_layout(lt, part)
    st = read_structure(lt)
    if not st.sections:
        raise ParseError(
            f"no section structure found in {filename}: no line starts with a section number "
            "(such as '§ 404-6', 'Sec. 20-19.', '903.01' or '10-3-6' above its caption)"
        )
    sections, _, warnings = to_sections(st, m.id, chapter, id_prefix or m.id, ordinal)
    return Document(municipality=m, sections=sections, warnings=st.warnings + warnings, skipped=st.skipped,
                    layout=st.layout, numbering=st.numbering, groups=st.groups)


def parse_municipality(m: "Municipality", read_source) -> "Document":
    """Every chapter of a municipality; ``read_source(chapter) -> str | bytes``."""
    from assistant.types import Document

    if len(m.chapters) <= 1:
        return parse_document(m, read_source(m.chapters[0] if m.chapters else None))
    sections, warnings, skipped, groups = [], [], [], []
    ordinal = 0
    layouts, numbering = [], []
    codes: dict[tuple[str, str], tuple] = {}  # a whole code's file is read and split once for all its chapters
    for ch in m.chapters:
        src = read_source(ch)
        if ch.source_format in ("ecode_text", "pdf_transcript"):
            sub = parse_document(m.model_copy(update={"chapters": [ch], **{k: getattr(ch, k) for k in (
                "chapter", "chapter_title", "source_file", "source_format", "citation_style")}}), src)
        else:
            key = (ch.source_file, ch.source_format)
            if key not in codes:
                codes[key] = read_code(src, ch.source_format, ch.source_file)
            sub = parse_general(m, ch, src, id_prefix=f"{m.id}:{ch.chapter}", ordinal=ordinal, code=codes[key])
        ordinal += len(sub.passages)
        sections += sub.sections
        warnings += [f"ch. {ch.chapter}: {w}" for w in sub.warnings]
        skipped += [f"ch. {ch.chapter}: {w}" for w in sub.skipped]
        groups += sub.groups
        layouts.append(sub.layout or ch.source_format)
        numbering.append(sub.numbering or "")
    return Document(municipality=m, sections=sections, warnings=warnings, skipped=skipped,
                    layout=", ".join(dict.fromkeys(x for x in layouts if x)),
                    numbering="; ".join(x for x in numbering if x), groups=groups)
