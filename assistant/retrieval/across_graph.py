"""One nearest-neighbour graph over every municipality's vectors, for the search across
municipalities (a query that names none).

Each municipality keeps its own Chroma collection, and a search filtered to one queries only
it. A search across municipalities used to query every collection and merge (33 queries at
31 codes, ~2 ms each in Chroma's ``query`` whatever the collection's size): its cost grew with
the number of municipalities. This graph (usearch's HNSW, memory-mapped from the generation's
folder, so it holds no vectors in the process) finds ``CANDIDATES`` neighbours across all of
them at once, and their similarities are then computed exactly from the generation's own
vectors (the same formula as ``SearchIndex.exact_search``): the result is the exact top k
whenever the true top k are among the graph's candidates.

Compared (31 codes, 327k chunks, this 2-core machine): one exact numpy matrix product over a
contiguous float32 matrix, 33–48 ms (memory bound; float16 in numpy is 15× slower); every
municipality's Chroma collection, 33 queries; one shared Chroma collection with the
municipality as metadata would double the HNSW held in the process (~0.8 GiB) and be
re-inserted at every build. The graph keeps float16 vectors (navigation only; the exact
similarities come from the stored float32 vectors) and is grown with the index: a build that
reuses the previous generation's graph adds only the municipalities embedded anew and drops
the keys of those gone or replaced (rebuilt whole once the dropped keys pass a quarter).

Layout, in the generation folder::

    across/graph.usearch     the HNSW (keys: ``base + row`` of a municipality's vectors)
    across/graph.json        per municipality: its unit fingerprint, rows and key base
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

log = logging.getLogger("assistant.index")

FOLDER = "across"
GRAPH_FILE = "graph.usearch"
SPANS_FILE = "graph.json"
GRAPH_VERSION = 2  # 1: built with expansion_add 64 (a graph of another version is built again)
# Measured on real vectors (the two chapters and the 3 smallest codes, 9,919 chunks, the 225 gold
# and held-out queries): with 128 / 512 every exact top 60 was among the candidates (0.85 ms a
# query); 64 / 256 missed some of 8 queries' top 60. Stand-in (random) vectors are far harder.
CANDIDATES = 512  # neighbours the graph proposes; their similarities are computed exactly
CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 512
REBUILD_DROPPED = 0.25  # dropped keys past this share of the live ones: build the graph anew
ADD_BLOCK = 1 << 15  # rows converted to float16 and added at a time


class GraphSpan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    fingerprint: str = Field(description="The unit fingerprint of the vectors the keys stand for.")
    rows: int = Field(description="Vectors of the municipality (keys base .. base + rows - 1).")
    base: int = Field(description="Key of the municipality's first vector.")


class GraphSpans(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = GRAPH_VERSION
    dimensions: int
    units: dict[str, GraphSpan]
    dropped: int = Field(default=0, description="Keys removed from the graph since it was built whole.")
    next_key: int = Field(default=0, description="The first key never given (a removed key is not given again).")


class AcrossGraph:
    """The graph of one generation, opened read-only (memory-mapped)."""

    def __init__(self, index, spans: GraphSpans):
        self.index = index
        self.spans = spans
        names = sorted(spans.units, key=lambda m: spans.units[m].base)
        self._names = names
        self._bases = np.asarray([spans.units[m].base for m in names], dtype=np.int64)
        self._rows = np.asarray([spans.units[m].rows for m in names], dtype=np.int64)
        self._lock = threading.Lock()

    @classmethod
    def open(cls, folder: Path, units: dict[str, tuple[str, int]]) -> "AcrossGraph | None":
        """The graph in ``folder`` if it stands for exactly these ``units`` (municipality ->
        (unit fingerprint, rows)); None when it is missing, stale or unreadable."""
        spans = _read_spans(folder)
        if spans is None or not _matches(spans, units):
            return None
        from usearch.index import Index

        try:
            index = Index.restore(str(folder / GRAPH_FILE), view=True)
        except Exception as exc:  # noqa: BLE001 - unreadable: built again by the caller
            log.warning("the graph across municipalities in %s is unreadable (%s)", folder, exc)
            return None
        if index is None or index.ndim != spans.dimensions:
            return None
        index.expansion_search = EXPANSION_SEARCH  # not kept in the file
        return cls(index, spans)

    def search(self, vector, k: int, unit_vectors: dict[str, np.ndarray],
               unit_chunks: dict) -> list[tuple[str, float]]:
        """(chunk id, cosine similarity), best first: the graph's candidates, their
        similarities computed from the stored vectors, equal ones in id order."""
        v = np.asarray(vector, dtype=np.float32)
        v = v / (float(np.linalg.norm(v)) or 1.0)
        with self._lock:  # one search at a time on the mapped graph (~1 ms)
            found = self.index.search(v, max(CANDIDATES, k))
        keys = np.asarray(found.keys, dtype=np.int64)
        if not len(keys):
            return []
        at = np.searchsorted(self._bases, keys, side="right") - 1
        found: list[tuple[str, np.ndarray, np.ndarray]] = []
        for u in np.unique(at[at >= 0]):
            m = self._names[int(u)]
            rows = np.sort(keys[at == u] - self._bases[u])
            rows = rows[rows < self._rows[u]]
            arr = unit_vectors.get(m)
            if arr is None or not len(rows):
                continue
            got = np.asarray(arr[rows], dtype=np.float32)
            found.append((m, rows, (got @ v) / np.maximum(np.linalg.norm(got, axis=1), 1e-12)))
        if not found:
            return []
        sims = np.concatenate([f[2] for f in found])
        if len(sims) > k:  # those that may rank in the k best once rounded (equal ones are ordered by id below)
            keep = sims >= np.partition(sims, len(sims) - k)[len(sims) - k] - 2e-6
        else:
            keep = np.ones(len(sims), dtype=bool)
        hits: list[tuple[str, float]] = []
        at_row = 0
        for m, rows, _ in found:
            chunks, mine = unit_chunks[m], keep[at_row:at_row + len(rows)]
            hits += [(chunks[int(r)].id, float(s)) for r, s in zip(rows[mine], sims[at_row:at_row + len(rows)][mine])]
            at_row += len(rows)
        hits.sort(key=lambda h: (-round(h[1], 6), h[0]))
        return hits[:k]


def build_graph(folder: Path, unit_vectors: dict[str, np.ndarray], fingerprints: dict[str, str],
                previous: Path | None = None) -> GraphSpans:
    """Write the graph of these municipalities' vectors into ``folder``: grown from the graph
    in ``previous`` (another generation's folder) where it can be (the municipalities it holds
    with the same fingerprint keep their keys; only the others are added), else built whole."""
    from usearch.index import Index

    dims = next((int(a.shape[1]) for a in unit_vectors.values() if a.ndim == 2), 0)
    old = _read_spans(previous) if previous is not None else None
    index, spans = None, None
    if old is not None and old.dimensions == dims:
        keep = {m for m, s in old.units.items()
                if m in unit_vectors and fingerprints.get(m) == s.fingerprint and s.rows == len(unit_vectors[m])}
        drop = [m for m in old.units if m not in keep]
        dropped = old.dropped + sum(old.units[m].rows for m in drop)
        live = sum(old.units[m].rows for m in keep)
        if keep and dropped <= REBUILD_DROPPED * max(1, live):
            try:
                index = Index.restore(str(previous / GRAPH_FILE))
            except Exception as exc:  # noqa: BLE001 - unreadable: built whole below
                log.warning("the previous graph across municipalities is unreadable (%s); building it whole", exc)
                index = None
            if index is not None and index.ndim == dims:
                for m in drop:
                    s = old.units[m]
                    index.remove(np.arange(s.base, s.base + s.rows, dtype=np.uint64))
                spans = GraphSpans(dimensions=dims, units={m: old.units[m] for m in keep}, dropped=dropped,
                                   next_key=old.next_key)
            else:
                index = None
    if index is None:
        index = Index(ndim=dims, metric="cos", dtype="f16", connectivity=CONNECTIVITY,
                      expansion_add=EXPANSION_ADD, expansion_search=EXPANSION_SEARCH)
        spans = GraphSpans(dimensions=dims, units={})
    index.expansion_search = EXPANSION_SEARCH
    base = spans.next_key
    for m in sorted(unit_vectors):
        if m in spans.units:
            continue
        arr = unit_vectors[m]
        for s in range(0, len(arr), ADD_BLOCK):
            block = np.asarray(arr[s : s + ADD_BLOCK], dtype=np.float32)
            # one thread: the graph is the same every build (measured: two threads missed more neighbours)
            index.add(np.arange(base + s, base + s + len(block), dtype=np.uint64), block, threads=1)
        spans.units[m] = GraphSpan(fingerprint=fingerprints[m], rows=len(arr), base=base)
        base += len(arr)
    spans.next_key = base
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (GRAPH_FILE + ".tmp")
    index.save(str(tmp))
    os.replace(tmp, folder / GRAPH_FILE)
    tmp = folder / (SPANS_FILE + ".tmp")
    tmp.write_text(spans.model_dump_json(indent=1), "utf-8")
    os.replace(tmp, folder / SPANS_FILE)
    return spans


def _read_spans(folder: Path | None) -> GraphSpans | None:
    if folder is None:
        return None
    try:
        spans = GraphSpans.model_validate_json((folder / SPANS_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    if spans.version != GRAPH_VERSION or not (folder / GRAPH_FILE).is_file():
        return None
    return spans


def _matches(spans: GraphSpans, units: dict[str, tuple[str, int]]) -> bool:
    return set(spans.units) == set(units) and all(
        spans.units[m].fingerprint == fp and spans.units[m].rows == n for m, (fp, n) in units.items())


def graph_info(folder: Path) -> dict:
    """What the graph in ``folder`` holds (for reports)."""
    spans = _read_spans(folder)
    return {} if spans is None else json.loads(spans.model_dump_json())
