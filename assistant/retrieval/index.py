"""The search index: structure-aware chunks, dense vectors in Chroma, BM25, and
reciprocal-rank fusion with a municipality filter. A search filtered to a municipality asks
its own Chroma collection and BM25; a search across municipalities asks one graph over every
municipality's vectors (``across_graph.py``) and one BM25 score array over all of them.

Every build writes a new *generation* (its own passage and chunk store, vectors and
Chroma collections; see ``generations.py``) and publishes it by replacing one pointer
file. A process keeps the generation it opened (and a lease on it) until it moves to a
newer one between requests (``follower.IndexFollower``); a generation nobody holds is
removed by the next build or by the last reader letting it go.

Opening checks the published generation against a fingerprint of the corpus (the parsed
passages), the embedding model and the chunker version, and builds a new generation only
when it changes, or when the published one is damaged (reported in ``problems``). A
municipality whose passages did not change keeps its vectors (no re-embedding); in one that
changed, only text never embedded goes to the model (``embed_cache.py``). An opened
generation's vectors stay on disk, memory-mapped. Building
takes an exclusive file lock in the data directory, so two processes never build at once
(the second waits, then finds the index built). Collections missing on a Chroma server
(restarted without its data) are refilled from the generation's stored vectors.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from filelock import FileLock, Timeout
from pydantic import BaseModel, ConfigDict, Field

from assistant.settings import ranking
from assistant.corpus import all_passages, note_problem
from assistant.retrieval import across_graph
from assistant.retrieval.across_graph import AcrossGraph, build_graph
from assistant.retrieval.chunking import CHUNKER_VERSION, Chunk, chunk_passages
from assistant.retrieval.citations import lookup
from assistant.retrieval.embed_cache import VectorCache
from assistant.retrieval.embeddings import Embedder, get_embedder
from assistant.retrieval.expansion import expand
from assistant.retrieval.generation_files import (
    IndexDamaged,
    by_unit,
    check_passages,
    corpus_fingerprint,
    dump_chunks,
    dump_passages,
    in_chunker_order,
    named_collections,
    one_line,
    load_chunks,
    load_passages,
    read_chunks,
    read_vectors,
    save_vectors,
    readable_previous,
    reusable,
    unit_fingerprints,
)
from assistant.retrieval.generations import (
    GenerationInfo,
    Generations,
    Lease,
    UnitInfo,
    write_json_atomically,
)
from assistant.retrieval.lexical import LexicalIndex, UnitLexicalIndex, stems
from assistant.retrieval.process_memory import release_freed_memory
from assistant.retrieval.vector_store import VectorStore, collection_name, make_client, slug, sweep_collections
from assistant.settings import Settings, get_settings
from assistant.types import Passage

log = logging.getLogger("assistant.index")

LOCK_TIMEOUT_S = 300
REFILL_LOCK_TIMEOUT_S = 5
STORE_RETRY_S = 30  # after the vector store failed, searches use the stored vectors this long
BUILD_BATCH = 512  # texts handed to the embedder at once: sorted by length within, batched by DOC_BATCH


class IndexBusy(RuntimeError):
    pass


class VectorStoreUnreachable(RuntimeError):
    """The Chroma server does not answer: not damage, and rebuilding would not help."""


class _NeedsRefill(RuntimeError):
    """Collections are missing; refilling them needs the build lock."""


class SearchHit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    passage: Passage
    score: float = Field(description="Fused score (higher is better).")
    matched_terms: list[str] = Field(default_factory=list, description="Query words found in the passage.")
    dense_rank: int | None = None
    lexical_rank: int | None = None
    dense_score: float | None = Field(default=None, description="Cosine similarity of the best chunk.")
    exact_citation: bool = Field(default=False, description="The query was this passage's citation.")


class MunicipalityHits(BaseModel):
    """One municipality's best passages for a query asked across municipalities."""

    model_config = ConfigDict(extra="forbid")

    municipality: str
    best_similarity: float | None = Field(default=None, description="Cosine similarity of its best passage "
                                          "(comparable across municipalities; orders the groups).")
    hits: list[SearchHit]


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
        self.generation: str | None = None
        self.build_s: float | None = None
        self.built_now = False
        self.problems: list[str] = []  # damage found (and repaired) while opening
        self.removed: list[str] = []  # old generations removed by this open
        self.reused: list[str] = []  # municipalities whose vectors were reused, not re-embedded
        self.built_units: list[str] = []  # municipalities embedded by this build
        self.lexical_built: list[str] = []  # municipalities whose BM25 was built (not read back) by this open
        self.embedded_texts = 0  # texts handed to the embedder by this build (each distinct text once)
        self.vectors_by_text = 0  # chunks of this build that took the vector of a text already embedded
        self._unit_chunks: dict[str, list[Chunk]] = {}
        self._unit_vectors: dict[str, np.ndarray] = {}
        self._graph: AcrossGraph | None = None  # the search across municipalities (None: query each)
        self._lease: Lease | None = None
        self._client = None
        self._hold = threading.Lock()
        self._users = 0
        self._retired = False
        self._store_down_until = 0.0
        self.closed = False

    @classmethod
    def open(cls, settings: Settings | None = None, embedder: Embedder | None = None,
             progress: Callable[[float, str], None] | None = None, force: bool = False) -> "SearchIndex":
        idx = cls(settings, embedder)
        idx.load(progress=progress, force=force)
        return idx

    @classmethod
    def open_published(cls, settings: Settings | None = None, embedder: Embedder | None = None) -> "SearchIndex":
        """The published generation as it stands (no corpus check, never a build): what a
        running process moves to when another process has published a newer one."""
        idx = cls(settings, embedder)
        data_dir = Path(idx.settings.data_dir)
        gens = Generations(data_dir)
        got = gens.lease_current()
        if got is None:
            raise IndexDamaged(f"no index generation is published in {data_dir}")
        gid, lease = got
        try:
            try:
                idx._load_generation(gens, gid, gens.info(gid), lease, locked=False)
            except _NeedsRefill:
                with _acquire(FileLock(str(data_dir / "index.lock")), data_dir):
                    idx._load_generation(gens, gid, gens.info(gid), lease, locked=True)
        except BaseException:
            lease.release()
            raise
        return idx

    # -- opening and building ---------------------------------------------------------
    def load(self, progress: Callable[[float, str], None] | None = None, force: bool = False) -> None:
        report = progress or (lambda frac, msg: None)
        data_dir = Path(self.settings.data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        gens = Generations(data_dir)
        lock = FileLock(str(data_dir / "index.lock"))
        passages = all_passages()
        fingerprint = corpus_fingerprint(passages, self.embedder.fingerprint)
        if not force and self._open_current(gens, fingerprint, locked=False, passages=passages):
            report(1.0, "index up to date")
            return
        with _acquire(lock, data_dir):
            if not force and self._open_current(gens, fingerprint, locked=True, passages=passages):  # built meanwhile
                report(1.0, "index up to date" if not self.problems else "index repaired")
                return
            for p in self.problems:
                report(0.02, p)
            self._build(gens, passages, fingerprint, report, force)
            self.removed = self._collect(gens)
        report(1.0, "index built")

    def _open_current(self, gens: Generations, fingerprint: str, locked: bool,
                      passages: list[Passage] | None = None) -> bool:
        """Lease and load the published generation if it holds this corpus; False when there
        is none, it is out of date, it needs the lock to be refilled, or it is damaged (then
        the damage is logged and kept in ``problems``)."""
        got = gens.lease_current()
        if got is None:
            problem = gens.pointer_problem()
            if problem and f"{problem}; building a new one" not in self.problems:
                log.warning("%s; building a new one", problem)
                self.problems.append(f"{problem}; building a new one")
            return False
        gid, lease = got
        try:
            info = gens.info(gid)
            if info.fingerprint != fingerprint:
                lease.release()
                return False
            self._load_generation(gens, gid, info, lease, locked=locked, passages=passages)
            return True
        except _NeedsRefill:
            lease.release()
            return False
        except VectorStoreUnreachable:
            lease.release()
            raise
        except Exception as exc:
            lease.release()
            problem = f"index generation {gid} is damaged ({one_line(exc)}); building a new one"
            if problem not in self.problems:
                log.warning(problem)
                self.problems.append(problem)
            return False

    def _load_generation(self, gens: Generations, gid: str, info: GenerationInfo, lease: Lease,
                         locked: bool, passages: list[Passage] | None = None) -> None:
        """``passages``: the corpus as just parsed, when its fingerprint is the generation's
        (the same passages: the store is not read into a second copy)."""
        path = gens.path(gid)
        if passages is None:
            passages = load_passages(path / "passages.json")
        else:
            check_passages(path / "passages.json", passages)
        chunks = share_strings(load_chunks(path / "chunks.json"), passages)
        if len(passages) != info.passages or len(chunks) != info.chunks:
            raise IndexDamaged(f"the stores hold {len(passages)} passages / {len(chunks)} chunks, "
                               f"the generation says {info.passages} / {info.chunks}")
        unit_chunks = by_unit(chunks)
        if set(unit_chunks) != set(info.units):
            raise IndexDamaged("the chunk store and the generation name different municipalities")
        unit_vectors = {}
        for m, unit in info.units.items():
            unit_vectors[m] = read_vectors(path / unit.vectors, len(unit_chunks[m]))
        lexical = self._lexical_units(chunks, {m: path / u.lexical for m, u in info.units.items() if u.lexical})
        graph = self._open_graph(path, info, unit_vectors, locked)
        if self.settings.chroma_mode == "embedded" and not (path / "chroma").is_dir() and not locked:
            raise _NeedsRefill("no embedded store yet")  # creating one needs the lock
        try:
            client = make_client(self.settings, path / "chroma")
        except Exception as exc:
            if self.settings.chroma_mode == "server":
                raise VectorStoreUnreachable(
                    f"the Chroma server at {self.settings.chroma_host}:{self.settings.chroma_port} "
                    f"does not answer ({one_line(exc)})") from exc
            raise
        try:
            store = VectorStore(client, {m: u.collection for m, u in info.units.items()})
            missing = store.missing({m: len(cs) for m, cs in unit_chunks.items()})
            if missing:
                if not locked:
                    raise _NeedsRefill(", ".join(missing))
                for m in missing:
                    store.fill(m, unit_chunks[m], unit_vectors[m])
                problem = (f"index generation {gid}: the vector store lacked the collections of "
                           f"{', '.join(missing)}; refilled them from the stored vectors")
                log.warning(problem)
                self.problems.append(problem)
        except BaseException:
            _close_client(client, self.settings)
            raise
        self._adopt(gid, info, passages, chunks, unit_chunks, unit_vectors, store, client, lease, lexical, graph)

    @staticmethod
    def _open_graph(path: Path, info: GenerationInfo, unit_vectors: dict[str, np.ndarray],
                    locked: bool) -> AcrossGraph | None:
        """The generation's graph across municipalities; a generation written without one (or
        with a stale or unreadable one) gets it now, from its stored vectors, under the build
        lock. None when it cannot be built: the search across municipalities then queries each
        municipality's collection, as before."""
        units = {m: (u.fingerprint, u.chunks) for m, u in info.units.items()}
        folder = path / across_graph.FOLDER
        graph = AcrossGraph.open(folder, units)
        if graph is not None:
            return graph
        if not locked:
            raise _NeedsRefill("no graph across municipalities yet")  # writing one needs the lock
        try:
            t0 = time.perf_counter()
            build_graph(folder, unit_vectors, {m: fp for m, (fp, _) in units.items()})
            log.info("built the graph across municipalities of %d vectors in %.1f s",
                     sum(n for _, n in units.values()), time.perf_counter() - t0)
        except Exception as exc:  # noqa: BLE001 - searches across municipalities query each one instead
            log.warning("could not build the graph across municipalities (%s); searching each municipality",
                        one_line(exc))
            return None
        return AcrossGraph.open(folder, units)

    def _lexical_units(self, chunks: list[Chunk], saved: dict[str, Path]) -> LexicalIndex:
        """The BM25 of every municipality: read back from ``saved`` where it was built from
        the same chunks, otherwise built (and named in ``lexical_built``)."""
        grouped: dict[str, list[Chunk]] = {}
        for c in chunks:
            if c.kind == "passage":
                grouped.setdefault(c.municipality, []).append(c)
        for m in {c.municipality for c in chunks}:
            grouped.setdefault(m, [])
        units: dict[str, UnitLexicalIndex] = {}
        for m, cs in grouped.items():
            folder = saved.get(m)
            if folder is not None:
                try:
                    units[m] = UnitLexicalIndex.load(folder, cs)
                    continue
                except Exception as exc:  # noqa: BLE001 - unreadable: build it again from the chunks
                    log.warning("the saved BM25 of %s is unusable (%s); building it again", m, one_line(exc))
            units[m] = UnitLexicalIndex(cs)
            self.lexical_built.append(m)
        return LexicalIndex([c for c in chunks if c.kind == "passage"], units=units)

    def _adopt(self, gid, info, passages, chunks, unit_chunks, unit_vectors, store, client, lease, lexical,
               graph: AcrossGraph | None = None) -> None:
        self.generation, self.fingerprint = gid, info.fingerprint
        self.passages = passages
        self.by_id = {p.id: p for p in passages}
        self.chunks = chunks
        self.chunk_by_id = {c.id: c for c in chunks}
        self.lexical = lexical
        self.vectors, self._client, self._lease = store, client, lease
        self._unit_chunks, self._unit_vectors = unit_chunks, unit_vectors
        self._graph = graph
        self._set_sentence_vectors()
        release_freed_memory()  # what reading the stores freed (measured: ~210 MB at 31 codes)

    def _build(self, gens: Generations, passages: list[Passage], fingerprint: str,
               report: Callable[[float, str], None], force: bool) -> None:
        t0 = time.perf_counter()
        unit_passages: dict[str, list[Passage]] = {}
        for p in passages:
            unit_passages.setdefault(p.municipality, []).append(p)
        unit_fps = unit_fingerprints(passages, self.embedder.fingerprint)
        previous = None if force else readable_previous(gens)
        # an unchanged municipality keeps its chunks, vectors and (on a server) collection
        kept = {m: reusable(gens, previous, m, unit_fps[m]) for m in unit_passages}
        unit_chunks = {m: kept[m][0] if kept[m] else chunk_passages(ps, with_sentences=True)
                       for m, ps in unit_passages.items()}
        chunks = in_chunker_order(unit_chunks, passages)
        gid, path = gens.create()
        lease = gens.lease(gid)
        client = None
        try:
            (path / "vectors").mkdir()
            units: dict[str, UnitInfo] = {}
            unit_vectors: dict[str, np.ndarray] = {}
            # each distinct text is embedded once; text the previous generation embedded is read back
            cache = VectorCache(self.embedder.fingerprint)
            new_units = [m for m in unit_chunks if not kept[m]]
            if new_units and previous is not None:
                self._remember_previous(cache, gens, previous)
            keys = {m: cache.keys(unit_chunks[m]) for m in new_units}
            to_embed = cache.unknown([k for m in new_units for k in keys[m]])
            done = 0
            failed: list[str] = []
            if to_embed:
                report(0.05, f"loading the embedding model to index {to_embed} distinct texts "
                             f"({sum(len(unit_chunks[m]) for m in new_units)} chunks)")

            def embedded(n: int) -> None:
                nonlocal done
                done += n
                report(0.05 + 0.85 * done / max(1, to_embed), f"embedded {done}/{to_embed} texts")

            for m, cs in unit_chunks.items():
                if kept[m]:
                    _, arr, collection = kept[m]
                    self.reused.append(m)
                    reused_from = previous[0]
                else:
                    try:
                        arr = cache.vectors(cs, self.embedder.embed_documents, BUILD_BATCH, embedded, keys[m])
                    except (KeyboardInterrupt, MemoryError):
                        raise
                    except Exception as exc:  # noqa: BLE001 - one municipality must not stop the others
                        failed.append(m)
                        note_problem(f"{m}: its passages could not be indexed ({type(exc).__name__}: "
                                     f"{' '.join(str(exc).split())[:120]}); it is left out of search")
                        continue
                    collection, reused_from = collection_name(gid, m), None
                    self.built_units.append(m)
                rel = f"vectors/{slug(m)}.npy"
                save_vectors(path / rel, arr, source=gens.path(previous[0]) / previous[1].units[m].vectors
                             if kept[m] else None)
                unit_vectors[m] = np.load(path / rel, mmap_mode="r")  # on disk, like an opened generation's
                units[m] = UnitInfo(fingerprint=unit_fps[m], chunks=len(cs), vectors=rel, collection=collection,
                                    reused_from=reused_from)
            self.embedded_texts, self.vectors_by_text = cache.embedded, cache.from_previous + cache.repeated
            if self.reused:
                report(0.9, f"reused the vectors of {', '.join(self.reused)} (unchanged)")
            if self.vectors_by_text:
                report(0.9, f"embedded {cache.embedded} texts; {cache.from_previous} chunks took the vector of "
                            f"the same text in the previous index, {cache.repeated} of the same text in this build")
            if failed:  # left out: the generation holds the others (and is rebuilt, retrying, next time)
                passages = [p for p in passages if p.municipality not in failed]
                unit_chunks = {m: cs for m, cs in unit_chunks.items() if m not in failed}
                chunks = [c for c in chunks if c.municipality not in failed]
                fingerprint = corpus_fingerprint(passages, self.embedder.fingerprint)
            prev_lexical = {}
            if previous is not None:
                prev_lexical = {m: gens.path(previous[0]) / u.lexical for m, u in previous[1].units.items()
                                if u.lexical and m in self.reused}
            lexical = self._lexical_units(chunks, prev_lexical)
            for m in units:
                rel = f"bm25/{slug(m)}"
                lexical.units[m].save(path / rel)
                units[m] = units[m].model_copy(update={"lexical": rel})
            graph = self._build_graph(path, units, unit_vectors, gens.path(previous[0]) if previous else None)
            (path / "passages.json").write_bytes(dump_passages(passages))
            (path / "chunks.json").write_bytes(dump_chunks(chunks))
            client = make_client(self.settings, path / "chroma")
            store = VectorStore(client, {m: u.collection for m, u in units.items()})
            # a fresh embedded folder holds none; a server may still hold a reused unit's
            for m in store.missing({m: len(cs) for m, cs in unit_chunks.items()}):
                store.fill(m, unit_chunks[m], unit_vectors[m])
            self.build_s = time.perf_counter() - t0
            info = GenerationInfo(
                id=gid, fingerprint=fingerprint, chunker=CHUNKER_VERSION, model=self.embedder.fingerprint,
                passages=len(passages), chunks=len(chunks), build_s=round(self.build_s, 2),
                built_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"), chroma_mode=self.settings.chroma_mode, units=units,
            )
            write_json_atomically(path / "generation.json", info.model_dump_json(indent=2))
            gens.publish(gid)
        except BaseException:
            lease.release()
            if client is not None:
                if self.settings.chroma_mode == "server":
                    sweep_collections(client, keep=named_collections(gens, but=gid))
                _close_client(client, self.settings)
            shutil.rmtree(path, ignore_errors=True)
            raise
        self.built_now = True
        write_json_atomically(Path(self.settings.data_dir) / "index.json", json.dumps({
            "generation": gid, "fingerprint": fingerprint, "chunker": CHUNKER_VERSION,
            "model": self.embedder.fingerprint, "passages": len(passages), "chunks": len(chunks),
            "build_s": round(self.build_s, 2), "built_at": info.built_at, "reused": self.reused,
            "embedded_texts": self.embedded_texts, "vectors_by_text": self.vectors_by_text,
        }, indent=2))
        self._adopt(gid, info, passages, chunks, unit_chunks, unit_vectors, store, client, lease, lexical, graph)

    @staticmethod
    def _build_graph(path: Path, units: dict[str, UnitInfo], unit_vectors: dict[str, np.ndarray],
                     previous: Path | None) -> AcrossGraph | None:
        """The new generation's graph across municipalities, grown from the previous
        generation's (only the municipalities embedded anew are added)."""
        folder = path / across_graph.FOLDER
        try:
            build_graph(folder, unit_vectors, {m: u.fingerprint for m, u in units.items()},
                        previous / across_graph.FOLDER if previous is not None else None)
        except Exception as exc:  # noqa: BLE001 - the generation stands without it
            log.warning("could not build the graph across municipalities (%s); searching each municipality",
                        one_line(exc))
            return None
        return AcrossGraph.open(folder, {m: (u.fingerprint, u.chunks) for m, u in units.items()})

    @staticmethod
    def _remember_previous(cache: VectorCache, gens: Generations, previous: tuple[str, GenerationInfo]) -> None:
        """Let ``cache`` read the vectors of every text the previous generation embedded."""
        gid, info = previous
        try:
            chunks = by_unit(read_chunks(gens.path(gid)))
        except Exception as exc:  # noqa: BLE001 - unreadable: its texts are embedded again
            log.warning("the chunks of generation %s are unreadable (%s); embedding every new text", gid, one_line(exc))
            return
        cache.remember({m: gens.path(gid) / u.vectors for m, u in info.units.items()},
                       {m: cs for m, cs in chunks.items() if m in info.units and len(cs) == info.units[m].chunks},
                       info.model)

    def _collect(self, gens: Generations, keep_own: bool = True) -> list[str]:
        """Remove the generations no process holds (the caller holds the build lock)."""
        removed = gens.collect(keep=(self.generation,) if keep_own and self.generation else ())
        gens.remove_legacy()
        if self.settings.chroma_mode == "server" and self._client is not None:
            sweep_collections(self._client, keep=named_collections(gens))
        if removed:
            log.info("removed old index generations: %s", ", ".join(removed))
        return removed

    def _refill(self, exc: Exception) -> bool:
        """A search failed: refill collections that went missing (a Chroma server restarted
        without its data) from this generation's stored vectors. True if the search may be
        retried."""
        if self.vectors is None or not self._unit_vectors:
            return False
        log.warning("vector search failed in generation %s (%s); checking the collections",
                    self.generation, one_line(exc))
        data_dir = Path(self.settings.data_dir)
        try:  # a short wait: a build holding the lock can take minutes, and a request is waiting
            with FileLock(str(data_dir / "index.lock")).acquire(timeout=REFILL_LOCK_TIMEOUT_S):
                store = VectorStore(self.vectors.client, self.vectors.names)
                missing = store.missing({m: len(cs) for m, cs in self._unit_chunks.items()})
                for m in missing:
                    store.fill(m, self._unit_chunks[m], self._unit_vectors[m])
        except Exception as again:
            log.error("could not refill the collections of generation %s: %s", self.generation, one_line(again))
            return False
        if missing:
            log.warning("refilled the collections of %s in generation %s", ", ".join(missing), self.generation)
        self.vectors = store
        return True

    # -- lifetime ---------------------------------------------------------------------
    def hold(self) -> bool:
        """Count one request using this index; False once it is closed."""
        with self._hold:
            if self.closed:
                return False
            self._users += 1
            return True

    def unhold(self) -> None:
        with self._hold:
            self._users -= 1
            last = self._retired and self._users <= 0
        if last:
            self.close()

    def retire(self) -> None:
        """A newer generation took over: close when the last request using this one ends."""
        with self._hold:
            self._retired = True
            idle = self._users <= 0
        if idle:
            self.close()

    def close(self) -> None:
        """Let go of the generation (lease, Chroma client); if no other process holds it,
        remove it now rather than at the next build."""
        with self._hold:
            if self.closed:
                return
            self.closed = True
        if self._lease is not None:
            self._lease.release()
        data_dir = Path(self.settings.data_dir)
        lock = FileLock(str(data_dir / "index.lock"))
        try:
            with lock.acquire(timeout=0):
                self._collect(Generations(data_dir), keep_own=False)
        except Timeout:
            pass  # a build is running: it collects when it is done
        except Exception as exc:  # collecting is housekeeping; never fail a caller for it
            log.warning("could not remove old index generations: %s", one_line(exc))
        if self._client is not None:
            _close_client(self._client, self.settings)

    def _set_sentence_vectors(self) -> None:
        """Where the vector of every sentence is (a one-sentence passage is its own sentence):
        its row in its municipality's vectors, to pick the sentence that answers within the
        retrieved passages. Rows, not a copy of the vectors; one flat array of rows and a
        span per passage (not a small array per passage: 160k of them at 31 codes)."""
        grouped: dict[str, list[tuple[int, Chunk]]] = {}
        for m, cs in self._unit_chunks.items():
            for r, c in enumerate(cs):
                if c.kind == "sentence" or (c.kind == "passage" and c.part == 0
                                            and f"{c.passage_id}#s0" not in self.chunk_by_id):
                    grouped.setdefault(c.passage_id, []).append((r, c))
        self._sentence_chunks: list[Chunk] = []
        rows: list[int] = []
        self._sentence_span: dict[str, tuple[str, int, int]] = {}
        for pid, got in grouped.items():
            start = len(rows)
            rows += [r for r, _ in got]
            self._sentence_chunks += [c for _, c in got]
            self._sentence_span[pid] = (self.by_id[pid].municipality if pid in self.by_id else "", start, len(rows))
        self._sentence_rows = np.asarray(rows, dtype=np.int64)

    def sentence_similarity(self, vector: list[float], passage_ids: list[str]) -> dict[tuple[str, str], float]:
        """Cosine similarity of the query to each sentence of the given passages."""
        v = np.asarray(vector, dtype=np.float32)
        out: dict[tuple[str, str], float] = {}
        for pid in passage_ids:
            got = self._sentence_span.get(pid)
            arr = self._unit_vectors.get(got[0]) if got else None
            if arr is None:
                continue
            m, a, b = got
            sims = np.asarray(arr[self._sentence_rows[a:b]], dtype=np.float32) @ v
            out.update(((c.passage_id, c.text), float(x)) for c, x in zip(self._sentence_chunks[a:b], sims))
        return out

    # -- searching --------------------------------------------------------------
    def dense(self, query: str, municipality: str | None = None, k: int | None = None,
              vector: list[float] | None = None, among: list[str] | None = None) -> list[tuple[Chunk, float]]:
        """Chunks by cosine similarity: in ``municipality``, else in the municipalities
        ``among`` names, else in all."""
        k = ranking().candidates if k is None else k
        vec = vector if vector is not None else self.embedder.embed_query(query)
        if municipality is None and among is None and self._graph is not None:  # one graph, not each collection
            found = self._graph.search(vec, k, self._unit_vectors, self._unit_chunks)
        elif time.monotonic() < self._store_down_until:  # failed a moment ago: don't wait on it again
            found = self.exact_search(vec, municipality, k, among)
        else:
            found = self._store_search(vec, municipality, k, among)
        return [(self.chunk_by_id[cid], s) for cid, s in found if cid in self.chunk_by_id]

    def _store_search(self, vec: list[float], municipality: str | None, k: int,
                      among: list[str] | None = None) -> list[tuple[str, float]]:
        try:
            return self.vectors.search(vec, municipality, k, among)
        except Exception as exc:
            failed = exc
        if self._refill(failed):
            try:
                return self.vectors.search(vec, municipality, k, among)
            except Exception as again:
                failed = again
        # the store is unreachable or broken: the generation's own vectors answer for a while
        log.warning("vector store unavailable in generation %s (%s); searching the stored vectors for %d s",
                    self.generation, one_line(failed), STORE_RETRY_S)
        self._store_down_until = time.monotonic() + STORE_RETRY_S
        return self.exact_search(vec, municipality, k, among)

    def exact_search(self, vector: list[float], municipality: str | None = None, k: int = 20,
                     among: list[str] | None = None) -> list[tuple[str, float]]:
        """(chunk id, cosine similarity), best first, by brute force over this generation's
        vectors: the same neighbours as the vector store (whose HNSW settings are exact at this
        size), used when the store cannot answer."""
        v = np.asarray(vector, dtype=np.float32)
        v = v / (float(np.linalg.norm(v)) or 1.0)
        hits: list[tuple[str, float]] = []
        for m in [municipality] if municipality else list(self._unit_vectors) if among is None else among:
            arr = self._unit_vectors.get(m)
            if arr is None or not len(arr):
                continue
            sims = (arr @ v) / np.maximum(np.linalg.norm(arr, axis=1), 1e-12)
            top = np.argsort(-sims, kind="stable")[:k]
            hits += [(self._unit_chunks[m][int(i)].id, float(sims[i])) for i in top]
        hits.sort(key=lambda h: (-round(h[1], 6), h[0]))
        return hits[:k]

    def cross_scope(self, lexical_hits: list[tuple[Chunk, float]]) -> list[str] | None:
        """The municipalities whose vectors a search across municipalities queries: None (all
        of them) unless ``ranking().cross_municipalities`` bounds it below their number; then
        those of the best BM25 candidates in rank order, up to that many (all of them when
        BM25 found nothing: a question worded unlike every text must still reach the vectors)."""
        limit = ranking().cross_municipalities
        if limit is None or len(self._unit_chunks) <= limit:
            return None
        chosen: list[str] = []
        for c, _ in lexical_hits:
            if c.municipality not in chosen:
                chosen.append(c.municipality)
                if len(chosen) == limit:
                    break
        return chosen or None

    def bm25(self, query: str, municipality: str | None = None, k: int | None = None) -> list[tuple[Chunk, float]]:
        return self.lexical.search(query, municipality, ranking().candidates if k is None else k)

    def search(self, query: str, municipality: str | None = None, k: int = 10,
               vector: list[float] | None = None, mode: str = "hybrid",
               lexical_query: str | None = None) -> list[SearchHit]:
        k = max(1, min(k, self.settings.max_top_k))
        direct = lookup(query, municipality)
        if direct:
            return [SearchHit(passage=p, score=1.0, exact_citation=True) for p in direct[:k]]
        expanded = expand(query, municipality)  # spelt by its own code's words when filtered
        if vector is None and mode in ("hybrid", "dense"):
            vector = self.embedder.embed_query(expanded)
        if lexical_query is None:
            lexical_query = expanded
        fused: dict[str, float] = {}
        dense_rank: dict[str, int] = {}
        dense_score: dict[str, float] = {}
        lex_rank: dict[str, int] = {}
        lexical = self.bm25(lexical_query or query, municipality, ranking().candidates) \
            if mode in ("hybrid", "lexical") else []
        if mode in ("hybrid", "dense"):
            among = self.cross_scope(lexical) if municipality is None and mode == "hybrid" else None
            for r, (c, sim) in enumerate(self.dense(query, municipality, ranking().dense_candidates, vector, among)):
                if c.passage_id not in dense_rank:
                    dense_rank[c.passage_id] = len(dense_rank) + 1
                    dense_score[c.passage_id] = sim
        for r, (c, _) in enumerate(lexical):
            if c.passage_id not in lex_rank:
                lex_rank[c.passage_id] = len(lex_rank) + 1
        for pid, r in dense_rank.items():
            fused[pid] = fused.get(pid, 0.0) + 1.0 / (ranking().rrf_k + r)
        for pid, r in lex_rank.items():
            fused[pid] = fused.get(pid, 0.0) + ranking().lexical_weight / (ranking().rrf_k + r)
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


def per_municipality(index: "SearchIndex", query: str, k: int = 3,
                     municipalities: list[str] | None = None) -> list[MunicipalityHits]:
    """A staff query across municipalities: each municipality's best ``k`` passages (its own
    filtered search, the query embedded once), the municipalities with a match ordered by
    their best passage's similarity to the query (then by id). A municipality whose search
    finds nothing is left out."""
    names = municipalities if municipalities is not None else sorted({p.municipality for p in index.passages})
    expanded = expand(query)
    vector = index.embedder.embed_query(expanded)
    groups = []
    for m in names:
        hits = index.search(query, m, k=k, vector=vector)
        if hits:
            sims = [h.dense_score for h in hits if h.dense_score is not None]
            groups.append(MunicipalityHits(municipality=m, best_similarity=max(sims) if sims else None, hits=hits))
    groups.sort(key=lambda g: (-(g.best_similarity if g.best_similarity is not None else -1.0), g.municipality))
    return groups


def share_strings(chunks: list[Chunk], passages: list[Passage]) -> list[Chunk]:
    """Chunks read from the store hold their own copy of every string; a chunk that is a
    whole passage (or its heading) takes the passage's text, and the chunks of a passage one
    copy of its context, as freshly chunked ones do (a few hundred bytes a chunk at 31 codes)."""
    by_id = {p.id: p for p in passages}
    contexts: dict[str, str] = {}
    for c in chunks:
        p = by_id.get(c.passage_id)
        if p is not None:
            for own in (p.text, p.heading):
                if own is not None and c.text == own and c.text is not own:
                    object.__setattr__(c, "text", own)  # the same characters: one string
                    break
        object.__setattr__(c, "context", contexts.setdefault(c.context, c.context))
    return chunks


def _acquire(lock: FileLock, data_dir: Path):
    """Take the index lock (usable as a context manager), or say another process holds it."""
    try:
        return lock.acquire(timeout=LOCK_TIMEOUT_S)
    except Timeout as exc:
        raise IndexBusy(f"another process is building the index in {data_dir}; try again later") from exc


def _close_client(client, settings: Settings) -> None:
    if settings.chroma_mode == "embedded":
        try:
            client.close()
        except Exception:  # closing is best effort
            pass


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
