"""A page of a paged source (a PDF or its transcription): the unit both readers produce.

``pages_from_transcript`` (a text transcription) and ``pages_from_pdf`` (a real PDF)
both return ``list[Page]``; ``parse_paged`` turns pages into a Document. ``start`` is
the offset of the page's text in the source the pages were read from, so every passage
can give its character span in that source.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    """One page: its printed number, its text (page number, headers and footers removed)
    and where that text starts in the source text."""

    number: int
    text: str
    start: int

    @property
    def end(self) -> int:
        """Offset just past the page's text in the source."""
        return self.start + len(self.text)


PAGE_SEPARATOR = "\n\n"


def join_pages(texts: list[tuple[int, str]], separator: str = PAGE_SEPARATOR) -> tuple[str, list[Page]]:
    """Join (number, text) pairs into one source text; return it and the pages with offsets.

    Used where the pages have no source file of their own (a PDF): the joined text is then
    the source that passage spans point into.
    """
    parts: list[str] = []
    pages: list[Page] = []
    offset = 0
    for i, (number, text) in enumerate(texts):
        if i:
            parts.append(separator)
            offset += len(separator)
        pages.append(Page(number=number, text=text, start=offset))
        parts.append(text)
        offset += len(text)
    return "".join(parts), pages
