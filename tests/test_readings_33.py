"""Session 33: readings that decide a figure or an ask, on any question.

A length asked "in feet" is restated by a tested conversion; several parties' total is their headline amounts added;
a follow-up's head count replaces the earlier turn's; "'23" is a year; a bare number after "a bill for" is money; a
weight with no unit after "weight" or "GROSS" is asked about; the fall across a walk asked with no width asks the width;
"from the bottom of the stone to the top of the lift" sums the layers; "what happens" of a dated unpaid bill gives the
day it is charged; "the last day I can pull the permit" is a day before the work; "hmm, actually ..." changes the
earlier question; a letter typed twice is read once; a question naming the public way with no municipality asks which.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from assistant.answering import asked_unit, totals
from assistant.answering.reading import read_query
from assistant.retrieval.expansion import respelled
from assistant.tools.lengths import convert_length


# -- lengths in the unit asked -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, unit, to, text, exact", [
    ("10.5", "in", "ft", "0.875 feet", True),
    ("6", "in", "ft", "0.5 feet", True),
    ("10", "in", "ft", "about 0.83 feet", False),
    ("3", "ft", "in", "36 inches", True),
    ("1", "in", "cm", "2.54 centimeters", True),
    ("12", "in", "ft", "1 foot", True),
    ("4", "ft", "m", "about 1.22 meters", False),
])
def test_convert_length(value, unit, to, text, exact):
    conv = convert_length(Decimal(value), unit, to)
    assert (conv.text, conv.exact) == (text, exact)


def test_convert_length_refuses_an_unknown_unit_or_a_negative_length():
    with pytest.raises(ValueError):
        convert_length(Decimal(1), "in", "furlongs")
    with pytest.raises(ValueError):
        convert_length(Decimal(-1), "in", "ft")


@pytest.mark.parametrize("question, unit", [
    ("How deep is the base? Give it to me in feet.", "ft"),
    ("I need that in inches please", "in"),
    ("my tape reads in meters", "m"),
    ("How thick is the slab, in inches, please?", "in"),
    ("How deep do I dig for 6 inches of stone?", None),  # a length given, no unit asked
    ("Give me the depth in feet, or in inches if easier", None),  # two units: none taken
])
def test_asked_unit(question, unit):
    assert asked_unit.asked_unit(question) == unit


def test_restate_adds_the_asked_unit_and_records_the_conversion():
    text, calls = asked_unit.restate("the backfill stops **9.5 inches** below the surface; **2 feet** of cover",
                                     "Tell me in feet.")
    assert text == "the backfill stops **9.5 inches** (about 0.79 feet) below the surface; **2 feet** of cover"
    assert [c.name for c in calls] == ["convert_length"] and calls[0].result["result"] == "0.79"


def test_an_answer_in_the_unit_asked_passes_the_guard(assistant):
    a = assistant.ask("Patching a cut in a village street over 3 inches of old asphalt. How far below the surface does "
                      "the backfill stop? I need it in feet.", "brandon")
    assert a.status == "answered" and "**11 inches** (about 0.92 feet)" in a.answer
    assert any(c.name == "convert_length" for c in a.tool_calls) and not a.guard_events


# -- several parties' total --------------------------------------------------------------------------------------------
def test_total_line_adds_each_partys_headline_amount():
    answers = ["I read: fee $50.00.\n\nSurcharge: **$250.00**. With the fee: **$300.00**.",
               "I read: fee $50.00.\n\nSurcharge: **$100.00**."]
    line, call = totals.total_line("what is each one's surcharge and the total?", answers)
    assert line == "Both together, in the order below: $250.00 + $100.00 = **$350.00**."
    assert call.result == {"total": "350.00"}
    assert totals.total_line("what is each one's surcharge?", answers) is None  # no total asked
    assert totals.total_line("and the total?", [answers[0], "I read: x.\n\nNo figure."]) is None


def test_two_crews_surcharges_and_their_total(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-06-30")
    a = assistant.ask("Two permits, $80 fee each, both opening next week. The first street was paved about 6 months "
                      "ago; the second was paved in the spring of 2024. What's each surcharge and how much altogether?",
                      "brandon")
    assert a.status == "answered" and "$400.00 + $160.00 = **$560.00**" in a.answer and not a.guard_events


# -- a follow-up's head count ------------------------------------------------------------------------------------------
def test_a_follow_ups_head_count_replaces_the_earlier_one(assistant):
    q1 = "The Village cleared my walk after the storm: one employee, 3 hours, $30 an hour including benefits. My bill?"
    a1 = assistant.ask(q1, "brandon")
    assert "**$115.00**" in a1.answer
    a2 = assistant.ask("what if it had been three guys for the same 3 hours?", "brandon",
                       history=[{"role": "user", "content": q1}, {"role": "assistant", "content": a1.answer}])
    assert a2.status == "answered" and "**$295.00**" in a2.answer  # 3 x 3 h x $30 + $25


# -- readings ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, year", [
    ("the street was resurfaced in '22", "2022-01-01"),
    ("paved since ’19", "2019-01-01"),
    ("built in '98", "1998-01-01"),
])
def test_a_two_figure_year(text, year):
    assert [(s.value, s.precision) for s in read_query(text, ref=date(2027, 6, 30)).slots if s.kind == "date"] == \
        [(year, "year")]


def test_a_bare_amount_after_a_bill_for_is_money():
    q = read_query("they sent me a bill for two hundred forty. what's left of my deposit of $900?")
    assert sorted(s.number for s in q.slots if s.kind == "money") == [Decimal(240), Decimal(900)]


@pytest.mark.parametrize("question", [
    "The spec sheet lists operating weight 7,200 and the road is posted. Can I move the excavator down it?",
    "Posted at 6 tons. The ticket says GROSS 6100, nothing else. Is our dump truck OK?",
])
def test_a_weight_with_no_unit_is_asked_about(assistant, question):
    a = assistant.ask(question, "delafield")
    assert a.status == "clarify" and "tons or pounds" in a.answer


def test_the_fall_across_a_walk_with_no_width_asks_the_width(assistant):
    a = assistant.ask("How much lower does the street edge of a new walk have to be than the house edge?", "brandon")
    assert a.status == "clarify" and "width of the walk" in a.answer
    a = assistant.ask("A new walk 4 feet wide: how much lower does the street edge have to be than the house side?",
                      "brandon")
    assert a.status == "answered" and "**2 inches**" in a.answer


def test_the_layers_summed_from_the_bottom_to_the_top(assistant):
    a = assistant.ask("For a town road in a seasonably wet spot, how thick is everything from the bottom of the "
                      "stone to the top of the first blacktop lift?", "delafield")
    assert a.status == "answered" and "**18.5 inches** together" in a.answer


def test_what_happens_to_a_dated_unpaid_bill_gives_its_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-27")
    a = assistant.ask("Our ditch guarantee is $1,200. The Town fixed the seeding and sent us a $300 bill dated "
                      "Monday, May 1. If we ignore it, what happens and how much do we get back?", "delafield")
    assert a.status == "answered" and "**$900.00**" in a.answer and "**May 31, 2028**" in a.answer


def test_the_last_day_to_pull_a_permit_is_before_the_work(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-06-30")
    a = assistant.ask("We're replacing a resident's front walk, pouring on Friday, July 16. What's the last day we "
                      "can get the sidewalk permit?", "brandon")
    assert a.status == "answered" and "July 14, 2027" in a.answer


def test_hmm_actually_changes_the_earlier_question(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-06-30")
    q1 = "Opening a village street next week. It was paved about 14 months ago and the fee is $50. Surcharge?"
    a1 = assistant.ask(q1, "brandon")
    assert "**$200.00**" in a1.answer
    a2 = assistant.ask("hmm, actually my foreman says the paving was in the spring of 2023, so what then?", "brandon",
                       history=[{"role": "user", "content": q1}, {"role": "assistant", "content": a1.answer}])
    assert a2.status == "answered" and "**$50.00**" in a2.answer


def test_a_letter_typed_twice_is_read_once():
    assert respelled("the weight limmit when the signs are up, a truck comming", "delafield") == \
        "the weight limit when the signs are up, a truck coming"


def test_a_street_question_with_no_municipality_asks_which(assistant):
    a = assistant.ask("Doing a water service across the road in mid-December. Will they even issue an opening permit "
                      "in winter?", None)
    assert a.status == "clarify" and "Brandon" in a.answer and "Delafield" in a.answer


# -- periods of a code the catalogue does not hold ----------------------------------------------------------------------
def test_a_stretch_of_days_asks_for_the_date(assistant, monkeypatch):
    from assistant.answering import periods
    from assistant.answering.reading import read_query

    monkeypatch.setenv("ASSISTANT_TODAY", "2029-08-14")
    sentences = ["The director shall decide on an application no later than ten business days after its filing."]
    turn = "I filed my application sometime last week. What's the last day for the director to decide?"
    said, told = periods.stretch_needed(turn, read_query(turn, ref=date(2029, 8, 14)).slots, sentences)
    assert said.span.text == "last week" and told.words.startswith("no later than ten business days after")
    turn = "I filed my application on August 6. What's the last day for the director to decide?"
    assert periods.stretch_needed(turn, read_query(turn, ref=date(2029, 8, 14)).slots, sentences) is None


def test_a_coarse_date_of_another_event_does_not_block_the_count(monkeypatch):
    from assistant.answering import periods
    from assistant.answering.reading import read_query

    monkeypatch.setenv("ASSISTANT_TODAY", "2029-08-14")
    sentences = ["If the owner fails to comply, after twenty days written notice, the city may do the work."]
    turn = ("We bought the house last spring and never fixed the walk. The inspector gave me a written notice on "
            "Thursday the 2nd of this month. What's the last day before the city can do the work?")
    counted = periods.count_from(turn, read_query(turn, ref=date(2029, 8, 14)).slots, sentences)
    assert [c.day for c in counted] == [date(2029, 8, 22)]
    turn = "The inspector gave me a written notice sometime last spring. What's the last day before the city can act?"
    assert periods.count_from(turn, read_query(turn, ref=date(2029, 8, 14)).slots, sentences) == []


def test_two_offered_years_are_asked_about(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-12-27")
    a = assistant.ask("Fee is $150 and we open in June 2030. The road was resurfaced in '25 or '26, nobody is sure. "
                      "What's our surcharge?", "brandon")
    assert a.status == "clarify" and "the year of the final paving: which is it, “'25” or “'26”?" in a.answer


def test_the_fee_waived_is_no_permit_got_before_the_work(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-12-27")
    a = assistant.ask("If we have an emergency dig in a Brandon street this Saturday, what's the latest we can still "
                      "have the permit fee waived?", "brandon")
    assert "next business day" in a.answer or "two regular business days" in a.answer


def test_minimum_material_i_need_is_a_quantity_asked():
    from assistant.answering.materials import ASKS_MATERIAL

    assert ASKS_MATERIAL.search("Minimum curing compound I need?")
    assert ASKS_MATERIAL.search("what's the least sealer we can use on it")
    assert not ASKS_MATERIAL.search("Is there a minimum thickness for the walk?")


@pytest.mark.parametrize("text", [
    "and if the company has already been caught doing it before?",
    "what if he got cited for it last year too?",
    "and if they were already ticketed once?",
])
def test_caught_before_asks_the_penalty(text):
    from assistant.answering.planner import PENALTY_Q

    assert PENALTY_Q.search(text)


# -- lookups ------------------------------------------------------------------------------------------------------------
def test_clear_walkway_is_the_unobstructed_width(assistant):
    a = assistant.ask("A shop wants a bench and planters on the walk out front. How much clear walkway must be left?",
                      "brandon")
    assert a.status == "answered" and "less than three feet" in a.answer


@pytest.mark.parametrize("text, asks", [
    ("I'm paying it online today. Is it still the $100?", True),
    ("is it still just $50 or did it go up", True),
    ("Is it still a violation if I move it?", False),
])
def test_is_it_still_the_amount_asks_the_amount_owed(text, asks):
    from assistant.answering.late_fines import _ASKS_AMOUNT

    assert bool(_ASKS_AMOUNT.search(text)) == asks
