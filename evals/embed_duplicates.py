"""How much of the index's embedding work is the same text embedded twice.

    python -m evals.embed_duplicates [--codes DIR] [--corpus DIR] [--json OUT]

Reads the two chapters and every whole code of ``../shared/corpus-scale`` (chunking
only: no model is loaded), chunks them as the index does (passages, sentences,
headings) and counts chunks whose ``embed_text`` (context + text, exactly what the
embedder is given) is identical to another chunk's:

- ``duplicate_chunks``: chunks beyond the first of each distinct text (what embedding
  each distinct text once saves in a build from scratch);
- ``within_code`` / ``across_codes``: the part of it saved inside one municipality and the
  part that only a cache across municipalities saves;
- per code, the share of its distinct texts already held by the other codes (what an
  incremental add of that code would not need to embed), and the same per chunk kind.

``--corpus`` keeps the prepared corpus folder (the codes added to a copy of the two
chapters) for other measurements; without it a temporary folder is used.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def prepare_corpus(corpus: Path, codes_dir: Path, limit: int | None = None) -> list[str]:
    """A copy of the project corpus with the codes added (smallest first); the ids added.
    An existing folder that already holds them is reused as it stands."""
    from evals.scale import _add_code, _env, code_files, code_id

    files = code_files(codes_dir)[:limit]
    if not (corpus / "manifest.yaml").exists():
        shutil.copytree(ROOT / "corpus", corpus, dirs_exist_ok=True)
    _env(corpus, corpus.parent / f"{corpus.name}-data")
    from assistant.corpus import municipality_by_id

    added = []
    for f in files:
        if municipality_by_id(code_id(f)) is None:
            _add_code(f)
        added.append(code_id(f))
    _env(corpus, corpus.parent / f"{corpus.name}-data")
    return added


def duplicate_figures(chunks) -> dict:
    """The counts described in the module docstring (pure: any list of chunks)."""
    total = len(chunks)
    texts = [c.embed_text for c in chunks]
    distinct = len(set(texts))
    per_unit: dict[str, set[str]] = defaultdict(set)
    for c, t in zip(chunks, texts):
        per_unit[c.municipality].add(t)
    sum_unit_distinct = sum(len(s) for s in per_unit.values())
    owners: dict[str, set[str]] = defaultdict(set)
    for m, s in per_unit.items():
        for t in s:
            owners[t].add(m)
    by_kind: dict[str, dict] = {}
    for kind in sorted({c.kind for c in chunks}):
        kt = [t for c, t in zip(chunks, texts) if c.kind == kind]
        by_kind[kind] = {"chunks": len(kt), "distinct": len(set(kt)),
                         "duplicate_share": round(1 - len(set(kt)) / max(1, len(kt)), 4)}
    units = {}
    for m, s in sorted(per_unit.items()):
        n = sum(1 for c in chunks if c.municipality == m)
        shared = sum(1 for t in s if len(owners[t]) > 1)
        units[m] = {"chunks": n, "distinct": len(s), "distinct_share_held_by_other_codes": round(shared / max(1, len(s)), 4)}
    top = Counter(texts).most_common(10)
    return {
        "chunks": total, "distinct_texts": distinct, "duplicate_chunks": total - distinct,
        "duplicate_share": round((total - distinct) / max(1, total), 4),
        "within_code_duplicates": total - sum_unit_distinct,
        "across_codes_duplicates": sum_unit_distinct - distinct,
        "texts_in_more_than_one_code": sum(1 for o in owners.values() if len(o) > 1),
        "by_kind": by_kind, "units": units,
        "most_repeated": [{"count": n, "text": t[:160]} for t, n in top],
    }


def main(argv: list[str] | None = None) -> int:
    from evals.scale import SCALE_DIR

    ap = argparse.ArgumentParser(prog="python -m evals.embed_duplicates")
    ap.add_argument("--codes", type=Path, default=SCALE_DIR)
    ap.add_argument("--corpus", type=Path, default=None, help="keep the prepared corpus here (reused if present)")
    ap.add_argument("--limit", type=int, default=None, help="only the N smallest codes")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    tmp = None
    corpus = args.corpus
    if corpus is None:
        tmp = tempfile.TemporaryDirectory(prefix="dups-")
        corpus = Path(tmp.name) / "corpus"
    try:
        added = prepare_corpus(corpus, args.codes, args.limit)
        t_parse = time.perf_counter()
        from assistant.corpus import all_passages
        from assistant.retrieval.chunking import chunk_passages

        passages = all_passages()
        chunks = chunk_passages(passages, with_sentences=True)
        out = {"codes": len(added), "passages": len(passages), **duplicate_figures(chunks),
               "seconds_prepare": round(t_parse - t0, 1), "seconds_chunk": round(time.perf_counter() - t_parse, 1)}
    finally:
        if tmp is not None:
            tmp.cleanup()
    text = json.dumps(out, indent=2)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text if not args.json else json.dumps({k: v for k, v in out.items() if k not in ("units", "most_repeated")},
                                                indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
