"""Paged code text (a PDF or its transcription) -> Document.

The pages' texts are joined into one flat text (a sentence cut by a page break joins
with a single space); every offset of the flat text maps back to the source, so each
passage keeps its page, its last page and its character span in the source.

Structure, as printed codes like the Town of Delafield's show it:

- Section headings are ALL-CAPS runs ending in a period ("8.01 HIGHWAY COMMISSION.",
  "DRIVEWAYS AND CULVERTS.") that do not follow an enumeration label; a number printed
  before the title is kept, none is invented. A caps run without a period counts when
  an amendment tag and/or the first enumeration "(1)" follow it ("SANITARY SEWER
  REGULATIONS, FOXWOOD ESTATES SUBDIVISION (Rep. and Recr. Ord ) (1)").
- Amendment tags ("(Am. #88-200)", "(rep. & rec )") are taken out of the text and kept
  as notes.
- Enumerations (1), (a), 1., i. build the subsection path "(2)(b)1.". A label counts
  only where it is the expected next item of an open level, or the first item of a new
  level, at the start of a sentence and followed by a capital (so "subsection (c)
  below" and "five (5) days" are text). "(i)" after "(h)" is a letter.
- A run-in heading right after a label ("CULVERTS TO BE INSTALLED.", "Guarantee
  Specifications.") becomes the passage's heading and stays in its text.
- Labels stacked without text ("(a) (b) (c) (d) (e) APPROVING AUTHORITY ... BUILDING
  DRAIN ...") lost their pairing with the text: they are dropped with a warning and the
  definitions after them become passages of the enclosing subsection, one per defined
  term.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from assistant.parsing import ParseError
from assistant.parsing.pages import Page
from assistant.types import Document, Municipality, Passage, Section, normalize_ws, slug

# ---------------------------------------------------------------------------- patterns

AMENDMENT_TAG = re.compile(
    r"\((?:Am|Amend|Cr|Rep|Repeal|Recr|Rec|Ord|Renum|Rn)\b\.?[^()]{0,60}\)", re.IGNORECASE
)
_CAPS_WORD = r"[A-Z][A-Z0-9'’&/\-]*\b(?![a-z'’])"
_CAPS_RUN = rf"{_CAPS_WORD}(?:[,;]?\s+{_CAPS_WORD})*"
_SECTION_RUN = re.compile(
    rf"(?<![\w\-'’(.$#])(?:(?P<num>\d{{1,3}}\.\d{{1,3}}[A-Za-z]?)\s+)?(?P<title>{_CAPS_RUN})(?P<dot>\.)?(?![\w\-'’])"
)
_LABEL = re.compile(
    r"\((?P<paren>\d{1,2}|[a-z]{1,5}|[A-Z])\)"
    r"|(?<![\w.,$/\-#'’])(?P<dot>\d{1,2}|[ivx]{1,5})\.(?=\s)"
)
_LABEL_AT_END = re.compile(r"(?:\(\w{1,5}\)|(?<![\w.])(?:\d{1,2}|[ivx]{1,5})\.)\s*$")
_CAPS_HEADING = re.compile(rf"(?P<h>{_CAPS_RUN})(?P<dot>\.)?(?=\s|$)")
_SMALL_WORDS = "of|and|or|for|to|the|a|an|in|on|with|by|at|from|upon|under|per|vs"
_TITLE_HEADING = re.compile(
    rf"(?P<h>[A-Z][\w'’/\-]*(?:,?\s+(?:[A-Z][\w'’/\-]*|(?:{_SMALL_WORDS})\b)){{0,11}}\.)(?=\s|$)"
)
_PREPOSITIONS = frozenset(
    "by of to the a an in on with for from and or under per pursuant than as at".split()
)
_DEF_TERM = re.compile(rf"(?P<term>{_CAPS_WORD}(?:\s+(?:{_CAPS_WORD}|\([A-Z]{{2,}}\)))*)")
_SHALL_MEAN = re.compile(r"\s+(?:shall\s+mean|means)\b")
_LOWER_TERM = re.compile(r"[a-z]{1,6}(?=\s+shall\s+mean\b)")  # "ph shall mean"

_LABEL_FOLLOWER = re.compile(r"\s+(?:[A-Z(\"“$]|\d)|\s*$")
_FIRST_WORD = re.compile(r"\S+\s+")
_LOOKBEHIND = 300  # characters of context looked at around a heading or a label

_ROMAN = {"i": 1, "v": 5, "x": 10}


def _roman(s: str) -> int | None:
    if not s or any(c not in _ROMAN for c in s):
        return None
    total = 0
    for i, c in enumerate(s):
        v = _ROMAN[c]
        total += -v if i + 1 < len(s) and _ROMAN[s[i + 1]] > v else v
    canonical = _to_roman(total)
    return total if canonical == s else None


def _to_roman(n: int) -> str:
    out = ""
    for v, sym in ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out += sym
            n -= v
    return out


# ---------------------------------------------------------------------------- flat text


class _Flat:
    """The pages' texts joined by single spaces, with offsets back into the source."""

    def __init__(self, pages: list[Page]):
        parts: list[str] = []
        self.starts: list[int] = []  # flat offset where each page's text starts
        self.pages = pages
        offset = 0
        for i, p in enumerate(pages):
            if i:
                parts.append(" ")
                offset += 1
            self.starts.append(offset)
            parts.append(p.text)
            offset += len(p.text)
        self.text = "".join(parts)

    def _index(self, o: int) -> int:
        return max(0, bisect.bisect_right(self.starts, o) - 1)

    def src(self, o: int) -> int:
        """Source offset of the character at flat offset ``o``."""
        i = self._index(o)
        return self.pages[i].start + min(o - self.starts[i], len(self.pages[i].text))

    def src_end(self, o: int) -> int:
        """Source offset just past the character at flat offset ``o - 1``."""
        return self.src(o - 1) + 1 if o > 0 else self.src(0)

    def page(self, o: int) -> int:
        return self.pages[self._index(o)].number


# ---------------------------------------------------------------------------- sections


@dataclass
class _Heading:
    start: int  # flat offset of the heading (number or title)
    end: int  # flat offset just past the heading and the tags after it
    number: str | None
    title: str
    notes: list[str]


def _preceded_by_label(text: str, pos: int) -> bool:
    before = text[max(0, pos - _LOOKBEHIND) : pos].rstrip()
    while True:  # skip amendment tags between a label and what follows
        m = re.search(r"\([^()]{1,60}\)$", before)
        if m and AMENDMENT_TAG.fullmatch(m.group(0)):
            before = before[: m.start()].rstrip()
            continue
        break
    return bool(_LABEL_AT_END.search(before))


_TAG_AHEAD = re.compile(r"\s*(" + AMENDMENT_TAG.pattern + r")", re.IGNORECASE)


def _tags_after(text: str, pos: int) -> tuple[int, list[str]]:
    """Skip amendment tags at ``pos``: (offset past them, the tags)."""
    notes = []
    while True:
        m = _TAG_AHEAD.match(text, pos)
        if not m:
            return pos, notes
        notes.append(normalize_ws(m.group(1)))
        pos = m.end()


def _find_headings(text: str) -> list[_Heading]:
    heads: list[_Heading] = []
    for m in _SECTION_RUN.finditer(text):
        title, start = m["title"], m.start("title")
        words = title.split()
        number = m["num"]
        if number is None:
            prev = re.search(r"(\w+)\W*$", text[max(0, start - _LOOKBEHIND) : start])
            if prev and prev.group(1) in _PREPOSITIONS and len(words) >= 3:
                # "... authority granted by AB SANITARY SEWER ...": the first word ends
                # the sentence before.
                first = _FIRST_WORD.match(text, start)
                start = first.end()
                title = text[start : m.end("title")]
                words = title.split()
        if number is None and (len(words) < 2 or sum(c.isalpha() for c in title) < 6):
            continue
        if number is None and _preceded_by_label(text, start):
            continue
        end, notes = _tags_after(text, m.end())
        rest = text[end : end + _LOOKBEHIND]
        if m["dot"]:  # "DRIVEWAYS AND CULVERTS." then a sentence, a label or the end
            ok = not rest.strip() or re.match(r"\s+[A-Z(\"“]", rest)
        else:  # no period: only right before the first enumeration (or at the very end)
            ok = re.match(r"\s*\((?:1|a)\)\s", rest) or (not rest.strip() and (notes or number))
        if not ok:
            continue
        heads.append(
            _Heading(
                start=m.start() if number else start,
                end=end,
                number=number,
                title=re.sub(r"\s+", " ", title).strip(),
                notes=notes,
            )
        )
    return heads


# ---------------------------------------------------------------------------- labels


@dataclass
class _Label:
    style: str
    value: int
    raw: str  # as printed: "(2)", "1."
    start: int
    end: int
    depth: int = 0
    path: str = ""
    heading: str | None = None
    content_start: int = 0  # after the label, its tags and its heading
    ancestors_headings: list[str] = field(default_factory=list)


def _interpretations(m: re.Match) -> list[tuple[str, int]]:
    if m["paren"] is not None:
        s = m["paren"]
        if s.isdigit():
            return [("paren_num", int(s))]
        if s.isupper():
            return [("paren_upper", ord(s) - 64)]
        out = []
        if len(s) == 1:
            out.append(("paren_alpha", ord(s) - 96))
        r = _roman(s)
        if r:
            out.append(("paren_roman", r))
        return out
    s = m["dot"]
    if s.isdigit():
        return [("dot_num", int(s))]
    r = _roman(s)
    return [("dot_roman", r)] if r else []


def _item_heading(body: str, pos: int, end: int) -> tuple[str | None, int]:
    """Run-in heading right after a label (tags skipped): (heading, offset past it)."""
    pos, _ = _tags_after(body, pos)
    ws = re.match(r"\s*", body[pos:end])
    p = pos + ws.end()
    segment = body[p:end]
    m = _CAPS_HEADING.match(segment)
    if m and sum(c.isalpha() for c in m["h"]) >= 3:
        # "(1) CULVERTS TO BE INSTALLED. No ...", "(2) DEFINITIONS Unless ...", but not
        # "(c) WPDES permits ..."
        if m["dot"] or re.match(r"\s*(?:$|\(|[A-Z])", segment[m.end() :]):
            return m.group(0), p + m.end()
    m = _TITLE_HEADING.match(segment)
    if m and re.match(r"\s*(?:$|[A-Z(\"“$\d])", segment[m.end() :]):
        return m["h"], p + m.end()
    return None, pos


def _strip_tags(s: str) -> str:
    return AMENDMENT_TAG.sub("", s).strip()


def _find_labels(body: str, warnings: list[str], where: str) -> tuple[list[_Label], list[tuple[int, int, str]]]:
    """Accepted labels of a section body, and the stacked label runs dropped as garbled."""
    tag_starts, tag_ends = [], []
    for t in AMENDMENT_TAG.finditer(body):
        tag_starts.append(t.start())
        tag_ends.append(t.end())

    def in_tag(o: int) -> bool:
        i = bisect.bisect_right(tag_starts, o) - 1
        return i >= 0 and o < tag_ends[i]

    cands = [m for m in _LABEL.finditer(body) if not in_tag(m.start())]

    # Runs of same-style sibling labels with nothing between them: "(a) (b) (c)".
    garbled: list[tuple[int, int, str]] = []
    skip: set[int] = set()
    i = 0
    while i < len(cands):
        j = i
        while (
            j + 1 < len(cands)
            and cands[j]["paren"] is not None
            and cands[j + 1]["paren"] is not None
            and not body[cands[j].end() : cands[j + 1].start()].strip()
            and any(
                s1 == s2 and v2 == v1 + 1
                for s1, v1 in _interpretations(cands[j])
                for s2, v2 in _interpretations(cands[j + 1])
            )
        ):
            j += 1
        if j > i:
            garbled.append((cands[i].start(), cands[j].end(), " ".join(c.group(0) for c in cands[i : j + 1])))
            skip.update(range(i, j + 1))
            i = j + 1
        else:
            i += 1

    accepted: list[_Label] = []
    stack: list[_Label] = []
    root_content = 0
    for k, m in enumerate(cands):
        if k in skip:
            continue
        if not _LABEL_FOLLOWER.match(body, m.end()):
            continue
        before = body[max(0, m.start() - _LOOKBEHIND) : m.start()].rstrip()
        is_paren = m["paren"] is not None
        if is_paren:
            if re.search(r"(?:^|\s)[a-z]+$", before) or before.endswith(("sub.", "Sub.", "§")):
                continue
        elif before and not re.search(r"[.:;)]$", before):
            continue
        interps = _interpretations(m)
        chosen: tuple[int, str, int] | None = None  # (depth, style, value)
        for style, value in interps:  # expected next item of an open level
            for d, fr in enumerate(stack):
                if fr.style == style and value == fr.value + 1:
                    chosen = (d, style, value)
        if chosen is None:
            for style, value in interps:  # first item of a new, deeper level
                if value != 1 or any(fr.style == style for fr in stack):
                    continue
                if not is_paren:
                    content_from = stack[-1].content_start if stack else root_content
                    if _strip_tags(body[content_from : m.start()]):
                        continue
                chosen = (len(stack), style, value)
                break
        if chosen is None:
            continue
        depth, style, value = chosen
        del stack[depth:]
        label = _Label(style=style, value=value, raw=m.group(0), start=m.start(), end=m.end(), depth=depth)
        label.path = "".join(fr.raw for fr in stack) + label.raw
        label.ancestors_headings = [fr.heading.rstrip(".") for fr in stack if fr.heading]
        next_start = len(body)
        for m2 in cands[k + 1 :]:
            next_start = m2.start()
            break
        heading, label.content_start = _item_heading(body, m.end(), next_start)
        label.heading = normalize_ws(heading) if heading else None
        stack.append(label)
        accepted.append(label)
    for a, b, raw in garbled:
        warnings.append(
            f"{where}: the labels {raw} are stacked without their text; "
            "the definitions after them are kept as passages of the enclosing subsection"
        )
    return accepted, garbled


# ---------------------------------------------------------------------------- passages


def _definition_starts(body: str, a: int, b: int) -> list[tuple[int, str]]:
    """Where definitions start in body[a:b]: (offset, defined term)."""
    out: list[tuple[int, str]] = []
    seg = body[a:b]
    for m in re.finditer(r"(?:^|\s+)(?=\S)", seg):
        p = m.end()
        at_sentence_start = p == len(seg) - len(seg.lstrip()) or re.search(r"[.:]\s+$", seg[max(0, p - 20) : p])
        t = _DEF_TERM.match(seg, p)
        if t and sum(c.isupper() for c in t["term"]) >= 2 and (at_sentence_start or _SHALL_MEAN.match(seg, t.end())):
            if not out or out[-1][0] != a + p:
                out.append((a + p, t["term"]))
            continue
        w = _LOWER_TERM.match(seg, p)
        if w and at_sentence_start:
            out.append((a + p, w.group(0)))
    # keep one start per term run (the finditer above also fires inside a term)
    dedup: list[tuple[int, str]] = []
    for p, term in out:
        if dedup and p < dedup[-1][0] + len(dedup[-1][1]):
            continue
        dedup.append((p, term))
    return dedup


@dataclass
class _Piece:
    start: int  # body offsets
    end: int
    subsection: str | None
    heading: str | None
    heading_path: list[str]
    notes: list[str]


def _clean(body: str, a: int, b: int) -> tuple[str, int, int, list[str]]:
    """Passage text of body[a:b]: tags out, outer whitespace and tags trimmed.

    Returns (text, start, end, notes) with start/end the body offsets of the text.
    """
    seg = body[a:b]
    notes = [normalize_ws(t.group(0)) for t in AMENDMENT_TAG.finditer(seg)]
    # trim leading/trailing tags and whitespace for the span
    lead = re.match(r"(?:\s|" + AMENDMENT_TAG.pattern + r")*", seg, re.IGNORECASE)
    s = a + lead.end()
    e = b
    while True:
        tail = body[s:e].rstrip()
        e = s + len(tail)
        m = re.search(r"(?:" + AMENDMENT_TAG.pattern + r")$", tail, re.IGNORECASE)
        if not m:
            break
        e = s + m.start()
    core = body[s:e]
    text = re.sub(r"\s*" + AMENDMENT_TAG.pattern + r"\s*", " ", core, flags=re.IGNORECASE)
    return text.strip(), s, e, notes


def parse_paged(m: Municipality, pages: list[Page]) -> Document:
    """Sections and passages of a paged code text (see the module docstring)."""
    if not pages:
        raise ParseError("the document has no pages")
    flat = _Flat(pages)
    text = flat.text
    if not text.strip():
        raise ParseError("the document has no text")
    warnings: list[str] = []
    heads = _find_headings(text)
    if not heads:
        raise ParseError("no section headings found (ALL-CAPS titles such as '8.01 HIGHWAY COMMISSION.')")

    bounds: list[tuple[_Heading | None, int, int]] = []
    if text[: heads[0].start].strip():
        bounds.append((None, 0, heads[0].start))
        warnings.append("text before the first section heading is kept as an untitled section")
    for i, h in enumerate(heads):
        bounds.append((h, h.end, heads[i + 1].start if i + 1 < len(heads) else len(text)))

    sections: list[Section] = []
    ordinal = 0
    for head, b0, b1 in bounds:
        title = head.title if head else "Preamble"
        number = head.number if head else None
        where = f"{number or title}"
        body = text[b0:b1]
        labels, garbled = _find_labels(body, warnings, where)

        pieces: list[_Piece] = []
        inherited: dict[int, list[str]] = {}  # label index -> notes from skipped parents
        spans = [(None, 0, labels[0].start if labels else len(body))]
        for i, lab in enumerate(labels):
            spans.append((i, lab.end, labels[i + 1].start if i + 1 < len(labels) else len(body)))
        for idx, a, b in spans:
            lab = labels[idx] if idx is not None else None
            sub = lab.path if lab else None
            heading = lab.heading if lab else None
            hpath = lab.ancestors_headings if lab else []
            notes_in = inherited.get(idx, []) if idx is not None else []
            cuts = [(ga, gb) for ga, gb, _ in garbled if a <= ga < b]
            first_end = cuts[0][0] if cuts else b
            txt, s, e, notes = _clean(body, a, first_end)
            is_leaf = lab is None or idx + 1 >= len(labels) or labels[idx + 1].depth <= lab.depth
            if lab is None and not txt:
                pass  # no text before the first label
            elif txt and (is_leaf or cuts or normalize_ws(txt).rstrip(".") != normalize_ws(heading or "").rstrip(".")):
                pieces.append(_Piece(s, e, sub, heading, hpath, notes_in + notes))
            elif not txt and is_leaf and not cuts:
                warnings.append(f"{where} {sub}: empty item")
            else:  # heading-only parent: its tags go to its descendants
                for j in range(idx + 1, len(labels)):
                    if labels[j].depth <= lab.depth:
                        break
                    inherited.setdefault(j, []).extend(notes_in + notes)
            for ci, (ga, gb) in enumerate(cuts):
                seg_end = cuts[ci + 1][0] if ci + 1 < len(cuts) else b
                starts = _definition_starts(body, gb, seg_end) or [(gb, None)]
                if starts[0][0] > gb and _strip_tags(body[gb : starts[0][0]]):
                    starts.insert(0, (gb, None))
                for di, (ds, term) in enumerate(starts):
                    de = starts[di + 1][0] if di + 1 < len(starts) else seg_end
                    dtxt, s2, e2, dnotes = _clean(body, ds, de)
                    if dtxt:
                        term = normalize_ws(term) if term else None
                        pieces.append(_Piece(s2, e2, sub, term, hpath + ([heading.rstrip(".")] if heading else []), dnotes))

        section = Section(
            municipality=m.id,
            chapter=m.chapter,
            section=number,
            title=title,
            untitled=head is None,
            page=flat.page(head.start if head else 0),
            notes=list(head.notes) if head else [],
            start=flat.src(head.start if head else 0),
            end=flat.src_end(b0 + len(body.rstrip())),
        )
        key = number or slug(title)
        for pc in pieces:
            fs, fe = b0 + pc.start, b0 + pc.end
            ptext, _, _, _ = _clean(text, fs, fe)
            pid = f"{m.id}:{key}:{pc.subsection or '-'}:{ordinal}"
            section.passages.append(
                Passage(
                    id=pid,
                    municipality=m.id,
                    chapter=m.chapter,
                    section=number,
                    title=title,
                    untitled=head is None,
                    subsection=pc.subsection,
                    heading=pc.heading,
                    heading_path=pc.heading_path,
                    page=flat.page(fs),
                    page_end=flat.page(fe - 1),
                    text=ptext,
                    start=flat.src(fs),
                    end=flat.src_end(fe),
                    notes=pc.notes,
                    ordinal=ordinal,
                )
            )
            ordinal += 1
        if not section.passages:
            warnings.append(f"{where}: the section has no text")
        sections.append(section)
    return Document(municipality=m, sections=sections, warnings=warnings)
