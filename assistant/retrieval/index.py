"""The search index: structure-aware chunks, dense vectors in Chroma, BM25, and
reciprocal-rank fusion with a municipality filter.

The index stores a fingerprint of the corpus (the parsed passages), the embedding
model and the chunker version, and rebuilds only when it changes. Building takes an
exclusive file lock in the data directory, so two processes opening the same
directory never write it at once (the second waits, then finds it built).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

from filelock import FileLock, Timeout
from pydantic import BaseModel, ConfigDict, Field

from assistant.corpus import all_passages, note_problem
from assistant.retrieval.chunking import CHUNKER_VERSION, Chunk, chunk_passages
from assistant.retrieval.citations import lookup
from assistant.retrieval.embeddings import Embedder, get_embedder
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import LexicalIndex, stems
from assistant.retrieval.vector_store import VectorStore, make_client
from assistant.settings import Settings, get_settings
from assistant.types import Passage

RRF_K = 10
LEXICAL_WEIGHT = 0.35  # BM25 is the weaker ranker here: it breaks ties and adds exact terms
CANDIDATES = 30
DENSE_CANDIDATES = 60  # sentence and passage chunks: several may name the same passage
LOCK_TIMEOUT_S = 300
BUILD_BATCH = 8  # texts embedded at once while building: small batches keep the peak memory down


class IndexBusy(RuntimeError):
    pass


class SearchHit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    passage: Passage
    score: float = Field(description="Fused score (higher is better).")
    matched_terms: list[str] = Field(default_factory=list, description="Query words found in the passage.")
    dense_rank: int | None = None
    lexical_rank: int | None = None
    dense_score: float | None = Field(default=None, description="Cosine similarity of the best chunk.")
    exact_citation: bool = Field(default=False, description="The query was this passage's citation.")


def corpus_fingerprint(passages: list[Passage], embedder_id: str) -> str:
    h = hashlib.sha256()
    h.update(CHUNKER_VERSION.encode())
    h.update(embedder_id.encode())
    for p in passages:
        h.update(p.model_dump_json(include={"id", "text", "title", "subsection", "page"}).encode())
    return h.hexdigest()


class SearchIndex:
    def __init__(self, settings: Settings | None = None, embedder: Embedder | None = None):
        self.settings = settings or get_settings()
        self.embedder = embedder or get_embedder()
        self.passages: list[Passage] = []
        self.by_id: dict[str, Passage] = {}
        self.chunks: list[Chunk] = []
        self.chunk_by_id: dict[str, Chunk] = {}
        self.lexical: LexicalIndex | None = None
        self.vectors: VectorStore | None = None
        self.fingerprint = ""
        self.build_s: float | None = None
        self.built_now = False
        self.fingerprints: dict[str, str] = {}
        self.built_municipalities: list[str] = []

    @classmethod
    def open(cls, settings: Settings | None = None, embedder: Embedder | None = None,
             progress: Callable[[float, str], None] | None = None, force: bool = False) -> "SearchIndex":
        idx = cls(settings, embedder)
        idx.load(progress=progress, force=force)
        return idx

    # -- building ---------------------------------------------------------------
    def load(self, progress: Callable[[float, str], None] | None = None, force: bool = False) -> None:
        report = progress or (lambda frac, msg: None)
        self.passages = all_passages()
        self.by_id = {p.id: p for p in self.passages}
        self.chunks = chunk_passages(self.passages, with_sentences=True)
        self.chunk_by_id = {c.id: c for c in self.chunks}
        self.lexical = LexicalIndex([c for c in self.chunks if c.kind == "passage"])
        self.fingerprint = corpus_fingerprint(self.passages, self.embedder.fingerprint)
        by_muni: dict[str, list[Passage]] = {}
        for p in self.passages:
            by_muni.setdefault(p.municipality, []).append(p)
        self.fingerprints = {m: corpus_fingerprint(ps, self.embedder.fingerprint) for m, ps in by_muni.items()}
        data_dir = Path(self.settings.data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(data_dir / "index.lock"))
        # Chroma creates its tables when a client first opens a new directory: two processes
        # doing it at once race ("table collections already exists"), so one opens at a time
        with _acquire(lock, data_dir):
            self.vectors = VectorStore(make_client(self.settings), self.fingerprints)
        expected: dict[str, int] = {}
        for c in self.chunks:
            expected[c.municipality] = expected.get(c.municipality, 0) + 1
        if not force and self.vectors.is_complete(expected):
            self._load_sentence_vectors()
            report(1.0, "index up to date")
            return
        _acquire(lock, data_dir)
        try:
            self.vectors.collections, self.vectors._counts = {}, {}
            todo = set(expected) if force else set(self.vectors.missing(expected))
            if not todo:  # built while we waited
                self._load_sentence_vectors()
                report(1.0, "index up to date")
                return
            t0 = time.perf_counter()
            work = [c for c in self.chunks if c.municipality in todo]
            report(0.05, f"loading the embedding model to index {len(work)} chunks of {', '.join(sorted(todo))}")
            done = 0
            failed: list[str] = []
            for muni in sorted(todo):
                mine = [c for c in work if c.municipality == muni]
                try:
                    vectors: list[list[float]] = []
                    for i in range(0, len(mine), BUILD_BATCH):
                        vectors += self.embedder.embed_documents([c.embed_text for c in mine[i : i + BUILD_BATCH]])
                        done += len(mine[i : i + BUILD_BATCH])
                        report(0.05 + 0.9 * min(1.0, done / len(work)), f"embedded {done}/{len(work)} chunks")
                    self.vectors.build(mine, vectors, only={muni})
                except (IndexBusy, KeyboardInterrupt, MemoryError):
                    raise
                except Exception as exc:  # noqa: BLE001 - one municipality must not stop the others
                    failed.append(muni)
                    note_problem(f"{muni}: its passages could not be indexed ({type(exc).__name__}: "
                                 f"{' '.join(str(exc).split())[:120]}); it is left out of search")
            if failed:
                self._leave_out(set(failed))
                expected = {m: n for m, n in expected.items() if m not in failed}
                todo -= set(failed)
            self.vectors.prune({self.vectors.name_of(m) for m in expected})
            self.built_municipalities = sorted(todo)
            known = self.vectors.all_vectors()
            self._set_sentence_vectors(known)
            self.build_s = time.perf_counter() - t0
            self.built_now = True
            (data_dir / "index.json").write_text(json.dumps({
                "fingerprint": self.fingerprint, "chunker": CHUNKER_VERSION, "model": self.embedder.fingerprint,
                "passages": len(self.passages), "chunks": len(self.chunks), "build_s": round(self.build_s, 2),
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            }, indent=2))
            report(1.0, "index built")
        finally:
            lock.release()

    def _leave_out(self, municipalities: set[str]) -> None:
        """Drop municipalities whose vectors could not be built from this index."""
        self.passages = [p for p in self.passages if p.municipality not in municipalities]
        self.by_id = {p.id: p for p in self.passages}
        self.chunks = [c for c in self.chunks if c.municipality not in municipalities]
        self.chunk_by_id = {c.id: c for c in self.chunks}
        self.lexical = LexicalIndex([c for c in self.chunks if c.kind == "passage"])

    def _load_sentence_vectors(self) -> None:
        self._set_sentence_vectors(self.vectors.all_vectors())

    def _set_sentence_vectors(self, by_id: dict) -> None:
        """Vectors of every sentence (a one-sentence passage is its own sentence), kept in
        memory to pick the sentence that answers within the retrieved passages."""
        import numpy as np

        self.sentence_keys: list[tuple[str, str]] = []
        rows = []
        for c in self.chunks:
            if c.kind == "sentence" or (c.kind == "passage" and c.part == 0 and f"{c.passage_id}#s0" not in self.chunk_by_id):
                if c.id in by_id:
                    self.sentence_keys.append((c.passage_id, c.text))
                    rows.append(by_id[c.id])
        self.sentence_matrix = np.asarray(rows, dtype=np.float32)
        self._sentence_rows: dict[str, list[int]] = {}
        for i, (pid, _) in enumerate(self.sentence_keys):
            self._sentence_rows.setdefault(pid, []).append(i)

    def sentence_similarity(self, vector: list[float], passage_ids: list[str]) -> dict[tuple[str, str], float]:
        """Cosine similarity of the query to each sentence of the given passages."""
        import numpy as np

        rows = [i for pid in passage_ids for i in self._sentence_rows.get(pid, [])]
        if not rows:
            return {}
        sims = self.sentence_matrix[rows] @ np.asarray(vector, dtype=np.float32)
        return {self.sentence_keys[i]: float(s) for i, s in zip(rows, sims)}

    # -- searching --------------------------------------------------------------
    def dense(self, query: str, municipality: str | None = None, k: int = CANDIDATES,
              vector: list[float] | None = None) -> list[tuple[Chunk, float]]:
        vec = vector if vector is not None else self.embedder.embed_query(query)
        return [(self.chunk_by_id[cid], s) for cid, s in self.vectors.search(vec, municipality, k) if cid in self.chunk_by_id]

    def bm25(self, query: str, municipality: str | None = None, k: int = CANDIDATES) -> list[tuple[Chunk, float]]:
        return self.lexical.search(query, municipality, k)

    def search(self, query: str, municipality: str | None = None, k: int = 10,
               vector: list[float] | None = None, mode: str = "hybrid",
               lexical_query: str | None = None) -> list[SearchHit]:
        k = max(1, min(k, self.settings.max_top_k))
        direct = lookup(query, municipality)
        if direct:
            return [SearchHit(passage=p, score=1.0, exact_citation=True) for p in direct[:k]]
        expanded = expand(query)
        if vector is None and mode in ("hybrid", "dense"):
            vector = self.embedder.embed_query(expanded)
        if lexical_query is None:
            lexical_query = expanded
        fused: dict[str, float] = {}
        dense_rank: dict[str, int] = {}
        dense_score: dict[str, float] = {}
        lex_rank: dict[str, int] = {}
        if mode in ("hybrid", "dense"):
            for r, (c, sim) in enumerate(self.dense(query, municipality, DENSE_CANDIDATES, vector)):
                if c.passage_id not in dense_rank:
                    dense_rank[c.passage_id] = len(dense_rank) + 1
                    dense_score[c.passage_id] = sim
        if mode in ("hybrid", "lexical"):
            for r, (c, _) in enumerate(self.bm25(lexical_query or query, municipality, CANDIDATES)):
                if c.passage_id not in lex_rank:
                    lex_rank[c.passage_id] = len(lex_rank) + 1
        for pid, r in dense_rank.items():
            fused[pid] = fused.get(pid, 0.0) + 1.0 / (RRF_K + r)
        for pid, r in lex_rank.items():
            fused[pid] = fused.get(pid, 0.0) + LEXICAL_WEIGHT / (RRF_K + r)
        q_stems = stems(query)  # highlight the user's own words
        hits = []
        for pid, score in sorted(fused.items(), key=lambda kv: (-round(kv[1], 9), kv[0]))[:k]:
            p = self.by_id[pid]
            hits.append(SearchHit(
                passage=p, score=round(score, 6), matched_terms=matched_words(p.text, q_stems),
                dense_rank=dense_rank.get(pid), lexical_rank=lex_rank.get(pid),
                dense_score=dense_score.get(pid),
            ))
        return hits


def _acquire(lock: FileLock, data_dir: Path):
    """Take the index lock (usable as a context manager), or say another process holds it."""
    try:
        return lock.acquire(timeout=LOCK_TIMEOUT_S)
    except Timeout as exc:
        raise IndexBusy(f"another process is building the index in {data_dir}; try again later") from exc


def matched_words(text: str, q_stems: set[str]) -> list[str]:
    """Words of the passage whose stem is one of the query's (for highlighting)."""
    return [w for w, stem in _word_stems(text) if stem in q_stems]


@functools.lru_cache(maxsize=4096)
def _word_stems(text: str) -> tuple[tuple[str, str], ...]:
    """Each distinct word of a passage with its stem, in order of first appearance."""
    from assistant.retrieval.lexical import _stemmer

    seen: dict[str, str] = {}
    for w in re.findall(r"[A-Za-z][A-Za-z'-]+|\d+", text):
        if w not in seen:
            seen[w] = _stemmer.stemWord(w.lower())
    return tuple(seen.items())
