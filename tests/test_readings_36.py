"""Session 36: readings that decide a figure or an ask, on any question.

A weekday written with a date that is not its own is asked (both days named); a day or time the user says they are
not sure of is asked; "this Tuesday" told in the past is this week's Tuesday gone by; a "what if" amount said with
the word of the amount it replaces ("the materials come in at $850 instead") replaces that one, and a weight kept on
the load ("leaves the 600-lb bucket on it") is added; what a posted sign "says" is the limit, not the vehicle's weight,
and a vehicle's weight in words with no unit is asked; a wet layer denied ("no wet-area layer") is left out; house
numbers' own size is checked against the code's; a day asked beside an amount ("How much more do I owe and by
when?") or alone is the deadline calculator's.
"""

from __future__ import annotations

import os
from datetime import date

import pytest

from assistant.answering.planner import asked_parts
from assistant.answering.reading import read_query
from assistant.answering.slot_safety import unsure_of, weekday_disagrees


def _then(assistant, first: str, answer, reply: str):
    """The reply asked after the first question and its answer."""
    return assistant.ask(reply, history=[{"role": "user", "content": first}, {"role": "assistant", "content": answer.answer}])


def _dates(text: str) -> list[str]:
    return [s.value for s in read_query(text).slots if s.kind == "date"]


# -- a weekday that is not the date's ------------------------------------------------------------------------------------
def test_weekday_disagreeing_with_its_date_names_both_days(today):
    today("2028-03-09")
    slot = next(s for s in read_query("The dig starts Wednesday, April 18 at 7 AM.").slots if s.kind == "date")
    assert weekday_disagrees(slot) == ("Wednesday", "Tuesday, April 18, 2028", "Wednesday, April 19, 2028")
    agreeing = next(s for s in read_query("The dig starts Tuesday, April 18 at 7 AM.").slots if s.kind == "date")
    assert weekday_disagrees(agreeing) is None


def test_weekday_disagreeing_is_asked_never_counted(assistant, today):
    today("2028-03-09")
    a = assistant.ask("Sewer lateral dig in Brandon starts Wednesday, April 18 at 7 AM. When do I have to get the "
                      "notices out to the DPW and the neighbors?")
    assert a.status == "clarify"
    assert "Tuesday, April 18, 2028" in a.answer and "Wednesday, April 19, 2028" in a.answer
    assert "April 17" not in a.answer
    b = assistant.ask("Sewer lateral dig in Brandon starts Tuesday, April 18 at 7 AM. When do I have to get the "
                      "notices out to the DPW and the neighbors?")
    assert b.status == "answered" and "April 17, 2028" in b.answer


# -- a value the user doubts ---------------------------------------------------------------------------------------------
def test_unsure_of_a_day_is_asked(assistant, today):
    today("2028-03-09")
    q = ("Our crew opened the street on Maple in Brandon for a gas leak right around midnight last night - honestly not "
         "sure if the first bucket went in just before or just after 12. We're filing the permit paperwork. What's the "
         "last day we can file and still pay no permit fee?")
    slot = next(s for s in read_query(q).slots if s.kind == "date")
    assert unsure_of(slot, q) is not None
    a = assistant.ask(q)
    assert a.status == "clarify" and "March 10" not in a.answer and "March 13" not in a.answer
    # doubt about the answer, not the value, is no doubt of the day
    plain = "We got the permit on March 3, 2028, not sure if it is still good or if we need a new one."
    slot = next(s for s in read_query(plain).slots if s.kind == "date")
    assert unsure_of(slot, plain) is None


# -- "this Tuesday" told in the past ---------------------------------------------------------------------------------------
def test_this_weekday_told_in_the_past_is_the_one_gone_by(today):
    today("2028-03-09")  # a Thursday
    assert _dates("The building inspector assigned our house its new address this Tuesday.") == ["2028-03-07"]
    assert _dates("The bill came this Monday.") == ["2028-03-06"]
    assert _dates("We're pouring the walk this Tuesday at 9.") == ["2028-03-14"]
    assert _dates("We will start digging this Tuesday.") == ["2028-03-14"]


# -- what-if follow-ups ------------------------------------------------------------------------------------------------------
def test_instead_replaces_the_amount_told_with_the_same_word(assistant, today):
    today("2028-03-09")
    first = ("Village of Brandon says our street patch from last fall failed and we didn't fix it after their notice, so "
             "they're doing it and billing us. Their crew sheet: labor $1,200, materials $650, equipment $400. What will "
             "the bill come to?")
    a = assistant.ask(first)
    assert "$2,700.00" in a.answer
    b = _then(assistant, first, a, "and if the materials come in at $850 instead?")
    assert b.status == "answered" and "$2,940.00" in b.answer


def test_a_weight_kept_on_the_load_is_added(assistant, today):
    today("2028-03-09")
    first = ("Town of Delafield highway office. A landscaper wants to drive a rubber-tired skid steer down one of our town "
             "roads between jobs; it weighs 5,600 lbs. Does he need a town permit for that under ch. 8?")
    a = assistant.ask(first)
    b = _then(assistant, first, a, "what if he leaves the 600-lb bucket on it?")
    assert "3.1 tons" in b.answer and "0.3 tons" not in b.answer


# -- weights: a sign's figure, a weight in words ---------------------------------------------------------------------------
def test_what_the_signs_say_is_the_limit_and_a_worded_weight_is_asked(assistant, today):
    today("2028-03-09")
    a = assistant.ask("Town of Delafield has the temporary weight limit signs up on Hillside Rd, they say 6 ton. My dump "
                      "truck is about six and a half loaded. OK to run it down that road?")
    assert a.status == "clarify" and "six and a half" in a.answer and "pounds" in a.answer


# -- a denied wet layer ----------------------------------------------------------------------------------------------------------
def test_a_denied_wet_area_adds_no_layer(assistant):
    a = assistant.ask("Developer on Fox Hollow (Town of Delafield) - 18 lots, road is 1,320 ft long and 24 ft wide, "
                      "ground is sandy and dry so no wet-area layer. Once the subgrade passes, how thick is the crushed "
                      "aggregate plus the first asphalt lift, total, in inches?")
    assert "12.5 inches" in a.answer and "18.5" not in a.answer


# -- house numbers' own size -------------------------------------------------------------------------------------------------
def test_house_numbers_size_in_centimeters_is_checked(assistant):
    a = assistant.ask("picked up house numbers at the hardware store, they're 7.5 cm tall and 5 cm wide. are those big "
                      "enough for the town of delafield rules?")
    assert "does not pass" in a.answer and "2.95 inches" in a.answer and "1.97 inches" in a.answer
    assert "between 2' and 8'" not in a.answer.split("How it was worked out")[0]


# -- a day asked beside an amount, or alone ----------------------------------------------------------------------------------
def test_a_day_asked_after_an_amount_is_its_own_ask():
    parts = asked_parts("I put down a $2,400 deposit and the bill that came last Friday says $2,950. How much more do I "
                        "owe and by when?")
    assert parts == ["How much more do I owe", "by when - How much more do I owe"]


@pytest.mark.parametrize("ask", ["How much more do I owe and by when?", "By when do I owe it?"])
def test_the_day_of_a_balance_is_counted_from_the_bill(assistant, today, ask):
    today("2027-11-17")
    a = assistant.ask("We had the Town do the asphalt on the part of our driveway in the right-of-way. I put down a "
                      f"$2,400 deposit up front, and the final bill that came last Friday says the job cost $2,950. {ask}")
    assert "December 13, 2027" in a.answer
    if ask.startswith("How much"):
        assert "$550.00" in a.answer


# -- insurance limits in words -----------------------------------------------------------------------------------------------
def test_insurance_limits_said_in_words_are_read_and_checked(assistant):
    a = assistant.ask("Putting in for a street opening permit in Brandon. Our liability policy is one point five mil per "
                      "person, and property damage is seven-fifty K. Is that enough for the village or how much more PD "
                      "coverage do I need to add?")
    assert "$1,500,000.00" in a.answer and "$750,000.00" in a.answer and "$250,000.00" in a.answer
    b = assistant.ask("Town of Delafield road opening - we'd rather give them an insurance certificate than post the "
                      "indemnity bond. Our policy: bodily injury ten grand a person and twenty grand an accident, property "
                      "damage seventy-five hundred an accident. Does that cut it? If not how much are we short")
    assert "$2,500.00" in b.answer and "$7,500.00" in b.answer


def test_millions_in_words_are_money_and_a_film_is_not():
    def money(text):
        return [s.value for s in read_query(text).slots if s.kind == "money"]
    assert money("our policy is one point five mil per person") == ["1500000"]
    assert money("we carry a $2 million policy") == ["2000000"]
    assert money("lay 6 mil poly under the slab") == []
    assert money("property damage is seven-fifty K") == ["750000"]


# -- areas told as one job ----------------------------------------------------------------------------------------------------
def test_areas_joined_by_plus_are_summed_and_each_asked_alone():
    from assistant.answering.materials import _areas_of

    turn = "60 ft of 4 ft wide walk plus a residential apron 12 ft by 10 ft. How much curing compound?"
    assert [a for a, _ in _areas_of(turn, read_query(turn).slots)] == [360]
    each = "60 ft of 4 ft wide walk plus an apron 12 ft by 10 ft. How much compound for each?"
    assert sorted(a for a, _ in _areas_of(each, read_query(each).slots)) == [120, 240]


# -- a kind of thing is no measure ----------------------------------------------------------------------------------------------
def test_a_two_car_garage_is_no_bare_number_beside_a_rise_and_run(assistant, today):
    today("2028-03-09")
    a = assistant.ask("Building a 2-car garage house on lot 14, W301 N2240 Oak Ridge Rd, Town of Delafield. Driveway is "
                      "80 ft long and 16 ft wide and climbs 11 ft from the road to the garage slab; paving quote is $9,800. "
                      "Does it meet the town's max driveway slope?")
    assert "13.75%" in a.answer


# -- the end of a wait, asked as the earliest moment ------------------------------------------------------------------------------
def test_the_earliest_moment_after_a_wait_is_its_end(assistant, today):
    today("2028-03-09")
    a = assistant.ask("We're pouring a new public walk in Brandon this coming Tuesday at 9 in the morning. What's the "
                      "earliest it can take traffic?")
    assert "March 16, 2028 9:00 AM" in a.answer


# -- each party's own amount, said elliptically ----------------------------------------------------------------------------------
def test_mine_and_his_amounts_of_a_thing_named_before(assistant, today):
    today("2028-03-09")
    a = assistant.ask("My brother and I built on side-by-side lots in the Town of Delafield and we each put up a cash "
                      "deposit for the ditch landscaping by our driveway culverts. Mine was $2,000, his was $1,500. The "
                      "building inspector said my ditch needed re-sodding, the Town did it and billed me $450, and honestly "
                      "I never paid it - that was more than 30 days ago. His ditch passed fine. How much of my deposit "
                      "comes back to me?")
    assert "$1,550.00" in a.answer and "$1,050" not in a.answer


# -- a depth less what is kept clear of the surface ---------------------------------------------------------------------------
def test_a_trench_depth_less_the_surface_layer(assistant):
    a = assistant.ask("Our trench across the asphalt on a Delafield town road will be 42 inches deep. How many inches of "
                      "that get the crushed gravel backfill?")
    assert "37 inches" in a.answer


# -- plain words for the code's --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("question, sentence", [
    ("So for the pipe under our new driveway, do we hire somebody to put it in or does the town do it? And who has to buy "
     "the pipe?", "provided by the applicant and installed by the Superintendent"),
    ("what size do the address numbers have to be in delafield, and what color?", "black on a white or a reflective"),
])
def test_plain_words_reach_the_sentence(assistant, question, sentence):
    assert sentence in assistant.ask(question, "delafield").answer


def test_cutting_off_our_water_is_a_loss_of_service(assistant):
    a = assistant.ask("There's a crew tearing up the street on our block and I'm worried they'll cut off our water with no "
                      "warning - I work nights and sleep days. Do they have to tell us ahead of time?", "brandon")
    assert "12 hours" in a.answer


def test_only_a_day_asked_is_told_from_an_amount_asked():
    from assistant.answering.planner import _asks_only_a_day

    assert _asks_only_a_day("The bill came last Friday. By when do I owe it?")
    assert _asks_only_a_day("The bill came last Friday. When's it due?")
    assert not _asks_only_a_day("The bill came last Friday. What's still due?")
    assert not _asks_only_a_day("The bill came last Friday. How much is due, and when?")
    assert not _asks_only_a_day("The bill came last Friday. When do I get the rest of my deposit back?")


def test_a_limit_named_with_an_amount_not_read_is_asked_never_passed(assistant):
    a = assistant.ask("Town of Delafield road opening permit. Instead of the indemnity bond my sub wants to turn in his "
                      "insurance certificate. It shows ten grand per person and twenty grand per accident on bodily injury "
                      "but only seventy-five hundred on property damage. How much more property damage coverage does he "
                      "need for it to count?")
    assert "$7,500.00" in a.answer and "$2,500.00" in a.answer
    b = assistant.ask("Town of Delafield road opening permit. My certificate shows ten grand per person and twenty grand "
                      "per accident, and property damage of about seventy-ish. Good enough?")
    assert b.status == "clarify" and "property damage" in b.answer.split("\n")[0]


def test_a_day_to_come_after_a_past_verb_stays_to_come(today):
    today("2028-03-09")  # a Thursday
    assert _dates("The permit they issued expires this Friday.") == ["2028-03-10"]
    assert _dates("The permit I applied for starts this Monday.") == ["2028-03-13"]


def test_weekday_abbreviated_with_a_dot_and_no_verb_read_as_one(today):
    today("2028-03-09")
    slot = next(s for s in read_query("Dig starts Wed. April 18.").slots if s.kind == "date")
    assert weekday_disagrees(slot) is not None
    slot = next(s for s in read_query("The truck sat April 18 in the lot.").slots if s.kind == "date")
    assert weekday_disagrees(slot) is None


def test_a_bid_price_is_no_figure_for_the_layers(assistant):
    a = assistant.ask("Developer on a new subdivision road in the Town of Delafield. The stretch from lot 22 to lot 40 (about "
                      "1,400 ft, 66-ft right-of-way, bid at $412,000) runs through a seasonably wet area and the Town Board "
                      "has directed the extra stone. What's the total crushed stone depth under the pavement there, and "
                      "how thick is the first asphalt lift?")
    assert "16 inches" in a.answer and "2.5 inches" in a.answer


@pytest.mark.parametrize("reply, day", [("the Wednesday", "April 19, 2028"), ("Tuesday, April 18", "April 18, 2028")])
def test_a_reply_naming_one_of_the_two_days_is_counted_from_it(assistant, today, reply, day):
    today("2028-03-09")
    first = ("Sewer lateral dig in Brandon starts Wednesday, April 18 at 7 AM. When do I have to get the notices out to "
             "the DPW and the neighbors?")
    a = assistant.ask(first)
    b = _then(assistant, first, a, reply)
    assert b.status == "answered" and f"counted from {day} 7:00 AM" in b.answer
