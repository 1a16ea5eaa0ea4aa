"""Benchmarks (commands, never timed tests).

    python -m evals.bench retrieval [--json] [--gold FILE]
        recall@1, recall@5, MRR (over the top 5) and warm query latency p50/p95 on the
        gold queries of evals/gold_retrieval.yaml, side by side in one run, for the
        hybrid index, BM25 alone, dense alone and the naive LangChain-tutorial
        pipeline; plus the bare query-embedding p50, the hybrid index's build time
        from scratch and the process's peak resident memory.

    python -m evals.bench server [--json]
        the same top 5 from `chroma run` (started on loopback) as from the embedded
        store, every gold and held-out query (evals/server_parity.py).

    python -m evals.bench answer [--json] [--questions FILE]
        warm answer latency p50/p95 of Assistant.ask over the lookup and calculation
        questions beside the bare query-embedding p50 of the same run, cold start to
        first answer (a subprocess, timed) and the share answered correctly.

A hit is a returned passage (or, for the naive pipeline, chunk) whose text contains
one of the item's gold quotes, whitespace collapsed. Latency is warm: every query
runs once untimed, then once timed; the query-embedding cache is cleared before each
timed query so that a dense search pays for its embedding.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml

from assistant.types import normalize_ws
from evals.scoring import percentile

ROOT = Path(__file__).resolve().parent.parent
GOLD_RETRIEVAL = ROOT / "evals" / "gold_retrieval.yaml"
# written after the tuning, without seeing the tuned set, the expansion list or the output
HELDOUT_RETRIEVAL = ROOT / "evals" / "heldout_retrieval.yaml"
QUESTIONS = ROOT / "evals" / "questions.yaml"
DEPTH = 5  # every system returns its top 5; recall@1, recall@5 and MRR are read from them

SYSTEMS = ("hybrid", "bm25", "dense", "langchain_naive")
SYSTEM_LABELS = {
    "hybrid": "hybrid (dense + BM25, RRF)",
    "bm25": "BM25 alone",
    "dense": "dense alone",
    "langchain_naive": "naive LangChain RAG (1000/200 + Chroma)",
}


# -- metrics (pure) -----------------------------------------------------------------
def first_hit_rank(texts: Sequence[str], quotes: Sequence[str]) -> int | None:
    """1-based rank of the first text that contains one of the quotes (whitespace
    collapsed), or None when none does."""
    wanted = [normalize_ws(q) for q in quotes if normalize_ws(q)]
    for rank, text in enumerate(texts, 1):
        t = normalize_ws(text)
        if any(q in t for q in wanted):
            return rank
    return None


def recall_at_k(ranks: Sequence[int | None], k: int) -> float:
    """Share of queries whose first hit is within the top k."""
    if not ranks:
        return 0.0
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks)


def mean_reciprocal_rank(ranks: Sequence[int | None]) -> float:
    """Mean of 1/rank of the first hit (0 for a query without a hit)."""
    if not ranks:
        return 0.0
    return sum(1.0 / r for r in ranks if r) / len(ranks)


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (Linux reports ru_maxrss in KiB)."""
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024.0 if sys.platform != "darwin" else kb / (1024.0 * 1024.0)


def load_gold(path: Path = GOLD_RETRIEVAL) -> list[dict]:
    items = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
    return [it for it in items if it.get("query") and it.get("gold")]


def summarise(ranks: list[int | None], times_ms: list[float]) -> dict:
    return {
        "recall_at_1": round(recall_at_k(ranks, 1), 4),
        "recall_at_5": round(recall_at_k(ranks, 5), 4),
        "mrr": round(mean_reciprocal_rank(ranks), 4),
        "p50_ms": round(percentile(times_ms, 50), 2),
        "p95_ms": round(percentile(times_ms, 95), 2),
    }


def run_system(
    items: list[dict], search: Callable[[str, str | None], list[str]], before_each: Callable[[], None],
    beside: Callable[[str], object] | None = None,
) -> tuple[list[int | None], list[float], list[list[str]], list[float]]:
    """Warm pass (untimed, gives the results), then a timed pass. ``beside`` (the bare
    query embedding) is timed right before each timed search, so that both figures see
    the same load on a shared machine; its times are the fourth value."""
    ranks, results = [], []
    for it in items:
        texts = search(it["query"], it.get("municipality"))
        results.append(texts)
        ranks.append(first_hit_rank(texts, it["gold"]))
    times, beside_times = [], []
    for it in items:
        if beside is not None:
            t0 = time.perf_counter()
            beside(it["query"])
            beside_times.append((time.perf_counter() - t0) * 1000.0)
        before_each()
        t0 = time.perf_counter()
        search(it["query"], it.get("municipality"))
        times.append((time.perf_counter() - t0) * 1000.0)
    return ranks, times, results, beside_times


# -- retrieval ----------------------------------------------------------------------
def quality(items: list[dict], search: Callable[[str, str | None], list[str]]) -> dict:
    """Recall@1, recall@5 and MRR of one untimed pass (the held-out set)."""
    ranks = [first_hit_rank(search(it["query"], it.get("municipality")), it["gold"]) for it in items]
    return {"recall_at_1": round(recall_at_k(ranks, 1), 4), "recall_at_5": round(recall_at_k(ranks, 5), 4),
            "mrr": round(mean_reciprocal_rank(ranks), 4),
            "misses": [it["id"] for it, r in zip(items, ranks) if r is None]}


def forget_queries(embedder) -> None:
    """Clear what a query left behind (its embedding, its expansion) so that the timed pass
    pays for them again, as a new question would."""
    from assistant.retrieval.expansion import _expand

    embedder._cache.clear()
    _expand.cache_clear()


def bench_retrieval(gold_path: Path = GOLD_RETRIEVAL, progress: Callable[[str], None] = lambda m: None,
                    heldout_path: Path | None = HELDOUT_RETRIEVAL) -> dict:
    from assistant.retrieval.embeddings import get_embedder
    from assistant.retrieval.index import SearchIndex
    from assistant.settings import get_settings

    items = load_gold(gold_path)
    embedder = get_embedder()
    t0 = time.perf_counter()
    embedder.model  # load once, outside the build time
    model_load_s = time.perf_counter() - t0
    progress(f"model loaded in {model_load_s:.1f} s")

    out: dict = {"queries": len(items), "depth": DEPTH, "model_load_s": round(model_load_s, 2), "systems": {}}
    by_muni: dict[str, int] = {}
    for it in items:
        by_muni[it.get("municipality") or "-"] = by_muni.get(it.get("municipality") or "-", 0) + 1
    out["queries_by_municipality"] = by_muni
    out["paraphrased"] = sum(1 for it in items if it.get("paraphrase"))
    heldout = load_gold(heldout_path) if heldout_path and Path(heldout_path).exists() else []
    if heldout:
        out["heldout"] = {"queries": len(heldout), "paraphrased": sum(1 for it in heldout if it.get("paraphrase")),
                          "systems": {}}

    with tempfile.TemporaryDirectory(prefix="bench-index-") as tmp:
        settings = get_settings().model_copy(update={"data_dir": Path(tmp), "chroma_mode": "embedded"})
        t0 = time.perf_counter()
        index = SearchIndex.open(settings=settings, embedder=embedder, force=True)
        build_s = time.perf_counter() - t0
        progress(f"hybrid index built from scratch in {build_s:.1f} s ({len(index.chunks)} chunks)")
        out["build_s"] = round(build_s, 2)
        out["chunks"] = len(index.chunks)

        # bare query embedding: distinct strings, straight to the model, no cache
        def encode(text: str):
            return embedder.model.encode([text], normalize_embeddings=True, show_progress_bar=False)

        for it in items[:5]:
            encode("warm " + it["query"])

        def clear_cache() -> None:
            forget_queries(embedder)

        for name, mode in (("hybrid", "hybrid"), ("bm25", "lexical"), ("dense", "dense")):
            def search(q, m, mode=mode):
                return [h.passage.text for h in index.search(q, m, k=DEPTH, mode=mode)]

            ranks, times, _, embed_ms = run_system(items, search, clear_cache, beside=encode if name == "hybrid" else None)
            out["systems"][name] = summarise(ranks, times)
            if name == "hybrid":
                out["embed_p50_ms"] = round(percentile(embed_ms, 50), 2)
                out["embed_p95_ms"] = round(percentile(embed_ms, 95), 2)
                progress(f"bare query embedding p50 {out['embed_p50_ms']} ms (timed beside each hybrid search)")
            out["systems"][name]["misses"] = [it["id"] for it, r in zip(items, ranks) if r is None]
            progress(f"{name}: " + ", ".join(f"{k} {v}" for k, v in out["systems"][name].items() if k != "misses"))
            if heldout:
                out["heldout"]["systems"][name] = quality(heldout, search)
        out["systems"]["hybrid"]["build_s"] = out["build_s"]
        out["peak_rss_mb_index"] = round(peak_rss_mb(), 1)
        out["systems"]["hybrid"]["peak_rss_mb"] = out["peak_rss_mb_index"]
        index = None  # free it before the baseline builds its own

    from evals.baselines import NaiveLangChainRAG

    t0 = time.perf_counter()
    naive = NaiveLangChainRAG.build(embedder=embedder)
    naive_build_s = time.perf_counter() - t0

    def naive_search(q, m):
        return [d.page_content for d in naive.search(q, m, k=DEPTH)]

    ranks, times, _, _ = run_system(items, naive_search, clear_cache)
    out["systems"]["langchain_naive"] = summarise(ranks, times)
    out["systems"]["langchain_naive"]["build_s"] = round(naive_build_s, 2)
    out["systems"]["langchain_naive"]["chunks"] = naive.size
    out["systems"]["langchain_naive"]["misses"] = [it["id"] for it, r in zip(items, ranks) if r is None]
    if heldout:
        out["heldout"]["systems"]["langchain_naive"] = quality(heldout, naive_search)
    progress("langchain_naive: " + ", ".join(f"{k} {v}" for k, v in out["systems"]["langchain_naive"].items()
                                             if k != "misses"))
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    out["targets"] = retrieval_targets(out)
    return out


def retrieval_targets(out: dict) -> dict:
    """The issue's targets, each with the measured figure and whether it is met."""
    sys_ = out["systems"]
    hyb = sys_["hybrid"]
    others = [v["recall_at_5"] for k, v in sys_.items() if k != "hybrid"]
    return {
        "hybrid_recall_at_5_ge_0.95": hyb["recall_at_5"] >= 0.95,
        "hybrid_recall_at_5_ahead_of_every_baseline": all(hyb["recall_at_5"] > r for r in others),
        "hybrid_p50_le_1.5x_embed_p50": hyb["p50_ms"] <= 1.5 * out["embed_p50_ms"],
        "build_le_30_s": out["build_s"] <= 30,
        "peak_rss_le_1_gb": out["peak_rss_mb"] <= 1024,
    }


def print_retrieval(out: dict) -> None:
    print(f"Retrieval benchmark: {out['queries']} gold queries "
          f"({', '.join(f'{k} {v}' for k, v in out['queries_by_municipality'].items())}; "
          f"{out['paraphrased']} paraphrased), top {out['depth']}\n")
    head = f"{'system':<42} {'R@1':>6} {'R@5':>6} {'MRR':>6} {'p50 ms':>8} {'p95 ms':>8}"
    print(head)
    print("-" * len(head))
    for name in SYSTEMS:
        s = out["systems"].get(name)
        if not s:
            continue
        print(f"{SYSTEM_LABELS[name]:<42} {s['recall_at_1']:>6.3f} {s['recall_at_5']:>6.3f} {s['mrr']:>6.3f} "
              f"{s['p50_ms']:>8.1f} {s['p95_ms']:>8.1f}")
    print()
    print(f"bare query embedding p50      {out['embed_p50_ms']:.1f} ms (p95 {out['embed_p95_ms']:.1f} ms)")
    print(f"hybrid index build (scratch)  {out['build_s']:.1f} s for {out['chunks']} chunks "
          f"(model load {out['model_load_s']:.1f} s, not included)")
    print(f"naive pipeline build          {out['systems']['langchain_naive']['build_s']:.1f} s "
          f"for {out['systems']['langchain_naive']['chunks']} chunks")
    print(f"peak RSS                      {out['peak_rss_mb']:.0f} MB "
          f"({out['peak_rss_mb_index']:.0f} MB before the naive baseline)")
    print()
    for name, ok in out["targets"].items():
        print(f"  [{'ok' if ok else 'MISSED'}] {name}")
    misses = out["systems"]["hybrid"].get("misses") or []
    if misses:
        print(f"\nhybrid misses at 5: {', '.join(misses)}")
    held = out.get("heldout")
    if held:
        print(f"\nHeld-out set: {held['queries']} queries ({held['paraphrased']} paraphrased), written after the "
              "tuning without seeing the tuned set or the expansion list (untimed)")
        for name in SYSTEMS:
            s = held["systems"].get(name)
            if s:
                print(f"{SYSTEM_LABELS[name]:<42} {s['recall_at_1']:>6.3f} {s['recall_at_5']:>6.3f} {s['mrr']:>6.3f}")


# -- answers ------------------------------------------------------------------------
ANSWER_KINDS = ("lookup", "calculation")


def load_answer_items(path: Path = QUESTIONS) -> list[dict]:
    from evals.run import expand_turns, load_questions

    items = [it for it in load_questions(path) if it.get("kind") in ANSWER_KINDS]
    # single-turn only: a warm latency figure per question
    return [it for it in items if len(expand_turns(it)) == 1]


def cold_start_s(question: str, municipality: str | None) -> float:
    """Seconds for a fresh interpreter to import the assistant and answer one question."""
    code = (
        "import sys\n"
        "from assistant.answering.assistant import Assistant\n"
        f"a = Assistant.load().ask({question!r}, municipality={municipality!r})\n"
        "print(a.status)\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"cold start failed: {proc.stderr.strip().splitlines()[-1:] }")
    return elapsed


def bench_answer(questions_path: Path = QUESTIONS, progress: Callable[[str], None] = lambda m: None) -> dict:
    from assistant.answering.assistant import Assistant
    from assistant.retrieval.embeddings import get_embedder
    from evals.run import expand_turns
    from evals.scoring import answer_correct

    items = load_answer_items(questions_path)
    if not items:
        raise ValueError(f"no single-turn lookup or calculation questions in {questions_path}")
    first = expand_turns(items[0])[0]
    cold = cold_start_s(first["question"], first.get("municipality"))
    progress(f"cold start to first answer {cold:.1f} s")

    assistant = Assistant.load()
    embedder = get_embedder()
    turns = [expand_turns(it)[0] for it in items]

    def ask(t):
        return assistant.ask(t["question"], municipality=t.get("municipality"), history=None)

    answers = [ask(t) for t in turns]  # warm pass
    correct = [answer_correct(t["expected"], json.loads(a.model_dump_json())) for t, a in zip(turns, answers)]
    times, embed_ms = [], []
    for t in turns:  # the bare embedding timed right before each answer: same load on both
        s = time.perf_counter()
        embedder.model.encode([t["question"]], normalize_embeddings=True, show_progress_bar=False)
        embed_ms.append((time.perf_counter() - s) * 1000.0)
        forget_queries(embedder)
        t0 = time.perf_counter()
        ask(t)
        times.append((time.perf_counter() - t0) * 1000.0)
    by_kind: dict[str, dict] = {}
    for kind in ANSWER_KINDS:
        idx = [i for i, it in enumerate(items) if it.get("kind") == kind]
        if idx:
            by_kind[kind] = {
                "questions": len(idx),
                "p50_ms": round(percentile([times[i] for i in idx], 50), 2),
                "p95_ms": round(percentile([times[i] for i in idx], 95), 2),
                "answer_accuracy": round(sum(correct[i] for i in idx) / len(idx), 4),
            }
    out = {
        "questions": len(items),
        "p50_ms": round(percentile(times, 50), 2),
        "p95_ms": round(percentile(times, 95), 2),
        "embed_p50_ms": round(percentile(embed_ms, 50), 2),
        "cold_start_s": round(cold, 2),
        "answer_accuracy": round(sum(correct) / len(correct), 4),
        "by_kind": by_kind,
        "wrong": [it["id"] for it, ok in zip(items, correct) if not ok],
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }
    out["targets"] = {
        "answer_p50_le_2x_embed_p50": out["p50_ms"] <= 2 * out["embed_p50_ms"],
        "cold_start_le_15_s": out["cold_start_s"] <= 15,
    }
    return out


def print_answer(out: dict) -> None:
    print(f"Answer benchmark: {out['questions']} single-turn lookup and calculation questions\n")
    print(f"warm answer latency   p50 {out['p50_ms']:.1f} ms   p95 {out['p95_ms']:.1f} ms")
    for kind, s in out["by_kind"].items():
        print(f"  {kind:<12} ({s['questions']:>3})  p50 {s['p50_ms']:.1f} ms   p95 {s['p95_ms']:.1f} ms   "
              f"correct {s['answer_accuracy']:.1%}")
    print(f"bare query embedding  p50 {out['embed_p50_ms']:.1f} ms   "
          f"(answer p50 = {out['p50_ms'] / out['embed_p50_ms']:.2f}x)")
    print(f"cold start to first answer  {out['cold_start_s']:.1f} s")
    print(f"answered correctly          {out['answer_accuracy']:.1%}")
    print(f"peak RSS                    {out['peak_rss_mb']:.0f} MB")
    print()
    for name, ok in out["targets"].items():
        print(f"  [{'ok' if ok else 'MISSED'}] {name}")
    if out["wrong"]:
        print(f"\nwrong: {', '.join(out['wrong'])}")


# -- CLI ----------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evals.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("retrieval", help="retrieval quality and speed, four systems side by side")
    r.add_argument("--json", action="store_true")
    r.add_argument("--gold", type=Path, default=GOLD_RETRIEVAL)
    r.add_argument("--heldout", type=Path, default=HELDOUT_RETRIEVAL,
                   help="a second gold set scored untimed beside the first ('' to skip)")
    a = sub.add_parser("answer", help="answer latency, cold start and accuracy of the assistant")
    a.add_argument("--json", action="store_true")
    a.add_argument("--questions", type=Path, default=QUESTIONS)
    s = sub.add_parser("scale", help="tiers of whole codes added to the two chapters (see evals/scale.py)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--tiers", default="0,1,10,31", help="codes per tier, comma-separated (0 = the two chapters)")
    s.add_argument("--codes", type=Path, default=None, help="folder of whole codes (default ../shared/corpus-scale)")
    s.add_argument("--max-seconds", type=float, default=None,
                   help="skip a tier whose expected build would pass this budget")
    s.add_argument("--report", type=Path, default=None, help="write a Markdown report (and a PNG plot beside it)")
    s.add_argument("--fake-embedder", action="store_true", help="hashed bag-of-words vectors (mechanics only)")
    s.add_argument("--no-answers", action="store_true", help="skip the answer latency")
    s.add_argument("--backend", choices=("torch", "onnx"), default=None,
                   help="embedding path of the builds (default: the setting ASSISTANT_EMBEDDING_BACKEND)")
    s.add_argument("--out", type=Path, default=None,
                   help="also write the JSON here, rewritten after every tier (with the report, if --report)")
    v = sub.add_parser("server", help="top 5 from `chroma run` vs the embedded store, every gold and held-out query "
                                      "(see evals/server_parity.py)")
    v.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    from evals import offline_env

    offline_env()
    args = build_parser().parse_args(argv)

    def progress(msg: str) -> None:
        print(f"[bench] {msg}", file=sys.stderr)

    try:
        if args.what == "retrieval":
            out = bench_retrieval(args.gold, progress, args.heldout if str(args.heldout) not in ("", ".") else None)
            if args.json:
                json.dump(out, sys.stdout, indent=2)
                print()
            else:
                print_retrieval(out)
        elif args.what == "server":
            from evals.server_parity import server_parity

            out = server_parity(progress=progress)
            if args.json:
                json.dump(out, sys.stdout, indent=2)
                print()
            else:
                print(f"same top {out['k']} in {out['same_top5']} of {out['searches']} searches "
                      f"({out['queries']} queries, filtered and across municipalities); "
                      f"server fallbacks {out['server_fallbacks']}")
                for d in out["differ"]:
                    print(f"  differs: {d}")
        elif args.what == "scale":
            from evals.scale import SCALE_DIR, bench_scale, write_report

            embedder = None
            if args.fake_embedder:
                sys.path.insert(0, str(ROOT))
                from tests.fake_embedder import FakeEmbedder

                embedder = FakeEmbedder()
            elif args.backend == "onnx":
                from assistant.retrieval.onnx_embedder import OnnxEmbedder

                embedder = OnnxEmbedder()
            elif args.backend == "torch":
                from assistant.retrieval.embeddings import Embedder

                embedder = Embedder()
            tiers = tuple(int(x) for x in args.tiers.split(",") if x.strip())

            def checkpoint(partial: dict) -> None:
                if args.out:
                    args.out.write_text(json.dumps(partial, indent=2) + "\n", encoding="utf-8")
                if args.report:
                    write_report(partial, args.report)

            out = bench_scale(tiers, args.codes or SCALE_DIR, embedder, args.max_seconds, progress,
                              with_answers=not args.no_answers, checkpoint=checkpoint)
            if args.out:
                args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
            if args.report:
                progress(f"report written to {write_report(out, args.report)}")
            json.dump(out, sys.stdout, indent=2 if args.json else None)
            print()
        else:
            out = bench_answer(args.questions, progress)
            if args.json:
                json.dump(out, sys.stdout, indent=2)
                print()
            else:
                print_answer(out)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: {msg}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
