"""python -m assistant show "§ 404-7H" | "Delafield 8.01(4)" | "SECTION TITLE" [--json]"""

from __future__ import annotations

from assistant.commands._common import citation_fields, municipality_arg, print_json
from assistant.corpus import known_problems_of
from assistant.retrieval.citations import lookup
from assistant.types import format_citation


def add_parser(sub):
    p = sub.add_parser("show", help="print the text of a section or subsection")
    p.add_argument("citation")
    p.add_argument("--municipality", "-m")
    p.add_argument("--json", action="store_true")
    return p


def run(args) -> int:
    passages = lookup(args.citation, municipality_arg(args.municipality))
    if not passages:
        raise LookupError(f"no section or subsection matches {args.citation!r} (try: python -m assistant toc)")
    if args.json:
        print_json([{**citation_fields(p), "text": p.text, "reserved": p.reserved, "notes": p.notes, "known_problems": known_problems_of(p)}
                    for p in passages])
        return 0
    first = passages[0]
    print(format_citation(first.municipality, first.section, first.title, None, first.page))
    print()
    if all(p.reserved for p in passages):
        what = "repealed" if first.text.startswith("Repealed") else "reserved"
        if "–" in (first.section or ""):
            print(f"These sections are {what}: the code holds no rule under these numbers.")
        else:
            print(f"This section is {what}: the code holds no rule under this number.")
        print()
    for p in passages:
        label = p.subsection or ""
        rec = " (letter reconstructed)" if p.subsection_reconstructed else ""
        page = f" [p. {p.page}]" if p.page else ""
        print(f"{label}{rec}{page} {p.text}".strip())
        for n in p.notes:
            print(f"    note: {n}")
        for n in known_problems_of(p):
            print(f"    text problem: {n}")
        print()
    return 0
