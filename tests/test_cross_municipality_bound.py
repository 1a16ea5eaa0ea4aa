"""A search across municipalities: by default one graph over every municipality's vectors is
asked (the same top 5 as brute force over every municipality's vectors, and nearly those of
querying each municipality's collection); ``cross_municipalities``
bounds it to the collections of the best BM25 candidates, which changes the top 5 where a
municipality left out holds a passage near in meaning (measured in
evals/reports/scale/scale.md), so it is opt-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.retrieval import index as index_module
from assistant.retrieval.index import SearchIndex
from assistant.settings import get_settings
from tests.fake_embedder import FakeEmbedder

SCALE = Path(__file__).resolve().parents[2] / "shared" / "corpus-scale"


def _limit(monkeypatch, n: int | None) -> None:
    bounded = get_settings().ranking.model_copy(update={"cross_municipalities": n})
    monkeypatch.setattr(index_module, "ranking", lambda: bounded)


@pytest.fixture
def five(tmp_corpus):
    """The two chapters and three whole codes (five municipalities), fake vectors."""
    from evals.scale import _add_code, _env, code_files

    for f in code_files(SCALE)[:3]:
        _add_code(f)
    _env(tmp_corpus, tmp_corpus.parent / "data")
    idx = SearchIndex.open(get_settings(), embedder=FakeEmbedder())
    queried: list[list[str]] = []
    real_search = idx.vectors.search

    def spy(vector, municipality=None, k=20, among=None):
        queried.append([municipality] if municipality else list(among) if among is not None
                       else list(idx.vectors.collections))
        return real_search(vector, municipality, k, among)

    idx.vectors.search = spy
    yield idx, queried
    idx.close()


@pytest.mark.skipif(not SCALE.is_dir(), reason="needs ../shared/corpus-scale")
def test_by_default_every_municipality_is_searched_and_a_bound_is_kept_when_set(five, monkeypatch):
    from evals.bench import GOLD_RETRIEVAL, load_gold

    idx, queried = five
    assert len(idx._unit_chunks) == 5
    gold = load_gold(GOLD_RETRIEVAL)[:40]
    every = {it["query"]: [h.passage.id for h in idx.search(it["query"], None, k=5)] for it in gold}
    assert idx._graph is not None and not queried  # the default: the graph, no collection queried
    graph, idx._graph = idx._graph, None
    # without it: brute force over every municipality's stored vectors gives the same top 5 (the
    # graph's candidates are re-scored from those vectors) ...
    idx._store_down_until = float("inf")
    assert {it["query"]: [h.passage.id for h in idx.search(it["query"], None, k=5)] for it in gold} == every
    assert not queried
    # ... and every collection is queried; Chroma's HNSW scores in its own float arithmetic, so
    # near ties may swap on another CPU (one query of 40 in CI): the same passages, nearly
    idx._store_down_until = 0.0
    store = {it["query"]: [h.passage.id for h in idx.search(it["query"], None, k=5)] for it in gold}
    assert queried and all(len(q) == 5 for q in queried)
    assert all(len(set(store[q]) & set(every[q])) >= 4 for q in every)
    assert sum(store[q] == every[q] for q in every) >= len(every) - 2
    idx._graph = graph
    _limit(monkeypatch, 5)  # a bound at the number of municipalities changes nothing
    assert {it["query"]: [h.passage.id for h in idx.search(it["query"], None, k=5)] for it in gold} == every
    queried.clear()
    _limit(monkeypatch, 2)
    for it in gold:
        hits = idx.search(it["query"], None, k=5)
        chosen = queried[-1]
        lexical = []
        for c, _ in idx.bm25(index_module.expand(it["query"]), None):
            if c.municipality not in lexical:
                lexical.append(c.municipality)
        assert chosen == lexical[:2]  # the municipalities of the best BM25 candidates, best first
        assert all(h.passage.municipality in chosen for h in hits if h.lexical_rank is None)
    # a filtered search is never bounded, and a query no BM25 term matches reaches every
    # municipality (through the graph: no collection queried)
    queried.clear()
    idx.search("zzqx wvvy", None, k=5)
    idx.search("snow removal", "brandon", k=5)
    assert queried == [["brandon"]]
