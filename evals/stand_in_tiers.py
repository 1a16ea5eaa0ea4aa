"""Tiers of whole codes measured without embedding them: `python -m evals.stand_in_tiers`.

A real-model build of the 31 codes takes hours on the shared 2-core machine; everything
else about serving them does not. ``prepare`` builds, for each tier, a corpus folder and a
data folder: the two chapters embedded with the real model (tier 0), then the codes added
with stand-in vectors (``evals.serving_memory.StandIn``: hashed 384-d unit vectors under
the model's fingerprint), so the chapters' units keep their real vectors (reused, never
re-embedded) and the codes' units have the shapes and counts of real ones.

``measure`` opens each tier's folder in this process, one after the other (same run, so
the ratios are fair) with the real model embedding the queries, and reports: parse+chunk
time of the corpus, passages, chunks, index open time, search p50/p95 of the gold queries
with their municipality filter and across municipalities, answer p50 of the lookup
questions, disk size, and recall@5 of the gold and held-out sets with BM25 alone (the
lexical half of the hybrid: real, whatever the vectors), with each item's municipality
filter (one BM25 per municipality: the other codes cannot change it) and without it, and the opt-in bound of the search
across municipalities (``cross_municipalities``, 8): its p50 and on how many gold queries
its top 5 differs from the default's; and the search across municipalities through the
graph over every municipality's vectors (the default, ``retrieval/across_graph.py``) against
querying each municipality's collection and merging (``graph``: on how many gold and held-out
queries the top 5 differs, and the merge's p50 in the same run). The hybrid recall@5 is not
reported: the codes' dense vectors are noise, so it measures nothing. Peak RSS of a
serving process is measured per folder by ``evals.serving_memory`` (a fresh process).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from evals.scoring import percentile

ROOT = Path(__file__).resolve().parent.parent
BOUND = 8  # the opt-in bound measured beside the default search across municipalities


def _env(corpus: Path, data: Path) -> None:
    from evals.scale import _env as scale_env

    scale_env(corpus, data)


def prepare(root: Path, tiers: list[int], codes_dir: Path) -> list[dict]:
    """``root/corpus<N>`` and ``root/data<N>`` for each tier, each grown from the previous one."""
    from assistant.retrieval.embeddings import Embedder
    from assistant.retrieval.index import SearchIndex
    from assistant.settings import get_settings
    from evals.scale import _add_code, code_files, code_id
    from evals.serving_memory import StandIn

    files = code_files(codes_dir)
    out, prev = [], None
    for n in sorted(tiers):
        corpus, data = root / f"corpus{n}", root / f"data{n}"
        if not corpus.exists():
            shutil.copytree(prev[0] if prev else ROOT / "corpus", corpus)
            if prev and prev[1].exists():
                shutil.copytree(prev[1], data)
        _env(corpus, data)
        present = _municipality_ids(corpus)
        for f in files[:n]:
            if code_id(f) not in present:  # a tier grown from the previous one holds its codes
                _add_code(f)
        _env(corpus, data)
        settings = get_settings().model_copy(update={"chroma_mode": "embedded"})
        real = Embedder()
        t0 = time.perf_counter()
        idx = SearchIndex.open(settings, embedder=real if n == 0 else StandIn(real.fingerprint))
        row = {"codes": n, "built": idx.built_now, "build_s": round(time.perf_counter() - t0, 1),
               "reused": idx.reused, "chunks": len(idx.chunks), "embedded_texts": idx.embedded_texts}
        idx.close()
        print(json.dumps(row), file=sys.stderr, flush=True)
        out.append(row)
        prev = (corpus, data)
    return out


def _municipality_ids(corpus: Path) -> set[str]:
    import yaml

    manifest = yaml.safe_load((corpus / "manifest.yaml").read_text("utf-8")) or {}
    return {str(d.get("id")) for d in manifest.get("documents") or []}


def measure_tier(corpus: Path, data: Path, codes: int, embedder, gold, heldout) -> dict:
    from assistant.corpus import all_passages, reset_caches
    from assistant.retrieval.chunking import chunk_passages
    from assistant.retrieval.index import SearchIndex
    from assistant.settings import get_settings
    from evals.bench import DEPTH, first_hit_rank, forget_queries, recall_at_k
    from evals.scale import _answer_p50, dir_mb, search_latency

    _env(corpus, data)
    reset_caches()
    t0 = time.perf_counter()
    passages = all_passages()
    t1 = time.perf_counter()
    chunks = chunk_passages(passages, with_sentences=True)
    row: dict = {"codes": codes, "vectors": "real" if codes == 0 else "stand-in", "passages": len(passages),
                 "chunks": len(chunks), "parse_s": round(t1 - t0, 1),
                 "parse_chunk_s": round(time.perf_counter() - t0, 1)}
    del chunks
    settings = get_settings().model_copy(update={"chroma_mode": "embedded"})
    t0 = time.perf_counter()
    idx = SearchIndex.open(settings, embedder=embedder)
    row["open_s"] = round(time.perf_counter() - t0, 1)
    assert not idx.built_now, f"{data} was not prepared: run `prepare` first"
    try:
        def texts(q, m, mode):
            return [h.passage.text for h in idx.search(q, m, k=DEPTH, mode=mode)]

        for name, items in (("recall_at_5_bm25", gold), ("recall_at_5_bm25_heldout", heldout)):
            ranks = [first_hit_rank(texts(it["query"], it.get("municipality"), "lexical"), it["gold"]) for it in items]
            row[name] = round(recall_at_k(ranks, 5), 4)
            # without the municipality: here the other codes compete (filtered, BM25 is per municipality)
            ranks = [first_hit_rank(texts(it["query"], None, "lexical"), it["gold"]) for it in items]
            row[name.replace("bm25", "bm25_unfiltered")] = round(recall_at_k(ranks, 5), 4)
        for it in gold:  # warm both paths
            idx.search(it["query"], it.get("municipality"), k=DEPTH)
            idx.search(it["query"], None, k=DEPTH)
        row.update(search_latency(idx, embedder, gold, forget_queries, DEPTH))
        row.update(_bound_effect(idx, embedder, gold, forget_queries))
        row.update(_graph_effect(idx, embedder, gold + heldout, forget_queries))
        row["answer_p50_ms"] = _answer_p50(idx, settings, embedder, forget_queries)
    finally:
        idx.close()
    row["disk_mb"] = round(dir_mb(data), 1)
    return row


def _bound_effect(idx, embedder, gold, forget_queries, bound: int = BOUND) -> dict:
    """The search across municipalities bounded to ``bound`` municipalities' vectors (the
    opt-in ``cross_municipalities``): its p50, and on how many gold queries its top 5 (top 1)
    differs from the default search, which queries every municipality."""
    from assistant.retrieval import index as index_module
    from assistant.settings import ranking

    every = {it["query"]: [h.passage.id for h in idx.search(it["query"], None, k=5)] for it in gold}
    bounded_ranking = ranking().model_copy(update={"cross_municipalities": bound})
    saved = index_module.ranking
    index_module.ranking = lambda: bounded_ranking
    try:
        got = {it["query"]: [h.passage.id for h in idx.search(it["query"], None, k=5)] for it in gold}
        times = _unfiltered_times(idx, embedder, gold, forget_queries)
    finally:
        index_module.ranking = saved
    return {f"bound_{bound}": {"search_p50_ms_unfiltered": round(percentile(times, 50), 2),
                               "top5_differs": sum(got[q] != every[q] for q in every),
                               "top1_differs": sum(got[q][:1] != every[q][:1] for q in every),
                               "gold_queries": len(every)}}


def _unfiltered_times(idx, embedder, items, forget_queries) -> list[float]:
    """Milliseconds of each search across municipalities, the query's embedding forgotten first."""
    times = []
    for it in items:
        forget_queries(embedder)
        t0 = time.perf_counter()
        idx.search(it["query"], None, k=5)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def _graph_effect(idx, embedder, items, forget_queries) -> dict:
    """The search across municipalities through the graph (the default) against querying
    every municipality's collection and merging (what it replaced): on how many gold and
    held-out queries their top 5 (top 1) differ, and the merge's p50 in the same run."""
    graph = idx._graph
    if graph is None:
        return {"graph": None}
    with_graph = {it["query"]: [h.passage.id for h in idx.search(it["query"], None, k=5)] for it in items}
    idx._graph = None
    try:
        merged = {it["query"]: [h.passage.id for h in idx.search(it["query"], None, k=5)] for it in items}
        times = _unfiltered_times(idx, embedder, items[:165], forget_queries)
    finally:
        idx._graph = graph
    differ = [q for q in merged if with_graph[q] != merged[q]]
    return {"graph": {"queries": len(merged), "top5_differs": len(differ),
                      "top1_differs": sum(with_graph[q][:1] != merged[q][:1] for q in merged),
                      "top5_set_differs": sum(set(with_graph[q]) != set(merged[q]) for q in merged),
                      "differing": differ[:20],
                      "merge_search_p50_ms_unfiltered": round(percentile(times, 50), 2)}}


def measure(root: Path, tiers: list[int]) -> dict:
    import torch

    from assistant.retrieval.embeddings import Embedder
    from evals.bench import GOLD_RETRIEVAL, HELDOUT_RETRIEVAL, forget_queries, load_gold

    torch.set_num_threads(1)
    embedder = Embedder()
    gold, heldout = load_gold(GOLD_RETRIEVAL), load_gold(HELDOUT_RETRIEVAL)
    times = []
    embedder.model.encode(["warm"], normalize_embeddings=True, show_progress_bar=False)
    for it in gold:
        forget_queries(embedder)
        t0 = time.perf_counter()
        embedder.embed_query(it["query"])
        times.append((time.perf_counter() - t0) * 1000)
    out = {"embedder": embedder.fingerprint, "torch_threads": torch.get_num_threads(),
           "embed_p50_ms": round(percentile(times, 50), 2), "load_at_start": os.getloadavg(), "tiers": []}
    for n in tiers:
        row = measure_tier(root / f"corpus{n}", root / f"data{n}", n, embedder, gold, heldout)
        print(json.dumps(row), file=sys.stderr, flush=True)
        out["tiers"].append(row)
    out["load_at_end"] = os.getloadavg()
    return out


def main(argv: list[str] | None = None) -> int:
    from evals import offline_env
    from evals.scale import SCALE_DIR

    offline_env()
    ap = argparse.ArgumentParser(prog="python -m evals.stand_in_tiers", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("prepare", "measure"))
    ap.add_argument("--root", type=Path, required=True, help="a scratch folder (outside the project)")
    ap.add_argument("--tiers", default="0,10,31")
    ap.add_argument("--codes", type=Path, default=SCALE_DIR)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    tiers = [int(x) for x in args.tiers.split(",") if x.strip()]
    if args.what == "prepare":
        args.root.mkdir(parents=True, exist_ok=True)
        out: object = prepare(args.root, tiers, args.codes)
    else:
        out = measure(args.root, tiers)
    text = json.dumps(out, indent=2)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
