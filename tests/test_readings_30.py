"""Session 30: readings that decide a figure or a day, on any question.

An hour said bare after the one part of the day its sentence names ("the morning after the Fourth of July, crew on
site at 9") is of that part; "the morning after" a holiday is the day after it; a follow-up's bare "the 13th, not the
3rd" is a day of the month the conversation dated; a follow-up asking again "instead" of one new measurement replaces
the one told before; "cut into the asphalt on <day>" dates the opening, not the paving; an age "before that" counts
back from the day said before it; a value inside brackets has the bracket's words; a further ask of figure words
alone ("how much of it do I pay for") after a check that states no amount is answered by the rule's sentence.
"""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering import roles
from assistant.answering.assistant import Assistant
from assistant.answering.planner import _states_money
from assistant.answering.reading import read_query, read_slots
from assistant.settings import Settings


@pytest.fixture(scope="module")
def assistant(tmp_path_factory):
    return Assistant.load(settings=Settings(data_dir=tmp_path_factory.mktemp("data")))


def _of(slots, kind):
    return [s.value for s in slots if s.kind == kind]


# -- the part of the day an hour is said in ----------------------------------------------------------------------------
def test_a_bare_hour_after_the_morning_its_sentence_names_is_in_the_morning():
    got = read_slots("Crew opens the road the morning after the Fourth of July, on site at 9.", "turn", date(2028, 4, 5))
    assert _of(got, "time") == ["09:00"] and _of(got, "date") == ["2028-07-05"]
    got = read_slots("We start that evening, around 7.", "turn", date(2028, 4, 5))
    assert _of(got, "time") == ["19:00"]


@pytest.mark.parametrize("text", [
    "Crew starts at 7 and the inspector comes in the afternoon.",  # the part of the day said after it: another event's
    "Pour in the morning, finish in the evening, we start at 7.",  # two parts of the day: asked, never guessed
    "We start at 7 on Monday.",
])
def test_a_bare_hour_with_no_one_part_of_the_day_before_it_is_not_read(text):
    assert _of(read_slots(text, "turn", date(2028, 4, 5)), "time") == []


def test_the_night_before_a_holiday_is_the_day_before_it():
    got = read_slots("We dig the night before Christmas.", "turn", date(2028, 11, 1))
    assert _of(got, "date") == ["2028-12-24"]


# -- a follow-up's bare day of the month, and its correction ---------------------------------------------------------
def test_a_bare_day_in_a_follow_up_is_of_the_month_the_conversation_dated():
    q = read_query("hold on, the letter says the 13th, not the 3rd. what's the deadline then?",
                   "Our house got its new number assigned on June 3. When must the numbers be up?",
                   follow_up=True, ref=date(2028, 4, 5))
    assert _of(q.slots, "date") == ["2028-06-13"]


def test_a_bare_day_is_not_read_when_the_conversation_dated_two_months():
    q = read_query("and the 13th?", "Assigned June 3, occupied July 9. When must the numbers be up?",
                   follow_up=True, ref=date(2028, 4, 5))
    assert "2028-06-13" not in _of(q.slots, "date") and "2028-07-13" not in _of(q.slots, "date")


def test_a_corrected_day_of_the_month_dates_the_same_rule(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-05")
    first = "The Town of Delafield assigned our house its new number on June 3. When do the numbers have to be up by?"
    ans1 = assistant.ask(first, "delafield")
    assert "July 3, 2028" in ans1.answer
    ans = assistant.ask("hold on, the letter says the 13th, not the 3rd. what's the deadline then?", "delafield",
                        history=[{"role": "user", "content": first}, {"role": "assistant", "content": ans1.answer}])
    assert ans.status == "answered" and "July 13, 2028" in ans.answer and "July 3, 2028" not in ans.answer


# -- asked again "instead" of a new measurement ----------------------------------------------------------------------
def test_a_measurement_asked_again_instead_replaces_the_one_told_before(assistant):
    first = "We're putting in a new walk in front of our house in Brandon, 5 feet wide. How much lower must the curb " \
            "side be than the house side?"
    ans1 = assistant.ask(first, "brandon")
    assert "2.5 inches" in ans1.answer
    ans = assistant.ask("and if we make it 8 feet wide instead?", "brandon",
                        history=[{"role": "user", "content": first}, {"role": "assistant", "content": ans1.answer}])
    assert ans.status == "answered" and "4 inches" in ans.answer and "8 feet" in ans.answer


def test_an_amount_asked_again_instead_keeps_its_role_reading():
    # (an amount's role is read from its own words by the calculator: it is not swapped in for the one before)
    q = read_query("what if it came to $4,100 instead?", "Their labor, materials and equipment came to $3,250. "
                   "What's the total they can bill us?", follow_up=True)
    assert sorted(_of(q.slots, "money")) == ["3250", "4100"]


# -- the paving's date and age ---------------------------------------------------------------------------------------
def test_the_asphalt_cut_into_dates_the_opening_not_the_paving(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-12-01")
    ans = assistant.ask("We need to cut into the asphalt on a Brandon street on March 1, 2028. The village repaved it "
                        "in May 2024. The permit fee is $80. What's the surcharge?", "brandon")
    assert ans.status == "answered" and "2 times" in ans.answer and "$160.00" in ans.answer


def test_an_age_before_that_counts_back_from_the_day_said_before(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-05")
    ans = assistant.ask("Permit fee is $100. We're opening Elm Street on June 10th and that asphalt went down a year "
                        "and a half before that. What's the surcharge?", "brandon")
    assert ans.status == "answered" and "4 times" in ans.answer and "$400.00" in ans.answer


@pytest.mark.parametrize("phrase", ["cut into the asphalt on", "saw-cut the blacktop on", "open the pavement on"])
def test_a_surface_opened_is_no_cue_of_the_paving(phrase):
    assert not roles.PAVED.search(f"we {phrase}")
    assert roles.PAVED.search("the asphalt went down on")


# -- a value inside brackets -----------------------------------------------------------------------------------------
def test_a_value_in_brackets_has_the_brackets_words(assistant):
    ans = assistant.ask("I put up a $2,000 cash deposit as the ditch landscaping guarantee (the culvert itself was "
                        "$3,100). The Town regraded the ditch and billed me $500, which I didn't pay within the 30 "
                        "days. How much of the deposit comes back?", "delafield")
    assert ans.status == "answered" and "$1,500.00" in ans.answer


# -- a further ask of figure words alone after a check -----------------------------------------------------------------
def test_how_much_do_i_pay_after_a_defect_check_quotes_the_share(assistant):
    ans = assistant.ask("one slab of the walk in front of my house heaved and sits about an inch above the next one. is "
                        "that a defective sidewalk the village can order fixed, and if so how much of it do I pay for",
                        "brandon")
    assert ans.status == "answered" and "50%" in ans.answer and "snow" not in ans.answer.lower()


def test_which_calculators_state_an_amount_of_money():
    assert _states_money("village_repair_bill") and _states_money("guarantee_balance")
    assert not _states_money("sidewalk_defect_check") and not _states_money("deadline")


# -- owners counted per side --------------------------------------------------------------------------------------------
def test_a_number_on_each_side_counts_both_sides(assistant):
    ans = assistant.ask("A new sidewalk is going in on the east side of our street only; there's no walk on either side "
                        "now. The village puts the cost at $16,000. There are eight of us homeowners, four on each "
                        "side. What does each house pay?", "brandon")
    assert ans.status == "answered" and "$2,000.00" in ans.answer and "four on each side" in ans.answer


def test_a_total_that_is_not_twice_each_sides_number_is_asked_about(assistant):
    ans = assistant.ask("A new sidewalk is going in on the east side of our street only; there's no walk on either side "
                        "now. The village puts the cost at $16,000. There are ten of us homeowners, four on each "
                        "side. What does each house pay?", "brandon")
    assert ans.status == "clarify"
