"""Source layouts -> plain lines for the general reader.

A clerk has a chapter as a text export, Markdown, a web page, an XML file or a PDF.
Each becomes a list of ``Line`` (its words, its indentation, where it starts, whether
the layout marks it as a heading), so that one set of structure rules reads them all
(``assistant.parsing.reader``). Libraries: the standard library's ``html.parser`` for
HTML and ``xml.etree.ElementTree`` for XML (lxml was compared: faster and more forgiving
of broken markup, but a compiled dependency the project does not have; a chapter is a
few hundred kilobytes, and expat refuses entity-expansion bombs), and pypdf (through
``assistant.parsing.pdf``) for PDFs.

Offsets (``Line.start``) point into ``LayoutText.text``: the source with its byte-order
mark removed and CR / CRLF line ends read as LF (Markdown and text keep every other
character; HTML and XML give their extracted text).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Literal

from assistant.parsing import ParseError

Layout = Literal["text", "markdown", "html", "xml", "pdf"]
LAYOUTS: tuple[str, ...] = ("text", "markdown", "html", "xml", "pdf")


@dataclass
class Line:
    """One line of the source as the reader sees it."""

    text: str  # words of the line, leading whitespace removed, markup removed
    indent: int  # width of the leading whitespace (a tab counts 4)
    start: int  # offset of the line in LayoutText.text
    end: int
    heading_level: int = 0  # >0 when the layout marks the line as a heading (Markdown #, <h2>, TEI <head>)
    plain_item: bool = False  # a Markdown list item whose number/bullet is not a legal label
    page: int | str | None = None
    after_break: bool = False  # page furniture (a running header/footer) was removed just before it
    raw_lead: str = ""  # the leading whitespace as printed


@dataclass
class LayoutText:
    layout: str
    text: str
    lines: list[Line]
    skipped: list[str] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)  # e.g. front matter title / chapter_no
    paged: bool = False  # the lines carry page numbers of a paged source
    furniture_read: bool = False  # running headers/footers already removed (assistant.parsing.furniture)


def normalize_newlines(text: str) -> str:
    """BOM removed; CRLF and bare CR read as LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def detect_layout(text: str, filename: str | None = None) -> str:
    """The layout of a source: by file suffix when it says, else by content."""
    name = (filename or "").lower()
    for suffix, layout in ((".md", "markdown"), (".markdown", "markdown"), (".html", "html"), (".htm", "html"),
                           (".xml", "xml"), (".tei", "xml"), (".pdf", "pdf")):
        if name.endswith(suffix):
            return layout
    head = text.lstrip("\ufeff \t\r\n")[:2000].lower()
    if head.startswith("%pdf-"):
        return "pdf"
    if head.startswith("<!doctype html") or re.search(r"<html[\s>]|<body[\s>]|<p[\s>]", head):
        return "html" if not head.startswith("<?xml") or "<html" in head else "xml"
    if head.startswith("<?xml") or re.match(r"<[a-z][\w:.-]*[\s>]", head):
        return "xml"
    if head.startswith("---\n") or re.search(r"(?m)^#{1,6} \S", text[:20000]):
        return "markdown"
    return "text"


def _indent(lead: str) -> int:
    return sum(4 if ch == "\t" else 1 for ch in lead)


def plain_lines(text: str) -> list[Line]:
    out = []
    pos = 0
    for raw in text.split("\n"):
        stripped = raw.strip()
        lead = raw[: len(raw) - len(raw.lstrip())]
        out.append(Line(text=stripped, indent=_indent(lead), start=pos + len(lead), end=pos + len(raw.rstrip()),
                        raw_lead=lead))
        pos += len(raw) + 1
    return out


# ------------------------------------------------------------------------- markdown

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_ITEM = re.compile(r"^(\d{1,3}[.)]|[*+-])\s+(.*)$")
_MD_REFDEF = re.compile(r"^\[[^\]]+\]:\s*\S+")
_LEGAL_START = re.compile(r"^\([A-Za-z0-9]{1,5}\)(?=\s)")


def _md_inline(s: str) -> str:
    s = re.sub(r"<!--.*?-->", "", s)
    s = re.sub(r"!?\[([^\]]*)\]\[[^\]]*\]", r"\1", s)  # [text][ref]
    s = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", s)  # [text](url)
    s = re.sub(r"\*\*(.+?)\*\*", r"\1", s)
    s = re.sub(r"__(.+?)__", r"\1", s)
    s = re.sub(r"(?<![\w\\])_(\S(?:.*?\S)?)_(?!\w)", r"\1", s)  # _(a)_ -> (a)
    s = re.sub(r"`([^`]*)`", r"\1", s)
    s = re.sub(r"\\$", "", s)  # hard line break
    s = re.sub(r"\\([\\`*_{}\[\]()#+\-.!])", r"\1", s)
    return html.unescape(s)


def markdown_lines(text: str) -> tuple[list[Line], list[str], dict[str, str]]:
    lines = plain_lines(text)
    skipped: list[str] = []
    meta: dict[str, str] = {}
    i = 0
    if lines and lines[0].text == "---" and lines[0].indent == 0:
        j = 1
        while j < len(lines) and lines[j].text != "---":
            mm = re.match(r"^([\w-]+):\s*(.*)$", lines[j].text)
            if mm:
                meta[mm.group(1)] = mm.group(2).strip().strip("\"'")
            j += 1
        if j < len(lines):
            for k in range(0, j + 1):
                lines[k].text = ""
            skipped.append(f"lines 1–{j + 1}: YAML front matter (title: {meta.get('title', '—')})")
            i = j + 1
    in_comment = False
    for ln in lines[i:]:
        t = ln.text
        if in_comment:
            if "-->" in t:
                in_comment = False
                t = t.split("-->", 1)[1]
            else:
                ln.text = ""
                continue
        if "<!--" in t and "-->" not in t.split("<!--", 1)[1]:
            in_comment = True
            t = t.split("<!--", 1)[0]
        if _MD_REFDEF.match(t):
            ln.text = ""
            continue
        hm = _MD_HEADING.match(t)
        if hm:
            ln.heading_level = len(hm.group(1))
            ln.text = _md_inline(hm.group(2)).strip()
            continue
        im = _MD_ITEM.match(t)
        if im:
            rest = _md_inline(im.group(2)).strip()
            if _LEGAL_START.match(rest) and im.group(1)[0].isdigit():
                ln.text = rest  # "1. (a) ..." : the list number is Markdown's, the label the code's
            else:
                ln.text = _md_inline(t).strip()
                ln.plain_item = True
            continue
        ln.text = _md_inline(t).strip()
    return lines, skipped, meta


# ------------------------------------------------------------------------- html / xml

_BLOCK_TAGS = {"p", "div", "br", "li", "tr", "td", "th", "table", "section", "article", "blockquote", "pre",
               "dd", "dt", "dl", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "header", "footer", "body",
               "head", "title", "lb", "l", "item", "list", "note", "ab", "lg", "hr"}
_SKIP_TAGS = {"script", "style", "nav", "noscript", "template", "svg"}


class _HTMLText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.heading: int = 0

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP_TAGS:
            self.skip += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")
            if re.fullmatch(r"h[1-6]", tag):
                self.parts.append("\x00" + tag[1])  # heading marker, read back below

    def handle_endtag(self, tag):
        if tag in _SKIP_TAGS:
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def _marked_lines(text: str) -> list[Line]:
    """Lines of extracted markup text; a line starting with NUL+digit is a heading."""
    lines = plain_lines(text)
    for ln in lines:
        if ln.text.startswith("\x00"):
            ln.heading_level = int(ln.text[1]) if ln.text[1:2].isdigit() else 1
            ln.text = ln.text[2:].strip()
    return lines


def html_text(text: str) -> str:
    p = _HTMLText()
    p.feed(text)
    p.close()
    return "".join(p.parts)


def xml_text(text: str) -> str:
    import xml.etree.ElementTree as ET

    body = re.sub(r"^\s*<\?xml[^>]*\?>", "", text)
    body = re.sub(r"<!DOCTYPE[^>]*>", "", body)  # no DTDs: no entity expansion
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        # an excerpt whose namespace prefix is declared on a missing ancestor: strip prefixes
        try:
            root = ET.fromstring(re.sub(r"<(/?)[\w.-]+:", r"<\1", body))
        except ET.ParseError:
            raise ParseError(f"the XML is not well-formed ({exc})") from None
    parts: list[str] = []

    def local(tag) -> str:
        return str(tag).rsplit("}", 1)[-1].lower()

    def walk(el) -> None:
        tag = local(el.tag)
        if tag in _SKIP_TAGS:
            return
        block = tag in _BLOCK_TAGS
        if block:
            parts.append("\n")
            if tag == "head" or re.fullmatch(r"h[1-6]", tag):
                parts.append("\x00" + (tag[1] if tag.startswith("h") and tag[1:].isdigit() else "1"))
        if el.text:
            parts.append(el.text)
        for child in el:
            walk(child)
            if child.tail:
                parts.append(child.tail)
        if block:
            parts.append("\n")

    walk(root)
    return "".join(parts)


# ------------------------------------------------------------------------- entry


def read_layout(source: str | bytes, layout: str = "auto", filename: str | None = None) -> LayoutText:
    """Source text (or PDF bytes) -> lines, with what was skipped and why."""
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
        if layout == "pdf" or (layout == "auto" and data.lstrip()[:5] == b"%PDF-"):
            return _pdf_layout(data)
        try:
            source = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            source = data.decode("cp1252", errors="replace")
    text = normalize_newlines(source)
    if layout == "auto":
        layout = detect_layout(text, filename)
    if layout == "pdf":
        raise ParseError("a PDF must be given as bytes")
    if "\f" in text and layout not in ("markdown", "html", "xml"):
        return _paged_text(text)
    if layout == "markdown":
        lines, skipped, meta = markdown_lines(text)
        lt = LayoutText("markdown", text, lines, skipped, meta)
    elif layout == "html":
        extracted = normalize_newlines(html_text(text))
        lt = LayoutText("html", extracted.replace("\x00", ""), _marked_lines(extracted))
    elif layout == "xml":
        extracted = normalize_newlines(xml_text(text))
        lt = LayoutText("xml", extracted.replace("\x00", ""), _marked_lines(extracted))
    else:
        lt = LayoutText("text", text, plain_lines(text))
    return without_furniture(lt)


def without_furniture(lt: LayoutText) -> LayoutText:
    """Running headers/footers and page lines removed from the whole text (before a whole
    code is cut into chapters, so that every chapter keeps its pages)."""
    from assistant.parsing.furniture import remove_furniture

    lt.lines, removed = remove_furniture(lt.lines)
    lt.skipped += removed
    lt.furniture_read = True
    return lt


def _pdf_layout(data: bytes) -> LayoutText:
    from assistant.parsing.pdf import check_pdf_bytes, extract_page_texts
    from assistant.settings import get_settings

    check_pdf_bytes(data)
    pages = extract_page_texts(data, max_pages=get_settings().max_pdf_pages)
    out = _paged_text("\f".join(pages))
    out.layout = "pdf"
    return out


def pdf_to_paged_text(data: bytes) -> str:
    """The text of a PDF, pages separated by form feeds (what `municipality add` stores)."""
    from assistant.parsing.pdf import check_pdf_bytes, extract_page_texts
    from assistant.settings import get_settings

    check_pdf_bytes(data)
    pages = extract_page_texts(data, max_pages=get_settings().max_pdf_pages)
    if not any(p.strip() for p in pages):
        raise ParseError("the PDF has no extractable text (a scanned image? run OCR first)")
    return "\f".join(p.replace("\f", " ") for p in pages)


def _paged_text(text: str) -> LayoutText:
    """Pages separated by form feeds: running headers/footers removed, printed page
    numbers taken from them (the PDF reader's rules)."""
    from assistant.parsing.pdf import strip_running_lines

    raw_pages = text.split("\f")
    numbered, running = strip_running_lines(raw_pages)
    lines: list[Line] = []
    joined: list[str] = []
    pos = 0
    for k, (number, body) in enumerate(numbered):
        page_lines = plain_lines(body)
        first = next((j for j, ln in enumerate(page_lines) if ln.text), None)
        for j, ln in enumerate(page_lines):
            ln.start += pos
            ln.end += pos
            ln.page = number
            ln.after_break = k > 0 and j == first
        lines += page_lines
        joined.append(body)
        pos += len(body) + 1
    skipped = [f"running header/footer removed on every page: {r!r}" for r in running]
    return LayoutText("text", "\n".join(joined), lines, skipped, paged=True)
