"""Parsers: source text -> Document (sections -> passages), one per source format."""

from __future__ import annotations

from assistant.types import Document, Municipality


class ParseError(ValueError):
    """The input cannot be parsed; the message is one line meant for the user."""


def parse_document(m: Municipality, text: str) -> Document:
    if m.source_format == "ecode_text":
        from assistant.parsing.ecode import parse_ecode

        return parse_ecode(m, text)
    if m.source_format == "pdf_transcript":
        from assistant.parsing.paged import parse_paged
        from assistant.parsing.transcript import pages_from_transcript

        return parse_paged(m, pages_from_transcript(text))
    raise ParseError(f"no parser for source format {m.source_format!r}")
