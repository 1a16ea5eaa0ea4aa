"""python -m assistant amend FILE -m ID [--dry-run] [--json]

Replace a municipality's chapter with an amended text (a PDF, read exactly as ``ingest``
reads it, or a .txt in the corpus's own format): prints a section-by-section diff (added,
removed, changed, with changed figures marked) and every calculator and checklist item whose
provision changed or no longer resolves; then, unless --dry-run, backs up the chapter in use,
installs the new one and records the amendment in the corpus folder's amendments.yaml.
Re-index afterwards (python -m assistant index) so that search reads the new text.
"""

from __future__ import annotations

from pathlib import Path

from assistant.commands._common import print_json


def add_parser(sub):
    p = sub.add_parser(
        "amend",
        help="replace a chapter with an amended text: show the diff and the calculators it touches",
        description=__doc__,
    )
    p.add_argument("file", help="the amended chapter: PDF, or .txt in the corpus format")
    p.add_argument("--municipality", "-m", required=True, help="id, name or alias (corpus/manifest.yaml)")
    p.add_argument("--dry-run", action="store_true", help="show the diff and the affected calculators; change nothing")
    p.add_argument("--json", action="store_true", help="print the diff, the affected provisions and the record as JSON")
    p.add_argument("--timeout", type=float, default=None, help="seconds allowed to read the PDF")
    return p


def run(args) -> int:
    from assistant.amendments import chapter_diff, install_chapter, provision_impacts, read_new_chapter, report_markdown
    from assistant.corpus import document, resolve_municipality
    from assistant.parsing import ParseError
    from assistant.settings import get_settings

    m = resolve_municipality(args.municipality)
    if m is None:
        raise ParseError("--municipality is required")
    settings = get_settings()
    path = Path(args.file)
    new = read_new_chapter(m, path, max_bytes=settings.max_upload_bytes, max_pages=settings.max_pdf_pages,
                           timeout_s=args.timeout)
    old = document(m.id)
    diff = chapter_diff(old, new.document)
    impacts = provision_impacts(old, new.document)
    record = None
    if not args.dry_run:
        record = install_chapter(m, new.text, from_file=path.name, diff=diff, impacts=impacts)
    if args.json:
        print_json({"diff": diff.model_dump(mode="json"),
                    "provisions": [i.model_dump(mode="json") for i in impacts if i.status != "unchanged"],
                    "record": record.model_dump(mode="json") if record else None})
        return 0
    print(f"{path.name}: {m.name}, ch. {m.chapter} — {len(new.document.sections)} sections"
          + (f" from {new.pages} pages" if new.pages else ""))
    print(report_markdown(diff, impacts))
    if record is None:
        print("\nDry run: nothing was changed.")
    else:
        print(f"\nInstalled {m.source_file} (amendment of {record.date.isoformat()}); the previous text is kept as "
              f"{record.backup}. Re-index: python -m assistant index")
    return 0
