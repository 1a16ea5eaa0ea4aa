"""python -m assistant search "QUERY" [--municipality ID | --per-municipality K] [-k N] [--json]"""

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
    p.add_argument("--per-municipality", type=int, metavar="K", default=None,
                   help="across municipalities: each municipality's best K passages, grouped (a staff query)")
    p.add_argument("--json", action="store_true")
    return p


def _print_hit(i: int, h, indent: str = "") -> None:
    p = h.passage
    print(f"{indent}{i}. {format_citation(p.municipality, p.section, p.title, p.subsection, p.page)}  [score {h.score:.4f}]")
    print(textwrap.indent(textwrap.fill(p.text, 100), indent + "   "))
    for n in known_problems_of(p):
        print(textwrap.indent(textwrap.fill(f"text problem: {n}", 100), indent + "   "))


def _hit_json(h) -> dict:
    return {**citation_fields(h.passage), "text": h.passage.text, "score": h.score,
            "known_problems": known_problems_of(h.passage)}


def run_per_municipality(args, idx) -> int:
    from assistant.corpus import municipality_by_id
    from assistant.retrieval.index import per_municipality

    k = args.per_municipality
    if not 1 <= k <= idx.settings.max_top_k:
        raise ValueError(f"--per-municipality must be between 1 and {idx.settings.max_top_k} (got {k})")
    groups = per_municipality(idx, args.query, k=k)

    def municipality_name(mid: str) -> str:
        m = municipality_by_id(mid)
        return m.name if m else mid

    if args.json:
        print_json([{"municipality": g.municipality, "name": municipality_name(g.municipality),
                     "best_similarity": g.best_similarity, "hits": [_hit_json(h) for h in g.hits]} for g in groups])
        return 0
    if not groups:
        print("no passage matches")
    for g in groups:
        print(f"== {municipality_name(g.municipality)} ==")
        for i, h in enumerate(g.hits, 1):
            _print_hit(i, h, "  ")
        print()
    return 0


def run(args) -> int:
    if not args.query.strip():
        raise ValueError("empty query")
    muni = municipality_arg(args.municipality)
    if args.per_municipality is not None and muni:
        raise ValueError("--per-municipality searches every municipality: leave out --municipality")
    idx = open_index(quiet=args.json)
    if args.per_municipality is not None:
        return run_per_municipality(args, idx)
    hits = idx.search(args.query, muni, k=args.k)
    if args.json:
        print_json([_hit_json(h) for h in hits])
        return 0
    if not hits:
        print("no passage matches")
    for i, h in enumerate(hits, 1):
        _print_hit(i, h)
        print()
    return 0
