"""`python -m evals.cache_throughput`: passages/s of the index's embedding before and after
the content-addressed cache (``assistant/retrieval/embed_cache.py``), same weights, same run.

On the two chapters (the real model; about two minutes here):

1. a build from scratch: every chunk embedded (before) against each distinct text once (after);
2. one section amended in one municipality: the whole municipality embedded again (before,
   today's unit) against only the texts the previous build never embedded (after).

passages/s is chunks indexed per second of embedding. The vectors of the cached path are
compared with a fresh embed of every chunk (largest absolute difference).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def _old_path(embedder, texts: list[str], batch: int) -> np.ndarray:
    rows: list = []
    for i in range(0, len(texts), batch):
        rows += list(embedder.embed_documents(texts[i:i + batch]))
    return np.asarray(rows, dtype=np.float32)


def measure(embedder=None) -> dict:
    from assistant.corpus import all_passages
    from assistant.retrieval.chunking import chunk_passages
    from assistant.retrieval.embed_cache import VectorCache
    from assistant.retrieval.generation_files import by_unit
    from assistant.retrieval.index import BUILD_BATCH

    if embedder is None:
        from assistant.retrieval.embeddings import get_embedder

        embedder = get_embedder()
    passages = all_passages()
    chunks = chunk_passages(passages, with_sentences=True)
    units = by_unit(chunks)
    embedder.embed_documents(["warm up"])  # the model loads outside the timings
    out: dict = {"embedder": embedder.fingerprint, "chunks": len(chunks),
                 "distinct_texts": len({c.embed_text for c in chunks})}
    t0 = time.perf_counter()
    before = {m: _old_path(embedder, [c.embed_text for c in cs], BUILD_BATCH) for m, cs in units.items()}
    t_before = time.perf_counter() - t0
    cache = VectorCache(embedder.fingerprint)
    t0 = time.perf_counter()
    after = {m: cache.vectors(cs, embedder.embed_documents, BUILD_BATCH) for m, cs in units.items()}
    t_after = time.perf_counter() - t0
    out["build"] = {"before_s": round(t_before, 2), "after_s": round(t_after, 2),
                    "before_passages_per_s": round(len(chunks) / t_before, 2),
                    "after_passages_per_s": round(len(chunks) / t_after, 2),
                    "texts_embedded_after": cache.embedded,
                    "max_abs_diff_to_fresh": float(max(np.abs(before[m] - after[m]).max() for m in units))}
    # one section amended in the municipality with the most chunks
    m = max(units, key=lambda u: len(units[u]))
    target = next(p for p in passages if p.municipality == m and len(p.text) > 200)
    amended = [p.model_copy(update={"text": p.text.replace(".", ", as amended.", 1)}) if p.id == target.id else p
               for p in passages if p.municipality == m]
    new_chunks = chunk_passages(amended, with_sentences=True)
    with tempfile.TemporaryDirectory(prefix="cache-bench-") as tmp:
        f = Path(tmp) / "unit.npy"
        np.save(f, after[m])
        again = VectorCache(embedder.fingerprint)
        again.remember({m: f}, {m: units[m]}, embedder.fingerprint)
        t0 = time.perf_counter()
        old_way = _old_path(embedder, [c.embed_text for c in new_chunks], BUILD_BATCH)
        t_before = time.perf_counter() - t0
        t0 = time.perf_counter()
        new_way = again.vectors(new_chunks, embedder.embed_documents, BUILD_BATCH)
        t_after = time.perf_counter() - t0
    out["amend_one_section"] = {
        "municipality": m, "chunks": len(new_chunks), "before_s": round(t_before, 2), "after_s": round(t_after, 3),
        "texts_embedded_before": len(new_chunks), "texts_embedded_after": again.embedded,
        "before_passages_per_s": round(len(new_chunks) / t_before, 2),
        "after_passages_per_s": round(len(new_chunks) / max(t_after, 1e-6), 1),
        "max_abs_diff_to_fresh": float(np.abs(old_way - new_way).max()),
    }
    return out


def main() -> int:
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    print(json.dumps(measure(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
