"""Pages of a PDF transcription: each page is a line "N <text> N".

The Town of Delafield text is a transcription of a PDF in which a page's bare number
starts and ends its line (and a sentence may run on from one page into the next).
Lines before the first page (the title line, "Transcription") are a document header.
"""

from __future__ import annotations

import re

from assistant.parsing import ParseError
from assistant.parsing.pages import Page

_PAGE_LINE = re.compile(r"(?P<n>\d{1,4})[ \t]+(?P<text>\S.*?)[ \t]+(?P<m>\d{1,4})[ \t]*")
_OPEN_LINE = re.compile(r"(?P<n>\d{1,4})[ \t]+(?P<text>\S.*?)[ \t]*")
_CLOSE_LINE = re.compile(r"(?P<text>.*?\S)[ \t]+(?P<m>\d{1,4})[ \t]*")


def pages_from_transcript(text: str) -> list[Page]:
    """Split a transcription into pages; ``Page.start`` is an offset into ``text``.

    A page normally is one line that starts and ends with the same number. A page may
    also run over several lines: it opens with a line starting with the expected next
    number and closes with the first line ending with it. Raises ParseError when no
    page is found or text stands outside every page after the first one.
    """
    pages: list[Page] = []
    open_number: int | None = None
    open_start = 0
    offset = 0
    for raw in text.splitlines(keepends=True):
        line = raw.rstrip("\r\n")
        line_start = offset
        offset += len(raw)
        if not line.strip():
            continue
        expected = pages[-1].number + 1 if pages else None
        if open_number is not None:
            one = _PAGE_LINE.fullmatch(line)
            if not pages and one and int(one["n"]) == int(one["m"]) == open_number:
                # the "opener" was a title line that starts with a number: drop it
                pages.append(Page(open_number, one["text"], line_start + one.start("text")))
                open_number = None
                continue
            close = _CLOSE_LINE.fullmatch(line)
            if close and int(close["m"]) == open_number:
                end = line_start + close.end("text")
                pages.append(Page(open_number, text[open_start:end], open_start))
                open_number = None
            continue
        one = _PAGE_LINE.fullmatch(line)
        if one and one["n"] == one["m"] and (expected is None or int(one["n"]) == expected):
            pages.append(Page(int(one["n"]), one["text"], line_start + one.start("text")))
            continue
        opener = _OPEN_LINE.fullmatch(line)
        if opener and (int(opener["n"]) == expected or (not pages and int(opener["n"]) == 1)):
            open_number = int(opener["n"])
            open_start = line_start + opener.start("text")
            continue
        if not pages:
            continue  # document header: "Transcription"
        lineno = text.count("\n", 0, line_start) + 1
        raise ParseError(f"line {lineno} of the transcription is outside any page: {line.strip()[:60]!r}")
    if open_number is not None:
        raise ParseError(f"page {open_number} of the transcription never ends (no closing page number)")
    if not pages:
        raise ParseError("no pages found: a transcription page is a line 'N <text> N'")
    return pages
