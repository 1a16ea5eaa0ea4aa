"""What a serving process keeps in memory: the vectors stay on disk (memory-mapped, checked
when opened), the passages are the parsed corpus's own objects (not a second copy read from
the store), the sentence vectors are rows of the units' vectors (no copy)."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.retrieval.generation_files import IndexDamaged, read_vectors
from assistant.retrieval.index import SearchIndex
from assistant.settings import Settings
from tests.fake_embedder import FakeEmbedder


def test_an_opened_index_maps_its_vectors_and_shares_the_parsed_passages(tmp_path):
    from assistant.corpus import all_passages

    built = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    built.close()
    opened = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    assert not opened.built_now
    assert all(isinstance(a, np.memmap) and not a.flags.writeable for a in opened._unit_vectors.values())
    corpus = all_passages()
    assert len(opened.passages) == len(corpus) and all(a is b for a, b in zip(opened.passages, corpus))
    assert not hasattr(opened, "sentence_matrix")
    hits = opened.search("snow removal within 24 hours", "brandon", k=5)
    assert hits and opened.sentence_similarity(FakeEmbedder().embed_query("snow"), [h.passage.id for h in hits])
    # the exact search over the mapped vectors finds what the vector store finds
    vec = FakeEmbedder().embed_query("culvert under a driveway")
    assert [c for c, _ in opened.exact_search(vec, "delafield", 5)] == \
        [c for c, _ in opened.vectors.search(vec, "delafield", 5)]
    opened.close()


@pytest.mark.parametrize("damage", ["nan", "short", "rows", "garbage"])
def test_a_damaged_vector_file_is_refused(tmp_path, damage):
    f = tmp_path / "v.npy"
    arr = np.ones((50, 8), dtype=np.float32)
    if damage == "nan":
        arr[37, 3] = np.nan
    np.save(f, arr)
    if damage == "short":
        f.write_bytes(f.read_bytes()[:-100])
    elif damage == "garbage":
        f.write_bytes(b"not a numpy file at all" * 10)
    with pytest.raises(IndexDamaged):
        read_vectors(f, 49 if damage == "rows" else 50)
    if damage == "nan":
        np.save(f, np.ones((50, 8), dtype=np.float32))
        assert read_vectors(f, 50).shape == (50, 8)


def test_opening_reads_each_collections_size_from_its_metadata_not_by_counting(tmp_path, monkeypatch):
    """A count loads a collection's HNSW into the process: opening a whole state's index must
    not load every municipality's (each is loaded when first searched)."""
    from chromadb.api.models.Collection import Collection

    SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder()).close()
    counted: list[str] = []
    real_count = Collection.count
    monkeypatch.setattr(Collection, "count", lambda self: counted.append(self.name) or real_count(self))
    opened = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    try:
        assert not opened.built_now and counted == []
        assert all((c.metadata or {}).get("chunks") == len(opened._unit_chunks[m])
                   for m, c in opened.vectors.collections.items())
        assert opened.search("snow removal", "brandon", k=3)
    finally:
        opened.close()
