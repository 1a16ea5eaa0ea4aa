"""python -m assistant index [--force] — build the search index (or check it is up to date)."""

from __future__ import annotations

from assistant.commands._common import print_json


def add_parser(sub):
    p = sub.add_parser("index", help="build or check the search index")
    p.add_argument("--force", action="store_true", help="rebuild even if up to date")
    p.add_argument("--json", action="store_true")
    return p


def run(args) -> int:
    from assistant.retrieval.index import SearchIndex

    idx = SearchIndex.open(force=args.force, progress=None if args.json else lambda f, m: print(f"[{f:4.0%}] {m}"))
    info = {"fingerprint": idx.fingerprint, "passages": len(idx.passages), "chunks": len(idx.chunks),
            "built_now": idx.built_now, "build_s": idx.build_s}
    if args.json:
        print_json(info)
    else:
        print(("built" if idx.built_now else "up to date") + f": {info['passages']} passages, {info['chunks']} chunks")
    return 0
