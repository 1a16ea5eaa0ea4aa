"""Session 13's route and quoting rules, end to end on the two chapters: each case fails when its rule is out."""

from __future__ import annotations

from assistant.answering import plan as plans
from assistant.answering.routes.deadlines import ASKS_A_DAY


def test_a_calculators_quotes_hold_the_figures_it_states(assistant):
    ans = assistant.ask("Instead of the indemnity bond for a road opening, can we just give the Town an insurance "
                        "certificate? What limits?", "delafield")
    assert "“bodily injury liability insurance policy or policies subject to limits of not less than $10,000 each " \
           "person”" in ans.answer
    assert "“$20,000 each accident and property damage insurance" in ans.answer


def test_a_sidewalk_permits_price_is_a_fee_not_an_assessment(assistant):
    plan, _ = assistant.embedded.plan("How much does the Village charge for a permit to replace the sidewalk in front "
                                      "of my house?", "brandon")
    assert isinstance(plan, plans.NotStated)


def test_a_route_reached_by_a_plain_word_asks_when_the_users_words_meet_its_other_cue(assistant):
    plan, _ = assistant.embedded.plan("How much am I going to owe for the village tearing out and replacing the walk "
                                      "along my front yard?", "brandon")
    assert isinstance(plan, plans.Clarify) and plan.slot == "cost"


def test_the_surcharge_asks_the_opening_day_only_when_it_would_move_the_band(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-08")
    plan, _ = assistant.embedded.plan("Our street opening permit fee is $100 and the street was repaved last summer. "
                                      "What surcharge will we owe?", "brandon")
    assert isinstance(plan, plans.Clarify) and plan.slot == "opening date"
    plan, _ = assistant.embedded.plan("Our street opening permit fee is $100 and the street was repaved in 2012. "
                                      "What surcharge will we owe?", "brandon")
    assert isinstance(plan, plans.Calculate)  # no surcharge whenever it is opened: today is taken and said
    plan, _ = assistant.embedded.plan("What surcharge applies when we open pavement that was laid 6 months ago?",
                                      "brandon")
    assert not isinstance(plan, plans.Clarify)  # an age as of now


def test_when_do_i_have_to_asks_a_day_and_by_when_alone_does_not():
    assert ASKS_A_DAY.search("When do I have to get my house number up?")
    assert not ASKS_A_DAY.search("Who has to fix it, and by when?")
