"""Read a citation typed by a user ('§ 404-7H', 'Brandon 404-6A(4)', 'Delafield 8.01(4)',
'EXCAVATION IN PUBLIC RIGHT-OF-WAY (2)(b)1.', a section title) and find its passages."""

from __future__ import annotations

import re
import weakref

from pydantic import BaseModel

from assistant.corpus import UnknownMunicipality, declared_municipalities, document, municipalities, served_documents
from assistant.types import Passage

_MUNI_WORDS = r"(?:village|town|city|of|code|ch\.?|chapter|sec\.?|section|§|§§)"
_ECODE_RE = re.compile(r"(?:§+\s*|\bsec(?:tion)?\.?\s*)?\b(\d{1,4}-\d{1,3})\s*((?:[A-Z](?![a-z]))?(?:\s*\(\w{1,4}\))*)", re.I)
_DECIMAL_RE = re.compile(r"(?:§+\s*|\bsec(?:tion)?\.?\s*)?\b(\d{1,3}\.\d{2})\s*((?:\(\w{1,4}\))*(?:\d+\.)?)")
# any section number the general reader finds (16-12.16, 10-3-6, 12.04.050, 12-20.1, 16-12.8A.1),
# followed by printed labels: (A)(1), a.1., (a)
_GENERAL_RE = re.compile(
    r"(?:§+\s*|\bsecs?(?:tion)?\.?\s*)?\b(\d{1,4}(?:[-.]\d{1,4}[A-Z]?)+(?:\.\d{1,4})*)\s*"
    r"((?:\s*\(\w{1,4}\)|\s*[a-zA-Z0-9]{1,3}\.)*)", re.I)
_PATH_RE = re.compile(r"^\s*((?:\(\w{1,4}\))+(?:\d+\.)?)")


class CitationRef(BaseModel):
    municipality: str
    section: str | None
    title: str
    subsection: str | None


def _norm_sub(sub: str) -> str:
    sub = re.sub(r"\s+", "", sub or "")
    return sub[0].upper() + sub[1:] if sub[:1].isalpha() else sub


def _strip_municipality(text: str, munis=None) -> tuple[str | None, str]:
    """The municipality a citation names, and the citation without it (whole words only:
    "downtown" names no town)."""
    for m in municipalities() if munis is None else munis:
        for name in sorted([m.name, m.id, *m.aliases], key=len, reverse=True):
            found = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I) if len(name) > 3 else None
            if found:
                return m.id, (text[:found.start()] + " " + text[found.end():]).strip(" ,:")
    return None, text


def parse_citation(text: str, municipality: str | None = None) -> CitationRef | None:
    """A CitationRef when the whole query is a citation, else None."""
    text = text.strip()
    if not text or len(text) > 200:
        return None
    docs = _Documents(served_documents())  # once: each look-up checks every text's stamp on disk
    munis = tuple(m for m in declared_municipalities() if m.id in docs)
    found_muni, rest = _strip_municipality(text, munis)
    muni = found_muni or municipality
    rest = _lead_words(rest)
    candidates = [m.id for m in munis] if muni is None else [muni]
    matched = False
    for pattern in (_ECODE_RE, _DECIMAL_RE, _GENERAL_RE):
        if matched and pattern is _GENERAL_RE:
            break
        m = pattern.fullmatch(rest.strip().rstrip("."))
        if not m and pattern is not _ECODE_RE:
            m = pattern.fullmatch(rest.strip())
        if m:
            matched = pattern is not _GENERAL_RE
            number, sub = m.group(1), _norm_sub(m.group(2) or "")
            if pattern is _GENERAL_RE:
                sub = re.sub(r"\s+", "", m.group(2) or "")
            for mid in candidates:
                for s in docs[mid].sections:
                    if s.section == number or in_range(number, s.section):
                        return CitationRef(municipality=mid, section=s.section, title=s.title, subsection=sub or None)
            if pattern is _GENERAL_RE:
                return _general_ref(number, sub, candidates, docs)
    if matched:
        return None
    # a section title, optionally followed by a subsection path; the text as typed first, as a
    # title can hold a municipality's word ("STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS")
    as_typed = [m.id for m in munis] if municipality is None else [municipality]
    return _title_ref(_lead_words(text), as_typed, docs) or _title_ref(rest, candidates, docs)


class _Documents(dict):
    """The documents one look-up reads, each fetched (and its files' stamps read) once."""

    def __missing__(self, mid: str):
        got = self[mid] = document(mid)
        return got


def in_range(number: str, section: str | None) -> bool:
    """Is ``number`` one of a range of sections ('30-20' in '30-14–30-44', '12.05' in
    '12.04–12.09')? Both ends share everything but their last number."""
    if not section or "–" not in section:
        return False
    first, _, last = section.partition("–")
    split = re.compile(r"^(.*?)(\d+)$")
    a, b, n = split.match(first.strip()), split.match(last.strip()), split.match(number)
    if not (a and b and n) or not (a.group(1) == b.group(1) == n.group(1)):
        return False
    return int(a.group(2)) <= int(n.group(2)) <= int(b.group(2))


def _general_ref(number: str, sub: str, candidates: list[str], docs: dict) -> CitationRef | None:
    """A number whose tail is a printed label ('16-12.16f.1.' read as section 16-12.16, f.1.)."""
    for mid in candidates:
        for s in docs[mid].sections:
            if s.section and (number + sub).startswith(s.section) and s.section != number + sub:
                tail = (number + sub)[len(s.section):]
                if tail[-1:].isalnum() and not tail.endswith(")"):
                    tail += "."
                if re.fullmatch(r"(?:\(\w{1,4}\)|[a-zA-Z0-9]{1,3}\.)+", tail):
                    return CitationRef(municipality=mid, section=s.section, title=s.title, subsection=tail)
    return None


def _lead_words(text: str) -> str:
    """Without leading words like "Town of", "Code", "ch.", "§"."""
    return re.sub(rf"^\s*(?:{_MUNI_WORDS}(?!\w)\s*)+", "", text, flags=re.I).strip()  # "OFFICIAL" keeps its "OF"


def _title_ref(rest: str, candidates: list[str], docs: dict) -> CitationRef | None:
    low = rest.lower()
    best: CitationRef | None = None
    for mid in candidates:
        for s in _sections_titled_by_a_prefix(docs[mid], low):
            t = s.title.lower()
            tail = rest[len(t):].lstrip(" ,.").rstrip(" ,")  # "(2)(b)1." keeps its last dot
            tail = re.sub(r",?\s*p\.\s*\d+$", "", tail).strip()
            pm = _PATH_RE.match(tail) if tail else None
            if tail and not pm:
                continue
            if best is None or len(s.title) > len(best.title):
                best = CitationRef(
                    municipality=mid, section=s.section, title=s.title,
                    subsection=_norm_sub(pm.group(1)) if pm else None,
                )
    return best


def _sections_titled_by_a_prefix(doc, low: str) -> list:
    """The sections of ``doc`` whose lower-cased title ``low`` starts with, in section order
    (a look-up per title length instead of a comparison with every title of a whole code)."""
    by_len = _titles(doc)
    found = [hit for n, titles in by_len.items() if n <= len(low) for hit in titles.get(low[:n], ())]
    return [s for _, s in sorted(found, key=lambda h: h[0])]


_TITLE_TABLES: dict[int, tuple[weakref.ref, dict]] = {}


def _titles(doc) -> dict[int, dict[str, list[tuple[int, object]]]]:
    """A document's sections by the length and text of their lower-cased title, kept while
    the parsed document lives (a document parsed again gets its own table)."""
    got = _TITLE_TABLES.get(id(doc))
    if got is not None and got[0]() is doc:
        return got[1]
    table: dict[int, dict[str, list[tuple[int, object]]]] = {}
    for i, s in enumerate(doc.sections):
        t = s.title.lower()
        table.setdefault(len(t), {}).setdefault(t, []).append((i, s))
    key = id(doc)
    _TITLE_TABLES[key] = (weakref.ref(doc, lambda _r, key=key: _TITLE_TABLES.pop(key, None)), table)
    return table


# a section number inside a question ("What does 903.99 provide?", "is a bond required under sec. 30-48?");
# never a sum, a percent, a length or a date ("$42.50", "12.5%", "1.5 feet", "12-20-2026" is no "12-20")
SECTION_IN_TEXT = re.compile(r"(?<![\w$.,/-])(?:(?:§+|\bsecs?(?:tion)?\.?)\s*)?(\d{1,4}(?:[-.]\d{1,4}[A-Z]?)+)"
                      r"((?:\(\w{1,4}\))*)(?![\w%/-]|\.\d|\s*(?:%|percent|feet|foot|ft|inch|in\b|hours?|hrs?|days?|"
                      r"tons?|lbs?|pounds?|dollars?|miles?|yards?|years?|months?|weeks?|am\b|pm\b|a\.m|p\.m))", re.I)


def named_sections(text: str, municipality: str | None) -> list[CitationRef]:
    """The sections of ``municipality``'s code a question names by number, in the order named: only numbers
    that are sections there (any publisher's form: 404-18, 903.99, 16-12.8A.6, 30-47, 152.18)."""
    if not municipality or not text or len(text) > 2000:
        return []
    try:
        doc = document(municipality)
    except UnknownMunicipality:  # unknown, or left out because its text cannot be read: it names no section
        return []
    numbers = {s.section: s for s in doc.sections if s.section}
    out: list[CitationRef] = []
    for m in SECTION_IN_TEXT.finditer(text):
        number = m.group(1).rstrip(".")
        sec = numbers.get(number) or numbers.get(number.upper())
        if sec is None or any(r.section == sec.section for r in out):
            continue
        out.append(CitationRef(municipality=municipality, section=sec.section, title=sec.title,
                               subsection=_norm_sub(m.group(2)) or None))
    return out


def passages_for(ref: CitationRef) -> list[Passage]:
    """The passages under a citation: the whole section, or a subsection and its children."""
    for s in document(ref.municipality).sections:
        if s.section == ref.section and s.title == ref.title:
            if not ref.subsection:
                return list(s.passages)
            want = ref.subsection
            out = [p for p in s.passages if p.subsection and _within(p.subsection, want)]
            return out
    return []


def _within(path: str, want: str) -> bool:
    if path == want:
        return True
    if not path.startswith(want):
        return False
    nxt = path[len(want):len(want) + 1]
    return nxt == "(" or (want[-1:] == ")" and nxt.isdigit())


def lookup(text: str, municipality: str | None = None) -> list[Passage]:
    ref = parse_citation(text, municipality)
    return passages_for(ref) if ref else []
