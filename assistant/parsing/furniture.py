"""Page furniture of a text export: running headers, footers and page lines removed, their
page number kept as the page of the text around them.

A text saved from a paged original (a Word file, a PDF, a web page printed to PDF) carries,
at every page break, lines that are not the law: the page number, a revision or supplement
stamp, the running title, a browser's print header. They may fall mid-sentence. The rules
below read them by their shape alone (layout data; nothing about a municipality):

1. **Page lines.**
   - a *footer*: a line ending in a page number after a tab, whose shape (letters, digits
     masked) is printed at least twice (``Rev. 3/1/12 Supp. 11<TAB>1614.4``), or a bare page
     number with blank lines around it (or a running header after it); two of them at least
     (a lone number in a table is not a page break), a page's worth of text between them
     (numbers ending the rows of a table are not pages);
   - a *page of total*: ``102/226`` or ``Page 3 of 12`` alone on its line, the same total on
     three or more such lines, the numbers going forward, a page's worth of text between them
     (fractions in a table stand on neighbouring lines and are not read as pages).
2. **Running lines** beside the page lines:
   - the capital-letter lines right after a footer (``16-12<TAB>CITY OF BOSTON CODE -
     ORDINANCES<TAB>16-12``);
   - a line whose shape (digits masked) stands within two lines of a page line on at least
     three pages and at least half of them, and (almost) nowhere else: a print header
     (``5/31/2019 Monticello, GA Code of Ordinances``), a ``Created: …`` stamp, a ``(Supp.
     No. 12)`` line.
3. **Pages.** A footer's number is the page of the text before it. A page of total is a
   header when it opens the text, or when the last page (``226/226``) has text after it, or
   (in an excerpt) when its running line stands before it on most pages: its number is then
   the page of the text after it. Either way the first line after the
   removed block is marked ``after_break`` so that a sentence cut by the page break is
   joined again.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from assistant.parsing.layouts import Line

_NUM = r"\d{1,4}(?:[-.]\d{1,4}[A-Z]?)+(?:\.\d{1,4})*"  # a section number (the reader's NUM)
_TERMINAL = re.compile(r"[.:;!?][\"”’')\]]*$")
_PAGE_TOKEN = r"\d{1,5}(?:\.\d{1,3})?(?:-\d{1,4})?"
FOOTER_TAIL = re.compile(rf"^(?P<body>.*\S)?(?:[ ]*\t[\t ]*|[ ]{{2,}})(?P<page>{_PAGE_TOKEN})\s*$")
BARE_PAGE = re.compile(rf"^(?:page\s+|p\.\s*|[-–]\s*)?(?P<page>{_PAGE_TOKEN})(?:\s*[-–])?(?:\s+of\s+\d+)?$", re.I)
PAGE_OF_TOTAL = re.compile(r"^(?:page\s+)?(?P<page>\d{1,4})\s*(?:/|\bof\b)\s*(?P<total>\d{1,4})$", re.I)
MIN_FOOTERS = 2  # one lone number between blank lines is not a page break
MIN_PAGES = 3  # page lines of one total before they are read as pages
MIN_PAGE_LINES = 8  # median lines of text between two page lines (a page holds text)
BESIDE = 2  # lines on either side of a page line where its running lines stand
EXCLUSIVE = 0.8  # share of a running line's shape printed beside page lines


def _letters_shape(text: str) -> str:
    return re.sub(r"[\d\s]+", "", text.lower())


def _shape(text: str) -> str:
    """A line with its digits masked: '102/226' and '103/226', or two dates, have one shape."""
    return re.sub(r"\d+", "#", " ".join(text.split())).lower()


def _footers(lines: list[Line]) -> list[tuple[int, str]]:
    n = len(lines)
    shapes = Counter(_letters_shape(ln.text) for ln in lines if ln.text and FOOTER_TAIL.match(ln.text))

    def blank(i: int) -> bool:
        return i < 0 or i >= n or not lines[i].text

    out: list[tuple[int, str]] = []
    for i, ln in enumerate(lines):
        t = ln.text
        if not t or ln.heading_level:
            continue
        fm = FOOTER_TAIL.match(t)
        if fm and "\t" in lines[i].raw_lead + t and shapes[_letters_shape(t)] >= 2 and not re.match(rf"^{_NUM}\t", t) \
                and not _TERMINAL.search(fm.group("body") or ""):
            out.append((i, fm.group("page")))
        elif BARE_PAGE.fullmatch(t) and blank(i - 1) and (
                (blank(i + 1) and not re.fullmatch(_NUM, t.split()[-1])) or _followed_by_header(lines, i)):
            out.append((i, BARE_PAGE.fullmatch(t).group("page")))
    return out if len(out) >= MIN_FOOTERS and _spread(lines, out) else []


def _spread(lines: list[Line], marks: list[tuple[int, object]]) -> bool:
    """A page's worth of text between page lines (median): numbers ending the rows of a table are not pages."""
    gaps = sorted(sum(1 for ln in lines[a + 1 : b] if ln.text) for (a, _), (b, _) in zip(marks, marks[1:]))
    return bool(gaps) and gaps[len(gaps) // 2] >= MIN_PAGE_LINES


def _pages_of_total(lines: list[Line]) -> tuple[list[tuple[int, str]], int | None]:
    """Page-of-total lines ('102/226', 'Page 3 of 12') of the text's most printed total."""
    found = []
    for i, ln in enumerate(lines):
        m = PAGE_OF_TOTAL.fullmatch(ln.text) if ln.text and not ln.heading_level else None
        if m and 1 <= int(m.group("page")) <= int(m.group("total")):
            found.append((i, int(m.group("page")), int(m.group("total"))))
    if len(found) < MIN_PAGES:
        return [], None
    total = Counter(t for _, _, t in found).most_common(1)[0][0]
    seq: list[tuple[int, int]] = []
    for i, p, t in found:
        if t == total and (not seq or p > seq[-1][1]):
            seq.append((i, p))
    if len(seq) < MIN_PAGES or not _spread(lines, seq):
        return [], None
    return [(i, str(p)) for i, p in seq], total


def _beside(lines: list[Line], i: int, marks: set[int]) -> list[int]:
    """Indexes of the non-blank lines within BESIDE lines before and after line i (page lines excluded)."""
    out: list[int] = []
    for step in (-1, 1):
        j, seen = i + step, 0
        while 0 <= j < len(lines) and seen < BESIDE:
            if lines[j].text and j not in marks:
                out.append(j)
                seen += 1
            j += step
    return out


def _running_shapes(lines: list[Line], marks: list[int]) -> set[str]:
    """Shapes printed beside the page lines on at least half the pages and almost nowhere else."""
    if len(marks) < MIN_PAGES:
        return set()
    mark_set = set(marks)
    beside: Counter[str] = Counter()
    for i in marks:
        beside.update({_shape(lines[j].text) for j in _beside(lines, i, mark_set)})
    need = max(MIN_PAGES, math.ceil(0.5 * len(marks)))
    wanted = {s for s, c in beside.items() if c >= need}
    if not wanted:
        return set()
    overall = Counter(_shape(ln.text) for ln in lines if ln.text)
    return {s for s in wanted if beside[s] >= EXCLUSIVE * overall[s]}


def _drop_running(lines: list[Line], i: int, marks: set[int], running: set[str], drop: set[int]) -> None:
    """Drop the running lines that stand next to page line i (outward, up to the first other line)."""
    for step in (-1, 1):
        j, seen = i + step, 0
        while 0 <= j < len(lines) and seen < BESIDE:
            if lines[j].text and j not in marks:
                if _shape(lines[j].text) not in running:
                    break
                drop.add(j)
                seen += 1
            j += step


def remove_furniture(lines: list[Line]) -> tuple[list[Line], list[str]]:
    """The lines without page furniture, each kept line with its page; and what was removed."""
    n = len(lines)
    footers = _footers(lines)
    totals, total = _pages_of_total(lines)
    foot_at = {i for i, _ in footers}
    marks = footers + [(i, p) for i, p in totals if i not in foot_at]
    marks.sort()
    if not marks:
        return lines, []
    mark_idx = [i for i, _ in marks]
    mark_set = set(mark_idx)
    drop: set[int] = set(mark_set)
    for i in foot_at:  # a footer's running header: the capital-letter lines after it
        j, seen = i + 1, 0
        while j < n and seen < 3:
            t = lines[j].text
            if t:
                if _is_running_header(t):
                    drop.add(j)
                    seen += 1
                else:
                    break
            j += 1
    running = _running_shapes(lines, mark_idx)
    for i in mark_idx:
        _drop_running(lines, i, mark_set, running, drop)
    numbers = [p for _, p in marks]
    heads = bool(totals) and not footers and _heads_its_page(lines, mark_idx, numbers, total, drop)
    out: list[Line] = []
    k = 0
    broke = False
    for i, ln in enumerate(lines):
        while k < len(mark_idx) and i > mark_idx[k]:
            k += 1
        if i in drop:
            broke = True
            continue
        if heads:
            if k:
                ln.page = _page_value(numbers[k - 1])
            else:
                first = int(numbers[0])
                ln.page = first - 1 if first > 1 else None
        else:
            ln.page = _page_value(numbers[k]) if k < len(numbers) else None
        if ln.text and broke:
            ln.after_break = True
            broke = False
        out.append(ln)
    skipped: list[str] = []
    if footers:
        skipped.append(f"{len(footers)} running footers and their headers (page numbers {footers[0][1]} to "
                       f"{footers[-1][1]}) removed; each passage keeps its page")
    if totals and not footers:
        examples = list(dict.fromkeys(lines[j].text for j in sorted(drop - mark_set)))[:2]
        skipped.append(f"{len(totals)} page lines ({lines[totals[0][0]].text} to {lines[totals[-1][0]].text})"
                       + (" and their running lines (" + "; ".join(repr(e[:60]) for e in examples) + ")"
                          if examples else "") + " removed; each passage keeps its page")
    if not heads and any(lines[j].text for j in range(mark_idx[-1] + 1, n) if j not in drop):
        skipped.append(f"the text after page {numbers[-1]} has no printed page number in this file")
    return out, skipped


def _heads_its_page(lines: list[Line], marks: list[int], numbers: list[str], total: int | None,
                    drop: set[int]) -> bool:
    """Whether page-of-total lines number the text after them (a header) rather than before (a footer)."""
    content = [i for i in range(len(lines)) if lines[i].text and i not in drop]
    if not content:
        return False
    before, after = content[0] < marks[0], content[-1] > marks[-1]
    if not before:
        return True  # it opens the text
    if int(numbers[-1]) == total:
        return after  # the last page: text after it is on it
    if int(numbers[0]) == 1:
        return False  # page 1 closes the text before it
    # an excerpt: the block reads 'running line, page line' at a page's head, 'page line,
    # running line' where a footer meets the next page's header
    mark_set = set(marks)

    def running_before(i: int) -> bool:
        j = next((j for j in range(i - 1, -1, -1) if lines[j].text), None)
        return j is not None and j in drop and j not in mark_set

    return sum(map(running_before, marks)) > len(marks) / 2


def _followed_by_header(lines: list[Line], i: int) -> bool:
    for ln in lines[i + 1 : i + 4]:
        if ln.text:
            return _is_running_header(ln.text)
    return False


def _is_running_header(t: str) -> bool:
    letters = re.sub(r"[^A-Za-z]", "", t)
    return bool(letters) and letters.isupper() and ("\t" in t or "  " in t or len(t) < 80) and not _TERMINAL.search(t)


def _page_value(p: str) -> int | str:
    return int(p) if p.isdigit() else p
