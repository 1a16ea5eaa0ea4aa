"""A whole code in one file -> its chapters, each read by the general reader.

A Code of Ordinances exported as one text (Municode's "download the whole code") holds
front matter (title page, officials, preface, adopting ordinance), a charter (``PART I -
CHARTER AND RELATED LAWS`` with ``ARTICLE I.`` / ``Sec. 1.01.``), every chapter
(``Chapter 20 - STREETS AND SIDEWALKS[1]``, ``CHAPTER 9-1-1. - PREAMBLE``) and appendices
(``APPENDIX A - ZONING[1]``). ``split_code`` finds those top-level headings by their
shape alone (a keyword, a number, a dash, a title in capitals) and cuts the lines there;
each part keeps the whole text's offsets, so passages still point into the stored file.

Chapter keys are the numbers the code prints. Where a code prints the same chapter number
under two parts (a "related laws" part and the code proper both starting at chapter 1), the
part's numeral is put before the later ones' (``II-1``), and the report says so.
Nothing here knows a municipality.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.parsing.layouts import LayoutText, Line

_TITLE_END = re.compile(r"\s*(?:\[\d+\]|\*)?\s*(?:\bSections?:?.*|\bFootnotes?:.*)?$")
CHAPTER_HEAD = re.compile(
    r"^(?:CHAPTER|Chapter)\s+(?P<num>\d{1,4}[A-Z]?(?:[-.]\d{1,4}[A-Z]?)*)\.?\s*[-–—:]\s*(?P<title>\S.*)$")
APPENDIX_HEAD = re.compile(r"^(?:APPENDIX|Appendix)\s+(?P<num>[A-Z]{1,2}|\d{1,3})\.?\s*[-–—:]\s*(?P<title>\S.*)$")
PART_HEAD = re.compile(r"^(?:PART|Part)\s+(?P<num>[IVXLC]{1,6}|\d{1,2})\.?\s*[-–—:]\s*(?P<title>\S.*)$")
CHARTER_WORD = re.compile(r"\bCHARTER\b", re.I)
MIN_CHAPTERS = 2  # a file with fewer chapter headings is one chapter, read as before


@dataclass
class CodePart:
    """One top-level part of a whole code: the charter, a chapter or an appendix."""

    key: str  # the chapter as cited: '20', '9-1-1', 'Charter', 'Appendix A'
    title: str
    kind: str  # charter | chapter | appendix
    line: int  # index of its heading line in the code's lines (0 when none)
    lines: list[Line] = field(default_factory=list)
    part: str | None = None  # the PART it is printed under ('I', 'II')


@dataclass
class CodeSplit:
    parts: list[CodePart]
    front_lines: int  # lines of front matter before the first part (title page, preface ...)
    notes: list[str] = field(default_factory=list)


def _clean_title(t: str) -> str:
    t = _TITLE_END.sub("", " ".join(t.split()))
    return t.strip(" .-–—")


def _is_title(t: str) -> bool:
    letters = re.sub(r"[^A-Za-z]", "", t)
    return len(letters) >= 2 and letters.isupper() and len(t) <= 160


def _head(ln: Line) -> tuple[str, str, str] | None:
    """(kind, number, title) when the line is a top-level heading."""
    t = ln.text
    if not t or len(t) > 400:
        return None
    for kind, rx in (("chapter", CHAPTER_HEAD), ("appendix", APPENDIX_HEAD), ("part", PART_HEAD)):
        m = rx.match(t)
        if m:
            title = _clean_title(m.group("title"))
            if _is_title(title):
                return kind, m.group("num"), title
    return None


def _title_case(t: str) -> str:
    from assistant.parsing.reader import _title_case as tc

    return tc(t)


def split_code(lt: LayoutText) -> CodeSplit | None:
    """The code's parts, or None when the text holds fewer than two chapter headings (a
    single chapter: the general reader reads it whole, as before)."""
    lines = lt.lines
    heads: list[tuple[int, str, str, str]] = []
    for i, ln in enumerate(lines):
        h = _head(ln)
        if h:
            heads.append((i, *h))
    chapters = [h for h in heads if h[1] in ("chapter", "appendix")]
    if len({(h[1], h[2]) for h in chapters}) < MIN_CHAPTERS:
        return None
    notes: list[str] = list(lt.skipped)  # e.g. the page furniture removed from the whole text
    # a table of contents lists the headings first: a heading printed again later wins
    last: dict[tuple[str, str, str | None], int] = {}
    part_now: str | None = None
    keyed = []
    for i, kind, num, title in heads:
        if kind == "part":
            part_now = num
        keyed.append((i, kind, num, title, part_now))
    for k, (i, kind, num, title, part) in enumerate(keyed):
        last[(kind, num, part if kind == "part" else part)] = k
    toc = [h for k, h in enumerate(keyed) if last[(h[1], h[2], h[4])] != k]
    if toc:
        notes.append(f"lines {toc[0][0] + 1}–{toc[-1][0] + 1}: a table of contents ({len(toc)} headings) — "
                     "each chapter is read where its text is")
    keyed = [h for k, h in enumerate(keyed) if last[(h[1], h[2], h[4])] == k]
    # chapter numbers printed under two parts
    seen_parts: dict[tuple[str, str], set[str | None]] = {}
    for i, kind, num, title, part in keyed:
        if kind != "part":
            seen_parts.setdefault((kind, num), set()).add(part)
    dup = {k for k, v in seen_parts.items() if len(v) > 1}
    first_part_of: dict[tuple[str, str], str | None] = {}
    parts: list[CodePart] = []
    first_chapter = next((h[0] for h in keyed if h[1] != "part"), len(lines))
    charter_start = next((h[0] for h in keyed if h[1] == "part" and h[0] < first_chapter), None)
    front = charter_start if charter_start is not None else first_chapter
    if charter_start is not None:
        title = next(h[3] for h in keyed if h[0] == charter_start)
        pnum = next(h[2] for h in keyed if h[0] == charter_start)
        parts.append(CodePart(key="Charter" if CHARTER_WORD.search(title) else f"Part {pnum}",
                              title=_title_case(title), kind="charter", line=charter_start, part=pnum))
    for i, kind, num, title, part in keyed:
        if kind == "part":
            continue
        key = num if kind == "chapter" else f"Appendix {num}"
        if (kind, num) in dup:
            first = first_part_of.setdefault((kind, num), part)
            if part != first and part:
                key = f"{part}-{key}"
        parts.append(CodePart(key=key, title=_title_case(title), kind=kind, line=i, part=part))
    renamed = sorted({p.key for p in parts if p.part and p.key.startswith(f"{p.part}-")})
    if renamed:
        notes.append(f"chapter numbers printed under two parts: the later part's are cited with its numeral "
                     f"({', '.join(renamed[:6])}{' …' if len(renamed) > 6 else ''})")
    # cut: each part runs to the next top-level heading (a PART heading closes the part before it)
    bounds = sorted({h[0] for h in keyed} | {len(lines)})
    for p in parts:
        nxt = next(b for b in bounds if b > p.line)
        if p.kind == "charter":
            nxt = next((h[0] for h in keyed if h[0] > p.line and h[1] != "part"), len(lines))
        p.lines = lines[p.line:nxt]
    # two parts with one key (a code printing a number twice in one part): the later gets a suffix
    seen: dict[str, int] = {}
    for p in parts:
        if p.key in seen:
            seen[p.key] += 1
            notes.append(f"line {p.line + 1}: chapter {p.key} is printed twice; the second is cited as "
                         f"{p.key}/{seen[p.key]}")
            p.key = f"{p.key}/{seen[p.key]}"
        else:
            seen[p.key] = 1
    if front:
        notes.append(f"lines 1–{front}: front matter (title page, officials, preface, adopting ordinance) "
                     "outside any chapter")
    return CodeSplit(parts=parts, front_lines=front, notes=notes)


def part_layout(lt: LayoutText, part: CodePart) -> LayoutText:
    """The part as a layout of its own (same text and offsets; its lines only)."""
    return LayoutText(layout=lt.layout, text=lt.text, lines=list(part.lines), skipped=[], meta={},
                      paged=lt.paged, furniture_read=lt.furniture_read)
