"""The search across municipalities asks one graph over every municipality's vectors
(``retrieval/across_graph.py``) instead of each municipality's collection; a filtered search
still asks only its municipality's collection. The graph grows with the index (only the
municipalities embedded anew are added), and where it cannot be had the search queries each
collection as before."""

from __future__ import annotations

import json
import shutil

import pytest

import assistant.retrieval.index as index_module
from assistant.retrieval import across_graph
from assistant.retrieval.generations import Generations
from assistant.retrieval.index import SearchIndex
from assistant.settings import Settings
from tests.fake_embedder import FakeEmbedder

QUESTIONS = ["indemnity bond for excavation", "culvert under a driveway", "snow on the sidewalk",
             "permit fee for a street opening", "barricades and lights at night", "zzqx wvvy"]


@pytest.fixture
def passages(monkeypatch):
    """A slice of each chapter (a build in a fraction of a second); ``set(list)`` changes it."""
    every = index_module.all_passages()
    state = {"now": [p for m in ("brandon", "delafield") for p in [q for q in every if q.municipality == m][:25]]}
    monkeypatch.setattr(index_module, "all_passages", lambda: state["now"])

    class Corpus:
        all = every

        @staticmethod
        def set(ps):
            state["now"] = ps

        @staticmethod
        def now():
            return state["now"]

    return Corpus


def _spans(idx: SearchIndex) -> dict:
    folder = Generations(idx.settings.data_dir).path(idx.generation) / across_graph.FOLDER
    return json.loads((folder / across_graph.SPANS_FILE).read_text())


def _store_calls(idx: SearchIndex) -> list:
    calls: list = []
    real = idx.vectors.search

    def spy(vector, municipality=None, k=20, among=None):
        calls.append(municipality)
        return real(vector, municipality, k, among)

    idx.vectors.search = spy
    return calls


def _same_as_exact(idx: SearchIndex) -> None:
    for q in QUESTIONS:
        v = idx.embedder.embed_query(q)
        got = [(c.id, s) for c, s in idx.dense(q, None, 20, v)]
        want = idx.exact_search(v, None, 20)
        assert [c for c, _ in got] == [c for c, _ in want], q
        assert all(abs(a[1] - b[1]) < 1e-6 for a, b in zip(got, want))


def test_across_municipalities_one_graph_is_asked_and_finds_the_exact_neighbours(tmp_path, passages):
    idx = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    assert idx._graph is not None
    calls = _store_calls(idx)
    _same_as_exact(idx)
    for q in QUESTIONS:
        idx.search(q, None, k=5)
    assert calls == []  # no collection queried
    asked: list = []
    real = idx._graph.search
    idx._graph.search = lambda *a, **kw: (asked.append(a), real(*a, **kw))[1]
    for q in QUESTIONS:
        idx.search(q, "brandon", k=5)
    assert asked == [] and set(calls) == {"brandon"}  # filtered: its own collection only
    idx.close()


def test_the_graph_grows_with_the_index_and_is_built_whole_when_much_was_dropped(tmp_path, passages, monkeypatch):
    first = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    one = _spans(first)
    rows = {m: len(cs) for m, cs in first._unit_chunks.items()}
    assert one["units"]["brandon"]["base"] == 0 and one["units"]["delafield"]["base"] == rows["brandon"]
    # delafield amended: brandon keeps its keys, delafield's rows are added after the old ones
    # (two small municipalities: any change drops more than a quarter, so the bar is raised here)
    monkeypatch.setattr(across_graph, "REBUILD_DROPPED", 2.0)
    amended = list(passages.now())
    i = next(i for i, p in enumerate(amended) if p.municipality == "delafield")
    amended[i] = amended[i].model_copy(update={"text": amended[i].text + " Amended."})
    passages.set(amended)
    second = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    two = _spans(second)
    assert second.built_now and second.reused == ["brandon"]
    assert two["units"]["brandon"] == one["units"]["brandon"]
    assert two["units"]["delafield"]["base"] == rows["brandon"] + rows["delafield"]
    assert two["dropped"] == rows["delafield"]
    _same_as_exact(second)
    # delafield removed: past a quarter dropped, the graph is built whole again
    monkeypatch.setattr(across_graph, "REBUILD_DROPPED", 0.25)
    passages.set([p for p in passages.now() if p.municipality == "brandon"])
    third = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    three = _spans(third)
    assert set(three["units"]) == {"brandon"} and three["units"]["brandon"]["base"] == 0 and three["dropped"] == 0
    _same_as_exact(third)
    for idx in (first, second, third):
        idx.close()


def test_a_generation_without_a_graph_gets_one_when_opened(tmp_path, passages):
    first = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    gid = first.generation
    first.close()
    shutil.rmtree(Generations(tmp_path).path(gid) / across_graph.FOLDER)  # as written before the graph
    again = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    assert not again.built_now and again.generation == gid and again._graph is not None
    _same_as_exact(again)
    again.close()


def test_without_a_graph_each_municipality_is_queried(tmp_path, passages, monkeypatch):
    def fails(*a, **kw):
        raise OSError("disk full")

    monkeypatch.setattr(index_module, "build_graph", fails)
    idx = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    assert idx._graph is None
    calls = _store_calls(idx)
    _same_as_exact(idx)
    assert calls and set(calls) == {None}  # every collection, as before the graph
    idx.close()


def test_a_damaged_graph_is_built_again_when_opened(tmp_path, passages):
    first = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    gid = first.generation
    first.close()
    graph = Generations(tmp_path).path(gid) / across_graph.FOLDER / across_graph.GRAPH_FILE
    size = graph.stat().st_size
    graph.write_bytes(b"x" * size)  # not a graph
    again = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    assert again.generation == gid and again._graph is not None and graph.read_bytes()[:1] != b"x"
    _same_as_exact(again)
    again.close()
    graph.write_bytes(graph.read_bytes()[: size // 2])  # cut short
    third = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    assert third._graph is not None
    _same_as_exact(third)
    third.close()
