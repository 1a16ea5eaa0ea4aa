"""The two baselines the evaluation puts beside the assistant.

- ``BM25Baseline``: the project's BM25 index alone; the answer is the top passage's
  text, cited with that passage's citation; status always "answered".
- ``NaiveLangChainRAG``: the pipeline a user would build from the LangChain tutorial —
  ``RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)`` over the raw
  corpus texts, the same MiniLM embeddings, an in-memory Chroma collection, similarity
  search with the municipality as a metadata filter. As an answerer it returns the
  top-k chunks' text, cited by municipality only (no section); status always
  "answered".

Both produce Answer JSON dicts (the ``ask --jsonl`` contract), so the scorer treats
them like the assistant.
"""

from __future__ import annotations

import uuid

from assistant.types import Answer, Citation

ANSWER_K = 4  # LangChain's default retriever k: what a tutorial user gets


class NaiveLangChainRAG:
    def __init__(self, store, size: int):
        self.store = store
        self.size = size

    @classmethod
    def build(cls, embedder=None, chunk_size: int = 1000, chunk_overlap: int = 200) -> "NaiveLangChainRAG":
        import chromadb
        from chromadb.config import Settings as ChromaSettings
        from langchain_chroma import Chroma
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        from assistant.corpus import municipalities, source_text
        from assistant.retrieval.embeddings import LangChainEmbeddings

        splitter = RecursiveCharacterTextSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap)
        docs = []
        for m in municipalities():
            docs += splitter.create_documents(
                [source_text(m)], metadatas=[{"municipality": m.id, "chapter": m.chapter, "source": m.source_file}]
            )
        client = chromadb.EphemeralClient(settings=ChromaSettings(anonymized_telemetry=False))
        store = Chroma(
            collection_name=f"naive-{uuid.uuid4().hex[:12]}",
            embedding_function=LangChainEmbeddings(embedder),
            client=client,
        )
        store.add_documents(docs)
        return cls(store, len(docs))

    def search(self, query: str, municipality: str | None = None, k: int = 5):
        """LangChain Documents, best first."""
        flt = {"municipality": municipality} if municipality else None
        return self.store.similarity_search(query, k=k, filter=flt)

    def answer(self, request: dict, k: int = ANSWER_K) -> dict:
        docs = self.search(request["question"], request.get("municipality"), k=k)
        muni = request.get("municipality") or (docs[0].metadata.get("municipality") if docs else None)
        citations = [
            Citation(municipality=d.metadata.get("municipality", ""), chapter=str(d.metadata.get("chapter", "")),
                     section=None, title="", quote=d.page_content)
            for d in docs
        ]
        return Answer(
            id=request.get("id"), status="answered", municipality=muni,
            answer="\n\n".join(d.page_content for d in docs), citations=citations, backend="baseline:langchain_naive",
        ).model_dump(mode="json")


class BM25Baseline:
    def __init__(self, index):
        self.index = index

    def answer(self, request: dict) -> dict:
        hits = self.index.search(request["question"], request.get("municipality"), k=1, mode="lexical")
        if not hits:
            return Answer(id=request.get("id"), status="answered", answer="", municipality=request.get("municipality"),
                          backend="baseline:bm25").model_dump(mode="json")
        p = hits[0].passage
        return Answer(
            id=request.get("id"), status="answered", answer=p.text, municipality=p.municipality,
            citations=[p.citation()], backend="baseline:bm25",
        ).model_dump(mode="json")
