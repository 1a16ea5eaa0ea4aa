"""Peak memory of a serving process: `python -m evals.serving_memory --corpus DIR --data DIR`.

What the app's process does, in stages, with the default torch embedder (``--backend onnx``:
the same weights in ONNX Runtime, the opt-in ``embedding_backend``; no torch in the process):
read and parse the corpus (the index checks it against the published generation), open the
index (passages, chunks, vectors, sentence vectors, BM25, the Chroma client), search once
across municipalities (loads the model and the HNSW of the collections it queries: a
collection is loaded when first searched), then answer a few questions; with
``--every-municipality``, then search each municipality once (every HNSW loaded: what a
long-running process reaches). After each
stage: resident memory now and the peak so far (ru_maxrss), and the sizes of what the
index holds. Run it in a fresh process (one per data folder): the peak is the process's.

``--stand-in`` builds a missing index with hashed 384-d vectors under the real model's
fingerprint (no embedding: minutes instead of hours at 10 or more codes). The memory held
is the same (same shapes and counts); the answers are not meaningful and are not scored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import sys
import time
from pathlib import Path

QUESTIONS = [
    ("How much is the bond for a street opening?", "brandon"),
    ("When must snow be removed from the sidewalk?", "brandon"),
    ("Do I need a permit for a culvert under my driveway?", "delafield"),
    ("How big must house numbers be?", "delafield"),
    ("Which cities require a bond for a street cut?", None),
]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


class StandIn:
    """Deterministic unit vectors of the model's size under the model's fingerprint (building only)."""

    def __init__(self, fingerprint: str, dim: int = 384):
        import numpy as np

        self.fingerprint, self.dim, self._np = fingerprint, dim, np

    def embed_documents(self, texts, show_progress: bool = False):
        np = self._np
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
        return out

    def embed_query(self, text):
        return self.embed_documents([text])[0].tolist()


def measure(corpus: Path, data: Path, stand_in: bool = False, server_port: int | None = None,
            every_municipality: bool = False, backend: str = "torch") -> dict:
    os.environ["ASSISTANT_CORPUS_DIR"] = str(corpus)
    os.environ["ASSISTANT_DATA_DIR"] = str(data)
    os.environ["ASSISTANT_EMBEDDING_BACKEND"] = backend
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    stages: list[dict] = []

    def stage(name: str, t0: float) -> None:
        stages.append({"stage": name, "seconds": round(time.perf_counter() - t0, 1), "rss_mb": round(rss_mb(), 1),
                       "peak_mb": round(peak_mb(), 1)})
        print(json.dumps(stages[-1]), file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    from assistant.answering.assistant import Assistant
    from assistant.corpus import all_passages
    from assistant.retrieval.embeddings import get_embedder
    from assistant.retrieval.index import SearchIndex
    from assistant.settings import get_settings

    stage("imports", t0)
    settings = get_settings().model_copy(update={"chroma_mode": "embedded"} if server_port is None else
                                         {"chroma_mode": "server", "chroma_host": "127.0.0.1",
                                          "chroma_port": server_port})
    embedder = get_embedder()  # the backend's: torch, or ONNX Runtime (its export must exist: made beforehand)
    if stand_in:
        t0 = time.perf_counter()
        built = SearchIndex.open(settings, embedder=StandIn(embedder.fingerprint))
        built.close()
        print(json.dumps({"stand_in_build_s": round(time.perf_counter() - t0, 1), "built": built.built_now}),
              file=sys.stderr, flush=True)
        return {"built": True}
    t0 = time.perf_counter()
    passages = all_passages()
    stage("corpus parsed", t0)
    t0 = time.perf_counter()
    idx = SearchIndex.open(settings, embedder=embedder)
    assert not idx.built_now, "the index was out of date: this measures serving, not building"
    stage("index opened", t0)
    t0 = time.perf_counter()
    idx.search("street opening permit bond", None, k=5)
    stage("first search across municipalities (the model; the HNSW of the municipalities it queries)", t0)
    t0 = time.perf_counter()
    a = Assistant(idx, settings)
    for q, m in QUESTIONS:
        a.ask(q, municipality=m)
    stage(f"{len(QUESTIONS)} answers", t0)
    after_answers = round(peak_mb(), 1)
    if every_municipality:  # what a long-running process reaches: every collection searched once
        t0 = time.perf_counter()
        for m in sorted(idx._unit_chunks):
            idx.search("street opening permit bond", m, k=5)
        stage(f"every municipality searched once ({len(idx._unit_chunks)}: every HNSW loaded)", t0)
    import numpy as np

    sizes = {
        "passages": len(passages), "chunks": len(idx.chunks), "municipalities": len(idx._unit_vectors),
        "unit_vectors_mb": round(sum(a.nbytes for a in idx._unit_vectors.values()) / 1e6, 1),
        "vectors_memory_mapped": all(isinstance(a, np.memmap) for a in idx._unit_vectors.values()),
        "passages_json_mb": round((data / "generations" / idx.generation / "passages.json").stat().st_size / 1e6, 1),
        "chunks_json_mb": round((data / "generations" / idx.generation / "chunks.json").stat().st_size / 1e6, 1),
        "passages_shared_with_corpus": bool(idx.passages) and idx.passages[0] is passages[0],
    }
    return {"backend": type(embedder).__name__, "torch_imported": "torch" in sys.modules,
            "stages": stages, "sizes": sizes, "peak_rss_mb_after_answers": after_answers,
            "peak_rss_mb": round(peak_mb(), 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evals.serving_memory")
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--stand-in", action="store_true", help="build the index with stand-in vectors, then stop")
    ap.add_argument("--chroma-port", type=int, default=None,
                    help="serve from a `chroma run` on 127.0.0.1 at this port (already filled: open the folder "
                         "in server mode once before measuring)")
    ap.add_argument("--every-municipality", action="store_true",
                    help="then search every municipality once (every collection loaded: a long-running process)")
    ap.add_argument("--backend", choices=("torch", "onnx"), default="torch",
                    help="the query embedder: the torch model (default) or the same weights in ONNX Runtime "
                         "(export it first: `python -m evals.serving_memory --export-onnx`)")
    ap.add_argument("--export-onnx", action="store_true", help="export the ONNX model into the data folder, then stop")
    args = ap.parse_args(argv)
    if args.export_onnx:
        os.environ["ASSISTANT_DATA_DIR"] = str(args.data)
        from assistant.retrieval.onnx_embedder import OnnxEmbedder

        onnx = OnnxEmbedder()
        onnx._load()
        print(json.dumps({"exported": str(onnx.onnx_path)}))
        return 0
    print(json.dumps(measure(args.corpus, args.data, args.stand_in, args.chroma_port, args.every_municipality,
                             args.backend), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
