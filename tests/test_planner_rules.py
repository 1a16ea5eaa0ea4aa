"""Pure rules of the embedded planner: what kind of figure a question asks for and whether a
sentence states it; the items a sentence ending in a colon introduces."""

from __future__ import annotations

import pytest

from assistant.answering.planner import (
    QUANTITY_Q,
    about_money,
    common_words,
    figure_kind,
    figure_pattern,
    shares_words,
)
from assistant.answering.routes.checks import road_focus


@pytest.mark.parametrize("question, sentence, states", [
    # a rate per unit is stated only by an amount per that unit
    ("What hourly rate do we charge for snow removal?", "an administrative fee of $25 per occasion", False),
    ("What hourly rate do we charge for snow removal?", "billed at $40 per hour", True),
    ("What hourly rate do we charge for snow removal?", "at an hourly rate of $40", True),
    ("What is the cost per square foot?", "assessed 50% of the cost of sidewalk reconstruction", False),
    ("What is the cost per square foot?", "$5.50 per square foot", True),
    ("What is the cost per square foot?", "$5.50 per square feet", True),
    ("How much per ton over the limit?", "$10 per ton", True),
    # other money questions: any amount, percent or multiple states a figure
    ("What is the permit fee?", "$25 per occasion", True),
    ("What is the permit fee?", "5 times the permit fee", True),
    ("What is the permit fee?", "as set by the Village Board", False),
    # lengths of the kind asked
    ("How wide must the sidewalk be?", "not less than eight feet in width", True),
    ("How wide must the sidewalk be?", "five inches in thickness", False),
    # durations
    ("How many hours of notice before digging?", "to be given at least 48 hrs. before the work", True),
    ("How many days do I have to pay?", "within thirty (30) days", True),
    ("How many hours of notice before digging?", "an application fee set by resolution", False),
])
def test_a_sentence_states_the_figure_asked_for(question, sentence, states):
    assert bool(figure_pattern(question).search(sentence)) is states


@pytest.mark.parametrize("question, asks", [
    ("What dollar amount does the performance bond have to be?", True),
    ("What $ amount is the bond?", True),
    ("How much is the fee?", True),
    ("What is the penalty for not shoveling?", True),
    ("Who issues the permit?", False),
    ("Do I need a permit to fix my sidewalk?", False),
    ("What calendar dates does the Town shut down road cuts for the winter?", True),
    ("What months is that?", True),
])
def test_questions_that_ask_for_a_figure(question, asks):
    assert bool(QUANTITY_Q.search(question)) is asks


# -- lists introduced by a colon ---------------------------------------------------------------
def _passage(subsection: str | None, text: str, section: str | None = "404-8", title: str = "Obstructions"):
    from assistant.types import Passage

    return Passage(id=f"x:{subsection}", municipality="brandon", chapter="404", section=section, title=title,
                   subsection=subsection, text=text, start=0, end=1)


def test_a_sentence_ending_in_a_colon_brings_the_items_one_level_below():
    from assistant.answering.compose import list_items

    intro = _passage("C", "Owners may place fixtures. Only if the following requirements are met:")
    items = [_passage("C(1)", "One."), _passage("C(2)", "Two."), _passage("C(2)(a)", "A detail of two."),
             _passage("D", "Next subsection."), _passage("C(3)", "Three.", section="404-9")]
    got = list_items(intro, "Only if the following requirements are met:", [intro, *items])
    assert [p.subsection for p in got] == ["C(1)", "C(2)"]  # one level down, same section only
    assert list_items(intro, "Owners may place fixtures.", [intro, *items]) == []  # no colon
    inner = _passage("C", "The following apply: A and B. Then more.")
    assert list_items(inner, "The following apply:", [inner, *items]) == []  # the list is in the text
    assert list_items(_passage(None, "As follows:"), "As follows:", items) == []  # no path to go below


@pytest.mark.parametrize("question, kind", [
    ("How many hours of notice before digging?", "duration"),
    ("What hourly rate is charged?", "money"),
    ("What is the permit fee?", "money"),
    ("How wide must the sidewalk be?", "width"),
    ("Who issues the permit?", None),
    ("How much is the Village permit to replace a public sidewalk?", "money"),
    ("What calendar dates does the Town shut down road cuts?", "date"),
    ("What months is that?", "date"),
])
def test_the_kind_of_figure_asked(question, kind):
    assert figure_kind(question) == kind


def test_a_fee_left_to_the_board_is_about_money_a_notice_period_is_not():
    assert about_money("Applicants shall pay a non-refundable application fee set by resolution of the Town Board.")
    assert not about_money("Notice shall be given at least 48 hrs. before the commencement of the work.")


def test_a_mixed_number_states_a_thickness():
    states = figure_pattern("How thick must a bituminous patch be?")
    assert states.search("the full depth of the existing pavement or 2 1/2 inches, whichever is greater")
    assert not states.search("the full depth of the existing pavement")


@pytest.mark.parametrize("question, deficiency, focus", [
    ("How thick is the first bituminous lift on a new Town road?", False, "lift"),
    ("How deep is the asphalt on a new road?", False, "lift"),
    ("How much crushed aggregate goes under the road?", False, "aggregate"),
    ("What total depth of stone goes under the road in a wet area?", False, "aggregate"),
    ("The lower lift of aggregate, how thick?", False, "aggregate"),
    ("The final asphalt is 0.4 inch too thin; what lift fixes it?", True, "corrective"),
])
def test_the_road_standard_a_question_asks(question, deficiency, focus):
    assert road_focus(question, deficiency) == focus


# -- a weak match sharing no telling word -------------------------------------------------------
def test_common_words_are_those_of_many_passages():
    passages = [_passage(f"({i})", f"The owner shall keep the street clear of item{i}.") for i in range(30)]
    passages.append(_passage("(x)", "Culverts shall be corrugated metal pipe."))
    common = common_words(passages)
    assert {"owner", "street", "clear"} <= common  # in every passage
    assert "culvert" not in common and "item7" not in common  # in one passage of 31 (under 5 %)


def test_a_question_shares_words_only_through_telling_words():
    from assistant.retrieval.index import SearchHit

    hits = [SearchHit(passage=_passage("(1)", "Village office equipment shall not be leased to any person."), score=1.0)]
    common = frozenset({"person", "villag", "ani"})
    assert not shares_words("Can I rent my house on Airbnb?", hits, common)
    assert shares_words("Can I lease the equipment?", hits, common)
    assert not shares_words("Can any person use it in the Village?", hits, common)  # only common words


def test_off_topic_lists_are_each_municipalitys_data(monkeypatch):
    from types import SimpleNamespace

    from assistant.answering import planner as planner_mod
    from assistant.answering.planner import EmbeddedPlanner
    from assistant.settings import Settings

    streets = SimpleNamespace(id="a", off_topic=["parking tickets?"], off_topic_unless_streets=["dogs?"])
    snow_city = SimpleNamespace(id="b", off_topic=[], off_topic_unless_streets=[])
    monkeypatch.setattr(planner_mod, "municipalities", lambda: [streets, snow_city])
    p = EmbeddedPlanner(SimpleNamespace(passages=[], settings=Settings(), embedder=None))
    q = "Can I get a parking ticket during a snow emergency?"
    assert p._off_topic(q, "a")  # the streets chapter does not cover it
    assert not p._off_topic(q, "b")  # a city whose chapter may: left to the search
    assert not p._off_topic(q, None)  # not off for every municipality held
    assert p._off_topic("Can my dog run loose?", "a")
    assert not p._off_topic("Can my dog run loose on the sidewalk?", "a")  # names a street thing
    # what stands on the public way names it too: a lamp post, a public walkway, a hydrant
    assert not p._off_topic("Can I leash my dog to the lamp post outside the bakery?", "a")
    assert not p._off_topic("My dog's gate swings out across the public walkway. A problem?", "a")
    assert p._off_topic("Can my dog sleep on the couch?", "a")


def test_a_period_with_a_qualifier_states_how_many_days():
    from assistant.answering.planner import figure_pattern

    asks = figure_pattern("Within how many days does the Commissioner have to notify the store?")
    assert asks.search("not more than three (3) business days after removal")
    assert asks.search("within two regular business days of the excavation")


@pytest.mark.parametrize("question", ["whats the fine per day for that?", "what’s the fine per day for that?"])
def test_a_figure_question_typed_without_an_apostrophe_or_with_a_curly_one(question):
    from assistant.answering.planner import APOSTROPHES

    assert QUANTITY_Q.search(question.translate(APOSTROPHES))


@pytest.mark.parametrize("question, sentence, states", [
    ("What is the penalty for parking on a city street during snow removal?",
     "Any person who violates this chapter is guilty of a Class 3 misdemeanor.", True),
    ("How much is the fine for parking during snow removal?",
     "Any person who violates this chapter is guilty of a Class 3 misdemeanor.", False),  # an amount is asked
    ("How thick can each lift of fill be?", "The backfill shall be placed in six-inch layers and compacted.", True),
])
def test_a_penalty_class_and_layers_state_the_figure_asked(question, sentence, states):
    assert bool(figure_pattern(question).search(sentence)) is states


def test_the_asks_of_a_question_of_several():
    from assistant.answering.planner import asked_parts

    assert asked_parts("The club wants a parade permit. What's the longest the parade can run, and how much "
                       "liability insurance must they show?") == ["What's the longest the parade can run",
                                                                   "how much liability insurance must they show"]
    assert asked_parts("Do we need all the neighbors to agree? And is there some insurance thing?") == [
        "Do we need all the neighbors to agree", "is there some insurance thing"]
    assert asked_parts("how long do I get to clear it, and once they haul it off, how long do I have to pay?") == [
        "how long do I get to clear it", "how long do I have to pay"]
    assert asked_parts("How wide must the walk be?") == []
    assert asked_parts("Can I dig and is a permit needed?") == []  # a part of fewer than four words



def test_a_figure_after_width_that_is_a_thickness_states_no_width():
    from assistant.answering.planner import figure_pattern

    asks = figure_pattern("How wide does the new walk have to be?")
    assert not asks.search("Residential walks shall match width, but not less than four inches in thickness.")
    assert asks.search("Sidewalks shall be not less than eight feet in width.")
    assert asks.search("a walk of a width of not less than 5 feet")
