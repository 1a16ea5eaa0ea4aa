"""BM25 per municipality (issue 15): a filtered search ranks the same whatever other
municipalities are loaded, a search across them scores every municipality on one scale,
and adding one municipality builds only its BM25 (a restart builds none)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from assistant.retrieval.chunking import Chunk
from assistant.retrieval.generations import Generations
from assistant.retrieval.index import SearchIndex
from assistant.retrieval.lexical import LexicalIndex, UnitLexicalIndex, query_tokens
from tests.fake_embedder import FakeEmbedder

ROOT = Path(__file__).resolve().parents[1]
EXCERPT = ROOT / "tests" / "data" / "whole-code-excerpt.txt"
QUERIES = [
    ("street opening bond amount", "brandon"),
    ("remove snow from the sidewalk within hours", "brandon"),
    ("permit to excavate in the street", "delafield"),
    ("sidewalk repair at the owner's cost", "delafield"),
]


def _chunk(m: str, i: int, text: str) -> Chunk:
    return Chunk(id=f"{m}:{i}", passage_id=f"{m}:{i}", municipality=m, part=0, text=text, context="", kind="passage")


def _ranked(lex: LexicalIndex, q: str, m: str | None) -> list[tuple[str, float]]:
    return [(c.id, round(s, 5)) for c, s in lex.search(q, m, k=10)]


def test_a_filtered_search_ranks_the_same_with_a_distractor_loaded():
    own = [_chunk("a", i, t) for i, t in enumerate([
        "A bond of $5,000 is required for a street opening permit.",
        "Snow shall be removed from the sidewalk within 24 hours.",
        "The street superintendent issues the permit.",
        "Fences in the right-of-way are prohibited."])]
    # the distractor repeats the query words many times: one index over both would lower their rarity
    distractor = [_chunk("b", i, f"street permit bond sidewalk snow clause {i}") for i in range(40)]
    alone, loaded = LexicalIndex(own), LexicalIndex(own + distractor)
    for q in ("street opening bond", "snow sidewalk hours", "permit street"):
        assert _ranked(alone, q, "a") == _ranked(loaded, q, "a") != []
        assert all(cid.startswith("b:") for cid, _ in _ranked(loaded, q, "b"))
    assert loaded.search("street bond", "nowhere") == []


def test_a_search_across_municipalities_uses_the_rarity_of_all_of_them():
    a = [_chunk("a", i, t) for i, t in enumerate(["culvert under the driveway", "driveway apron width",
                                                   "street trees"])]
    b = [_chunk("b", i, t) for i, t in enumerate(["culvert size for a driveway", "parking on the street",
                                                   "street lights", "street names"])]
    both = LexicalIndex(a + b)
    got = both.search("culvert driveway street", None, k=10)
    assert all(x[1] >= y[1] for x, y in zip(got, got[1:]))  # merged best first
    assert {c.municipality for c, _ in got} == {"a", "b"}
    # one index over everything gives these scores up to the length normalisation (per
    # municipality here): with equal lengths per municipality the ranking is the same
    one = LexicalIndex([dataclasses.replace(c, municipality="x") for c in a + b])
    assert [c.id for c, _ in got] == [c.id for c, _ in one.search("culvert driveway street", "x", k=10)]
    # one municipality alone: across municipalities is the filtered search
    solo = LexicalIndex(a)
    assert _ranked(solo, "culvert driveway", None) == _ranked(solo, "culvert driveway", "a")


def test_a_saved_unit_reads_back_and_refuses_other_chunks(tmp_path):
    cs = [_chunk("a", i, t) for i, t in enumerate(["street opening bond", "snow on the sidewalk"])]
    unit = UnitLexicalIndex(cs)
    unit.save(tmp_path / "a")
    back = UnitLexicalIndex.load(tmp_path / "a", cs)
    toks = query_tokens("street bond sidewalk")
    assert back.scores(toks).tolist() == unit.scores(toks).tolist()
    import pytest

    with pytest.raises(ValueError, match="other chunks"):
        UnitLexicalIndex.load(tmp_path / "a", cs[:1])


def _add_distractor(corpus: Path) -> str:
    from assistant.corpus import reset_caches
    from assistant.municipality_add import AddRequest, apply_add, plan_add

    plan = plan_add(AddRequest(file=str(EXCERPT), id="example", name="City of Example", state="GA", kind="city"))
    apply_add(plan, build_index=False)
    reset_caches()
    return "example"


def test_the_index_ranks_a_municipality_the_same_with_a_distractor_and_builds_only_its_bm25(tmp_corpus):
    from assistant.settings import get_settings

    first = SearchIndex.open(get_settings(), embedder=FakeEmbedder())
    assert sorted(first.lexical_built) == ["brandon", "delafield"]
    before = {(q, m): [(h.passage.id, h.score, h.lexical_rank) for h in first.search(q, m)] for q, m in QUERIES}
    first.close()
    added = _add_distractor(tmp_corpus)
    second = SearchIndex.open(get_settings(), embedder=FakeEmbedder())
    assert second.built_now and sorted(second.reused) == ["brandon", "delafield"]
    assert second.lexical_built == [added]  # the others' BM25 was read back, not rebuilt
    unit = second.lexical.units[added]
    assert any(unit.df(t) for q, _ in QUERIES for t in query_tokens(q))  # it shares the queries' words
    for (q, m), want in before.items():
        assert [(h.passage.id, h.score, h.lexical_rank) for h in second.search(q, m)] == want, q
    gens = Generations(Path(get_settings().data_dir))
    info = gens.info(second.generation)
    assert all(u.lexical and (gens.path(second.generation) / u.lexical / "unit.json").exists()
               for u in info.units.values())
    second.close()
    # a restart reads every municipality's BM25 back
    third = SearchIndex.open(get_settings(), embedder=FakeEmbedder())
    assert not third.built_now and third.lexical_built == []
    assert [(h.passage.id, h.score) for h in third.search(*QUERIES[0])] == \
        [(h.passage.id, h.score) for h in second.search(*QUERIES[0])]
    third.close()


def _merged_per_unit(lex: LexicalIndex, query: str, k: int) -> list[tuple[str, float]]:
    """The search across municipalities as it was written first: each municipality scored
    apart with the summed rarity, its top k, merged by score then chunk order."""
    import math

    import numpy as np

    def idf(df: int, n: int) -> float:
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    tokens = query_tokens(query)
    n = sum(len(u.chunks) for u in lex.units.values())
    df = {t: sum(u.df(t) for u in lex.units.values()) for t in set(tokens)}
    found = []
    for unit in lex.units.values():
        weights = {t: idf(df[t], n) / idf(unit.df(t), len(unit.chunks)) for t in df if unit.df(t)}
        if weights:
            scores = unit.scores(tokens, weights)
            top = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]
            found += [(unit.chunks[i], float(scores[i])) for i in top if scores[i] > 0]
    order = {c.id: i for i, c in enumerate(lex.chunks)}
    found.sort(key=lambda h: (-h[1], order[h[0].id]))
    return [(c.id, s) for c, s in found[:k]]


def test_the_search_across_municipalities_is_the_merge_of_each_scored_apart(tmp_corpus):
    """One score array over every municipality gives exactly (same float32 scores, same ties)
    what scoring each apart and merging gave, on every gold query and a distractor code."""
    from evals.bench import GOLD_RETRIEVAL, HELDOUT_RETRIEVAL, load_gold

    _add_distractor(tmp_corpus)
    idx = SearchIndex.open(embedder=FakeEmbedder())
    lex = idx.lexical
    assert len(lex.units) == 3
    queries = [it["query"] for it in load_gold(GOLD_RETRIEVAL) + load_gold(HELDOUT_RETRIEVAL)]
    for q in queries + ["street street bond", "zzqx"]:
        for k in (5, 30):
            assert [(c.id, s) for c, s in lex.search(q, None, k)] == _merged_per_unit(lex, q, k), q
    idx.close()
