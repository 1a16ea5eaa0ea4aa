"""python -m assistant search "QUERY" [--municipality ID] [-k N] [--json]"""

from __future__ import annotations

import textwrap

from assistant.commands._common import citation_fields, municipality_arg, open_index, print_json
from assistant.corpus import known_problems_of
from assistant.types import format_citation


def add_parser(sub):
    p = sub.add_parser("search", help="ranked passages with full citation and page")
    p.add_argument("query")
    p.add_argument("--municipality", "-m", help="id, name or alias (corpus/manifest.yaml)")
    p.add_argument("-k", type=int, default=5, help="how many passages (max 20)")
    p.add_argument("--json", action="store_true")
    return p


def run(args) -> int:
    if not args.query.strip():
        raise ValueError("empty query")
    muni = municipality_arg(args.municipality)
    idx = open_index(quiet=args.json)
    hits = idx.search(args.query, muni, k=args.k)
    if args.json:
        print_json([{**citation_fields(h.passage), "text": h.passage.text, "score": h.score,
                     "known_problems": known_problems_of(h.passage)} for h in hits])
        return 0
    if not hits:
        print("no passage matches")
    for i, h in enumerate(hits, 1):
        p = h.passage
        print(f"{i}. {format_citation(p.municipality, p.section, p.title, p.subsection, p.page)}  [score {h.score:.4f}]")
        print(textwrap.indent(textwrap.fill(p.text, 100), "   "))
        for n in known_problems_of(p):
            print(textwrap.indent(textwrap.fill(f"text problem: {n}", 100), "   "))
        print()
    return 0
