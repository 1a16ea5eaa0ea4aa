"""The retrieval pieces on their own: sound-alike spelling, heading chunks, the direct
BM25 scoring, and the per-municipality Chroma collections (hashed fake vectors: the
mechanics, not the model's quality)."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.corpus import all_passages, corpus_dir
from assistant.retrieval.chunking import chunk_passages, heading_chunk
from assistant.retrieval.expansion import expand, singulars, sound_key, spelling
from assistant.retrieval.index import SearchIndex
from assistant.retrieval.lexical import LexicalIndex, tokenize
from assistant.retrieval.vector_store import collection_name
from assistant.settings import Settings
from tests.fake_embedder import FakeEmbedder

CORPUS = str(corpus_dir())


@pytest.mark.parametrize("typed, meant", [
    ("excavashun", "excavation"),  # spelt as it sounds: only the sound-alike key finds it
    ("notise", "notice"),
    ("insurence", "insurance"),
    ("sidwalk", "sidewalk"),
])
def test_misspelt_words_get_the_code_spelling(typed, meant):
    assert spelling(typed, CORPUS) == meant
    assert meant in expand(f"{typed} permit").split()


@pytest.mark.parametrize("word", ["excavation", "sidewalks", "digging", "banana", "quick"])
def test_known_or_unrelated_words_are_left_alone(word):
    assert spelling(word, CORPUS) is None


def test_sound_key_folds_spellings_that_sound_alike():
    assert sound_key("excavashun") == sound_key("excavation")
    assert sound_key("permitt") == sound_key("permit")
    assert sound_key("phone") == sound_key("fone")
    assert sound_key("curb") != sound_key("culvert")


def test_heading_chunks_carry_the_run_in_heading_and_the_titles():
    passages = all_passages()
    violation = next(p for p in passages if p.municipality == "delafield" and p.heading
                     and p.heading.upper().startswith("VIOLATION") and "non-compliance" in p.text)
    c = heading_chunk(violation)
    assert c is not None and c.kind == "heading" and c.passage_id == violation.id
    assert "VIOLATION" in c.embed_text and "UNIFORM ADDRESS SYSTEM" in c.embed_text
    assert "non-compliance" not in c.embed_text  # the heading only, not the text
    assert heading_chunk(violation.model_copy(update={"heading": None})) is None
    chunks = chunk_passages(passages, with_sentences=True)
    assert sum(1 for x in chunks if x.kind == "heading") == sum(1 for p in passages if p.heading)
    assert all(x.kind != "heading" for x in chunk_passages(passages))  # passage chunks alone: none


@pytest.fixture(scope="module")
def lexical():
    chunks = [c for c in chunk_passages(all_passages()) if c.kind == "passage"]
    return LexicalIndex(chunks)


@pytest.mark.parametrize("query, muni", [
    ("snow ice removal sidewalk 24 hours", "brandon"),
    ("excavation permit notice 48 hours", "delafield"),
])
def test_direct_bm25_scoring_matches_bm25s_retrieve(lexical, query, muni):
    """A filtered search is bm25s' own ranking over that municipality's index alone."""
    got = lexical.search(query, muni, k=10)
    assert got and all(a[1] >= b[1] for a, b in zip(got, got[1:]))  # best first
    assert all(c.municipality == muni for c, _ in got)
    unit = lexical.units[muni]
    docs, scores = unit.retriever.retrieve(tokenize([query]), k=10, show_progress=False, n_threads=0)
    want = [round(float(s), 5) for s in scores[0] if s > 0]
    assert [round(s, 5) for _, s in got] == want
    assert got[0][0].id == unit.chunks[int(docs[0][0])].id or got[0][1] == got[1][1]


def test_bm25_across_municipalities_merges_both_best_first(lexical):
    got = lexical.search("culvert driveway size", None, k=10)
    assert got and all(a[1] >= b[1] for a, b in zip(got, got[1:]))
    assert {c.municipality for c, _ in got} <= {"brandon", "delafield"}


def test_a_query_of_stopwords_or_unknown_words_finds_nothing(lexical):
    assert lexical.search("the of and", "brandon") == []
    assert lexical.search("zzzqqq xylophone", None) == []


def test_one_collection_per_municipality(tmp_path):
    idx = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    munis = {c.municipality for c in idx.chunks}
    assert set(idx.vectors.collections) == munis
    assert idx.vectors.count() == len(idx.chunks)
    for m, col in idx.vectors.collections.items():
        assert col.name == collection_name(idx.generation, m)
        assert col.count() == sum(1 for c in idx.chunks if c.municipality == m)
    vec = FakeEmbedder().embed_query("snow removal sidewalk")
    only = idx.vectors.search(vec, "brandon", k=20)
    assert only and all(idx.chunk_by_id[cid].municipality == "brandon" for cid, _ in only)
    both = idx.vectors.search(vec, None, k=40)
    assert {idx.chunk_by_id[cid].municipality for cid, _ in both} == munis
    assert all(round(a[1], 6) >= round(b[1], 6) for a, b in zip(both, both[1:]))  # merged best first
    assert idx.vectors.search(vec, "nowhere", k=5) == []
    # the sentence vectors kept for quoting never include a heading chunk
    sentence_like = [c for c in idx.chunks if c.kind == "sentence"
                     or (c.kind == "passage" and f"{c.passage_id}#s0" not in idx.chunk_by_id)]
    assert len(idx._sentence_chunks) == len(sentence_like) == len(idx._sentence_rows) \
        == sum(b - a for _, a, b in idx._sentence_span.values())
    # each sentence's vector is its chunk's stored vector (rows into the unit's vectors, no copy)
    vec = FakeEmbedder().embed_query("snow removal sidewalk")
    sims = idx.sentence_similarity(vec, [c.passage_id for c in sentence_like[:30]])
    by_text = {(c.passage_id, c.text): c for c in sentence_like}
    for key, sim in sims.items():
        c = by_text[key]
        row = idx._unit_chunks[c.municipality].index(c)
        assert abs(sim - float(idx._unit_vectors[c.municipality][row] @ np.asarray(vec, dtype=np.float32))) < 1e-6
    assert sims


def test_collection_names_follow_chromas_rules():
    name = collection_name("20261201194500123-0a1b", "Village of St. Ann's")
    assert name.startswith("passages-20261201194500123-0a1b-")
    assert all(ch.isalnum() or ch in "-_" for ch in name) and name[-1].isalnum()


def test_plural_words_meet_rules_written_for_the_singular():
    assert singulars("sawhorses boxes trucks bus crosses address ditches is") == "sawhorse box truck cross ditch"
    assert "barricade" in expand("who keeps moving our sawhorses").split()
    assert "barricade" in expand("who keeps moving our sawhorse").split()
    assert expand("sidewalk permit") == "sidewalk permit"  # no rule, no misspelling: unchanged


@pytest.mark.parametrize("word", ["nothing", "answer", "weekend", "neighbor"])
def test_real_english_words_outside_the_code_are_not_misspellings(word):
    assert spelling(word, CORPUS) is None


def test_expansion_adds_each_word_once_and_none_the_question_has():
    got = expand("waight limit for heavy truks").split()
    # (a letter changed, "waight", stays as written with its correction added; a letter left out, "truks", is read in
    # its place: session 34)
    assert got[:5] == ["waight", "limit", "for", "heavy", "trucks"]
    added = got[5:]
    assert "weight" in added and "trucks" not in added
    assert len(added) == len({w.lower() for w in added})  # "weight" came from two rules, added once
    assert "heavy" not in added
    # (a sure correction, a letter typed twice or two swapped, is read in its place: session 33)
    got = expand("the wieght limmit for trucks").split()
    assert got[:5] == ["the", "weight", "limit", "for", "trucks"]


def test_dense_search_returns_the_exact_nearest_vectors(tmp_path):
    """The HNSW settings give the exact neighbours on a chapter-sized collection (checked
    against brute-force cosine over every stored vector), so the embedded client and a
    server agree."""
    import numpy as np

    idx = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    stored = idx.vectors.all_vectors()
    ids = [cid for cid in stored if idx.chunk_by_id[cid].municipality == "delafield"]
    matrix = np.asarray([stored[cid] for cid in ids], dtype=np.float64)
    for q in ("culvert under a driveway", "excavation permit notice 48 hours", "house number size"):
        v = np.asarray(FakeEmbedder().embed_query(q))
        sims = matrix @ v / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(v))
        want = sorted(zip(ids, sims), key=lambda t: (-round(t[1], 6), t[0]))[:10]
        got = idx.vectors.search(v.tolist(), "delafield", k=10)
        assert [c for c, _ in got] == [c for c, _ in want]
    col = next(iter(idx.vectors.collections.values()))
    assert col.configuration["hnsw"]["ef_search"] >= 200


@pytest.mark.parametrize("question", ["If I don't shovel my sidewalk, what's the penalty?", "What are the penalties?",
                                      "How big are the fines?"])
def test_a_penalty_question_meets_the_codes_shall_forfeit(question):
    # Wisconsin codes word penalties as "shall forfeit not less than $20"; "forfeiture" is
    # another stem
    assert {"forfeit", "forfeiture"} <= set(expand(question).split())


@pytest.mark.parametrize("question, driveway", [
    ("Do I need a pipe under my drive where it crosses the ditch?", True),
    ("How steep can the drive up to my new house be?", True),
    ("Can I drive my tractor with cleats on Town roads?", False),  # the verb
    ("May a contractor drive through the ditch?", False),
])
def test_drive_means_driveway_only_as_a_noun(question, driveway):
    assert ("driveway" in expand(question).split()) is driveway


def test_a_word_the_plain_word_rules_know_is_not_a_misspelling():
    # "blacktop" is not in the code; its sound-alike "backstops" is, and means something else
    words = expand("I want to blacktop the end of my drive").split()
    assert "backstops" not in words and "bituminous" in words
