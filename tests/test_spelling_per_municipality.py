"""Query expansion corrects spelling to the words of the municipality the question is about
(the union of every code only when it names none): loading another code never changes how a
filtered question is read. With 31 codes loaded, 14 of the 225 gold and held-out expansions
had changed ("truks" -> "trunks", "notise" -> "noise")."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.retrieval import expansion
from assistant.retrieval.expansion import expand

SCALE = Path(__file__).resolve().parents[2] / "shared" / "corpus-scale"
QUESTIONS = [("how much notise before I dig up the road", "delafield"),
             ("can the plumber drive through the roadside ditch", "delafield"),
             ("waight limit for heavy truks", "brandon"),
             ("surchage for digging in new pavment", "brandon"),
             ("insurnace insted of a bond for diging in the road", "delafield")]


def _forget() -> None:
    for f in (expansion._expand, expansion._vocabulary, expansion._sound_index, expansion.spelling,
              expansion._plain_words):
        f.cache_clear()


def test_a_filtered_question_is_spelt_by_its_own_code(tmp_corpus):
    _forget()
    # "abatement" is a word of Brandon's chapter, not of Delafield's: only the union reads "abatment" as it
    # ("lumber" was the example until session 29: it is a plain word of the expansion data, which every municipality's
    # question may mean, so "lumbr" reads as it for Delafield too)
    assert "abatement" in expand("who pays for the abatment of the ditch").split()
    assert "abatement" not in expand("who pays for the abatment of the ditch", "delafield").split()
    assert "lumber" in expand("can the lumbr truck drive through the ditch", "delafield").split()
    # (a real English word is never a misspelling: "plumber" is not "lumber")
    assert "lumber" not in expand("can the plumber drive through the ditch").split()
    assert expand("waight limit for heavy truks", "nowhere") == expand("waight limit for heavy truks")  # unknown: union


def test_the_search_reads_a_filtered_question_by_its_own_code(tmp_corpus, monkeypatch):
    from assistant.retrieval import index as index_module
    from assistant.retrieval.index import SearchIndex
    from assistant.settings import get_settings
    from tests.fake_embedder import FakeEmbedder

    seen: list = []
    real = index_module.expand
    monkeypatch.setattr(index_module, "expand", lambda q, m=None: (seen.append(m), real(q, m))[1])
    idx = SearchIndex.open(get_settings(), embedder=FakeEmbedder())
    idx.search("can the plumber drive through the ditch", "delafield", k=3)
    idx.search("can the plumber drive through the ditch", None, k=3)
    idx.close()
    assert seen == ["delafield", None]


@pytest.mark.skipif(not SCALE.is_dir(), reason="needs ../shared/corpus-scale")
def test_loading_another_code_does_not_change_a_filtered_expansion(tmp_corpus):
    from evals.scale import _add_code, _env, code_files

    _forget()
    before = {(q, m): expand(q, m) for q, m in QUESTIONS}
    union_before = expand("how much notise before I dig up the road")
    assert "notice" in before[QUESTIONS[0]].split()
    code = next(f for f in code_files(SCALE) if f.stem == "jeff-davis-county")  # its code has "noise"
    _add_code(code)
    _env(tmp_corpus, tmp_corpus.parent / "data")
    _forget()
    assert {(q, m): expand(q, m) for q, m in QUESTIONS} == before
    union_after = expand("how much notise before I dig up the road")
    assert union_after != union_before and "noise" in union_after.split()  # the union did change
    _forget()


def test_a_codes_captions_and_the_singular_of_its_plurals_are_its_words(monkeypatch):
    """Williams writes "roofs" only in a caption: "roff" must still be read as "roof" by its own words."""
    from types import SimpleNamespace

    passage = SimpleNamespace(text="Snow shall be removed within eight hours.", title="SNOW AND ICE REMOVAL FROM ROOFS")
    monkeypatch.setattr(expansion, "document", lambda m: SimpleNamespace(passages=[passage]))
    _forget()
    words = expansion._vocabulary("x", ("somewhere",))
    assert {"roofs", "roof", "removal"} <= words
    assert expansion.spelling("roff", "x", ("somewhere",)) == "roof"
    _forget()


@pytest.mark.parametrize("word, want", [
    ("sidwalk", "sidewalk"), ("villige", "village"), ("surchage", "surcharge"), ("excavashun", "excavation"),
    ("notise", "notice"), ("pavment", "pavement"),
    ("renting", None),  # an English word (it was read as "renaming")
    ("plumber", None),  # (it was read as "lumber")
    # no code word near it: never "hole" (a sound-alike of another first letter); the expansion data's plain word
    # "shovel" (session 29)
    ("shovle", "shovel"),
])
def test_a_misspelling_is_the_nearest_code_word_and_a_real_word_is_none(tmp_corpus, word, want):
    _forget()
    from assistant.corpus import corpus_dir

    assert expansion.spelling(word, str(corpus_dir())) == want

