"""Dense vectors in Chroma: an embedded PersistentClient under the data directory by
default, or a Chroma server (HttpClient) when settings say so. One code path after
the client is made."""

from __future__ import annotations

from pathlib import Path

from assistant.retrieval.chunking import Chunk
from assistant.settings import Settings

COLLECTION_PREFIX = "passages-"


def make_client(settings: Settings):
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if settings.chroma_mode == "server":
        return chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings)
    path = Path(settings.data_dir) / "chroma"
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=chroma_settings)


class VectorStore:
    """One collection per index fingerprint; a collection is complete when its
    metadata says so (written after the last batch)."""

    def __init__(self, client, fingerprint: str):
        self.client = client
        self.name = COLLECTION_PREFIX + fingerprint[:16]
        self.collection = None

    def is_complete(self, expected: int) -> bool:
        try:
            col = self.client.get_collection(self.name)
        except Exception:
            return False
        meta = col.metadata or {}
        if meta.get("complete") == "yes" and col.count() == expected:
            self.collection = col
            return True
        return False

    def build(self, chunks: list[Chunk], vectors: list[list[float]]) -> None:
        for col in self.client.list_collections():
            name = getattr(col, "name", col)
            if str(name).startswith(COLLECTION_PREFIX):
                self.client.delete_collection(str(name))
        col = self.client.create_collection(
            self.name, metadata={"hnsw:space": "cosine", "complete": "no"}, embedding_function=None
        )
        for i in range(0, len(chunks), 256):
            batch = chunks[i : i + 256]
            col.add(
                ids=[c.id for c in batch],
                embeddings=vectors[i : i + 256],
                documents=[c.text for c in batch],
                metadatas=[{"municipality": c.municipality, "passage_id": c.passage_id} for c in batch],
            )
        col.modify(metadata={"complete": "yes"})
        self.collection = col

    def search(self, vector: list[float], municipality: str | None = None, k: int = 20) -> list[tuple[str, float]]:
        where = {"municipality": municipality} if municipality else None
        n = min(k, self.collection.count())
        if n == 0:
            return []
        res = self.collection.query(query_embeddings=[vector], n_results=n, where=where, include=["distances"])
        return [(cid, 1.0 - float(d)) for cid, d in zip(res["ids"][0], res["distances"][0])]
