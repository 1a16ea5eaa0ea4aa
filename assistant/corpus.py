"""The corpus: the manifest of municipalities and the parsed chapters.

Parsing is cheap (milliseconds) and needs no model, so the parsed documents are cached
per process. Everything that must cite the code — the tools, the index, the answers —
reads passages from here.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import yaml

from assistant.types import Citation, Document, Municipality, Passage, normalize_ws

CORPUS_DIR = Path(__file__).resolve().parent.parent / "corpus"


class UnknownMunicipality(ValueError):
    pass


class QuoteNotFound(LookupError):
    """No passage (or more than one) holds a quote; carries what was looked for, so a
    calculator can say which rule changed (assistant/amendments.py)."""

    def __init__(self, message: str, municipality: str = "", quote: str = "", section: str | None = None):
        super().__init__(message)
        self.municipality = municipality
        self.quote = quote
        self.section = section


def corpus_dir() -> Path:
    from assistant.settings import get_settings

    return Path(get_settings().corpus_dir)


@functools.cache
def _manifest(path: str) -> tuple[Municipality, ...]:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    return tuple(Municipality.model_validate(d) for d in data.get("documents", []))


def municipalities() -> tuple[Municipality, ...]:
    return _manifest(str(corpus_dir() / "manifest.yaml"))


def municipality_by_id(mid: str) -> Municipality | None:
    for m in municipalities():
        if m.id == mid:
            return m
    return None


def short_name(mid: str) -> str:
    """The name running text uses for a municipality ('<short_name>'s code'), from the manifest."""
    m = municipality_by_id(mid)
    if m is None:
        return mid
    return m.short_name or m.name


def _norm_name(text: str) -> str:
    text = re.sub(r"[^a-z0-9 ]+", " ", text.lower())
    text = re.sub(r"\b(wi|wisconsin|of|the)\b", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def resolve_municipality(name: str | None) -> Municipality | None:
    """Accept an id, a name or an alias ('brandon', 'Village of Brandon', 'Delafield town')."""
    if name is None or not str(name).strip():
        return None
    key = _norm_name(str(name))
    for m in municipalities():
        names = [m.id, m.name, *m.aliases]
        if any(_norm_name(n) == key for n in names):
            return m
    raise UnknownMunicipality(
        f"unknown municipality {name!r}; known: "
        + ", ".join(f"{m.id} ({m.name})" for m in municipalities())
    )


def source_text(m: Municipality) -> str:
    return (corpus_dir() / m.source_file).read_text(encoding="utf-8")


def source_stamp(m: Municipality) -> tuple[int, int, int]:
    """(modification time in ns, size, inode) of the chapter's text: part of every cache key, so a
    chapter replaced on disk — by this process or another — is parsed and cited afresh."""
    try:
        st = (corpus_dir() / m.source_file).stat()
    except OSError:
        return (0, 0, 0)
    return (st.st_mtime_ns, st.st_size, st.st_ino)


@functools.lru_cache(maxsize=32)
def _document(mid: str, corpus: str, stamp: tuple[int, ...] = ()) -> Document:
    from assistant.parsing import parse_document

    m = municipality_by_id(mid)
    assert m is not None
    return parse_document(m, source_text(m))


def document(mid: str) -> Document:
    m = municipality_by_id(mid)
    if m is None:
        raise UnknownMunicipality(f"unknown municipality {mid!r}")
    return _document(mid, str(corpus_dir()), source_stamp(m))


def all_passages() -> list[Passage]:
    return [p for m in municipalities() for p in document(m.id).passages]


def known_problems_of(p: Passage) -> list[str]:
    """The notes of the manifest's ``known_problems`` whose fragment is in this passage."""
    m = municipality_by_id(p.municipality)
    if not m or not m.known_problems:
        return []
    text = " ".join(p.text.split())
    return [k.note for k in m.known_problems if " ".join(k.where.split()) in text]


def passage_by_id(pid: str) -> Passage | None:
    for p in all_passages():
        if p.id == pid:
            return p
    return None


def cite(municipality: str, quote: str, section: str | None = None, title: str | None = None) -> Citation:
    """The citation of the one passage of ``municipality`` whose text holds ``quote``.

    Cached per corpus folder and version of the chapter's text (the calculators cite the
    same provisions on every call; an amended chapter is cited afresh, never from the
    cache); each caller gets its own copy.
    """
    m = municipality_by_id(municipality)
    stamp = source_stamp(m) if m else ()
    found = _cite(municipality, quote, section, title, str(corpus_dir()), stamp).model_copy()
    if (corpus_dir() / "amendments.yaml").is_file():
        from assistant.amendments import pending_change

        if pending_change(municipality, quote):
            raise QuoteNotFound(
                f"the paragraph of {municipality} holding {quote[:60]!r} was amended; its rule data awaits an update",
                municipality=municipality, quote=quote, section=section,
            )
    return found


@functools.lru_cache(maxsize=4096)
def _cite(municipality: str, quote: str, section: str | None, title: str | None, corpus: str,
          stamp: tuple[int, ...] = ()) -> Citation:
    """The uncached search behind ``cite``.

    Whitespace is compared normalised; words are compared exactly. ``section`` or
    ``title`` narrow the search when a quote occurs in several passages. Raises
    QuoteNotFound when no passage (or more than one) holds the quote: a citation is
    never made up.
    """
    want = normalize_ws(quote)
    hits = [
        p
        for p in document(municipality).passages
        if want in normalize_ws(p.text)
        and (section is None or p.section == section)
        and (title is None or p.title.lower() == title.lower())
    ]
    if len(hits) != 1:
        raise QuoteNotFound(
            f"{len(hits)} passages of {municipality} hold the quote {quote[:60]!r}"
            + (f" (section {section})" if section else ""),
            municipality=municipality, quote=quote, section=section,
        )
    p = hits[0]
    # Return the quote as it stands in the passage (original whitespace).
    return p.citation(quote=_verbatim_slice(p.text, want))


def _verbatim_slice(text: str, normalized_quote: str) -> str:
    words = normalized_quote.split(" ")
    pattern = r"\s+".join(re.escape(w) for w in words)
    m = re.search(pattern, text)
    return m.group(0) if m else normalized_quote


def quote_is_verbatim(citation: Citation) -> bool:
    """True when the citation's passage exists and holds the quote verbatim."""
    p = passage_by_id(citation.passage_id) if citation.passage_id else None
    candidates = [p] if p else [
        q
        for q in document(citation.municipality).passages
        if q.section == citation.section and q.title == citation.title
    ]
    want = normalize_ws(citation.quote)
    return bool(want) and any(want in normalize_ws(c.text) for c in candidates if c)
