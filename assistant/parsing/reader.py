"""The general reader of section structure: one set of rules for every layout.

Layouts become lines (``assistant.parsing.layouts``); then:

1. **Page furniture** (``assistant.parsing.furniture``, applied when the layout is read):
   running footers/headers and page lines are removed and their numbers kept as the page
   of each line. Form-feed pages (PDF text) go through the PDF reader's rules.
2. **Section headings.** A line is a candidate when it starts with a section number
   (``§ 404-6``, ``Sec. 20-19.``, ``903.01``, ``§ 152.16``, ``16-12.16``, ``12.04.050``,
   or a number alone on its line with the caption on the next). A candidate is refused
   when the line before it runs on into it (``see §`` / ``§§`` / ``through`` ...), when
   its caption starts in lower case, when its numbering family is not the chapter's, or
   when its number goes backwards. A number printed twice keeps its last heading (the
   first was a table of contents). A heading whose number only prefixes the next ones
   (``16-12`` before ``16-12.1``) is a group heading, like ``ARTICLE II`` or an all-caps
   subchapter line.
3. **Paragraphs** (hard-wrapped lines joined; a sentence cut by a page break joined),
   **labels** ``(a)(1)(i)``, ``A.``/``1.`` nested by their sequence, **run-in headings**
   and **definitions**, and **notes** (history ``(Ord. …)``, ``Penalty, see …``, cross
   references, editor's notes, footnotes) kept on ``Passage.notes``, never as rule text.

Nothing here knows a municipality: the same rules read every sample and every new code.
Subsection labels are never invented: a passage's path is the labels the text prints.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from assistant.parsing.furniture import remove_furniture
from assistant.parsing.layouts import LayoutText, Line

# ------------------------------------------------------------------------ patterns

NUM = r"\d{1,4}(?:[-.]\d{1,4}[A-Z]?)+(?:\.\d{1,4})*"
_PREFIX = r"(?P<prefix>§§?|Secs?\.|SECS?\.|Sections?|SECTIONS?)"
_RANGE = rf"(?:\s*(?:[-–—]|through|to|thru)\s*(?P<num2>{NUM})|(?:,\s*(?P<num3>{NUM}))+)?"
H_PREFIXED = re.compile(
    rf"^{_PREFIX}\s*(?P<num>{NUM}|\d{{1,4}}[A-Z]?){_RANGE}\s*\.?(?:\s*[-–—:]\s+|\s+|$)(?P<cap>.*)$"
)
H_BARE = re.compile(rf"^(?P<num>{NUM}){_RANGE}\.?(?:\s*[-–—:]\s+|\t+|\s{{2,}}|\s(?=[A-Z\"“]))(?P<cap>\S.*)$")
H_ALONE = re.compile(rf"^(?P<prefix>§§?\s*)?(?P<num>{NUM})\.?$")

RUNS_ON = re.compile(
    r"(?:§§?|\b(?:see|and|or|through|thru|to|of|in|under|per|section|sections|subsection|subsections|"
    r"chapter|ch\.|sec\.|secs\.|article|paragraph|division)|[,(\-–—])\s*$",
    re.I,
)
GROUP_WORD = re.compile(r"^(?:ARTICLE|Article|CHAPTER|Chapter|SUBCHAPTER|Subchapter|DIVISION|Division|PART|Part|"
                        r"TITLE|Title)\s+[\dIVXLC]+[A-Z]?\b")
HISTORY = re.compile(
    r"^\((?:Prior Code|Code(?: \d{4})?,?|Ord(?:inance)?s?\b\.?|CBC|Res(?:olution)?\.?|Am\.|Amended|Added|"
    r"Repealed|Recodified|Passed|Source|Adopted|Rev\.|Laws|Acts|St\.|Stats?\.|\d{4} Code|Formerly)[^)]*\)"
)
PENALTY_NOTE = re.compile(r"^Penalty,? see\b", re.I)
NOTE_START = re.compile(
    r"^\*?\s*(?:Cross[- ]?references?(?:\(s\))?|State law references?(?:\(s\))?|Charter references?(?:\(s\))?|"
    r"Editor['’]s notes?|Editors? notes?|Legislative History|Authority|Statutory references?|Footnotes?|"
    r"Note|Notes|Annotations?)\s*(?:[:–—-]|$)",
    re.I,
)
FOOTNOTE_LINE = re.compile(r"^(?:\[\d+\]\s|\*(?=[A-Z])|\*\s|-{2,}\s*\(\d+\)\s*-{2,})")
FOOTNOTE_MARK = re.compile(r"^-{2,}\s*\(\d+\)\s*-{2,}")  # Municode's '--- (1) ---' above a footnote's text
LABEL = re.compile(
    r"^(?:\((?P<p>[A-Za-z]{1,4}|\d{1,3})\)|(?P<d>[A-Za-z]|[ivxlIVXL]{1,5}|\d{1,3})\.(?=[\t ]))[\t ]*"
)
DEF_CAPS = re.compile(r"^(?P<term>[A-Z][A-Z0-9&’'/-]*(?:[ ,-]+(?:or |and |OR |AND )?[A-Z0-9&’'/()-]+)*)\.\s+(?=\S)")
DEF_QUOTED = re.compile(r"^[\"“]\s*(?P<term>[^\"”]{1,80}?)\s*[\"”]\s*[,:.]?\s*(?=\S)")
DEF_MEANS = re.compile(r"^(?P<term>[A-Z][\w’'/ -]{1,70}?)\s+(?:shall\s+)?(?:means?|includes?)\b")
CHAPTER_LINE = re.compile(r"^(?:CHAPTER|Chapter|TITLE|Title)\s+\d")
RESERVED = re.compile(r"^\s*[\[(]?(?:reserved|repealed)\b", re.I)
TERMINAL = re.compile(r"[.:;!?][\"”’')\]]*$")
WRAP_WIDEST = 200  # widest hard-wrapped line width read as such (a PDF page in small type)
WRAP_BUNCHED = 0.2  # share of lines within -15%/+5% of the width when a text is wrapped (one-line paragraphs: ~0.05)
VERB = re.compile(r"\b(?:shall|must|may|is|are|will|has|have|was|were)\b")


# ------------------------------------------------------------------------ results


@dataclass
class Para:
    text: str
    start: int
    end: int
    page: int | str | None
    page_end: int | str | None
    label: str | None = None  # printed label, "(a)" / "a."
    label_note: str | None = None  # "the text prints (l); read as (1)"
    kind: str = "text"  # text | note
    heading: str | None = None
    definition: bool = False
    indent: int = 0
    plain_item: bool = False  # a Markdown list item: its number is not a legal label


@dataclass
class RawSection:
    number: str | None
    caption: str
    line: int  # index of the heading line
    start: int
    page: int | str | None
    reserved: bool = False
    group: list[str] = field(default_factory=list)
    paras: list[Para] = field(default_factory=list)
    number_end: str | None = None  # a range's last number
    head_end: int | None = None  # offset just past the heading (and its caption lines)


@dataclass
class Structure:
    """What the reader found, before it is tied to a municipality."""

    layout: str
    numbering: str  # e.g. "152.16 (§ prefix)" — the family the sections share
    chapter: str | None
    chapter_title: str | None
    sections: list[RawSection]
    groups: list[str]
    skipped: list[str]
    warnings: list[str]
    pages: list[str]


# ------------------------------------------------------------------------ headings


def _num_key(num: str) -> tuple:
    parts = re.findall(r"\d+|[A-Z]+", num)
    return tuple((int(x), "") if x.isdigit() else (-1, x) for x in parts)


def _family(num: str) -> str:
    """The part every section number of a chapter shares: '152.' of 152.16, '16-' of 16-12.16;
    plain numbers ('Section 5.') are one family."""
    m = re.match(r"^(\d+)([-.])", num)
    return f"{m.group(1)}{m.group(2)}" if m else "#"


def _caption(cap: str) -> str:
    cap = re.sub(r"\s*\[\d+\]\s*$", "", cap.strip())
    cap = cap.rstrip("*").strip()
    cap = re.sub(r"\s*[-–—]\s*$", "", cap)
    if cap.endswith(".") and not re.search(r"\b(?:etc|Inc|Co|St|No)\.$", cap):
        cap = cap[:-1]
    return " ".join(cap.split())


@dataclass
class _Cand:
    i: int
    num: str
    num_end: str | None
    caption: str
    prefixed: bool
    cap_lines: int  # lines the caption takes after the heading line (0 or more)


def _split_range(num: str, prefix: str | None, caption: str) -> tuple[str, str | None]:
    """'12-26-12-45' under 'Secs.' (or captioned Reserved) is a range of two numbers."""
    plural = bool(prefix) and prefix.lower().startswith(("secs", "§§", "sections"))
    if not (plural or RESERVED.match(caption)):
        return num, None
    for m in re.finditer(r"[-–—]", num):
        a, b = num[: m.start()], num[m.end():]
        if re.fullmatch(NUM, a) and re.fullmatch(NUM, b) and _family(a) == _family(b) and _num_key(a) < _num_key(b):
            return a, b
    return num, None


def _candidates(lines: list[Line]) -> list[_Cand]:
    out: list[_Cand] = []
    prev_text = ""
    for i, ln in enumerate(lines):
        t = ln.text
        if not t:
            continue
        runs_on = bool(RUNS_ON.search(prev_text)) and not ln.heading_level and not TERMINAL.search(prev_text)
        prev_text_before, prev_text = prev_text, t
        if runs_on or ln.plain_item:
            continue
        m = H_PREFIXED.match(t) or H_BARE.match(t)
        cap_lines = 0
        if m:
            cap = m.group("cap")
            prefix = m.groupdict().get("prefix")
            # a caption wrapped onto deeper-indented lines (Word exports)
            j = i + 1
            while (not TERMINAL.search(cap.strip()) and j < len(lines) and lines[j].text
                   and (lines[j].raw_lead.count("\t") >= 2 or lines[j].indent >= ln.indent + 8)
                   and len(lines[j].text) <= 80 and not LABEL.match(lines[j].text)):
                cap = f"{cap.rstrip()} {lines[j].text}"
                cap_lines += 1
                j += 1
        else:
            m = H_ALONE.match(t)
            if not m:
                continue
            prefix = m.groupdict().get("prefix")
            nxt = next((k for k in range(i + 1, min(i + 3, len(lines))) if lines[k].text), None)
            if nxt is None:
                continue
            cap = lines[nxt].text
            if (H_PREFIXED.match(cap) or H_BARE.match(cap) or H_ALONE.match(cap) or len(cap) > 120
                    or LABEL.match(cap) or VERB.search(cap) and len(cap.split()) > 12):
                continue
            blank_before = i > 0 and not lines[i - 1].text
            if (prev_text_before and not blank_before and not TERMINAL.search(prev_text_before)
                    and not _looks_like_heading(prev_text_before) and not _is_note(prev_text_before)):
                continue
            cap_lines = nxt - i
        caption = cap.strip()
        first = caption[:1]
        if first and not (first.isupper() or first.isdigit() or first in "\"“[(") :
            continue
        num, num_end = m.group("num"), m.groupdict().get("num2") or m.groupdict().get("num3")
        if not re.search(r"[-.]", num) and not prefix:
            continue
        if num_end is None:
            num, num_end = _split_range(num, prefix, caption)
        out.append(_Cand(i, num, num_end, _caption(caption), bool(prefix), cap_lines))
    return out


def _looks_like_heading(t: str) -> bool:
    return bool(H_PREFIXED.match(t) or H_BARE.match(t) or HISTORY.match(t)) or t.isupper()


def choose_sections(lines: list[Line], cands: list[_Cand]) -> tuple[list[_Cand], list[_Cand], list[str]]:
    """(sections, group headings with numbers, skipped notes)."""
    skipped: list[str] = []
    if not cands:
        return [], [], skipped
    fam = Counter(_family(c.num) for c in cands)
    family, _ = fam.most_common(1)[0]
    families = _article_families(cands) or {family}
    kept = [c for c in cands if _family(c.num) in families]
    for c in cands:
        if _family(c.num) not in families and c.prefixed:
            skipped.append(f"line {c.i + 1}: {lines[c.i].text[:60]!r} is numbered outside the chapter's "
                           f"family ({family}…): read as text")
    # a number printed twice: the earlier one was a table of contents — unless the earlier
    # printing is a 'Sec.'/'§' heading and the later a bare number (a table further on)
    last: dict[str, int] = {}
    for k, c in enumerate(kept):
        if c.num not in last or c.prefixed or not kept[last[c.num]].prefixed:
            last[c.num] = k
    toc = [c for k, c in enumerate(kept) if last[c.num] > k]
    for k, c in enumerate(kept):
        if last[c.num] < k:
            skipped.append(f"line {c.i + 1}: {lines[c.i].text[:60]!r} repeats the number of the section at line "
                           f"{kept[last[c.num]].i + 1} out of sequence (a table): read as text")
    if toc:
        skipped.append(f"lines {toc[0].i + 1}–{toc[-1].i + 1}: a table of contents ({len(toc)} entries) — "
                       "the sections are read where their text is")
    kept = [c for k, c in enumerate(kept) if last[c.num] == k]
    # numbers only go forward
    ordered: list[_Cand] = []
    for c in kept:
        if ordered and _num_key(c.num) <= _num_key(ordered[-1].num_end or ordered[-1].num):
            skipped.append(f"line {c.i + 1}: {lines[c.i].text[:60]!r} goes back in the numbering: read as text")
            continue
        ordered.append(c)
    # a heading whose number prefixes the next one's, with nothing of its own: a group
    sections, groups = [], []
    for k, c in enumerate(ordered):
        nxt = ordered[k + 1] if k + 1 < len(ordered) else None
        body = _has_body(lines, c, nxt)
        if nxt and not body and re.match(rf"^{re.escape(c.num)}[-.]", nxt.num):
            groups.append(c)
        else:
            sections.append(c)
    return sections, groups, skipped


def _article_families(cands: list[_Cand]) -> set[str] | None:
    """A text numbered by article ('Sec. 1.01.' … 'Sec. 2.01.' … 'Sec. 3.01.', as charters
    are): the prefixed headings' families, in the order printed (a table of contents'
    earlier copies set aside), only go forward. Then every one of them is the text's."""
    pref = [c for c in cands if c.prefixed and _family(c.num) != c.num]
    last = {c.num: k for k, c in enumerate(pref)}
    fams = [_family(c.num) for k, c in enumerate(pref) if last[c.num] == k]
    distinct = list(dict.fromkeys(fams))
    if len(distinct) < 2 or len({f[-1] for f in distinct}) != 1:
        return None
    keys = [_num_key(f[:-1]) for f in fams]
    if any(b < a for a, b in zip(keys, keys[1:])):
        return None
    return set(distinct)


def _has_body(lines: list[Line], c: _Cand, nxt: _Cand | None) -> bool:
    end = nxt.i if nxt else len(lines)
    return any(ln.text for ln in lines[c.i + 1 + c.cap_lines : end])


def _is_group_line(ln: Line) -> bool:
    t = ln.text
    if not t or len(t) > 120:
        return False
    if GROUP_WORD.match(t):
        return True
    letters = re.sub(r"[^A-Za-z]", "", t)
    return len(letters) >= 4 and letters.isupper() and not TERMINAL.search(t.rstrip("*")) and len(t.split()) <= 14


# ------------------------------------------------------------------------ labels


def _roman(s: str) -> int | None:
    vals = {"i": 1, "v": 5, "x": 10, "l": 50}
    s = s.lower()
    if not s or any(ch not in vals for ch in s):
        return None
    total = 0
    for k, ch in enumerate(s):
        v = vals[ch]
        total += -v if k + 1 < len(s) and vals[s[k + 1]] > v else v
    return total if 0 < total < 40 else None


def _label_kinds(core: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    if core.isdigit():
        return [("digit", int(core))]
    r = _roman(core)
    if core.islower():
        if len(core) == 1:
            out.append(("lower", ord(core) - 96))
        elif len(set(core)) == 1:
            out.append(("lower", 26 * (len(core) - 1) + ord(core[0]) - 96))
        if r:
            out.append(("lroman", r))
    elif core.isupper():
        if len(core) == 1:
            out.append(("upper", ord(core) - 64))
        elif len(set(core)) == 1:
            out.append(("upper", 26 * (len(core) - 1) + ord(core[0]) - 64))
        if r:
            out.append(("uroman", r))
    return out


class LabelStack:
    """Nesting of printed labels by their sequence: (a) (b) … then (1) (2) under (b)…"""

    def __init__(self) -> None:
        self.levels: list[tuple[str, str, int, str]] = []  # kind, style, value, printed

    def reset(self) -> None:
        self.levels = []

    def push(self, printed: str, core: str, style: str) -> tuple[str, str | None]:
        """Place a label; return (path, note when the label was read otherwise than printed)."""
        kinds = _label_kinds(core)
        note = None
        choice = self._place(kinds, style)
        if choice is None and core in ("l", "I", "O", "o"):
            choice = self._place([("digit", 1 if core in ("l", "I") else 0)], style)
            if choice is not None:
                digit = "1" if core in ("l", "I") else "0"
                note = f"the text prints {printed}; read as {printed.replace(core, digit)}"
                printed = printed.replace(core, digit)
        if choice is None:
            # out of sequence: a sibling of the innermost level
            kind, value = kinds[0] if kinds else ("other", 0)
            depth = max(0, len(self.levels) - 1)
            choice = (depth, kind, value)
        depth, kind, value = choice
        self.levels = self.levels[:depth] + [(kind, style, value, printed)]
        return "".join(lv[3] for lv in self.levels), note

    def fits(self, core: str, style: str) -> bool:
        """True when the label continues a level or opens the first level below (no guessing)."""
        return self._place(_label_kinds(core), style, strict=True) is not None

    def _place(self, kinds: list[tuple[str, int]], style: str, strict: bool = False) -> tuple[int, str, int] | None:
        top = len(self.levels) - 1
        # continuation of the innermost level
        for kind, value in kinds:
            if top >= 0 and self.levels[top][:2] == (kind, style) and value == self.levels[top][2] + 1:
                return top, kind, value
        # a first label opens a level below
        for kind, value in kinds:
            if value == 1 and not any(lv[:2] == (kind, style) for lv in self.levels):
                return len(self.levels), kind, value
        # continuation of an outer level
        for depth in range(top - 1, -1, -1):
            for kind, value in kinds:
                if self.levels[depth][:2] == (kind, style) and value == self.levels[depth][2] + 1:
                    return depth, kind, value
        if strict:
            return None
        for kind, value in kinds:
            if value == 1:
                for depth in range(top, -1, -1):
                    if self.levels[depth][:2] == (kind, style):
                        return depth, kind, value  # a new list at that level
        return None


# ------------------------------------------------------------------------ paragraphs


def _is_note(t: str) -> bool:
    return bool(HISTORY.match(t) or PENALTY_NOTE.match(t) or NOTE_START.match(t) or FOOTNOTE_LINE.match(t))


def _paragraphs(lines: list[Line], wrapped: bool, markdown: bool = False, width: int = 80) -> list[Para]:
    paras: list[Para] = []
    cur: list[Line] = []
    gap = False  # a blank line or page furniture since the last line

    def flush() -> None:
        if cur:
            paras.append(_make_para(cur))
            cur.clear()

    for ln in lines:
        t = ln.text
        if not t:
            if cur:
                gap = True
            continue
        starts = bool(LABEL.match(t)) or _is_note(t) or ln.heading_level > 0 or ln.plain_item
        if cur:
            prev = cur[-1]
            runs_on = bool(RUNS_ON.search(prev.text)) and not TERMINAL.search(prev.text)
            if runs_on and not LABEL.match(t):
                starts = False  # "Penalty, see §" / "152.99"
            elif gap:
                cut = not TERMINAL.search(prev.text) and not _is_note(cur[0].text) and not LABEL.fullmatch(prev.text)
                if not (cut and (t[:1].islower() or ln.after_break) and not LABEL.match(t)):
                    starts = True
            elif not wrapped:
                # one paragraph a line, but a line that stops mid-sentence ('… customers. For') and
                # a next line in lower case ('purposes of this section …') are one sentence
                cont = (not TERMINAL.search(prev.text) and t[:1].islower() and not _is_note(cur[0].text)
                        and not LABEL.fullmatch(prev.text + " "))
                starts = starts or not cont
            elif ln.indent > prev.indent and prev.indent == min(x.indent for x in cur):
                starts = True
            elif (not markdown and ln.indent >= cur[0].indent and TERMINAL.search(prev.text)
                  and len(prev.text) < 0.8 * width and (ln.indent > 0 or (
                      t[:1].isupper() and not (prev is cur[0] and _caption_line(prev.text))))):
                # "   BUSINESS DAY. Any day…holiday." then "   BUSINESS HOURS. …"; unindented, a short
                # line ending a sentence then a capital: a wrapped paragraph ended (a caption alone on
                # its line, '(5) Plumbing permit fees.', stays with its text)
                starts = True
            elif TERMINAL.search(prev.text) and len(prev.text) < 45 and t[:1].isupper() and _is_note(cur[0].text) is False:
                starts = starts or (prev is cur[0] and run_in_only(prev.text))
        if starts:
            flush()
        cur.append(ln)
        gap = False
    flush()
    return paras


def _caption_line(t: str) -> bool:
    """A line that only captions what follows it ('(5) Plumbing permit fees.', 'a. Air conditioners:')."""
    x = LABEL.sub("", t).strip()
    return (run_in_only(x) and not DEF_MEANS.match(x)) or (x.endswith(":") and len(x.split()) <= 6)


def run_in_only(t: str) -> bool:
    return bool(re.fullmatch(r"[A-Z][^.]{1,80}\.", t)) and not VERB.search(t)


def _join(lines: list[Line]) -> str:
    out = ""
    for ln in lines:
        t = ln.text
        if not out:
            out = t
        elif re.search(r"[A-Za-z]-$", out) and t[:1].isalpha():
            out += t
        else:
            out += " " + t
    return " ".join(out.split())


def _make_para(lines: list[Line]) -> Para:
    text = _join(lines)
    return Para(text=text, start=lines[0].start, end=lines[-1].end, page=lines[0].page, page_end=lines[-1].page,
                kind="note" if _is_note(text) else "text", indent=lines[0].indent, plain_item=lines[0].plain_item)


def run_in_heading(text: str) -> str | None:
    from assistant.parsing.ecode import run_in_heading as _rih

    return _rih(text)


def _definition(text: str, in_definitions: bool) -> tuple[str, str] | None:
    for rx in (DEF_QUOTED, DEF_CAPS):
        m = rx.match(text)
        if m:
            term = m.group("term").strip()
            if rx is DEF_CAPS and (len(term) < 2 or not re.search(r"[A-Z]{2}", term)):
                continue
            return term, text
    if in_definitions:
        m = DEF_MEANS.match(text)
        if m and len(m.group("term").split()) <= 8:
            return m.group("term").strip(), text
    return None


# ------------------------------------------------------------------------ the reader


def read_structure(lt: LayoutText) -> Structure:
    lines = list(lt.lines)
    skipped = list(lt.skipped)
    warnings: list[str] = []
    if not lt.paged and not lt.furniture_read:
        lines, furn = remove_furniture(lines)
        skipped += furn
    lines = _split_note_then_heading(lines)
    lines, column = _drop_label_columns(lines)
    if column:
        warnings.append(f"{column} subsection labels printed in a column apart from their text (a PDF's "
                        "extraction) were not attached to any paragraph: those passages carry no label")
    lines = _fold_footnotes(lines)
    cands = _candidates(lines)
    sections_c, groups_c, skip_c = choose_sections(lines, cands)
    skipped += skip_c
    lengths = sorted(len(ln.text) for ln in lines if ln.text)
    width = lengths[int(0.9 * (len(lengths) - 1))] if lengths else 80
    # hard-wrapped: most lines short, or (a wider page printed to PDF) lines bunched at one width
    near = sum(1 for x in lengths if 0.85 * width <= x <= 1.05 * width) / len(lengths) if lengths else 0
    wrapped = bool(lengths) and (width <= 110 or (width <= WRAP_WIDEST and near >= WRAP_BUNCHED))
    chapter, chapter_title = _chapter_of(lt, lines, groups_c, sections_c)
    heads = {c.i: ("section", c) for c in sections_c}
    heads.update({c.i: ("group", c) for c in groups_c})
    sections: list[RawSection] = []
    groups: list[str] = []
    group_now: list[str] = []
    group_num: str | None = None
    body: list[Line] = []
    cur: RawSection | None = None
    pre: list[Line] = []
    skip_until = -1
    first_section_line = sections_c[0].i if sections_c else len(lines)

    def close() -> None:
        if cur is not None:
            _fill(cur, body, wrapped, warnings, lt.layout == "markdown", width)
        body.clear()

    for i, ln in enumerate(lines):
        if i <= skip_until:
            continue
        if i in heads:
            kind, c = heads[i]
            skip_until = i + c.cap_lines
            if kind == "group":
                close()
                cur = None
                title = f"{c.num} {c.caption}".strip()
                groups.append(title)
                group_now = [title]
                group_num = c.num
                continue
            close()
            if group_num and not re.match(rf"^{re.escape(group_num)}[-.]", c.num):
                group_now, group_num = [], None
            cur = RawSection(number=c.num, caption=c.caption, line=i, start=ln.start, page=ln.page,
                             reserved=bool(RESERVED.match(c.caption)), group=list(group_now), number_end=c.num_end,
                             head_end=lines[min(i + c.cap_lines, len(lines) - 1)].end)
            sections.append(cur)
            continue
        if ln.text and _is_group_line(ln) and _next_is_heading(lines, i, heads) and not CHAPTER_LINE.match(ln.text):
            close()
            cur = None
            groups.append(_group_title(ln.text))
            group_now, group_num = [_group_title(ln.text)], None
            continue
        if i < first_section_line:
            pre.append(ln)
            continue
        if ln.heading_level and cur is not None and not _is_section_heading_text(ln.text):
            close()
            cur = None
            groups.append(_group_title(ln.text))
            group_now, group_num = [_group_title(ln.text)], None
            continue
        if cur is None:
            if ln.text:
                pre.append(ln)
            continue
        body.append(ln)
    close()
    pre_text = [ln.text for ln in pre if ln.text]
    if pre_text:
        skipped.append(f"{len(pre_text)} lines outside any section (title, contents, chapter or article notes): "
                       + "; ".join(x[:50] for x in pre_text[:4]) + (" …" if len(pre_text) > 4 else ""))
    pages = []
    for ln in lines:
        if ln.page is not None and str(ln.page) not in pages:
            pages.append(str(ln.page))
    fams = Counter(_family(s.number) for s in sections if s.number)
    numbering = ""
    if sections_c:
        fam = fams.most_common(1)[0][0] if fams else ""
        style = "§ " if any(c.prefixed for c in sections_c) else ""
        example = sections_c[min(1, len(sections_c) - 1)].num
        numbering = f"{style}{example} (family {fam}…)"
    return Structure(layout=lt.layout, numbering=numbering, chapter=chapter, chapter_title=chapter_title,
                     sections=sections, groups=groups, skipped=skipped, warnings=warnings, pages=pages)


def _ends_para(body: list[Line]) -> bool:
    last = next((ln.text for ln in reversed(body) if ln.text), "")
    return not last or bool(TERMINAL.search(last)) or _is_note(last)


def _is_section_heading_text(t: str) -> bool:
    return bool(H_PREFIXED.match(t) or H_BARE.match(t))


def _next_is_heading(lines: list[Line], i: int, heads: dict) -> bool:
    for k in range(i + 1, min(len(lines), i + 12)):
        if not lines[k].text:
            continue
        if k in heads or GROUP_WORD.match(lines[k].text) or _is_note(lines[k].text):
            if k in heads:
                return True
            continue
        return lines[k].heading_level > 0 and _is_section_heading_text(lines[k].text)
    return False


def _fold_footnotes(lines: list[Line], limit: int = 20) -> list[Line]:
    """A footnote printed as '--- (1) ---' with its text on the lines below is one note
    line (so its words are never read as rule text, and a heading above it still sees
    the section heading after it). The text runs to a blank line, the next footnote
    mark or a heading."""
    if not any(FOOTNOTE_MARK.match(ln.text) for ln in lines):
        return lines
    out: list[Line] = []
    i, n = 0, len(lines)
    while i < n:
        ln = lines[i]
        if not FOOTNOTE_MARK.match(ln.text):
            out.append(ln)
            i += 1
            continue
        parts, end, j = [ln.text], ln.end, i + 1
        while (j < n and j - i <= limit and lines[j].text and not FOOTNOTE_MARK.match(lines[j].text)
               and not H_PREFIXED.match(lines[j].text) and not GROUP_WORD.match(lines[j].text)
               and (j == i + 1 or not NOTE_START.match(lines[j].text))):
            parts.append(lines[j].text)
            end = lines[j].end
            j += 1
        out.append(Line(text=" ".join(parts), indent=ln.indent, start=ln.start, end=end, page=ln.page,
                        raw_lead=ln.raw_lead, after_break=ln.after_break))
        i = j
    return out


def _group_title(t: str) -> str:
    return re.sub(r"\s*\[\d+\]\s*$", "", t.rstrip("*").strip())


def _drop_label_columns(lines: list[Line]) -> tuple[list[Line], int]:
    """Labels printed one per line in a run ('(a)' '(1)' '(2)' … then the text without them: a
    PDF's label column extracted apart from its paragraphs) cannot be told which paragraph is
    theirs: they are dropped, never attached to the line after them. A single label on its own
    line above its text is kept."""
    only = [bool(ln.text) and bool(LABEL.fullmatch(ln.text.strip() + " ")) and len(ln.text) <= 6 for ln in lines]
    drop = {i for i in range(len(lines)) if only[i] and ((i > 0 and only[i - 1]) or (i + 1 < len(lines) and only[i + 1]))}
    if not drop:
        return lines, 0
    out: list[Line] = []
    carry = False
    for i, ln in enumerate(lines):
        if i in drop:
            carry = carry or ln.after_break
            continue
        if carry and ln.text:
            ln.after_break, carry = True, False
        out.append(ln)
    return out, len(drop)


def _split_note_then_heading(lines: list[Line]) -> list[Line]:
    """'(Ord. 1986 c. 16 § 1)<TAB>16-12.32<TAB>Vaults Under Sidewalks.' is two lines."""
    out: list[Line] = []
    for ln in lines:
        m = re.match(rf"^(\([^)]*\))(\t+)(?=(?:§\s*)?{NUM}\t)", ln.text)
        if m and HISTORY.match(m.group(1)):
            cut = m.end()
            out.append(Line(text=m.group(1), indent=ln.indent, start=ln.start, end=ln.start + len(m.group(1)),
                            page=ln.page, raw_lead=ln.raw_lead, after_break=ln.after_break))
            out.append(Line(text=ln.text[cut:], indent=ln.indent + 4, start=ln.start + cut, end=ln.end,
                            page=ln.page, raw_lead=ln.raw_lead + "\t"))
        else:
            out.append(ln)
    return out


def _chapter_of(lt: LayoutText, lines: list[Line], groups: list[_Cand], sections: list[_Cand]) -> tuple[str | None, str | None]:
    meta_no = lt.meta.get("chapter_no") or lt.meta.get("chapter")
    title = lt.meta.get("title")
    if meta_no:
        if title:
            title = re.sub(rf"^(?:chapter|ch\.)\s*{re.escape(meta_no)}\s*[:.\-–—]\s*", "", title, flags=re.I)
        return meta_no, title
    first = sections[0].i if sections else len(lines)
    for ln in lines[:first + 1]:
        m = re.match(r"^(?:CHAPTER|Chapter|TITLE|Title)\s+(\d+[\w.-]*)\s*[:.\-–—]*\s*(.*)$", ln.text)
        if m:
            return m.group(1).rstrip("."), _title_case(_caption(m.group(2)))
    if groups and groups[0].i < first:
        g = groups[0]
        return g.num, _title_case(g.caption)
    if sections:
        fam = _family(sections[0].num)
        return fam[:-1], None
    return None, None


INLINE_LABEL = re.compile(r"(?<=[.;:])\s+(?:\((?P<p>[a-zA-Z]{1,4}|\d{1,3})\)|(?P<d>[a-z]|\d{1,2})\.)\s+(?=[A-Z$“\"(])")


def _split_inline(text: str, stack: "LabelStack") -> list[tuple[str | None, str | None, str]]:
    """A paragraph into which deeper levels were flattened ('(1) Fees: a. A $50 fee… b. A $500
    deposit… (2) The superintendent…'): [(core, style, text)], the first piece unlabelled.
    A label is taken only where a sentence ends and the label continues the sequence
    (never 'subsection (a)' in a sentence); at least two must be found."""
    if len(text) < 200:
        return [(None, None, text)]
    probe = LabelStack()
    probe.levels = list(stack.levels)
    cuts: list[tuple[int, int, str, str]] = []
    for m in INLINE_LABEL.finditer(text):
        core = m.group("p") or m.group("d")
        style = "paren" if m.group("p") else "period"
        if not probe.fits(core, style):
            continue
        printed = f"({core})" if style == "paren" else f"{core}."
        probe.push(printed, core, style)
        cuts.append((m.start(), m.end(), core, style))
    if len(cuts) < 2:
        return [(None, None, text)]
    pieces: list[tuple[str | None, str | None, str]] = [(None, None, text[: cuts[0][0]].strip())]
    for k, (a, b, core, style) in enumerate(cuts):
        end = cuts[k + 1][0] if k + 1 < len(cuts) else len(text)
        pieces.append((core, style, text[b:end].strip()))
    return pieces


def _title_case(t: str) -> str:
    if not t.isupper():
        return t
    small = {"and", "or", "of", "the", "a", "an", "in", "on", "to", "for", "by", "at"}
    words = t.lower().split()
    return " ".join(w if (k and w in small) else w[:1].upper() + w[1:] for k, w in enumerate(words))


def _append_split(sec: RawSection, p: Para, stack: "LabelStack") -> None:
    """Append a paragraph, split where flattened subsections continue the label sequence."""
    pieces = _split_inline(p.text, stack)
    if len(pieces) == 1:
        sec.paras.append(p)
        return
    first, *rest = pieces
    if first[2]:
        p.text = first[2]
        sec.paras.append(p)
    for core, style, text in rest:
        printed = f"({core})" if style == "paren" else f"{core}."
        path, note = stack.push(printed, core, style)
        q = Para(text=text, start=p.start, end=p.end, page=p.page, page_end=p.page_end, label=path,
                 label_note=note, indent=p.indent + 4)
        head = run_in_heading(text)
        if head and len(head.split()) <= 12:
            q.heading = head
        sec.paras.append(q)


def _fill(sec: RawSection, body: list[Line], wrapped: bool, warnings: list[str], markdown: bool = False,
          width: int = 80) -> None:
    paras = _paragraphs(body, wrapped, markdown, width)
    stack = LabelStack()
    in_defs = "definition" in sec.caption.lower()
    for p in paras:
        if p.kind == "note":
            sec.paras.append(p)
            continue
        m = None if p.plain_item else LABEL.match(p.text)
        if m:
            core = m.group("p") or m.group("d")
            style = "paren" if m.group("p") else "period"
            printed = f"({core})" if style == "paren" else f"{core}."
            if style == "period" and len(core) > 1 and not core.isdigit() and not _roman(core):
                sec.paras.append(p)
                continue
            path, note = stack.push(printed, core, style)
            p.label, p.label_note = path, note
            p.text = p.text[m.end():].strip()
            if not p.text:
                continue
            head = run_in_heading(p.text)
            if head and len(head.split()) <= 12:
                p.heading = head
            _append_split(sec, p, stack)
            continue
        d = _definition(p.text, in_defs)
        if d and (in_defs or d[0].isupper()):
            p.heading, p.definition = d[0], True
            stack.reset()
        _append_split(sec, p, stack)
    if sec.reserved and not [p for p in sec.paras if p.kind == "text"]:
        return


# ------------------------------------------------------------------------ to the domain models


def to_sections(st: Structure, municipality: str, chapter: str, id_prefix: str, ordinal: int = 0):
    """Structure -> (list[Section], next ordinal, warnings). Passage ids are
    ``{id_prefix}:{section}:{subsection or -}:{ordinal}``."""
    from assistant.types import Passage, Section, slug

    out: list[Section] = []
    warnings: list[str] = []
    for rs in st.sections:
        number = rs.number if rs.number_end is None else f"{rs.number}–{rs.number_end}"
        key = number or slug(rs.caption)
        passages: list[Passage] = []
        sec_notes: list[str] = []
        heads: dict[str, str] = {}
        cur: Passage | None = None
        cur_indent = 0
        definition: str | None = None
        for p in rs.paras:
            if p.kind == "note":
                (cur.notes if cur is not None else sec_notes).append(p.text)
                continue
            if p.label is None and cur is not None and cur.subsection and not p.definition and p.indent > cur_indent:
                cur.text = f"{cur.text}\n\n{p.text}"
                cur.end = p.end
                cur.page_end = p.page_end
                continue
            if p.definition:
                definition = p.heading
            path = p.label
            if path and p.heading:
                heads[path] = p.heading
            ancestors = []
            if path:
                prefix = ""
                for lab in re.findall(r"\([^)]*\)|[^.()]+\.", path)[:-1]:
                    prefix += lab
                    if prefix in heads:
                        ancestors.append(heads[prefix])
            heading_path = [*rs.group, *([definition] if definition and not p.definition else []), *ancestors]
            notes = [p.label_note] if p.label_note else []
            if p.label_note:
                warnings.append(f"§ {number}: {p.label_note}")
            cur = Passage(
                id=f"{id_prefix}:{key}:{path or '-'}:{ordinal}", municipality=municipality, chapter=chapter,
                section=number, title=rs.caption, subsection=path, heading=p.heading, heading_path=heading_path,
                page=p.page, page_end=p.page_end, text=p.text, start=p.start, end=p.end, notes=notes,
                ordinal=ordinal,
            )
            cur_indent = p.indent
            passages.append(cur)
            ordinal += 1
        if not passages and (rs.reserved or RESERVED.match(rs.caption)):
            # "§ 10-3-7 (Reserved)", "Secs. 30-50—30-59. Reserved.": one passage, so that the number
            # shows and says it is reserved (its history notes kept as notes)
            word = "Repealed." if re.match(r"^\s*[\[(]?repealed", rs.caption, re.I) else "Reserved."
            passages.append(Passage(
                id=f"{id_prefix}:{key}:-:{ordinal}", municipality=municipality, chapter=chapter, section=number,
                title=rs.caption, heading_path=list(rs.group), page=rs.page, page_end=rs.page, text=word,
                start=rs.start, end=rs.head_end or rs.start, notes=sec_notes, ordinal=ordinal))
            sec_notes = []
            ordinal += 1
        end = max((p.end for p in passages), default=rs.start)
        out.append(Section(municipality=municipality, chapter=chapter, section=number, title=rs.caption,
                           page=rs.page, notes=sec_notes, passages=passages, start=rs.start, end=end))
    return out, ordinal, warnings
