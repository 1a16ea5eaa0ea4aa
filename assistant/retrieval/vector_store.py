"""Dense vectors in Chroma: an embedded PersistentClient under the data directory by
default, or a Chroma server (HttpClient) when settings say so. One code path after
the client is made.

One collection per municipality (and index fingerprint): a search names its
municipality's collection instead of filtering a shared one with `where`, which
costs Chroma a metadata pre-filter on every query (≈ 1.2 ms of ≈ 2.3 ms here)."""

from __future__ import annotations

import re
from pathlib import Path

from assistant.retrieval.chunking import Chunk
from assistant.settings import Settings

COLLECTION_PREFIX = "passages-"
ADD_BATCH = 256
# A municipality's chapter is a few hundred vectors: a graph built on one thread and searched
# this wide gives the exact neighbours, the same in the embedded client and on a server.
HNSW = {"space": "cosine", "ef_construction": 200, "ef_search": 200, "max_neighbors": 32, "num_threads": 1}


def make_client(settings: Settings):
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if settings.chroma_mode == "server":
        return chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings)
    path = Path(settings.data_dir) / "chroma"
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=chroma_settings)


def collection_name(fingerprint: str, municipality: str) -> str:
    """Chroma's rule: 3-512 characters of [a-zA-Z0-9._-], alphanumeric at both ends."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", municipality).strip("-_") or "x"
    return f"{COLLECTION_PREFIX}{fingerprint[:16]}-{slug}"


class VectorStore:
    """A collection per municipality for one index fingerprint; a collection is complete
    when its metadata says so (written after its last batch)."""

    def __init__(self, client, fingerprint: str):
        self.client = client
        self.fingerprint = fingerprint
        self.collections: dict[str, object] = {}
        self._counts: dict[str, int] = {}

    def is_complete(self, expected: dict[str, int]) -> bool:
        """True when every municipality's collection holds its expected number of chunks."""
        found = {}
        for municipality, n in expected.items():
            try:
                col = self.client.get_collection(collection_name(self.fingerprint, municipality))
            except Exception:
                return False
            if (col.metadata or {}).get("complete") != "yes" or col.count() != n:
                return False
            found[municipality] = col
        self.collections, self._counts = found, dict(expected)
        return True

    def build(self, chunks: list[Chunk], vectors: list[list[float]]) -> None:
        for col in self.client.list_collections():
            name = str(getattr(col, "name", col))
            if name.startswith(COLLECTION_PREFIX):
                self.client.delete_collection(name)
        by_municipality: dict[str, list[int]] = {}
        for i, c in enumerate(chunks):
            by_municipality.setdefault(c.municipality, []).append(i)
        self.collections, self._counts = {}, {}
        for municipality, rows in by_municipality.items():
            col = self.client.create_collection(
                collection_name(self.fingerprint, municipality),
                metadata={"complete": "no", "municipality": municipality},
                configuration={"hnsw": HNSW}, embedding_function=None,
            )
            for s in range(0, len(rows), ADD_BATCH):
                batch = rows[s : s + ADD_BATCH]
                col.add(
                    ids=[chunks[i].id for i in batch],
                    embeddings=[vectors[i] for i in batch],
                    documents=[chunks[i].text for i in batch],
                    metadatas=[{"municipality": municipality, "passage_id": chunks[i].passage_id} for i in batch],
                )
            col.modify(metadata={"complete": "yes", "municipality": municipality})
            self.collections[municipality] = col
            self._counts[municipality] = len(rows)

    def count(self) -> int:
        return sum(self._counts.values())

    def all_vectors(self) -> dict[str, list[float]]:
        """Every stored vector by chunk id."""
        out: dict[str, list[float]] = {}
        for col in self.collections.values():
            got = col.get(include=["embeddings"])
            out.update(zip(got["ids"], got["embeddings"]))
        return out

    def search(self, vector: list[float], municipality: str | None = None, k: int = 20) -> list[tuple[str, float]]:
        """(chunk id, cosine similarity), best first; all municipalities when none is given."""
        names = [municipality] if municipality else list(self.collections)
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
