"""Adding a municipality's chapter to the corpus, and removing one: the work behind
`python -m assistant municipality add|remove` and the staff tab's upload.

``plan_add`` reads the file (any layout), finds its structure and builds the manifest
entry without touching anything; ``apply_add`` copies the text, writes the manifest (the
other entries' text and comments kept) and builds that municipality's part of the index.
A text without section structure raises ParseError, and nothing changes.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from assistant.parsing import ParseError
from assistant.types import ChapterSource, Document, Municipality

_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")
_STATE = re.compile(r"^[A-Z]{2}$")


class AddRequest(BaseModel):
    """What a clerk gives to add a chapter."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    file: str = Field(description="Path of the chapter: text, Markdown, HTML, XML or PDF.")
    id: str = Field(description="Short id, lower case, digits and hyphens.")
    name: str = Field(min_length=2, description="e.g. 'City of Somerville'.")
    state: str = Field(description="Two-letter state code.")
    kind: str | None = Field(default=None, description="city, village, town or county (default: from the name).")
    county: str = ""
    chapter: str | None = Field(default=None, description="Chapter number (default: as the text prints it).")
    title: str | None = Field(default=None, description="Chapter title (default: as the text prints it).")
    aliases: list[str] = Field(default_factory=list)
    display_file: str | None = Field(default=None, description="The file's name as uploaded (for the report).")


class StructureReport(BaseModel):
    """What `municipality add` found in a chapter (printed, or --json)."""

    model_config = ConfigDict(extra="forbid")

    file: str
    municipality: str = Field(description="Display name with state.")
    chapter: str
    chapter_title: str
    layout: str
    numbering: str
    sections: list[dict] = Field(description="number, caption, passages, depth, notes, pages, reserved")
    groups: list[str]
    subsection_depth: int
    passages: int
    notes: int
    pages: list[str]
    skipped: list[str]
    warnings: list[str]
    chapters: list[dict] = Field(default_factory=list,
                                 description="A whole code: per chapter, as cited: chapter, title, sections, "
                                             "reserved, passages, depth, notes")


# ------------------------------------------------------------------------ add


def _kind_from_name(name: str) -> str | None:
    m = re.match(r"^\s*(city|village|town|county|township|borough)\b", name, re.I)
    if not m:
        return None
    k = m.group(1).lower()
    return {"township": "town", "borough": "town"}.get(k, k)


def read_source_file(path: Path) -> tuple[str | bytes, str, str]:
    """(source to store, layout, suffix of the stored file). A PDF becomes its extracted
    text with form feeds between pages (read once, here)."""
    from assistant.parsing.layouts import detect_layout, pdf_to_paged_text
    from assistant.settings import get_settings

    if not path.is_file():
        raise ParseError(f"no such file: {path}")
    size = path.stat().st_size
    if size > get_settings().max_upload_bytes:
        raise ParseError(f"the file is too large ({size:,} bytes; the limit is {get_settings().max_upload_bytes:,})")
    data = path.read_bytes()
    if not data.strip():
        raise ParseError(f"{path.name} is empty")
    if data.lstrip()[:5] == b"%PDF-" or path.suffix.lower() == ".pdf":
        return pdf_to_paged_text(data), "text", ".txt"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    if "\x00" in text:
        raise ParseError(f"{path.name} is not a text, Markdown, HTML, XML or PDF file")
    layout = detect_layout(text, path.name)
    suffix = {"markdown": ".md", "html": ".html", "xml": ".xml"}.get(layout, ".txt")
    return data, layout, suffix


def build_entry(args: AddRequest, layout: str, suffix: str, chapter: str, title: str, existing: Municipality | None) -> Municipality:
    ch = ChapterSource(chapter=chapter, chapter_title=title, source_file=f"{args.id}-ch{_slug(chapter)}{suffix}",
                       source_format=layout, citation_style="section")
    if existing is not None:
        data = existing.model_dump(exclude_none=True)
        data["chapters"] = [c.model_dump(exclude_none=True) for c in existing.chapters] + [ch.model_dump(exclude_none=True)]
        return Municipality.model_validate(data)
    kind = args.kind or _kind_from_name(args.name) or "city"
    return Municipality.model_validate({
        "id": args.id, "name": args.name, "kind": kind, "county": args.county, "state": args.state,
        "aliases": list(args.aliases), "chapters": [ch.model_dump(exclude_none=True)],
    })


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "-", s).strip("-") or "x"


def report_of(doc: Document, file: str, m: Municipality, chapter: str) -> StructureReport:
    sections = []
    depth = 0
    notes = 0
    for s in doc.sections:
        if s.chapter != chapter:
            continue
        d = max((len(re.findall(r"\([^)]*\)|[^.()]+\.", p.subsection or "")) for p in s.passages), default=0)
        depth = max(depth, d)
        n_notes = len(s.notes) + sum(len(p.notes) for p in s.passages)
        notes += n_notes
        pages = [str(x) for x in dict.fromkeys(p.page for p in s.passages if p.page is not None)]
        sections.append({"number": s.section, "caption": s.title, "passages": len(s.passages), "depth": d,
                         "notes": n_notes, "pages": pages, "reserved": s.reserved})
    pages = [str(x) for x in dict.fromkeys(p.page for p in doc.passages if p.page is not None and p.chapter == chapter)]
    ch = m.chapter_source(chapter)
    return StructureReport(
        file=file, municipality=m.display_name, chapter=chapter, chapter_title=ch.chapter_title if ch else "",
        layout=doc.layout or "", numbering=doc.numbering or "", sections=sections, groups=doc.groups,
        subsection_depth=depth, passages=sum(x["passages"] for x in sections), notes=notes, pages=pages,
        skipped=doc.skipped, warnings=doc.warnings,
    )


def report_lines(r: StructureReport) -> list[str]:
    """The structure report as plain lines (the CLI prints them)."""
    out = [f"{r.file}: {r.municipality} — ch. {r.chapter} {r.chapter_title}".rstrip(),
           f"  layout: {r.layout}; numbering: {r.numbering}",
           f"  {len(r.sections)} sections, {r.passages} passages, subsection depth {r.subsection_depth}, "
           f"{r.notes} notes" + (f", pages {r.pages[0]}–{r.pages[-1]}" if r.pages else ", no page numbers")]
    if r.chapters:
        for c in r.chapters:
            out.append(f"  ch. {c['chapter']} {c['title']}: {c['sections']} sections ({c['reserved']} reserved), "
                       f"{c['passages']} passages, depth {c['depth']}, {c['notes']} notes")
        out += [f"  skipped: {x}" for x in r.skipped[:40]] + (["  …"] if len(r.skipped) > 40 else [])
        out += [f"  warning: {w}" for w in r.warnings[:40]] + (["  …"] if len(r.warnings) > 40 else [])
        return out
    out += [f"  group: {g}" for g in r.groups]
    for s in r.sections:
        extra = " (reserved)" if s["reserved"] else f": {s['passages']} passages, depth {s['depth']}, {s['notes']} notes"
        page = f", p. {s['pages'][0]}" if s["pages"] else ""
        out.append(f"  § {s['number']} {s['caption']}{extra}{page}")
    out += [f"  skipped: {x}" for x in r.skipped]
    out += [f"  warning: {w}" for w in r.warnings]
    return out


def report_markdown(r: StructureReport, limit: int = 200) -> str:
    """The structure report for the staff tab (the text's own words escaped)."""
    from assistant.webapp.render import escape_markdown as esc

    lines = [f"**{esc(r.municipality)}** — ch. {esc(r.chapter)} {esc(r.chapter_title)} ({esc(r.file)})",
             "",
             f"Layout: {esc(r.layout)}; numbering: {esc(r.numbering)}. {len(r.sections)} sections, {r.passages} "
             f"passages, subsection depth {r.subsection_depth}, {r.notes} notes"
             + (f", pages {esc(r.pages[0])}–{esc(r.pages[-1])}." if r.pages else ", no page numbers."), ""]
    for c in r.chapters[:limit]:
        lines.append(f"- ch. {esc(c['chapter'])} {esc(c['title'])} — {c['sections']} sections, {c['passages']} passages")
    for s in ([] if r.chapters else r.sections[:limit]):
        extra = " (reserved)" if s["reserved"] else f" — {s['passages']} passages, depth {s['depth']}, {s['notes']} notes"
        lines.append(f"- § {esc(s['number'] or '')} {esc(s['caption'])}{extra}")
    if len(r.sections) > limit and not r.chapters:
        lines.append(f"- … and {len(r.sections) - limit} more")
    lines += [f"- skipped: {esc(x)}" for x in r.skipped]
    lines += [f"- warning: {esc(w)}" for w in r.warnings]
    return "\n".join(lines)


@dataclass
class AddPlan:
    request: AddRequest
    municipality: Municipality
    chapter: ChapterSource
    source: str | bytes
    report: StructureReport
    existing: bool
    whole_code: bool = False


def plan_add(req: AddRequest) -> AddPlan:
    """Read and check; change nothing. ParseError (one line) when the input cannot be added."""
    from assistant.corpus import municipality_by_id
    from assistant.parsing import parse_general
    from assistant.parsing.layouts import read_layout
    from assistant.parsing.reader import read_structure

    if not _ID.match(req.id):
        raise ParseError(f"id {req.id!r}: use lower-case letters, digits and hyphens (e.g. 'chagrin-falls')")
    state = req.state.strip().upper()
    if not _STATE.match(state):
        raise ParseError(f"state {req.state!r}: give the two-letter state code, e.g. MA")
    if req.kind is not None and req.kind not in ("city", "village", "town", "county"):
        raise ParseError(f"kind {req.kind!r}: city, village, town or county")
    req = req.model_copy(update={"state": state})
    path = Path(req.file)
    source, layout, suffix = read_source_file(path)
    existing = municipality_by_id(req.id)
    if existing is not None and (existing.name != req.name or existing.state != state):
        raise ParseError(f"the id {req.id!r} is already {existing.display_name}; choose another id")
    lt = read_layout(source, layout, path.name)
    if req.chapter is None:
        from assistant.parsing.whole_code import split_code

        split = split_code(lt)
        if split is not None:
            return _plan_whole_code(req, path, source, layout, suffix, lt, split, existing)
    st = read_structure(lt)
    if not st.sections:
        provisional = build_entry(req, layout, suffix, req.chapter or "0", req.title or "", None)
        parse_general(provisional, provisional.chapters[0], source)  # raises the no-structure error
    chapter = req.chapter or st.chapter
    if not chapter:
        raise ParseError("the text does not print its chapter number: give the chapter")
    title = req.title or st.chapter_title or ""
    if existing is not None and existing.chapter_source(chapter):
        raise ParseError(f"{existing.display_name} already has chapter {chapter}; remove it first "
                         f"(python -m assistant municipality remove {req.id})")
    m = build_entry(req, layout, suffix, chapter, title, existing)
    ch = m.chapter_source(chapter)
    doc = parse_general(m, ch, source, id_prefix=req.id if len(m.chapters) == 1 else f"{req.id}:{chapter}")
    report = report_of(doc, req.display_file or path.name, m, chapter)
    return AddPlan(req, m, ch, source, report, existing is not None)


def _plan_whole_code(req: AddRequest, path: Path, source, layout: str, suffix: str, lt, split,
                     existing: Municipality | None) -> AddPlan:
    """A whole code (charter, chapters, appendices in one file): one municipality whose
    manifest entry lists every chapter that holds numbered sections, all read from the
    one stored file, each cited by its own chapter."""
    from assistant.parsing import parse_municipality
    from assistant.parsing.reader import read_structure
    from assistant.parsing.whole_code import part_layout

    if existing is not None:
        raise ParseError(f"{existing.display_name} is already in the corpus; a whole code is added as a new "
                         f"municipality (python -m assistant municipality remove {req.id} first)")
    stored = f"{req.id}-code{suffix}"
    chapters, left_out = [], []
    for part in split.parts:
        st = read_structure(part_layout(lt, part))
        if st.sections:
            chapters.append(ChapterSource(chapter=part.key, chapter_title=part.title, source_file=stored,
                                          source_format=layout, citation_style="section"))
        else:
            left_out.append(f"{part.key} {part.title}".strip())
    if not chapters:
        raise ParseError(f"{path.name} prints chapter headings but no numbered sections under them")
    kind = req.kind or _kind_from_name(req.name) or "city"
    m = Municipality.model_validate({
        "id": req.id, "name": req.name, "kind": kind, "county": req.county, "state": req.state,
        "aliases": list(req.aliases), "chapters": [c.model_dump(exclude_none=True) for c in chapters],
    })
    doc = parse_municipality(m, lambda ch: source)
    notes = list(split.notes)
    if left_out:
        notes.append(f"{len(left_out)} parts without numbered sections left out: " + "; ".join(left_out[:8])
                     + (" …" if len(left_out) > 8 else ""))
    report = code_report(doc, req.display_file or path.name, m, notes)
    return AddPlan(req, m, m.chapters[0], source, report, False, whole_code=True)


def code_report(doc: Document, file: str, m: Municipality, notes: list[str]) -> StructureReport:
    """The structure report of a whole code: every section (with its chapter) and a line per chapter."""
    per: dict[str, dict] = {c.chapter: {"chapter": c.chapter, "title": c.chapter_title, "sections": 0, "reserved": 0,
                                        "passages": 0, "depth": 0, "notes": 0} for c in m.chapters}
    sections = []
    for s in doc.sections:
        d = max((len(re.findall(r"\([^)]*\)|[^.()]+\.", p.subsection or "")) for p in s.passages), default=0)
        n_notes = len(s.notes) + sum(len(p.notes) for p in s.passages)
        row = per[s.chapter]
        row["sections"] += 1
        row["reserved"] += s.reserved
        row["passages"] += len(s.passages)
        row["depth"] = max(row["depth"], d)
        row["notes"] += n_notes
        pages = [str(x) for x in dict.fromkeys(p.page for p in s.passages if p.page is not None)]
        sections.append({"chapter": s.chapter, "number": s.section, "caption": s.title, "passages": len(s.passages),
                         "depth": d, "notes": n_notes, "pages": pages, "reserved": s.reserved})
    rows = list(per.values())
    return StructureReport(
        file=file, municipality=m.display_name, chapter=f"{rows[0]['chapter']}–{rows[-1]['chapter']}",
        chapter_title=f"whole code, {len(rows)} chapters", layout=doc.layout or "", numbering=doc.numbering[:200],
        sections=sections, groups=doc.groups, subsection_depth=max(r["depth"] for r in rows),
        passages=sum(r["passages"] for r in rows), notes=sum(r["notes"] for r in rows), pages=[],
        skipped=notes + doc.skipped, warnings=doc.warnings, chapters=rows)


@dataclass
class AddResult:
    message: str
    seconds: float
    built: list[str]


def apply_add(plan: AddPlan, build_index: bool = True, progress=None) -> AddResult:
    """Copy the text, write the manifest entry, build the index for it."""
    from assistant.corpus import corpus_dir, manifest_entries, reset_caches

    t0 = time.perf_counter()
    m, ch = plan.municipality, plan.chapter
    cdir = corpus_dir()
    target = cdir / ch.source_file
    if target.exists():
        raise ParseError(f"{target} already exists; remove it or choose another id")
    new_entry = m.model_dump(exclude_none=True)
    for k in ("chapter", "chapter_title", "source_file", "source_format", "citation_style", "edition"):
        new_entry.pop(k, None)  # described by chapters:
    for k in ("outline_hints", "known_labels", "known_problems", "aliases", "county"):
        if not new_entry.get(k):
            new_entry.pop(k, None)
    entries = manifest_entries()
    data = [new_entry if e.get("id") == m.id else e for e in entries] if plan.existing else entries + [new_entry]
    _write_file(target, plan.source)
    try:
        write_manifest(data, existing_id=m.id if plan.existing else None, new_entry=new_entry)
    except Exception:
        target.unlink(missing_ok=True)
        raise
    reset_caches()
    msg = (f"added {m.display_name}: whole code, {len(m.chapters)} chapters ({len(plan.report.sections)} sections) "
           f"to {cdir}" if plan.whole_code else
           f"added {m.display_name} ch. {ch.chapter} ({len(plan.report.sections)} sections) to {cdir}")
    built: list[str] = []
    if build_index:
        from assistant.retrieval.index import SearchIndex

        idx = SearchIndex.open(progress=progress)
        built = list(idx.built_units)
        msg += f"; index: {', '.join(built) or 'up to date'} built"
    return AddResult(msg, time.perf_counter() - t0, built)


def remove_municipality(mid: str) -> list[str]:
    """Remove the manifest entry and the texts only it used; returns the files removed."""
    from assistant.corpus import corpus_dir, manifest_entries, reset_caches

    entries = manifest_entries()
    entry = next((e for e in entries if e.get("id") == mid), None)
    if entry is None:
        raise ParseError(f"no municipality {mid!r} in the manifest")

    def files_of(e: dict) -> set[str]:
        return {c.get("source_file") for c in e.get("chapters") or []} | {e.get("source_file")}

    files = files_of(entry) - {None}
    others = {f for e in entries if e.get("id") != mid for f in files_of(e)}
    write_manifest([e for e in entries if e.get("id") != mid], remove_id=mid)
    removed = []
    for f in sorted(files - others):
        p = corpus_dir() / f
        if p.is_file() and p.resolve().parent == corpus_dir().resolve():
            p.unlink()
            removed.append(f)
    reset_caches()
    return removed



def _write_file(target: Path, source: str | bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".add-")
    with os.fdopen(fd, "wb") as fh:
        fh.write(source if isinstance(source, bytes) else source.encode("utf-8"))
    os.replace(tmp, target)


def write_manifest(entries: list[dict], existing_id: str | None = None, new_entry: dict | None = None,
                   remove_id: str | None = None) -> None:
    """Write the manifest. The text of other entries (and their comments) is kept: a new
    entry is appended, a changed or removed one is replaced in place."""
    from assistant.corpus import corpus_dir

    path = corpus_dir() / "manifest.yaml"
    text = path.read_text(encoding="utf-8") if path.exists() else "documents:\n"
    blocks = _entry_blocks(text)
    target_id = existing_id or remove_id
    if target_id is not None and target_id not in blocks:
        raise ParseError(f"cannot find the manifest entry of {target_id!r} to change")
    if target_id is not None:
        a, b = blocks[target_id]
        replacement = "" if remove_id else _dump_entry(new_entry)
        text = text[:a] + replacement + text[b:]
    elif new_entry is not None:
        if not text.endswith("\n"):
            text += "\n"
        if not re.search(r"(?m)^documents:", text):
            text += "documents:\n"
        text += _dump_entry(new_entry)
    # the result must load (every entry valid) before it replaces the file
    loaded = yaml.safe_load(text) or {}
    for d in loaded.get("documents") or []:
        Municipality.model_validate(d)
    _write_file(path, text)


def _dump_entry(entry: dict) -> str:
    body = yaml.safe_dump([entry], sort_keys=False, allow_unicode=True, width=100)
    return "".join(("  " + ln if ln.strip() else ln) for ln in body.splitlines(keepends=True))


def _entry_blocks(text: str) -> dict[str, tuple[int, int]]:
    """Character span of each '  - id: X' entry in the manifest text."""
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"(?m)^  - id:\s*['\"]?([\w-]+)['\"]?\s*$", text)]
    out = {}
    for k, (a, mid) in enumerate(starts):
        b = starts[k + 1][0] if k + 1 < len(starts) else len(text)
        out[mid] = (a, b)
    return out


