"""python -m assistant index [--force] — build the search index (or check it is up to date).

Each build writes a new index generation and publishes it atomically; running processes
move to it between requests. A damaged generation is reported and replaced."""

from __future__ import annotations

import sys

from assistant.commands._common import print_json


def add_parser(sub):
    p = sub.add_parser("index", help="build or check the search index")
    p.add_argument("--force", action="store_true", help="rebuild even if up to date")
    p.add_argument("--json", action="store_true")
    return p


def run(args) -> int:
    from assistant.retrieval.index import SearchIndex

    idx = SearchIndex.open(force=args.force, progress=None if args.json else lambda f, m: print(f"[{f:4.0%}] {m}"))
    info = {"fingerprint": idx.fingerprint, "generation": idx.generation, "passages": len(idx.passages),
            "chunks": len(idx.chunks), "built_now": idx.built_now, "build_s": idx.build_s,
            "reused": idx.reused, "removed_generations": idx.removed, "problems": idx.problems}
    idx.close()
    if args.json:
        print_json(info)
    else:
        for p in idx.problems:
            print(f"problem: {p}", file=sys.stderr)
        print(("built" if idx.built_now else "repaired" if idx.problems else "up to date")
              + f": generation {idx.generation}, {info['passages']} passages, {info['chunks']} chunks"
              + (f"; reused the vectors of {', '.join(idx.reused)}" if idx.reused else "")
              + (f"; removed {len(idx.removed)} old generation(s)" if idx.removed else ""))
    return 0
