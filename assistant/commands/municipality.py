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

import sys

from assistant.commands._common import print_json
from assistant.municipality_add import AddRequest, apply_add, plan_add, remove_municipality, report_lines


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


def _add(args) -> int:
    req = AddRequest(file=args.file, id=args.id, name=args.name, state=args.state, kind=args.kind,
                     county=args.county, chapter=args.chapter, title=args.title, aliases=args.alias)
    plan = plan_add(req)
    if args.json and args.dry_run:
        print_json({"report": plan.report.model_dump(), "dry_run": True})
        return 0
    if not args.json:
        print("\n".join(report_lines(plan.report)))
    if args.dry_run:
        print("  dry run: nothing was changed")
        return 0

    def progress(frac: float, msg: str) -> None:
        print(f"[index {frac:4.0%}] {msg}", file=sys.stderr)

    result = apply_add(plan, build_index=not args.no_index, progress=None if args.json else progress)
    if args.json:
        print_json({"report": plan.report.model_dump(), "added": plan.municipality.id,
                    "chapter": plan.chapter.chapter, "index_built": result.built, "seconds": round(result.seconds, 2)})
    else:
        print(f"{result.message} in {result.seconds:.1f} s")
    return 0


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
    removed = remove_municipality(args.id)
    if args.json:
        print_json({"removed": args.id, "files": removed})
    else:
        print(f"removed {args.id}" + (f" and {', '.join(removed)}" if removed else "") + "; its vectors go with the next index build")
    return 0
