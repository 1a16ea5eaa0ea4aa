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


def drop_municipality(client, municipality: str) -> int:
    """Delete every collection of one municipality (any fingerprint); returns how many."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", municipality).strip("-_") or "x"
    pattern = re.compile(rf"^{re.escape(COLLECTION_PREFIX)}[0-9a-f]{{16}}-{re.escape(slug)}$")
    n = 0
    for col in client.list_collections():
        name = str(getattr(col, "name", col))
        if pattern.match(name):
            client.delete_collection(name)
            n += 1
    return n


class VectorStore:
    """A collection per municipality, named by that municipality's own fingerprint (its
    passages, the chunker and the model): adding or changing one municipality embeds only
    its chunks. A collection is complete when its metadata says so (written after its last
    batch)."""

    def __init__(self, client, fingerprint: str | dict[str, str]):
        self.client = client
        self.fingerprint = fingerprint if isinstance(fingerprint, str) else ""
        self.fingerprints: dict[str, str] = fingerprint if isinstance(fingerprint, dict) else {}
        self.collections: dict[str, object] = {}
        self._counts: dict[str, int] = {}

    def name_of(self, municipality: str) -> str:
        return collection_name(self.fingerprints.get(municipality, self.fingerprint), municipality)

    def missing(self, expected: dict[str, int]) -> list[str]:
        """Municipalities whose collection is absent or incomplete; the complete ones are opened."""
        out = []
        for municipality, n in expected.items():
            try:
                col = self.client.get_collection(self.name_of(municipality))
            except Exception:
                out.append(municipality)
                continue
            if (col.metadata or {}).get("complete") != "yes" or col.count() != n:
                out.append(municipality)
                continue
            self.collections[municipality] = col
            self._counts[municipality] = n
        return out

    def is_complete(self, expected: dict[str, int]) -> bool:
        """True when every municipality's collection holds its expected number of chunks."""
        self.collections, self._counts = {}, {}
        return not self.missing(expected)

    def prune(self, keep: set[str]) -> None:
        """Delete this store's collections not named in ``keep`` (old fingerprints, removed municipalities)."""
        for col in self.client.list_collections():
            name = str(getattr(col, "name", col))
            if name.startswith(COLLECTION_PREFIX) and name not in keep:
                self.client.delete_collection(name)

    def build(self, chunks: list[Chunk], vectors: list[list[float]], only: set[str] | None = None) -> None:
        """Write the collections of the given chunks' municipalities (all of them when
        ``only`` is None: every other collection of this store is then deleted)."""
        by_municipality: dict[str, list[int]] = {}
        for i, c in enumerate(chunks):
            by_municipality.setdefault(c.municipality, []).append(i)
        if only is None:
            self.prune(set())
            self.collections, self._counts = {}, {}
        for municipality, rows in by_municipality.items():
            try:
                self.client.delete_collection(self.name_of(municipality))  # an incomplete earlier attempt
            except Exception:
                pass
            col = self.client.create_collection(
                self.name_of(municipality),
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
