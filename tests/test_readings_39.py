"""Session 39: readings that decide a figure or an ask, on any question.

A figure whose digits run on past its thousands comma ("$1,2000") is asked, never read as $1,200; a follow-up's day
written without its year ("what if it slips to October 7?") is read near the day it replaces, not near today; a day
told for the start of the work is no day of the approval a permit's period counts from, even when the same sentence
says the permit was approved; lengths of other things ("2.3 acres", "a 24 x 30 garage") do not stop a driveway's rise
over its run; "Was I on time?" with the day the act was done is answered against the last day.
"""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering.reading import read_query, user_slots
from assistant.answering.slot_safety import misgrouped


def _tools(answer) -> list[str]:
    return [c.name for c in answer.tool_calls]


# -- a figure with a digit too many --------------------------------------------------------------------------------
@pytest.mark.parametrize("text, written", [("a bill that says $1,2000, typo I guess", "$1,2000"),
                                           ("the invoice reads $12,50 total", None)])
def test_a_figure_whose_digits_run_on_is_read_two_ways(text, written):
    money = [s for s in user_slots(text) if s.kind == "money"]
    got = misgrouped(money[0]) if money else None
    if written is None:
        assert got is None
    else:
        assert got is not None and got[0] == written and set(got[1:]) == {"$1,200", "$12,000"}


@pytest.mark.parametrize("text", ["The bill is $1,200.", "The bill is $12,000 and the guarantee $5,000."])
def test_a_figure_written_cleanly_is_not_asked(text):
    assert all(misgrouped(s) is None for s in user_slots(text))


def test_a_bill_with_a_digit_too_many_is_asked_not_worked(assistant, today):
    today("2030-03-13")
    a = assistant.ask("We posted a $5,000 guarantee for the curb and gutter. Town just sent a bill for curb damage that "
                      "says $1,2000, typo I guess. If we let it come out of the guarantee how much do we get back?",
                      municipality="delafield")
    assert a.status == "clarify", a.answer
    assert "$1,2000" in a.answer and "exact amount" in a.answer, a.answer
    assert "$3,800" not in a.answer and "$1,200" not in a.answer.replace("$1,2000", ""), a.answer


# -- a follow-up's day near the day it replaces ------------------------------------------------------------------------
def test_a_follow_up_day_is_read_near_the_day_it_replaces():
    q = read_query("what if it slips to October 7 instead?",
                   "Street opening on Walnut, permit fee's $150. Final paving in September 2028 and we're opening it May 6.",
                   follow_up=True, ref=date(2030, 3, 13))
    turn = [s for s in q.slots if s.span.origin == "turn" and s.kind == "date"]
    assert [s.value for s in turn] == ["2030-10-07"]


def test_a_follow_up_day_with_its_year_is_kept():
    q = read_query("what if it slips to October 7, 2029 instead?", "We're opening it May 6.", follow_up=True,
                   ref=date(2030, 3, 13))
    assert [s.value for s in q.slots if s.span.origin == "turn" and s.kind == "date"] == ["2029-10-07"]


def test_a_slipped_opening_day_gives_that_years_surcharge(assistant, today):
    today("2030-03-13")
    first = ("Street opening on Walnut, permit fee's $150. Walnut got its final paving in September 2028 and we're "
             "opening it May 6. What's the surcharge?")
    before = assistant.ask(first, municipality="brandon")
    a = assistant.ask("what if it slips to October 7 instead?", municipality="brandon",
                      history=[{"role": "user", "content": first}, {"role": "assistant", "content": before.answer}])
    assert "October 7, 2030" in a.answer and "$450.00" in a.answer, a.answer


# -- the start of the work is not the approval --------------------------------------------------------------------------
def test_a_start_day_beside_an_undated_approval_is_not_the_approval(assistant, today):
    today("2030-03-13")
    a = assistant.ask("Our street opening permit got approved and we start digging on the 3rd of next month. When do we "
                      "have to put in for the renewal if the job runs long?", municipality="brandon")
    assert a.status == "clarify", a.answer
    assert "approved" in a.answer and "May 3" not in a.answer, a.answer


def test_an_approval_day_beside_a_start_is_counted_from(assistant, today):
    today("2030-03-13")
    a = assistant.ask("Our street opening permit got approved on the 3rd of this month and we start digging next week. "
                      "When does it run out?", municipality="brandon")
    assert a.status == "answered" and "April 2, 2030" in a.answer, a.answer


# -- a driveway's slope among lengths of other things -------------------------------------------------------------------
@pytest.mark.parametrize("question, percent", [
    ("Building on lot 14 off Lakeview Ct (N47 W28836), 2.3 acres. Driveway is 60 ft long, 16 ft wide, and climbs 9 ft "
     "from the road to the garage slab. Paving quote is $14,800. Does that grade work for the Town?", "15%"),
    ("Builder wants the driveway to climb 7 feet over its 50 foot length up to the garage (garage is 24 x 30). Quote was "
     "$18,900. Is that steep a driveway ok with the Town?", "14%"),
])
def test_a_slope_among_areas_and_prices(assistant, question, percent):
    a = assistant.ask(question, municipality="delafield")
    assert _tools(a) == ["driveway_check"] and f"**{percent}**" in a.answer, a.answer


def test_a_bare_rival_rise_still_stops_the_slope(assistant):
    a = assistant.ask("Our driveway is 50 feet long on a 2.3 acre lot. One contractor says it climbs 6 feet, the other "
                      "measured 8. Is that too steep for the Town?", municipality="delafield")
    assert "driveway_check" not in _tools(a), a.answer


# -- was it done in time ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("paid, verdict", [("Tuesday the 7th", "**in time**"), ("Wednesday the 8th", "**late**, 1 day")])
def test_a_deposit_paid_on_a_day_is_judged_against_the_last_day(assistant, today, paid, verdict):
    today("2027-09-15")
    a = assistant.ask(f"Got a letter from the town dated Friday Aug 27 saying they're putting a culvert in under our "
                      f"existing driveway and we had to put down a deposit. I dropped the check off {paid}. Was I on "
                      f"time?", municipality="delafield")
    assert a.status == "answered", a.answer
    assert "September 7, 2027" in a.answer and verdict in a.answer, a.answer
    call = a.tool_calls[0]
    assert call.name == "deadline" and call.arguments.get("done_on"), call.arguments


def test_no_verdict_without_an_in_time_ask(assistant, today):
    today("2027-09-15")
    a = assistant.ask("The village mailed me a bill for removing my obstruction; it arrived Friday September 3. When do "
                      "I have to pay it?", municipality="brandon")
    assert "in time" not in a.answer and "September 13, 2027" in a.answer, a.answer


def test_the_deadline_calculator_judges_the_day_done():
    from assistant.tools.deadlines import DeadlineInput, deadline

    on = deadline(DeadlineInput(rule="delafield_culvert_deposit", event=date(2027, 8, 27), done_on=date(2027, 9, 7)))
    late = deadline(DeadlineInput(rule="delafield_culvert_deposit", event=date(2027, 8, 27), done_on=date(2027, 9, 10)))
    assert on.in_time is True and on.days_late is None
    assert late.in_time is False and late.days_late == 3


# -- asks that need a value the words do not give -----------------------------------------------------------------------
def test_what_will_the_surcharge_run_me_asks_the_paving_date(assistant, today):
    today("2030-03-13")
    a = assistant.ask("Cutting into Elm St on April 22 for a water service. Permit fee came to $200. What'll the "
                      "surcharge run me?", municipality="brandon")
    assert a.status == "clarify" and "final paving" in a.answer, a.answer


@pytest.mark.parametrize("turn, asks", [("What exact date do I have to be done by?", True),
                                        ("By what exact day is it due?", True),
                                        ("How long do I have?", False)])
def test_what_exact_date_asks_a_day(turn, asks):
    from assistant.answering import periods

    assert periods.asks_its_day(turn) is asks


def test_a_fine_that_rises_at_least_so_many_days_after_is_counted():
    from assistant.answering import periods

    rule = ("This fine shall increase by thirty-three dollars ($33.00) if it remains unpaid at least twenty-one (21) "
            "days after issuance of a notice of the violation.")
    turn = "got a ticket for parking in the bike lane on June 4. what date does it go up if I still haven't paid?"
    got = periods.count_from(turn, user_slots(turn, "turn", date(2029, 6, 20)), [rule], "MA")
    assert got and got[0].day == date(2029, 6, 25), got


def test_a_week_named_for_a_rising_fine_asks_the_day():
    from assistant.answering import periods

    rule = ("This fine shall increase by thirty-three dollars ($33.00) if it remains unpaid at least twenty-one (21) "
            "days after issuance of a notice of the violation.")
    turn = ("got a ticket for parking in the bike lane sometime last week, can't remember what day. what date does it "
            "go up if I still haven't paid?")
    assert periods.stretch_needed(turn, user_slots(turn, "turn", date(2029, 6, 20)), [rule]) is not None


# -- houses counted as the residents a petition counts ------------------------------------------------------------------
def test_houses_are_the_households_a_petition_counts():
    from assistant.answering.portions import share_of_count

    rule = ("The applicant has submitted a petition, signed by not less than 70% of the residents abutting the property "
            "to be used;")
    turn = "There's 20 houses along that stretch. How many have to sign?"
    got = share_of_count(turn, user_slots(turn), [rule])
    assert got and got[0].value == 14, got


# -- a weight read off a plate ------------------------------------------------------------------------------------------
def test_a_gvw_with_no_unit_asks_the_units_the_user_doubts(assistant, today):
    today("2030-03-13")
    a = assistant.ask("Town road to our site has the temporary weight limit signs up. We're renting a small dump and the "
                      "plate just says GVW 5,800 - doesn't say lbs or kg. Are we under the limit?",
                      municipality="delafield")
    assert a.status == "clarify" and "pounds or kilograms" in a.answer, a.answer


# -- a worry told beside a question is an ask ---------------------------------------------------------------------------
def test_a_worry_beside_a_question_is_an_ask_of_its_own():
    from assistant.answering.planner import asked_parts

    parts = asked_parts("A crew is putting an antenna box on the pole in front of my porch. Is there any rule on how "
                        "close that can be to a house? I'm also worried about a humming cooling fan at night.")
    assert len(parts) == 2 and "fan" in parts[1]
    assert asked_parts("I'm worried about the fan. It hums all night.") == []


# -- the width left clear past a thing set on the walk --------------------------------------------------------------
def test_the_width_left_clear_is_held_against_the_least_clear_width(assistant):
    a = assistant.ask("I own the coffee shop at 1425 Main St (920-555-0147). The public sidewalk in front is 9 feet wide. "
                      "I bought a cafe table set for $649 and set up it takes about 5 feet out from my front wall, not "
                      "bolted down. Is that allowed and how much clear sidewalk would be left?", municipality="brandon")
    assert "**4 feet**" in a.answer and "not less than 3 feet" in a.answer, a.answer
    assert any(c.section == "404-8" for c in a.citations), a.citations


def test_no_width_left_without_a_length_taken():
    from assistant.answering import slopes

    rule = "In no event shall the fixture reduce the unobstructed sidewalk width to less than three feet at any point."
    turn = "The sidewalk in front is 9 feet wide. How much clear sidewalk would be left?"
    assert slopes.clear_width_left(turn, user_slots(turn), [rule]) is None
    turn = "The sidewalk is 9 feet wide and the rack sticks out 7 feet. How much room is left to walk by?"
    got = slopes.clear_width_left(turn, user_slots(turn), [rule])
    assert got is not None and got.result == 2 and "less than 3 feet — too little" in got.steps[1]


# -- a bill's arrival, not its date ---------------------------------------------------------------------------------
def test_a_bill_counted_from_receipt_counts_from_the_day_it_arrived(assistant, today):
    today("2030-03-13")
    a = assistant.ask("We had pallets of pavers out front of the shop at 214 N. Main (suite 3) and the village hauled "
                      "them off. Bill is $385, dated March 7, but it didn't show up in our mailbox until Monday the "
                      "11th. When does it have to be paid?", municipality="brandon")
    assert a.status == "answered" and "March 21, 2030" in a.answer, a.answer
    assert "the day it arrived" in a.answer and "sender's day" in a.answer, a.answer


def test_two_arrivals_are_no_one_arrival():
    from assistant.answering.reading import read_query
    from assistant.answering.roles import arrival_day

    q = read_query("Mine came March 7 and my neighbor's showed up March 11. When do we pay?", ref=date(2030, 3, 13))
    assert arrival_day(q, "date the bill was received") is None
    q = read_query("The bill is dated March 7 but it showed up March 11. When do we pay?", ref=date(2030, 3, 13))
    got = arrival_day(q, "date the bill was received")
    assert got is not None and got.value == "2030-03-11"
    assert arrival_day(q, "date the person was charged") is None


# -- dev set 3: the work's day, a shop's fixture in inches, a round thousand, a grid address, a rise in words -------
def test_the_days_of_work_are_no_day_of_a_paper(assistant, today):
    today("2031-04-16")
    a = assistant.ask("We're opening up a Town road in Delafield for a gas service the Tuesday after Memorial Day, crew "
                      "on site at 7 in the morning. What's the last moment our written notice can get to the Town?",
                      municipality="delafield")
    assert "May 23, 2031 7:00 AM" in a.answer and "culvert" not in a.answer, a.answer


def test_a_condition_dated_before_its_ask_is_the_event(assistant, today):
    today("2031-04-16")
    a = assistant.ask("if the snow they're calling for quits around 8 this saturday night, how long do i have to get my "
                      "sidewalk cleared before the village can come do it and bill me?", municipality="brandon")
    assert a.status == "answered" and "April 21, 2031 8:00 PM" in a.answer, a.answer


@pytest.mark.parametrize("text, value", [("the equipment an even grand.", "1000"), ("it was a flat grand", "1000"),
                                         ("a grand", "1000")])
def test_a_round_grand_is_a_thousand(text, value):
    assert [s.value for s in user_slots(text) if s.kind == "money"] == [value]


def test_a_grid_address_names_a_lot(assistant):
    a = assistant.ask("We're building on lot 14 (address will be N45W329 something) in the Town of Delafield. Lot is 120 "
                      "ft wide, paid $189,000 for it. The driveway runs 80 feet from the road to the garage and climbs 9 "
                      "feet. Does that pass the Town's driveway slope limit?", municipality="delafield")
    assert "**11.25%**" in a.answer, a.answer


def test_a_rise_in_words_with_no_unit_is_asked(assistant):
    a = assistant.ask("Building a house in the Town of Delafield on a hilly lot. The driveway drops seven from the garage "
                      "down to the road over a run of about 50 feet. Does that pass the Town's slope rule?",
                      municipality="delafield")
    assert a.status == "clarify" and "“seven”" in a.answer, a.answer


# -- a fee named by its thing; a top speed; a date asked as "what's the date I ..." -----------------------------------
def test_a_fee_named_by_its_thing_is_priced_only_by_a_sentence_naming_it():
    from assistant.answering.planner import priced_thing

    thing = priced_thing("Does 16-12.38A put a dollar figure on the license fee for Segway tour operators?")
    assert thing is not None and thing.search("a license") and not thing.search("a fine of $500")


def test_top_speed_is_the_maximum_speed():
    from assistant.retrieval.expansion import expand

    assert "maximum" in expand("what's the top speed the devices can be run at?").split("?")[1]


@pytest.mark.parametrize("turn, asks", [("What's the date I have to apply by afterwards?", True),
                                        ("What's the date today?", False)])
def test_whats_the_date_i_asks_a_day(turn, asks):
    from assistant.answering import periods

    assert bool(periods.ASKS_A_DATE.search(turn)) is asks


def test_a_fixture_told_in_inches_is_worked_in_feet_and_said_in_both(assistant):
    # (the calculator refused 50/12 feet to 28 digits; the inches left are said with the feet, as it gives both)
    a = assistant.ask("I run the bakery on Main in Brandon. The sidewalk out front is 7 feet wide and I want to set out a "
                      "bench-planter combo that sticks out 50 inches from my wall (not bolted down). Is that ok?",
                      municipality="brandon")
    assert "obstruction_check" in _tools(a) and "less than the 3 feet required" in a.answer, a.answer
    assert "(34 inches)" in a.answer, a.answer


# -- a correction named by its thing, asked again; "is it OK if I bring it in" ------------------------------------------
def test_a_correction_named_by_its_thing_replaces_that_amount(assistant, today):
    today("2028-10-04")
    first = ("The village redid one of our street patches that failed and sent us the bill: labor $1,240, materials $385, "
             "equipment $475. What can they charge us in total?")
    before = assistant.ask(first, municipality="brandon")
    a = assistant.ask("hang on, equipment was actually $575. redo it?", municipality="brandon",
                      history=[{"role": "user", "content": first}, {"role": "assistant", "content": before.answer}])
    assert a.status == "answered" and "$2,640.00" in a.answer and "in place of “$475”" in a.answer, a.answer


def test_is_it_ok_if_i_bring_it_in_asks_in_time():
    from assistant.answering.routes.deadlines import _ASKS_IN_TIME

    assert _ASKS_IN_TIME.search("Is it OK if I bring the money in on Friday?")
    assert not _ASKS_IN_TIME.search("Is it OK if I park the truck on the street?")


def test_a_penalty_added_to_the_cost_is_found_below_the_quoted_passages():
    from assistant.answering import rates

    rule = ("Each such person or entity by whose failure makes it necessary that the Director of Public Works causes work "
            "to be done, shall be liable to the city for the cost of such work, plus a penalty of 10% of such cost.")
    turn = "Public Works did it. Their cost was $340. What's the total I'm on the hook for once you add the penalty?"
    w = rates.percent_of(turn, rule, rule, rates.money_asked(user_slots(turn)), added_only=True)
    assert w is not None and w.result == 374


def test_a_permits_life_is_no_act_a_work_day_would_push_aside(assistant, today):
    today("2029-07-11")
    a = assistant.ask("How long is our street opening permit good for - I need the actual expiration date for the "
                      "schedule. We start digging next Monday.", municipality="brandon")
    assert a.status == "clarify" and "approved" in a.answer, a.answer


# -- a fee plus a charge by the day to get a thing back -------------------------------------------------------------------
_NEWSRACK = ("A newsrack removed pursuant to this section may be retrieved by the certificate holder at any time within 30 "
             "days of its removal upon payment of a removal fee of $25.00 plus a storage fee of $5.00 per day, to a "
             "maximum combined removal and storage fee of $100.00.")


@pytest.mark.parametrize("turn, total", [
    ("The city pulled one of our newspaper boxes off the sidewalk on Monday the 11th and we're going down to pick it up "
     "today. What's the total we'll have to pay to get it back?", 70),
    ("They took our box on May 1. What will it cost to get it back today?", 100),
])
def test_a_fee_plus_a_daily_charge_counts_the_days_kept(turn, total):
    from assistant.answering import daily_fees

    got = daily_fees.owed(turn, user_slots(turn, "turn", date(2029, 6, 20)), [_NEWSRACK], date(2029, 6, 20))
    assert got is not None and got.result == total, got
    assert "left out" in got.steps[0] and "$105" not in " ".join(got.steps) and "$145" not in " ".join(got.steps)


def test_no_daily_charge_without_the_day_taken():
    from assistant.answering import daily_fees

    turn = "The city took one of our newspaper boxes. What will it cost to get it back?"
    assert daily_fees.owed(turn, user_slots(turn, "turn", date(2029, 6, 20)), [_NEWSRACK], date(2029, 6, 20)) is None
