"""The content-addressed embedding cache: a text is embedded once per build, a text the
previous generation embedded is read back, and every chunk gets the vector a fresh embed
of its text gives (the fake embedder: the mechanics do not depend on the model)."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.retrieval.embed_cache import VectorCache, text_key
from assistant.retrieval.generations import Generations
from assistant.retrieval.index import SearchIndex
from assistant.settings import Settings
from tests.fake_embedder import FakeEmbedder


class CountingEmbedder(FakeEmbedder):
    """The fake embedder, remembering every text it was asked to embed."""

    def __init__(self, fingerprint: str = FakeEmbedder.fingerprint):
        self.fingerprint = fingerprint
        self.texts: list[str] = []

    def embed_documents(self, texts, show_progress: bool = False):
        self.texts.extend(texts)
        return super().embed_documents(texts)


def _copy_of(passages, municipality: str):
    """The passages under another municipality: the same words, so the same embed texts."""
    return [p.model_copy(update={"municipality": municipality, "id": f"{municipality}:{p.id}"}) for p in passages]


@pytest.fixture
def corpus(monkeypatch):
    """brandon's first 20 passages, a second municipality repeating 12 of them word for word
    beside 3 of its own (delafield's), and a switch to add a third."""
    import assistant.retrieval.index as index_module

    every = index_module.all_passages()
    brandon = [p for p in every if p.municipality == "brandon"][:20]
    own = _copy_of([p for p in every if p.municipality == "delafield"][:3], "twinville")
    state = {"passages": brandon + _copy_of(brandon[:12], "twinville") + own}
    monkeypatch.setattr(index_module, "all_passages", lambda: state["passages"])
    return state


def _fresh(texts):
    return np.asarray(FakeEmbedder().embed_documents(texts), dtype=np.float32)


def _assert_vectors_are_a_fresh_embed(idx: SearchIndex) -> None:
    for m, cs in idx._unit_chunks.items():
        assert np.array_equal(idx._unit_vectors[m], _fresh([c.embed_text for c in cs])), m


def test_a_build_embeds_each_distinct_text_once(tmp_path, corpus):
    counting = CountingEmbedder()
    idx = SearchIndex.open(Settings(data_dir=tmp_path), embedder=counting)
    texts = [c.embed_text for c in idx.chunks]
    assert len(set(texts)) < len(texts)  # the shared passages repeat their chunks' texts
    assert sorted(counting.texts) == sorted(set(texts))  # every distinct text once, nothing else
    assert idx.embedded_texts == len(set(texts)) and idx.vectors_by_text == len(texts) - len(set(texts))
    _assert_vectors_are_a_fresh_embed(idx)
    # the vector store holds the same vectors: it finds what the stored vectors find
    vec = FakeEmbedder().embed_query("snow removal")
    assert [h[0] for h in idx.vectors.search(vec, "twinville", 5)] == [h[0] for h in idx.exact_search(vec, "twinville", 5)]


def test_adding_a_municipality_embeds_only_text_never_embedded(tmp_path, corpus):
    from assistant.corpus import all_passages

    first = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    known = {c.embed_text for c in first.chunks}

    delafield = [p for p in all_passages() if p.municipality == "delafield"]
    brandon_like = _copy_of([p for p in corpus["passages"] if p.municipality == "brandon"][5:15], "thirdburg")
    corpus["passages"] = corpus["passages"] + brandon_like + _copy_of(delafield[3:6], "thirdburg")
    counting = CountingEmbedder()
    second = SearchIndex.open(Settings(data_dir=tmp_path), embedder=counting)
    assert second.built_now and sorted(second.reused) == ["brandon", "twinville"]
    new_texts = {c.embed_text for c in second.chunks if c.municipality == "thirdburg"}
    assert new_texts & known  # the copied passages' texts were embedded by the first build
    assert sorted(counting.texts) == sorted(new_texts - known)
    _assert_vectors_are_a_fresh_embed(second)


def test_a_changed_passage_re_embeds_only_its_own_text(tmp_path, corpus):
    first = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    ps = corpus["passages"]
    i = next(i for i, p in enumerate(ps) if p.municipality == "brandon" and len(p.text) > 80)
    ps[i] = ps[i].model_copy(update={"text": ps[i].text + " (amended)"})
    counting = CountingEmbedder()
    second = SearchIndex.open(Settings(data_dir=tmp_path), embedder=counting)
    assert second.reused == ["twinville"]
    old = {c.embed_text for c in first.chunks}
    changed = {c.embed_text for c in second.chunks if c.passage_id == ps[i].id}
    assert counting.texts and set(counting.texts) <= changed and not set(counting.texts) & old
    _assert_vectors_are_a_fresh_embed(second)


def test_another_model_reuses_nothing(tmp_path, corpus):
    SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    other = CountingEmbedder(fingerprint="fake-hash-64-other")
    idx = SearchIndex.open(Settings(data_dir=tmp_path), embedder=other)
    assert idx.built_now and not idx.reused
    assert sorted(other.texts) == sorted({c.embed_text for c in idx.chunks})


def test_a_damaged_vector_file_is_embedded_again(tmp_path, corpus):
    first = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    info = Generations(tmp_path).info(first.generation)
    (tmp_path / "generations" / first.generation / info.units["brandon"].vectors).write_bytes(b"not a numpy file")
    first.close()
    corpus["passages"] = corpus["passages"] + _copy_of([p for p in corpus["passages"] if p.municipality == "brandon"][:4],
                                                       "thirdburg")
    counting = CountingEmbedder()
    second = SearchIndex.open(Settings(data_dir=tmp_path), embedder=counting)
    assert second.built_now and "brandon" not in second.reused
    _assert_vectors_are_a_fresh_embed(second)
    assert counting.texts  # brandon's texts could not be read back


def test_the_cache_alone_keys_by_text_and_model():
    cache = VectorCache("m1")
    assert text_key("a", "m1") == text_key("a", "m1") != text_key("a", "m2") and text_key("a", "m1") != text_key("b", "m1")

    class C:  # the one attribute the cache reads
        def __init__(self, t):
            self.embed_text = t

    calls: list[list[str]] = []

    def embed(texts):
        calls.append(list(texts))
        return FakeEmbedder().embed_documents(texts)

    texts = ["x y", "z", "x y", "w", "z", "x y"]
    arr = cache.vectors([C(t) for t in texts], embed, batch=2)
    assert np.array_equal(arr, _fresh(texts))
    assert [t for c in calls for t in c] == ["x y", "z", "w"] and [len(c) for c in calls] == [2, 1]
    assert (cache.embedded, cache.repeated, cache.from_previous) == (3, 3, 0)
    again = cache.vectors([C("w"), C("v")], embed, batch=8)
    assert np.array_equal(again, _fresh(["w", "v"])) and calls[-1] == ["v"]
    assert cache.embedded + cache.repeated + cache.from_previous == len(texts) + 2
