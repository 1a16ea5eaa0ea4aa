"""Dense vectors in Chroma: an embedded PersistentClient under the data directory by
default, or a Chroma server (HttpClient) when settings say so. One code path after
the client is made.

One collection per municipality and index generation: a search names its
municipality's collection instead of filtering a shared one with `where`, which
costs Chroma a metadata pre-filter on every query (≈ 1.2 ms of ≈ 2.3 ms here).
Embedded, each generation has its own Chroma folder: removing a generation removes
its folder, segments included (Chroma 1.x's delete_collection leaves a collection's
HNSW folder on disk, chroma-core/chroma#5259). On a server, a collection is named by
the generation that embedded the municipality's vectors; later generations that reuse
those vectors name the same collection, so an unchanged municipality is neither
re-inserted nor dropped; a collection no generation names is dropped."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import numpy as np

from assistant.retrieval.chunking import Chunk
from assistant.settings import Settings

log = logging.getLogger("assistant.index")

COLLECTION_PREFIX = "passages-"
ADD_BATCH = 256
# A municipality's chapter is a few hundred vectors: a graph built on one thread and searched
# this wide gives the exact neighbours, the same in the embedded client and on a server.
HNSW = {"space": "cosine", "ef_construction": 200, "ef_search": 200, "max_neighbors": 32, "num_threads": 1}


def make_client(settings: Settings, path: Path | None = None):
    """A client for the configured Chroma: a server, or an embedded store in ``path``
    (default: data_dir/chroma)."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if settings.chroma_mode == "server":
        return chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings)
    path = Path(path) if path is not None else Path(settings.data_dir) / "chroma"
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=chroma_settings)


def slug(municipality: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", municipality).strip("-_") or "x"


def collection_name(generation: str, municipality: str) -> str:
    """The collection of a municipality's vectors as embedded by ``generation``; a later
    generation that reuses those vectors (unchanged text) names the same collection.
    Chroma's rule: 3-512 characters of [a-zA-Z0-9._-], alphanumeric at both ends."""
    return f"{COLLECTION_PREFIX}{generation}-{slug(municipality)}"


def sweep_collections(client, keep: set[str]) -> list[str]:
    """Drop our collections that no generation names (on a server: those of removed
    generations, and those of the single-store layout of earlier versions)."""
    dropped = []
    for col in client.list_collections():
        name = str(getattr(col, "name", col))
        if name.startswith(COLLECTION_PREFIX) and name not in keep:
            try:
                client.delete_collection(name)
                dropped.append(name)
            except Exception as exc:  # another collector got there first
                log.info("could not drop collection %s: %s", name, exc)
    return dropped


class VectorStore:
    """The collections of one generation, a collection per municipality (``names``); a
    collection is complete when its metadata says so (written after its last batch)."""

    def __init__(self, client, names: dict[str, str]):
        self.client = client
        self.names = dict(names)
        self.collections: dict[str, object] = {}
        self._counts: dict[str, int] = {}

    def missing(self, expected: dict[str, int]) -> list[str]:
        """Find every municipality's collection; the municipalities whose collection is
        missing or does not hold its expected number of chunks (e.g. a server restarted
        without its data). Other errors (a damaged store) are raised.

        The number is read from the collection's metadata (written with ``complete`` after
        its last batch), not counted: in the embedded client a count loads the collection's
        HNSW into this process, and a whole state's codes would all be loaded at open
        instead of when first searched. A collection filled by an earlier version (no
        number in its metadata) is counted."""
        from chromadb.errors import NotFoundError

        found, bad = {}, []
        for municipality, n in expected.items():
            try:
                col = self.client.get_collection(self.names[municipality])
            except (NotFoundError, ValueError):
                bad.append(municipality)
                continue
            meta = col.metadata or {}
            held = meta.get("chunks") if meta.get("complete") == "yes" else None
            if meta.get("complete") != "yes" or (held if held is not None else col.count()) != n:
                bad.append(municipality)
                continue
            found[municipality] = col
        self.collections = {**self.collections, **found}
        self._counts = {**self._counts, **{m: expected[m] for m in found}}
        return bad

    def fill(self, municipality: str, chunks: list[Chunk], vectors) -> None:
        """(Re)create one municipality's collection from its chunks and vectors."""
        name = self.names[municipality]
        try:
            self.client.delete_collection(name)
        except Exception:  # not there: the usual case
            pass
        col = self.client.create_collection(
            name, metadata={"complete": "no", "municipality": municipality},
            configuration={"hnsw": HNSW}, embedding_function=None,
        )
        for s in range(0, len(chunks), ADD_BATCH):
            batch = chunks[s : s + ADD_BATCH]
            col.add(
                ids=[c.id for c in batch],
                embeddings=np.asarray(vectors[s : s + ADD_BATCH], dtype=np.float32).tolist(),
                documents=[c.text for c in batch],
                metadatas=[{"municipality": municipality, "passage_id": c.passage_id} for c in batch],
            )
        col.modify(metadata={"complete": "yes", "municipality": municipality, "chunks": len(chunks)})
        self.collections[municipality] = col
        self._counts[municipality] = len(chunks)

    def count(self) -> int:
        return sum(self._counts.values())

    def all_vectors(self) -> dict[str, list[float]]:
        """Every stored vector by chunk id."""
        out: dict[str, list[float]] = {}
        for col in self.collections.values():
            got = col.get(include=["embeddings"])
            out.update(zip(got["ids"], got["embeddings"]))
        return out

    def search(self, vector: list[float], municipality: str | None = None, k: int = 20,
               among: list[str] | None = None) -> list[tuple[str, float]]:
        """(chunk id, cosine similarity), best first: in ``municipality``, else in the
        municipalities ``among`` names, else in all of them."""
        names = [municipality] if municipality else list(self.collections) if among is None else among
        hits: list[tuple[str, float]] = []
        for m in names:
            col, n = self.collections.get(m), min(k, self._counts.get(m, 0))
            if col is None or n == 0:
                continue
            res = col.query(query_embeddings=[vector], n_results=n, include=["distances"])
            hits += [(cid, 1.0 - float(d)) for cid, d in zip(res["ids"][0], res["distances"][0])]
        # equal similarities in id order: the embedded client and a server return ties in
        # different orders, and a search must not depend on where the vectors live
        hits.sort(key=lambda h: (-round(h[1], 6), h[0]))
        return hits[:k]
