"""General rules found reading the sample chapters' failures (none names a municipality):
deferral phrases and who sets the figure (data), default off-topic lists filtered by the
municipality's own text, the figure a "how wide / big" question asks for, worded numbers,
what an introducing sentence runs on to, penalty sections found through 'Penalty, see'
notes, and the samples' search recall@5."""

from __future__ import annotations

from assistant.answering import status_phrases
from assistant.answering.planner import _covers, figure_kind, figure_pattern
from assistant.types import Municipality, Passage


def test_deferral_phrases_are_data_and_name_who_sets_the_figure():
    d = status_phrases.deferral()
    assert d.search("Applications shall be accompanied by fees as established by the city council.")
    assert d.search("a surety bond in such form and amount as the recorder shall deem adequate")
    assert d.search("The sign permit fee is paid to the city in an amount adopted by Council resolution")
    assert not d.search("The fee for such permits shall be $2.00 for excavations.")
    assert status_phrases.who_sets("fees as established by the city council.") == "the city council"
    assert status_phrases.who_sets("in such form and amount as the recorder shall deem adequate") == "the recorder"
    assert status_phrases.who_sets("a fee as set by the Village Board, plus") == "the Village Board"  # data row first


def test_default_off_topic_lists_apply_only_without_own_lists_and_only_topics_the_text_never_mentions(monkeypatch):
    own = Municipality.model_validate({"id": "a", "name": "Town of A", "kind": "town", "state": "WI",
                                       "chapters": [{"chapter": "1", "source_file": "a.txt"}],
                                       "off_topic": ["dog licen[cs]e"]})
    assert status_phrases.off_topic_lists(own) == (("dog licen[cs]e",), ())

    class Doc:
        sections = []
        passages = [Passage(id="x", municipality="b", chapter="1", section="1-1", title="Dogs", text="Dogs shall be "
                            "leashed on sidewalks. No lot size is set here.", start=0, end=10)]

    monkeypatch.setattr("assistant.corpus.document", lambda mid: Doc)
    status_phrases._default_lists.cache_clear()
    new = Municipality.model_validate({"id": "b", "name": "City of B", "kind": "city", "state": "OH",
                                       "chapters": [{"chapter": "1", "source_file": "b.txt"}]})
    always, soft = status_phrases.off_topic_lists(new)
    status_phrases._default_lists.cache_clear()
    assert "dog licen[cs]e" in always and "property tax(?:es)?" in always
    assert "lot size" not in always and "dogs?" not in soft and "chickens?" in soft


def test_how_wide_or_big_names_the_figure_and_worded_numbers_state_it():
    assert figure_kind("How big a height difference lets the Village step in and bill me for it?") == "size"
    assert figure_kind("How wide does the cleared path have to be?") == "width"
    assert figure_kind("How large does the bond have to be?") == "money"
    assert figure_kind("How high is the fine?") == "money"
    assert figure_pattern("How wide must the path be?").search("clears a path of a minimum of forty-two (42) inches wide")
    assert figure_pattern("How big a step?").search("a difference of elevation in excess of three-fourths inch")
    assert figure_pattern("How big can my sign be?").search("The size shall not be larger than four square feet in area.")
    assert figure_pattern("How thick?").search("not less than two and one-half inches in thickness")
    assert not figure_pattern("How wide must the path be?").search("within 24 hours after the snow stops")


def test_a_sentence_that_introduces_runs_on_to_the_next_and_lists_end_in_the_following():
    from assistant.answering.compose import INTRODUCES_LIST, continuation

    p = Passage(id="p", municipality="b", chapter="1", section="1-1", title="T", subsection="(a)", start=0, end=1,
                text="Providers shall maintain insurance with the following minimum coverages: General liability "
                     "insurance of $1,000,000.00. The city is insured.")
    assert continuation(p, "Providers shall maintain insurance with the following minimum coverages:") \
        == "General liability insurance of $1,000,000.00."
    assert continuation(p, "The city is insured.") is None
    assert INTRODUCES_LIST.search("may issue sign permits subject to the following.")
    assert not INTRODUCES_LIST.search("The sign shall be removed.")


def test_a_penalty_range_names_the_sections_it_covers():
    assert _covers("Any person who violates §§ 152.15 through 152.22 is guilty of a misdemeanor.", "152.18")
    assert not _covers("Any person who violates §§ 152.01 through 152.04 is guilty.", "152.18")
    assert _covers("Violation of §§ 30-2—30-9 is an offense.", "30-4")


def test_spelling_reads_a_four_letter_misspelling_only_when_one_word_is_close():
    from assistant.retrieval import expansion

    vocab = frozenset({"roof", "sidewalk", "snow", "curb", "curbs"})
    old = expansion._vocabulary
    expansion._vocabulary = lambda corpus, scope=None: vocab
    expansion.spelling.cache_clear()
    try:
        assert expansion.spelling("roff", "x") == "roof"
        assert expansion.spelling("curb", "x") is None  # a corpus word
        assert expansion.spelling("zzzz", "x") is None
    finally:
        expansion._vocabulary = old
        expansion.spelling.cache_clear()


def test_sample_recall_counts_a_top5_passage_in_a_cited_section():
    from evals.sample_recall import recall_by_municipality, recall_queries

    items = [
        {"id": "s-1", "municipality": "m", "question": "q1", "expected": {
            "status": "answered", "citations": [{"section": "1-2", "subsection": "(a)"}]}},
        {"id": "s-2", "municipality": "m", "question": "q2", "expected": {
            "status": "answered", "citations": [{"section": "1-3"}]}},
        {"id": "s-3", "municipality": "m", "question": "q3", "expected": {"status": "out_of_scope"}},
    ]
    queries = recall_queries(items)
    assert [q["id"] for q in queries] == ["s-1", "s-2"]
    found = {"q1": [{"municipality": "m", "section": "9-9"}, {"municipality": "m", "section": "1-2",
                                                               "subsection": "(b)"}],
             "q2": [{"municipality": "m", "section": "1-3"}] * 0 + [{"municipality": "m", "section": "1-4"}] * 5
             + [{"municipality": "m", "section": "1-3"}]}
    out = recall_by_municipality(queries, lambda q, m: found[q])
    assert out["m"] == {"queries": 2, "hits": 1, "missed": ["s-2"], "recall_at_5": 0.5}

