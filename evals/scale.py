"""`python -m evals.bench scale`: the index and the answers as whole codes are added.

Tiers: the two chapters alone (codes 0), then 1, 10 and 31 whole codes of
``../shared/corpus-scale`` added to them (the smallest files first, so that a short run
still measures the first tiers). The tiers share one data folder, as a county office's
index would grow: each tier embeds only the codes it adds (the others' units are
reused), so ``build_s`` is the sum of the increments (what a build from scratch costs in
embedding) and ``build_increment_s`` the tier's own. Per tier: passages, chunks, build
time, passages/s, the incremental add of one more code (time, chunks re-embedded,
units reused), search p50/p95 of the gold queries with their municipality filter and
without it, answer p50 of the lookup questions, peak RSS of this process, the data
folder's size on disk, and recall@5 of the gold and held-out sets with the extra codes
loaded (distractors). ``embed_p50_ms`` is the bare query embedding; ``passages_per_s``
and ``baseline_passages_per_s`` compare the embedding path of the index with the one
before this change (batches of 8 in the order given) on the same sample, same run.

``--max-seconds`` stops before a tier whose expected build would pass it (estimated from
the measured passages/s): the tiers measured are reported, the others listed as skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from evals.scoring import percentile

ROOT = Path(__file__).resolve().parent.parent
SCALE_DIR = ROOT.parent / "shared" / "corpus-scale"
TIERS = (0, 1, 10, 31)


def code_files(folder: Path) -> list[Path]:
    """The codes, smallest first."""
    return sorted((p for p in folder.glob("*.txt") if p.name.lower() != "readme.txt"), key=lambda p: p.stat().st_size)


def code_id(path: Path) -> str:
    import re

    return re.sub(r"[^a-z0-9-]+", "-", path.stem.lower()).strip("-")[:40]


def dir_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def throughput(embedder, texts: list[str]) -> dict:
    """passages/s of the index's embedding path and of the path before it (batches of 8
    in the given order), on the same texts, one after the other."""
    model = getattr(embedder, "model", None)
    if model is None or not texts:
        return {}
    model.encode(texts[:8], batch_size=8, normalize_embeddings=True)  # warm
    embedder.embed_documents(texts[:8])  # warm (the ONNX path exports its model on first use)
    import numpy as np

    t0 = time.perf_counter()
    old = [model.encode(texts[i:i + 8], batch_size=8, normalize_embeddings=True, show_progress_bar=False)
           for i in range(0, len(texts), 8)]
    base = time.perf_counter() - t0
    t0 = time.perf_counter()
    now = embedder.embed_documents(texts)
    new = time.perf_counter() - t0
    cos = (np.asarray(now) * np.concatenate(old)).sum(axis=1)
    out = {"sample": len(texts), "passages_per_s": round(len(texts) / new, 2),
           "baseline_passages_per_s": round(len(texts) / base, 2),
           "min_cosine_to_baseline_vectors": round(float(cos.min()), 6),
           "backend": type(embedder).__name__}
    if type(embedder).__name__ != "Embedder":  # the torch path with length-sorted batches, same texts
        from assistant.retrieval.embeddings import DOC_BATCH

        t0 = time.perf_counter()
        model.encode(texts, batch_size=DOC_BATCH, normalize_embeddings=True, show_progress_bar=False)
        out["torch_sorted_passages_per_s"] = round(len(texts) / (time.perf_counter() - t0), 2)
    return out


def _env(corpus: Path, data: Path) -> None:
    from assistant.corpus import reset_caches
    from assistant.settings import get_settings

    os.environ["ASSISTANT_CORPUS_DIR"] = str(corpus)
    os.environ["ASSISTANT_DATA_DIR"] = str(data)
    get_settings.cache_clear()
    reset_caches()


def _add_code(path: Path) -> str:
    from assistant.municipality_add import AddRequest, apply_add, plan_add

    mid = code_id(path)
    name = path.stem.replace("-", " ").replace(".", ". ").title()
    plan = plan_add(AddRequest(file=str(path), id=mid, name=f"{'' if 'County' in name else 'City of '}{name}".strip(),
                               state="GA", kind="county" if "County" in name else "city"))
    apply_add(plan, build_index=False)
    return mid


def _open(settings, embedder):
    from assistant.retrieval.index import SearchIndex

    t0 = time.perf_counter()
    idx = SearchIndex.open(settings=settings, embedder=embedder)
    return idx, time.perf_counter() - t0


def bench_scale(tiers: tuple[int, ...] = TIERS, codes_dir: Path = SCALE_DIR, embedder=None,
                max_seconds: float | None = None, progress: Callable[[str], None] = lambda m: None,
                with_answers: bool = True, sample: int = 192, queries: int | None = None,
                checkpoint: Callable[[dict], None] | None = None) -> dict:
    """``checkpoint`` is called with the results so far after every tier (a long run that
    is stopped keeps the tiers it measured)."""
    from evals.bench import (GOLD_RETRIEVAL, HELDOUT_RETRIEVAL, DEPTH, first_hit_rank, forget_queries, load_gold,
                             peak_rss_mb, recall_at_k)
    from assistant.retrieval.chunking import chunk_passages
    from assistant.settings import get_settings

    files = code_files(Path(codes_dir)) if Path(codes_dir).is_dir() else []
    tiers = tuple(t for t in tiers if t <= len(files))
    if embedder is None:
        from assistant.retrieval.embeddings import get_embedder

        embedder = get_embedder()
    gold, heldout = load_gold(GOLD_RETRIEVAL), load_gold(HELDOUT_RETRIEVAL) if HELDOUT_RETRIEVAL.exists() else []
    if queries is not None:  # a quick run of the mechanics (tests)
        gold, heldout = gold[:queries], heldout[:queries]
    saved = {k: os.environ.get(k) for k in ("ASSISTANT_CORPUS_DIR", "ASSISTANT_DATA_DIR")}
    out: dict = {"codes_available": len(files), "codes_dir": str(codes_dir), "embedder": embedder.fingerprint,
                 "tiers": [], "skipped_tiers": []}
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        corpus, data = Path(tmp) / "corpus", Path(tmp) / "data"
        shutil.copytree(ROOT / "corpus", corpus)
        _env(corpus, data)
        settings = get_settings().model_copy(update={"chroma_mode": "embedded"})
        try:
            from assistant.corpus import all_passages

            texts = [c.embed_text for c in chunk_passages(all_passages(), with_sentences=True)][:sample]
            out.update(throughput(embedder, texts))
            # bare query embedding
            if hasattr(embedder, "model"):
                times = []
                for it in gold:
                    t0 = time.perf_counter()
                    embedder.model.encode([it["query"] + " ?"], normalize_embeddings=True, show_progress_bar=False)
                    times.append((time.perf_counter() - t0) * 1000)
                out["embed_p50_ms"] = round(percentile(times, 50), 2)
            added: list[str] = []
            build_total = 0.0
            rate = None
            for tier in tiers:
                todo = files[len(added):tier]
                if max_seconds is not None and rate and todo:
                    expect = sum(f.stat().st_size for f in todo) / rate
                    if time.perf_counter() - t_start + expect > max_seconds:
                        out["skipped_tiers"].append({"codes": tier, "why": f"its build would take about {expect:.0f} s "
                                                     f"(over --max-seconds {max_seconds:.0f})"})
                        continue
                for f in todo:
                    _add_code(f)
                    added.append(f.name)
                _env(corpus, data)
                progress(f"tier {tier}: building ({len(todo)} new codes)")
                idx, build_s = _open(settings, embedder)
                build_total += build_s
                new_bytes = sum(f.stat().st_size for f in todo)
                if todo and build_s > 0:
                    rate = new_bytes / build_s
                row = {"codes": tier, "passages": len(idx.passages), "chunks": len(idx.chunks),
                       "build_s": round(build_total, 2), "build_increment_s": round(build_s, 2),
                       "units_reused": len(idx.reused)}
                built_chunks = sum(1 for c in idx.chunks if c.municipality not in set(idx.reused))
                row["chunks_per_s_build"] = round(built_chunks / build_s, 2) if build_s and idx.built_now else None
                row.update(_measure(idx, embedder, gold, heldout, DEPTH, first_hit_rank, forget_queries, recall_at_k))
                if with_answers:
                    row["answer_p50_ms"] = _answer_p50(idx, settings, embedder, forget_queries)
                row["peak_rss_mb"] = round(peak_rss_mb(), 1)
                row["disk_mb"] = round(dir_mb(data), 1)
                idx.close()
                # incremental add of one more code (kept: the next tier counts it as built)
                nxt = files[len(added)] if len(added) < len(files) else None
                if nxt is not None and (max_seconds is None or not rate
                                        or time.perf_counter() - t_start + nxt.stat().st_size / rate < max_seconds):
                    mid = _add_code(nxt)
                    added.append(nxt.name)
                    _env(corpus, data)
                    idx2, add_s = _open(settings, embedder)
                    build_total += add_s
                    if add_s > 0:
                        rate = nxt.stat().st_size / add_s
                    row["add_one_code"] = {"code": mid, "seconds": round(add_s, 2),
                                           "chunks_embedded": sum(1 for c in idx2.chunks if c.municipality == mid),
                                           "texts_embedded": idx2.embedded_texts,
                                           "chunks_total": len(idx2.chunks), "units_reused": len(idx2.reused),
                                           "units_before": len({p.municipality for p in idx.passages})}
                    idx2.close()
                out["tiers"].append(row)
                progress(f"tier {tier}: {json.dumps(row)}")
                if checkpoint is not None:
                    checkpoint({**out, "seconds": round(time.perf_counter() - t_start, 1), "partial": True})
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
            from assistant.corpus import reset_caches

            get_settings.cache_clear()
            reset_caches()
    out["seconds"] = round(time.perf_counter() - t_start, 1)
    return out


def _measure(idx, embedder, gold, heldout, depth, first_hit_rank, forget_queries, recall_at_k) -> dict:
    def search(q, m):
        return [h.passage.text for h in idx.search(q, m, k=depth)]

    row: dict = {}
    ranks = [first_hit_rank(search(it["query"], it.get("municipality")), it["gold"]) for it in gold]
    row["recall_at_5"] = round(recall_at_k(ranks, 5), 4)
    if heldout:
        hr = [first_hit_rank(search(it["query"], it.get("municipality")), it["gold"]) for it in heldout]
        row["recall_at_5_heldout"] = round(recall_at_k(hr, 5), 4)
    row.update(search_latency(idx, embedder, gold, forget_queries, depth))
    return row


def search_latency(idx, embedder, gold, forget_queries, depth: int) -> dict:
    """Search p50 / p95 (ms) over the gold queries, with their municipality filter and across
    municipalities; each query embedded afresh (the embedder's query cache forgotten)."""
    row: dict = {}
    for key, filtered in (("search_p50_ms", True), ("search_p50_ms_unfiltered", False)):
        times = []
        for it in gold:
            if hasattr(embedder, "_cache"):
                forget_queries(embedder)
            t0 = time.perf_counter()
            idx.search(it["query"], it.get("municipality") if filtered else None, k=depth)
            times.append((time.perf_counter() - t0) * 1000)
        row[key] = round(percentile(times, 50), 2)
        row[key.replace("p50", "p95")] = round(percentile(times, 95), 2)
    return row


def _answer_p50(idx, settings, embedder, forget_queries) -> float | None:
    from assistant.answering.assistant import Assistant
    from evals.bench import load_answer_items
    from evals.run import expand_turns

    items = load_answer_items()
    if not items:
        return None
    a = Assistant(idx, settings)
    turns = [expand_turns(it)[0] for it in items]
    for t in turns:  # warm
        a.ask(t["question"], municipality=t.get("municipality"))
    times = []
    for t in turns:
        if hasattr(embedder, "_cache"):
            forget_queries(embedder)
        t0 = time.perf_counter()
        a.ask(t["question"], municipality=t.get("municipality"))
        times.append((time.perf_counter() - t0) * 1000)
    return round(percentile(times, 50), 2)


# ------------------------------------------------------------------------ report


def write_report(out: dict, path: Path) -> Path:
    """A Markdown report beside a PNG plot of latency and memory against corpus size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    png = path.with_suffix(".png")
    rows = out["tiers"]
    if rows:
        fig, ax1 = plt.subplots(figsize=(7, 4))
        x = [r["passages"] for r in rows]
        ax1.plot(x, [r["search_p50_ms"] for r in rows], "o-", label="search p50 (filtered)")
        ax1.plot(x, [r["search_p50_ms_unfiltered"] for r in rows], "s-", label="search p50 (all municipalities)")
        if all(r.get("answer_p50_ms") is not None for r in rows):
            ax1.plot(x, [r["answer_p50_ms"] for r in rows], "^-", label="answer p50")
        ax1.set_xlabel("passages in the index")
        ax1.set_ylabel("ms")
        ax1.set_xscale("log")
        ax2 = ax1.twinx()
        ax2.plot(x, [r["peak_rss_mb"] for r in rows], "k--", label="peak RSS (MB)")
        ax2.set_ylabel("MB")
        h1, l1 = ax1.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax1.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper left")
        ax1.set_title("Latency and memory against corpus size")
        fig.tight_layout()
        fig.savefig(png, dpi=110)
        plt.close(fig)
    lines = ["# Scale benchmark", "", f"Embedder: `{out.get('embedder')}`; codes available: {out['codes_available']}; "
             f"run took {out.get('seconds')} s.", ""]
    if "passages_per_s" in out:
        lines += [f"Embedding throughput on {out.get('sample')} chunks: {out['passages_per_s']} passages/s "
                  f"(before this change: {out['baseline_passages_per_s']} passages/s, same run). "
                  f"Bare query embedding p50: {out.get('embed_p50_ms')} ms.", ""]
    lines += ["| codes | passages | chunks | build s | search p50 ms (filtered / all) | answer p50 ms | peak RSS MB "
              "| disk MB | recall@5 gold / held-out | add one code |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        add = r.get("add_one_code")
        add_s = (f"{add['seconds']} s, {add['chunks_embedded']} chunks embedded, {add['units_reused']} units reused"
                 if add else "—")
        lines.append(f"| {r['codes']} | {r['passages']} | {r['chunks']} | {r['build_s']} | {r['search_p50_ms']} / "
                     f"{r['search_p50_ms_unfiltered']} | {r.get('answer_p50_ms')} | {r['peak_rss_mb']} | {r['disk_mb']} "
                     f"| {r['recall_at_5']} / {r.get('recall_at_5_heldout', '—')} | {add_s} |")
    for s in out.get("skipped_tiers", []):
        lines.append(f"\nTier {s['codes']} not measured: {s['why']}.")
    if rows:
        lines += ["", f"![latency and memory]({png.name})", ""]
    lines += ["## Projection", "", projection(out), ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def projection(out: dict) -> str:
    """Linear projection of the measured tiers to ~10× the 31-code set (about 310 codes)."""
    rows = [r for r in out["tiers"] if r["codes"] > 0]
    if not rows:
        return "No tier with codes was measured: nothing to project."
    last = rows[-1]
    per_code_passages = (last["passages"] - out["tiers"][0]["passages"]) / last["codes"]
    target_passages = per_code_passages * 310
    rates = [r["chunks_per_s_build"] for r in out["tiers"] if r.get("chunks_per_s_build")]
    rates += [r["add_one_code"]["chunks_embedded"] / r["add_one_code"]["seconds"] for r in out["tiers"]
              if r.get("add_one_code") and r["add_one_code"]["seconds"] > 0]
    rate = round(max(rates), 1) if rates else (out.get("passages_per_s") or 1)  # the best build rate seen
    chunks_per_passage = last["chunks"] / max(1, last["passages"])
    build_h = target_passages * chunks_per_passage / rate / 3600
    vec_gb = target_passages * chunks_per_passage * 384 * 4 / 1e9
    return (f"From the largest tier measured ({last['codes']} codes, {last['passages']} passages): about "
            f"{per_code_passages:,.0f} passages a code, so ~310 codes hold ~{target_passages:,.0f} passages and "
            f"~{target_passages * chunks_per_passage:,.0f} chunks. At {rate} chunks/s on this shared 2-core machine a "
            f"build from scratch takes ~{build_h:,.1f} h of embedding (the incremental index embeds only a changed "
            f"code: one code is ~{per_code_passages * chunks_per_passage / rate / 60:,.1f} min). The float32 vectors "
            f"alone are ~{vec_gb:.1f} GB, held in memory by the exact search and the sentence vectors besides "
            "Chroma's HNSW: one machine with the embedded store stops around there (peak RSS grows with the "
            "vectors and the passages kept in process); the server mode moves the vectors to `chroma run` (its "
            "HNSW wants the vectors in RAM plus ~1.5× for the graph: 8–16 GB), leaving the app the passages and "
            "BM25, and a build of the whole state wants more cores or a batch job off the serving machine.")
