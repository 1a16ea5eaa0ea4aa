"""python -m assistant municipality add FILE --id ID --name NAME --state ST [--kind K] [--chapter N]
[--title T] [--dry-run] [--json] | municipality list [--json] | municipality remove ID

``add`` reads a chapter in any layout (text, Markdown, HTML, XML, PDF), prints what the
general reader found (sections with number and caption, subsection depth, notes, pages,
anything skipped and why), copies the text into the corpus folder, writes the manifest
entry and builds that municipality's part of the index. A second chapter for the same
id is added to that municipality's ``chapters:`` (a whole code). When no section
structure is found it refuses and changes nothing.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from assistant.commands._common import print_json
from assistant.parsing import ParseError
from assistant.types import ChapterSource, Document, Municipality

_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")
_STATE = re.compile(r"^[A-Z]{2}$")


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


def add_parser(sub):
    p = sub.add_parser("municipality", help="add, list or remove a municipality's code", description=__doc__)
    verbs = p.add_subparsers(dest="action", required=True)
    a = verbs.add_parser("add", help="read a chapter (text, Markdown, HTML, XML or PDF) and add it")
    a.add_argument("file")
    a.add_argument("--id", required=True, help="short id, e.g. 'somerville' (lower case, digits, hyphens)")
    a.add_argument("--name", required=True, help="e.g. 'City of Somerville'")
    a.add_argument("--state", required=True, help="two-letter state, e.g. MA")
    a.add_argument("--kind", choices=["city", "village", "town", "county"], default=None)
    a.add_argument("--county", default="")
    a.add_argument("--chapter", default=None, help="chapter number (default: as the text prints it)")
    a.add_argument("--title", default=None, help="chapter title (default: as the text prints it)")
    a.add_argument("--alias", action="append", default=[], help="another name users write (repeatable)")
    a.add_argument("--dry-run", action="store_true", help="print the report; change nothing")
    a.add_argument("--no-index", action="store_true", help="do not build the index now")
    a.add_argument("--json", action="store_true")
    ls = verbs.add_parser("list", help="the municipalities held, and any that fail to load")
    ls.add_argument("--json", action="store_true")
    rm = verbs.add_parser("remove", help="remove a municipality (its manifest entry and its copied texts)")
    rm.add_argument("id")
    rm.add_argument("--json", action="store_true")
    return p


def run(args) -> int:
    return {"add": _add, "list": _list, "remove": _remove}[args.action](args)


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


def build_entry(args, layout: str, suffix: str, chapter: str, title: str, existing: Municipality | None) -> Municipality:
    ch = ChapterSource(chapter=chapter, chapter_title=title, source_file=f"{args.id}-ch{_slug(chapter)}{suffix}",
                       source_format=layout, citation_style="section")
    if existing is not None:
        data = existing.model_dump(exclude_none=True)
        data["chapters"] = [c.model_dump(exclude_none=True) for c in existing.chapters] + [ch.model_dump(exclude_none=True)]
        return Municipality.model_validate(data)
    kind = args.kind or _kind_from_name(args.name) or "city"
    return Municipality.model_validate({
        "id": args.id, "name": args.name, "kind": kind, "county": args.county, "state": args.state,
        "aliases": list(args.alias), "chapters": [ch.model_dump(exclude_none=True)],
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
                         "notes": n_notes, "pages": pages, "reserved": not s.passages})
    pages = [str(x) for x in dict.fromkeys(p.page for p in doc.passages if p.page is not None and p.chapter == chapter)]
    ch = m.chapter_source(chapter)
    return StructureReport(
        file=file, municipality=m.display_name, chapter=chapter, chapter_title=ch.chapter_title if ch else "",
        layout=doc.layout or "", numbering=doc.numbering or "", sections=sections, groups=doc.groups,
        subsection_depth=depth, passages=sum(x["passages"] for x in sections), notes=notes, pages=pages,
        skipped=doc.skipped, warnings=doc.warnings,
    )


def print_report(r: StructureReport) -> None:
    print(f"{r.file}: {r.municipality} — ch. {r.chapter} {r.chapter_title}".rstrip())
    print(f"  layout: {r.layout}; numbering: {r.numbering}")
    print(f"  {len(r.sections)} sections, {r.passages} passages, subsection depth {r.subsection_depth}, "
          f"{r.notes} notes" + (f", pages {r.pages[0]}–{r.pages[-1]}" if r.pages else ", no page numbers"))
    for g in r.groups:
        print(f"  group: {g}")
    for s in r.sections:
        extra = " (reserved)" if s["reserved"] else f": {s['passages']} passages, depth {s['depth']}, {s['notes']} notes"
        page = f", p. {s['pages'][0]}" if s["pages"] else ""
        print(f"  § {s['number']} {s['caption']}{extra}{page}")
    for x in r.skipped:
        print(f"  skipped: {x}")
    for w in r.warnings:
        print(f"  warning: {w}")


def _add(args) -> int:
    from assistant.corpus import corpus_dir, manifest_entries, municipality_by_id, reset_caches
    from assistant.parsing import parse_general

    t0 = time.perf_counter()
    if not _ID.match(args.id):
        raise ParseError(f"--id {args.id!r}: use lower-case letters, digits and hyphens (e.g. 'chagrin-falls')")
    state = args.state.strip().upper()
    if not _STATE.match(state):
        raise ParseError(f"--state {args.state!r}: give the two-letter state code, e.g. MA")
    args.state = state
    path = Path(args.file)
    source, layout, suffix = read_source_file(path)
    existing = municipality_by_id(args.id)
    if existing is not None and (existing.name != args.name or existing.state != state):
        raise ParseError(f"the id {args.id!r} is already {existing.display_name}; choose another id")
    # read it once with a provisional chapter to learn the chapter's own number and title
    provisional = build_entry(args, layout, suffix, args.chapter or "0", args.title or "", None)
    doc = parse_general(provisional, provisional.chapters[0], source)
    from assistant.parsing.layouts import read_layout
    from assistant.parsing.reader import read_structure

    st = read_structure(read_layout(source, layout, path.name))
    chapter = args.chapter or st.chapter
    if not chapter:
        raise ParseError("the text does not print its chapter number: give --chapter")
    title = args.title or st.chapter_title or ""
    if existing is not None and existing.chapter_source(chapter):
        raise ParseError(f"{existing.display_name} already has chapter {chapter}; remove it first "
                         f"(python -m assistant municipality remove {args.id})")
    m = build_entry(args, layout, suffix, chapter, title, existing)
    ch = m.chapter_source(chapter)
    doc = parse_general(m, ch, source, id_prefix=args.id if len(m.chapters) == 1 else f"{args.id}:{chapter}")
    report = report_of(doc, path.name, m, chapter)
    if args.json:
        print_json({"report": report.model_dump(), "dry_run": args.dry_run})
    else:
        print_report(report)
    if args.dry_run:
        if not args.json:
            print("  dry run: nothing was changed")
        return 0
    cdir = corpus_dir()
    target = cdir / ch.source_file
    if target.exists():
        raise ParseError(f"{target} already exists; remove it or choose another id")
    entries = manifest_entries()
    data = [e for e in entries if e.get("id") != args.id]
    new_entry = m.model_dump(exclude_none=True, exclude_defaults=False)
    for k in ("chapter", "chapter_title", "source_file", "source_format", "citation_style", "edition"):
        new_entry.pop(k, None)  # described by chapters:
    for k in ("outline_hints", "known_labels", "known_problems"):
        if not new_entry.get(k):
            new_entry.pop(k, None)
    if existing is not None:
        data = [new_entry if e.get("id") == args.id else e for e in entries]
    else:
        data = entries + [new_entry]
    _write_file(target, source)
    try:
        write_manifest(data, existing_id=args.id if existing is not None else None, new_entry=new_entry)
    except Exception:
        target.unlink(missing_ok=True)
        raise
    reset_caches()
    msg = f"added {m.display_name} ch. {chapter} ({len(report.sections)} sections) to {cdir}"
    if not args.no_index:
        from assistant.commands._common import open_index

        idx = open_index(quiet=args.json)
        msg += f"; index: {', '.join(idx.built_municipalities) or 'up to date'} built"
    elapsed = time.perf_counter() - t0
    if args.json:
        print_json({"added": args.id, "chapter": chapter, "seconds": round(elapsed, 2)})
    else:
        print(f"{msg} in {elapsed:.1f} s")
    return 0


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


# ------------------------------------------------------------------------ list / remove


def _list(args) -> int:
    from assistant.corpus import load_problems, municipalities

    rows = [{"id": m.id, "name": m.display_name, "kind": m.kind,
             "chapters": [{"chapter": c.chapter, "title": c.chapter_title, "file": c.source_file,
                           "format": c.source_format} for c in m.chapters]} for m in municipalities()]
    problems = load_problems()
    if args.json:
        print_json({"municipalities": rows, "problems": problems})
        return 0
    for r in rows:
        chs = "; ".join(f"ch. {c['chapter']} {c['title']} ({c['format']}, {c['file']})" for c in r["chapters"])
        print(f"{r['id']}: {r['name']} ({r['kind']}) — {chs}")
    for p in problems:
        print(f"left out: {p}")
    return 0


def _remove(args) -> int:
    from assistant.corpus import corpus_dir, manifest_entries, reset_caches

    entries = manifest_entries()
    entry = next((e for e in entries if e.get("id") == args.id), None)
    if entry is None:
        raise ParseError(f"no municipality {args.id!r} in the manifest")
    files = {c.get("source_file") for c in entry.get("chapters") or []} | {entry.get("source_file")}
    files.discard(None)
    others = {f for e in entries if e.get("id") != args.id
              for f in ({c.get("source_file") for c in e.get("chapters") or []} | {e.get("source_file")})}
    write_manifest([e for e in entries if e.get("id") != args.id], remove_id=args.id)
    removed = []
    for f in sorted(files - others):
        p = corpus_dir() / f
        if p.is_file() and p.resolve().parent == corpus_dir().resolve():
            p.unlink()
            removed.append(f)
    reset_caches()
    if args.json:
        print_json({"removed": args.id, "files": removed})
    else:
        print(f"removed {args.id}" + (f" and {', '.join(removed)}" if removed else "")
              + "; its index collection goes at the next index build")
    return 0
