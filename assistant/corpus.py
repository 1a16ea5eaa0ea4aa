"""The corpus: the manifest of municipalities and the parsed chapters.

Parsing is cheap (milliseconds) and needs no model, so the parsed documents are cached
per process. Everything that must cite the code — the tools, the index, the answers —
reads passages from here.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import weakref
from pathlib import Path

import yaml

from assistant.types import ChapterSource, Citation, Document, Municipality, Passage, normalize_ws

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


log = logging.getLogger("assistant.corpus")


class ManifestError(ValueError):
    """The manifest file itself cannot be read (not one entry: the whole file)."""


@functools.cache
def _manifest(path: str) -> tuple[tuple[Municipality, ...], tuple[str, ...]]:
    """Valid entries, and one line per entry left out (a bad entry never stops the rest)."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise ManifestError(f"no manifest at {path}") from None
    except yaml.YAMLError as exc:
        raise ManifestError(f"the manifest {path} is not valid YAML ({' '.join(str(exc).split())[:160]})") from None
    entries = data.get("documents") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ManifestError(f"the manifest {path} has no 'documents:' list")
    good: list[Municipality] = []
    problems: list[str] = []
    for k, d in enumerate(entries):
        mid = d.get("id") if isinstance(d, dict) else None
        try:
            m = Municipality.model_validate(d)
        except Exception as exc:  # noqa: BLE001 - pydantic ValidationError and malformed entries
            errs = getattr(exc, "errors", None)
            detail = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in errs()[:3]) if errs else str(exc)
            problems.append(f"manifest entry {k + 1} ({mid or 'no id'}): {detail}")
            continue
        if any(g.id == m.id for g in good):
            problems.append(f"manifest entry {k + 1} ({m.id}): the id is used twice; the first entry is kept")
            continue
        good.append(m)
    for p in problems:
        log.warning("left out: %s", p)
    return tuple(good), tuple(problems)


def declared_municipalities() -> tuple[Municipality, ...]:
    """Every valid manifest entry, whether or not its text reads."""
    return _manifest(str(corpus_dir() / "manifest.yaml"))[0]


def municipalities() -> tuple[Municipality, ...]:
    """The municipalities in service: valid entries whose text parses. One that fails is
    left out (see ``load_problems``) and every other keeps working."""
    corpus = str(corpus_dir())
    return tuple(m for m in declared_municipalities()
                 if not isinstance(_try_document(m.id, corpus, source_stamp(m, corpus)), str))


def served_documents() -> dict[str, Document]:
    """Every municipality in service with its parsed document, each one's texts stamped once
    (``municipalities()`` then ``document()`` of each stamps every text twice)."""
    corpus = str(corpus_dir())
    out = {}
    for m in declared_municipalities():
        got = _try_document(m.id, corpus, source_stamp(m, corpus))
        if not isinstance(got, str):
            out[m.id] = got
    return out


_RUNTIME_PROBLEMS: list[str] = []


def note_problem(message: str) -> None:
    """Record (and log) a municipality left out while the process runs (e.g. it failed to index)."""
    log.warning("left out: %s", message)
    if message not in _RUNTIME_PROBLEMS:
        _RUNTIME_PROBLEMS.append(message)


def load_problems() -> list[str]:
    """One line per municipality or manifest entry left out, and why."""
    corpus = str(corpus_dir())
    out = list(_manifest(str(corpus_dir() / "manifest.yaml"))[1]) + list(_RUNTIME_PROBLEMS)
    for m in declared_municipalities():
        got = _try_document(m.id, corpus, source_stamp(m))
        if isinstance(got, str):
            out.append(got)
    return out


def manifest_entries() -> list[dict]:
    """The manifest's entries as written (for `municipality add/remove`)."""
    path = corpus_dir() / "manifest.yaml"
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return list(data.get("documents") or [])


def reset_caches() -> None:
    """Forget parsed manifests and documents (after the corpus folder changed)."""
    _manifest.cache_clear()
    _try_document.cache_clear()
    _document.cache_clear()
    _cite.cache_clear()
    _RUNTIME_PROBLEMS.clear()


def municipality_by_id(mid: str) -> Municipality | None:
    for m in declared_municipalities():
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
    """Accept an id, a name or an alias (an id such as 'springfield', 'City of Springfield', 'Springfield city')."""
    if name is None or not str(name).strip():
        return None
    key = _norm_name(str(name))
    hits = [m for m in municipalities() if key in _normalized_names(m)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise UnknownMunicipality(
            f"{name!r} names more than one municipality: "
            + ", ".join(f"{m.id} ({m.display_name})" for m in hits) + "; give the id or the state"
        )
    for m in declared_municipalities():
        if m not in municipalities() and any(_norm_name(n) == key for n in [m.id, m.name, m.display_name, *m.aliases]):
            raise UnknownMunicipality(f"{m.display_name} is left out: {_try_document(m.id, str(corpus_dir()), source_stamp(m))}")
    raise UnknownMunicipality(
        f"unknown municipality {name!r}; known: "
        + ", ".join(f"{m.id} ({m.name})" for m in municipalities())
    )


def source_text(m: Municipality) -> str:
    return (corpus_dir() / m.source_file).read_text(encoding="utf-8")


def source_of(m: Municipality, ch: ChapterSource | None) -> str | bytes:
    """A chapter's source: text for the text formats, bytes for a PDF."""
    path = corpus_dir() / (ch.source_file if ch else m.source_file)
    fmt = ch.source_format if ch else m.source_format
    if fmt == "pdf" or (fmt == "auto" and path.suffix.lower() == ".pdf"):
        return path.read_bytes()
    if fmt in ("ecode_text", "pdf_transcript"):
        return path.read_text(encoding="utf-8")
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def source_stamp(m: Municipality, corpus: str | None = None) -> tuple[tuple[int, int, int], ...]:
    """(modification time in ns, size, inode) of each of the municipality's texts: part of every
    cache key, so a chapter replaced on disk — by this process or another — is parsed and cited
    afresh. Each file once: the chapters of a whole code share one file (a hundred stats of
    it on every look-up made a citation check of 31 codes cost ~100 ms). ``corpus``: the corpus
    folder, when the caller has it (this is called for every municipality on every look-up)."""
    folder = corpus if corpus is not None else str(corpus_dir())
    out = []
    for f in _source_files(m):
        try:
            st = os.stat(os.path.join(folder, f))
            out.append((st.st_mtime_ns, st.st_size, st.st_ino))
        except OSError:
            out.append((0, 0, 0))
    return tuple(out)


_DERIVED: dict[int, tuple[weakref.ref, dict]] = {}


def _derived(m: Municipality, what: str, make):
    """A value derived from a manifest entry, made once and kept while the entry object lives
    (entries are read once per manifest and never changed): a look-up runs over every
    municipality, and a state's codes made re-deriving these a cost of every question."""
    key = id(m)
    got = _DERIVED.get(key)
    if got is None or got[0]() is not m:
        got = (weakref.ref(m, lambda _r, key=key: _DERIVED.pop(key, None)), {})
        _DERIVED[key] = got
    if what not in got[1]:
        got[1][what] = make(m)
    return got[1][what]


def _source_files(m: Municipality) -> tuple[str, ...]:
    """The distinct text files of a manifest entry, in order."""
    return _derived(m, "files", lambda m: tuple(dict.fromkeys(
        c.source_file for c in (getattr(m, "chapters", None) or []))) or (m.source_file,))


def _normalized_names(m: Municipality) -> frozenset[str]:
    return _derived(m, "names", lambda m: frozenset(_norm_name(n) for n in [m.id, m.name, m.display_name, *m.aliases]))


@functools.lru_cache(maxsize=64)
def _try_document(mid: str, corpus: str, stamp: tuple = ()) -> Document | str:
    """The document, or one line saying why it cannot be read (logged once)."""
    from assistant.parsing import ParseError

    m = municipality_by_id(mid)
    name = m.display_name if m else mid
    try:
        return _document(mid, corpus, stamp)
    except FileNotFoundError as exc:
        msg = f"{name} ({mid}): its text is missing ({Path(exc.filename or '').name or exc})"
    except UnicodeDecodeError:
        msg = f"{name} ({mid}): its text is not UTF-8"
    except ParseError as exc:
        msg = f"{name} ({mid}): {exc}"
    except Exception as exc:  # noqa: BLE001 - any failure of one text must not stop the others
        msg = f"{name} ({mid}): its text cannot be read ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})"
    log.warning("left out: %s", msg)
    return msg


@functools.lru_cache(maxsize=64)
def _document(mid: str, corpus: str, stamp: tuple = ()) -> Document:
    from assistant.parsing import parse_municipality

    m = municipality_by_id(mid)
    assert m is not None
    return parse_municipality(m, lambda ch: source_of(m, ch))


def document(mid: str) -> Document:
    m = municipality_by_id(mid)
    if m is None:
        raise UnknownMunicipality(f"unknown municipality {mid!r}")
    got = _try_document(mid, str(corpus_dir()), source_stamp(m))
    if isinstance(got, str):
        raise UnknownMunicipality(f"left out: {got}")
    return got


def forget_parsed() -> None:
    """Drop the parsed manifest, documents and citations: the corpus changed on disk (a
    newer index generation was built from it) and is read again on next use."""
    _manifest.cache_clear()
    _try_document.cache_clear()
    _document.cache_clear()
    _cite.cache_clear()


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
    """The passage with this id: looked up in its municipality's document (an id starts with
    the municipality's id), else searched for in every passage. The answer guard checks
    every citation this way: a scan of all passages cost ~100 ms at 31 codes."""
    m = municipality_by_id(pid.split(":", 1)[0])
    if m is not None:
        got = _try_document(m.id, str(corpus_dir()), source_stamp(m))
        if not isinstance(got, str):
            found = _passages_by_id(got).get(pid)
            if found is not None:
                return found
    for p in all_passages():
        if p.id == pid:
            return p
    return None


_ID_TABLES: dict[int, tuple[weakref.ref, dict[str, Passage]]] = {}


def _passages_by_id(doc: Document) -> dict[str, Passage]:
    """A parsed document's passages by id, kept while the document lives (one parsed again
    gets its own table)."""
    got = _ID_TABLES.get(id(doc))
    if got is not None and got[0]() is doc:
        return got[1]
    table = {p.id: p for p in doc.passages}
    key = id(doc)
    _ID_TABLES[key] = (weakref.ref(doc, lambda _r, key=key: _ID_TABLES.pop(key, None)), table)
    return table


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
