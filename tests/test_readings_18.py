"""Readings of session 18, for any code: a price per thing is no total ("$310 per square"), a cost worked from it
and the user's one quantity of that thing, a width and a length make an area, an hour before its day ("around 9
this Saturday night"), the figure asked is read in the asking sentence, a period of a catalogued code's text the
catalogue does not hold is counted under the state's rule, a follow-up's turn is read once, and an earlier date
is not this turn's when this turn names another weekday."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest

from assistant.answering import periods, phrasing, rates, roles
from assistant.answering.materials import area_needed, material_for_area
from assistant.answering.planner import figure_kind
from assistant.answering.reading import read_query, read_slots, user_slots
from assistant.answering.tiers import users_quantities
from assistant.tools.calendar import business_calendar

MON = date(2027, 1, 11)


def after(first: str, reply: str = "Here is what the code says: ...") -> list:
    """A conversation's history: the user's first turn and the assistant's reply."""
    from assistant.types import ChatTurn

    return [ChatTurn(role="user", content=first), ChatTurn(role="assistant", content=reply)]


# -- a price per thing ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("words, unit", [
    ("Contractor quote is $310 per square.", "USD/square"),
    ("the going rate is $1,150 per 100 sq ft.", "USD/100 sq ft"),
    ("$18 a linear foot", "USD/linear foot"),
    ("$40/slab", "USD/slab"),
    ("$25 for each rack", "USD/rack"),
    ("we paid $3,000 a few weeks ago", "USD"),  # "a few" prices nothing
    ("materials -- $1,115 / equipment -- $390", "USD"),  # a separator, not "per equipment"
    ("he charges $42 an hour", "USD/hour"),
])
def test_an_amount_priced_per_thing_is_read_as_a_price(words, unit):
    money = [s for s in user_slots(words, ref=MON) if s.kind == "money"]
    assert money[0].unit == unit


def test_a_code_sentence_keeps_its_amounts_as_the_rate_modules_read_them():
    # (the per-thing reading is the user's words only; "$25.00 per newsrack" in the code is a rate the rates read)
    assert [s.unit for s in read_slots("an annual fee of $25.00 per newsrack authorized") if s.kind == "money"] == ["USD"]


def test_a_price_per_square_is_never_the_cost_assessed(assistant):
    a = assistant.ask("Village inspector flagged 8 of the 14 squares in my sidewalk. Contractor quote is $310 per "
                      "square. What will I be assessed?", "brandon")
    assert a.status == "clarify" and "$155.00" not in a.answer and "$2,170.00" not in a.answer
    assert "“14 squares”" in a.answer and "“8”" in a.answer


def test_a_price_per_area_times_the_users_area_is_the_cost(assistant):
    a = assistant.ask("Village's going rate for sidewalk replacement this year is $1,150 per 100 sq ft. The stretch "
                      "they're replacing in front of my place is 5 ft x 66 ft. What's my assessment?", "brandon")
    assert a.status == "answered" and "**$1,897.50**" in a.answer
    assert "$3,795.00 (“5 ft x 66 ft.” at “$1,150 per 100 sq ft”)" in a.answer


def test_a_price_per_square_times_the_one_count_of_squares(assistant):
    a = assistant.ask("The village is replacing 12 defective squares of my sidewalk at $310 per square. What will I "
                      "be assessed?", "brandon")
    assert a.status == "answered" and "**$1,860.00**" in a.answer


# -- an area from a width and a length --------------------------------------------------------------------------
RATE = ("The material shall be applied in one or more separate coats with an approved mechanical spray at a minimum "
        "rate of one gallon of material for each 200 square feet of surface treated.")


def test_a_width_and_a_length_make_an_area():
    turn = "New walk is 6 feet wide and 150 feet long. How many gallons of curing compound do I need?"
    assert users_quantities(turn, read_slots(turn))["area"] == [(900, "6 feet wide and 150 feet long")]
    got = material_for_area(turn, read_slots(turn), [RATE])
    assert got is not None and got.result == 4.5


def test_two_widths_make_no_area():
    turn = "One walk is 6 feet wide, the other 5 feet wide and 150 feet long. How many gallons?"
    assert "area" not in users_quantities(turn, read_slots(turn))


def test_one_length_against_a_rate_per_area_asks_the_width():
    turn = "How much curing compound do I need at minimum for a sidewalk that's 80 feet long?"
    assert area_needed(turn, read_slots(turn), [RATE]) == ("80 feet", RATE)
    assert "How wide is it?" in phrasing.area_needed("80 feet")
    turn2 = "How much curing compound for a walk 5 ft wide by 80 ft long?"
    assert area_needed(turn2, read_slots(turn2), [RATE]) is None


def test_the_figure_asked_is_read_in_the_asking_sentence():
    assert figure_kind("New walk is 6 feet wide and 150 feet long. At the minimum spray rate, how many gallons do I "
                       "need?") == "material"
    assert figure_kind("The walk is 6 feet wide. How much is the permit?") == "money"
    assert figure_kind("How wide must the walk be?") == "width"


# -- an hour before its day -------------------------------------------------------------------------------------
@pytest.mark.parametrize("words, hm", [
    ("the snow should quit around 9 this Saturday night", "21:00"),
    ("it stopped at 7 Tuesday morning", "07:00"),
    ("we start at 8 tomorrow morning", "08:00"),
])
def test_an_hour_before_its_day_takes_the_part_of_the_day_after_it(words, hm):
    assert [s.value for s in read_slots(words, ref=MON) if s.kind == "time"] == [hm]


def test_the_end_of_a_snow_event_on_a_saturday_night_skips_sunday_and_a_holiday(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", MON.isoformat())
    a = assistant.ask("Forecast says the snow should quit around 9 this Saturday night. When's the latest I can have "
                      "my walk cleared?", "brandon")
    assert a.status == "answered" and "January 19, 2027 9:00 PM" in a.answer  # Sunday and MLK Day left out


# -- a catalogued code's period the catalogue does not hold -----------------------------------------------------
ADDRESS = ("Within 30 days after the final approval of any new subdivision or other division of land, the Building "
           "Inspector shall assign addresses to each new building site.")


def test_a_duty_whose_last_day_is_a_sunday_moves_past_it_and_the_holiday_after():
    turn = "Board gave final approval to the plat on Friday, December 18. What's the outside date to have the sites addressed?"
    got = periods.count_from(turn, read_slots(turn, ref=MON), [ADDRESS])
    assert [c.day for c in got] == [date(2027, 1, 17)]  # on the calendar
    ruled = periods.under_rule(got, business_calendar())
    assert ruled[0].day == date(2027, 1, 19) and ruled[0].moved_from == date(2027, 1, 17)
    said = phrasing.period_counted(ruled[0])
    assert "**January 19, 2027**" in said and "990.001(4)" in said and "Sunday" in said
    assert ruled[0].call()["result"]["last_day_before_moving"] == "January 17, 2027"


def test_the_end_of_a_periods_life_is_not_moved():
    valid = "Permits shall be valid for a period of 30 days from the date of approval."
    turn = "Approved on Friday, January 15. When does it expire?"
    got = periods.under_rule(periods.count_from(turn, read_slots(turn, ref=MON), [valid]), business_calendar())
    assert [c.day for c in got] == [date(2027, 2, 14)]  # a Sunday, not moved
    assert periods.under_rule([], business_calendar()) == []


def test_a_catalogued_codes_uncatalogued_period_is_counted_under_its_rule(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", MON.isoformat())
    a = assistant.ask("Board gave final approval to the Hawthorn Ridge plat on Friday, December 18. Under (8)(b), "
                      "what's the outside date for the Building Inspector to have the new sites addressed?",
                      "delafield")
    assert a.status == "answered" and "**January 19, 2027**" in a.answer


# -- follow-ups -------------------------------------------------------------------------------------------------
def test_a_follow_ups_values_are_read_once(assistant):
    history = after("The end of my driveway out in the Town right-of-way is crumbling. Can I "
                    "just hire my own asphalt company to redo that part?",
                    "Here is what the Town of Delafield code says: ...")
    a = assistant.ask("Ended up having the Town's crew do it instead. I put down $1,850 up front and the final bill "
                      "came to $1,612.35. Where does that leave me?", "delafield", history=history)
    assert a.status == "answered" and "**$237.65**" in a.answer


def test_an_earlier_date_is_not_taken_for_another_weekday_named_now():
    q = read_query("OK - say the Director approves it that same Tuesday. Through what date is the permit good?",
                   "Water main let go late this Friday night (the 15th).", follow_up=True, ref=MON)
    assert q.of("date", "earlier") and roles.of(q, "date") == []
    assert roles.same_weekday(q, datetime(2027, 1, 19, 9)) and not roles.same_weekday(q, date(2027, 1, 15))
    q2 = read_query("Say it was approved that same day.", "We dug on Friday, January 15.", follow_up=True, ref=MON)
    assert [s.value for s in roles.of(q2, "date")] == ["2027-01-15"]


def test_an_application_date_does_not_date_the_approval(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", MON.isoformat())
    a = assistant.ask("I put in for a street opening permit on May 3. When does it run out?", "brandon")
    assert a.status == "clarify" and "approv" in a.answer.lower()


# -- a guarantee, an unpaid bill --------------------------------------------------------------------------------
def test_a_bill_let_go_past_30_days_is_charged_to_the_guarantee(assistant):
    a = assistant.ask("When we built last year we put up a $3,000 guarantee for the curb and gutter. The Town fixed a "
                      "curb section our builder cracked and billed us $1,175.80, and honestly we let that bill go past "
                      "30 days. How much of the guarantee should we get back?", "delafield")
    assert a.status == "answered" and "**$1,824.20**" in a.answer


def test_of_two_charges_the_unpaid_one_is_the_bill(assistant):
    a = assistant.ask("The Town charged me $1,150 for the culvert install, and separately I gave them a $3,000 cash "
                      "deposit to cover fixing up the ditch. The Town redid the seeding and sent me a $725 bill, which I "
                      "never paid - that was 45 days ago. How much of the $3,000 do I get back?", "delafield")
    assert a.status == "answered" and "**$2,275.00**" in a.answer


# -- a fine that rises when unpaid --------------------------------------------------------------------------------
def test_a_fine_that_rises_when_unpaid_is_not_worked_for_an_unpaid_ticket():
    section = ("Any person violating the provisions of this section shall be subject to a fine of one hundred dollars "
               "($100.00) for each offense. This fine shall increase by thirty-three dollars ($33.00) if it remains "
               "unpaid at least twenty-one (21) days after issuance of a notice of the violation.")
    first = section.split(" This fine")[0]
    unpaid = "I got a ticket for parking in the bike lane and never paid it. What do I owe as of today?"
    assert rates.work_out(unpaid, read_slots(unpaid), [(first, section)]) == []
    paid = "We got 3 tickets for parking in the bike lane. What's the fine for all of them?"
    got = rates.work_out(paid, read_slots(paid), [(first, section)])
    assert got and got[0].result == 300


# -- dates ------------------------------------------------------------------------------------------------------
NOV = date(2027, 11, 22)


@pytest.mark.parametrize("words, day", [
    ("The letter is dated the first Monday of this year.", "2027-01-04"),
    ("the last Friday of next year", "2028-12-29"),
    ("the second Thursday of next month", "2027-12-09"),
])
def test_an_ordinal_weekday_of_a_year_or_month(words, day):
    assert [s.value for s in read_slots(words, ref=NOV) if s.kind == "date"] == [day]


def test_the_season_after_next_is_the_one_after_the_coming_one():
    got = [s for s in read_slots("not this year, but the summer after next", ref=NOV) if s.kind == "date"]
    assert [(s.value, s.span.text) for s in got] == [("2029-06-01", "the summer after next")]


def test_a_bare_year_set_against_a_year_is_another_reading_of_it(assistant):
    turn = "The county's records say Cedar was last paved in 2021, but the village's street map says 2023."
    assert [s.value for s in read_slots(turn, ref=NOV) if s.kind == "date"] == ["2021-01-01", "2023-01-01"]
    a = assistant.ask("Planning to open Cedar St in August 2027 for a service line. " + turn + " What surcharge do I "
                      "get hit with?", "brandon")
    assert a.status == "clarify" and "“2021”" in a.answer and "“2023”" in a.answer


# -- a deposit the code sets by the user's case, less the user's cost ----------------------------------------------
DEPOSIT = ("The deposit shall be in the sum of $25.00 if no pavement is involved or $75.00 if the excavation is in a "
           "paved area and shall insure the proper restoration of the ground and laying of the pavement, if any. From "
           "this deposit shall be deducted the expense to the city of relaying the surface of the ground or pavement, "
           "and of making the refill if this is done by the city or at its expense. The balance shall be returned to "
           "the applicant without interest after the tunnel or excavation is completely refilled and the surface or "
           "pavement is restored.")


def test_the_deposit_for_the_users_case_less_their_cost_is_returned():
    turn = ("We dug in a gravel shoulder with no pavement and the city did the refill and resurfacing for us, which cost "
            "them $18.40. How much of our cash deposit should come back?")
    first = DEPOSIT.split(" From this")[0]
    got = rates.work_out(turn, read_slots(turn), [(first, DEPOSIT)])
    assert got and got[0].kind == "difference" and got[0].result == Decimal("6.60")
    # (the case not said: no deposit is chosen, nothing worked out)
    vague = "The city did the refill for us, which cost them $18.40. How much of our cash deposit should come back?"
    assert rates.work_out(vague, read_slots(vague), [(first, DEPOSIT)]) == []


def test_a_roller_weight_in_a_deposit_story_is_no_load_to_check(assistant):
    a = assistant.ask("Had the Town blacktop the part of my driveway that sits in the road right-of-way. I put up $2,600 "
                      "before they started. The drive is 14 ft wide and 120 ft long and they ran a 5-ton roller on it. "
                      "Final bill came in at $2,315. Do I get anything back, and how much?", "delafield")
    assert a.status == "answered" and "$285.00" in a.answer and "5 tons" not in a.answer


def test_occasions_told_one_by_one_each_bill_their_own_hours(assistant):
    a = assistant.ask("While I was away the Brandon crew cleared my sidewalks twice. First time one guy spent 2 hours, "
                      "second time it took him an hour and a quarter. His rate with benefits is $42 an hour. What's the "
                      "removal bill?", "brandon")
    assert a.status == "answered" and "**$186.50**" in a.answer and "occasions 2" in a.answer


def test_the_village_cleared_my_walk_with_no_hours_or_rates_asks_for_them(assistant):
    a = assistant.ask("Village guys shoveled my walk twice last week because I didn't get to it. How much is that going "
                      "to run me?", "brandon")
    assert a.status == "clarify" and "hourly rate" in a.answer
    b = assistant.ask("The village shoveled my walk because I didn't. How much is the fine?", "brandon")
    assert b.status == "answered"  # a fine asked: the penalty's quote, no charge asked for


def test_a_period_of_written_notice_counts_from_the_notice():
    bond = ("In the event that the property owner fails to comply with the order of the Building Inspector, after "
            "thirty days written notice, the Village may use the cash bond to construct the sidewalk.")
    turn = ("The building inspector sent us a written order, and the 30-day written notice went out three weeks ago today. "
            "On what date can the village use our bond to do the work?")
    got = periods.count_from(turn, read_slots(turn, ref=date(2026, 12, 14)), [bond])
    assert [(c.day, c.words) for c in got] == [(date(2026, 12, 23), "after thirty days written notice")]


def test_an_article_is_no_count_given_so_the_quantity_priced_is_asked():
    fee = ("The fee for such permits shall be $2.00 for excavations which do not exceed 25 square feet in area or "
           "tunnels not exceeding 25 feet in length; and $0.25 for each additional square foot in the case of "
           "excavations, or lineal foot in the case of tunnels; but not to exceed $100.00 for any permit.")
    turn = "What will the city charge me for a permit to dig a trench across Main Street?"
    assert rates.needs_quantity(turn, read_slots(turn), fee) == "square foot"
    three = "What will the city charge me for three permits to dig across Main Street?"
    assert rates.needs_quantity(three, read_slots(three), fee) is None  # a number given may be it: left to the quote


def test_of_several_measures_the_portion_takes_the_one_of_its_thing():
    from assistant.answering.portions import portion_of

    rule = ("Such permit shall not be issued for more than 1/3 of any street, and the applicant shall keep the street "
            "clear otherwise.")
    turn = ("The lot is 48 ft wide, house is about 2,400 sq ft, and the street out front is 36 ft curb to curb. How "
            "much of the street's width can our dumpster take up?")
    got = portion_of(turn, read_slots(turn), [rule])
    assert [(p.value, p.measured.span.text) for p in got] == [(12, "36 ft")]
    two = "One street is 36 ft wide and the street behind is 30 ft wide. How much of the street can we take up?"
    assert portion_of(two, read_slots(two), [rule]) == []  # two streets' widths: which is not guessed


def test_stone_under_the_blacktop_asks_the_stone_not_the_stone_and_the_lift():
    from assistant.answering.routes.checks import road_focus

    assert road_focus("What's the total crushed stone depth we should plan under the blacktop there?", False) == "aggregate"
    assert road_focus("What's the total thickness of stone plus the first asphalt lift?", False) == "both"
    assert road_focus("How thick is the first bituminous lift?", False) == "lift"


def test_an_earlier_turns_day_is_read_when_this_turn_asks_a_day(assistant):
    history = after("Our gas main under Forest Ave started leaking last night and the crew had "
                    "to dig it up right away with no permit. Were we allowed to do that?",
                    "Here is what the Village of Brandon code says: ...")
    q = read_query("OK. What's the last day we can get the application in and still not pay the permit fee?",
                   history[0].content, follow_up=True, ref=date(2026, 12, 4))
    assert [(s.span.origin, s.span.text, s.value) for s in q.slots] == [("earlier", "last night", "2026-12-03")]


def test_a_new_walk_put_in_on_one_side_is_shared_by_both_sides(assistant):
    history = after("they're finally putting sidewalk in on our block, but only on our side - "
                    "nothing across the street. Are we stuck paying for the whole thing?",
                    "Here is what the Village of Brandon code says: ...")
    a = assistant.ask("ok so if the whole job is $48,600 and there's 9 houses on each side what's my part?", "brandon",
                      history=history)
    assert a.status == "answered" and "**$2,700.00**" in a.answer


def test_a_price_per_permit_is_the_permit_fee_of_a_surcharge(assistant):
    a = assistant.ask("One street opening permit on Elm St on Sept 8, 2027; the final surface was laid July 15, 2025. "
                      "The clerk says the permit fee is $120 per permit. What surcharge do we owe?", "brandon")
    assert a.status == "answered" and "$360.00" in a.answer


def test_putting_in_a_lateral_is_no_application():
    from assistant.answering.roles import _event_kind

    assert _event_kind("we ran the excavator through the ditch to put in a sewer lateral and wrapped the job up") is None
    assert _event_kind("I put in for a street opening permit on") == "application"


def test_a_layer_of_a_material_states_a_thickness():
    from assistant.answering.planner import figure_pattern

    states = figure_pattern("what's the minimum thickness of cold mix for a temporary patch?")
    assert states.search("the excavation shall be temporarily resurfaced with a minimum of three inches of cold mix "
                         "bituminous material.")
    assert not states.search("Permanent pavements shall be replaced within 60 days of the date of the permit.")


def test_what_staff_collect_asks_an_amount(assistant):
    a = assistant.ask("Excavation permit for the Ridge Rd water service hits day 30 tomorrow and they're not done. What "
                      "do I collect for the renewal?", "brandon")
    assert a.status == "not_stated" and "Village Board" in a.answer


def test_a_deposit_back_after_a_bill_with_no_amounts_asks_for_them(assistant):
    a = assistant.ask("The Town redid the seeding in the ditch by my new culvert and sent me a bill. How much of my "
                      "deposit am I going to get back?", "delafield")
    assert a.status == "clarify" and "deposit" in a.answer and "bill" in a.answer


def test_am_i_legal_to_run_a_truck_loaded_asks_its_weight(assistant):
    a = assistant.ask("Weight limit signs just went up on Hillside Rd. My dump truck's a tri-axle. Am I legal to run it "
                      "loaded?", "delafield")
    assert a.status == "clarify" and "gross weight" in a.answer


def test_a_main_that_let_go_is_an_emergency():
    from assistant.answering.slots import is_emergency

    assert is_emergency("Water main let go under Division St late this Friday night and we'll dig it out right away.")
    assert is_emergency("the gas line sprang a leak by the curb")
    assert not is_emergency("We let go of the contractor and hired another.")


def test_the_season_before_last_is_the_one_before_last_season():
    got = [s for s in read_slots("final blacktop the summer before last", ref=date(2027, 1, 15)) if s.kind == "date"]
    assert [(s.value, s.days) for s in got] == [("2025-06-01", (date(2025, 6, 1), date(2025, 9, 20)))]


def test_what_surcharge_am_i_looking_at_with_no_paving_date_asks_it(assistant):
    a = assistant.ask("Need a street cut on Maple Ct in June for a gas service. What surcharge am I looking at?", "brandon")
    assert a.status == "clarify" and "final paving" in a.answer
    b = assistant.ask("What surcharges are there for cutting a street in Brandon?", "brandon")
    assert b.status == "answered"


def test_a_second_account_of_a_value_the_calculation_did_not_take_is_asked_about(assistant):
    from assistant.answering.planner import other_account

    turn = ("There are 20 slabs of sidewalk in front of my place. The Village's letter says 11 of them are defective, "
            "but the inspector's marked-up sheet stapled to it shows 13. Do I have to replace the whole walk?")
    assert other_account(turn, []) == "but the inspector's marked-up sheet stapled to it shows 13"
    at = turn.index("13")
    assert other_account(turn, [(at, at + 2)]) is None  # its number read into an argument: nothing left over
    a = assistant.ask(turn, "brandon")
    assert a.status == "clarify" and "shows 13" in a.answer
    b = assistant.ask("There are 20 slabs of sidewalk in front of my place and 13 of them are defective. Do I have to "
                      "replace the whole walk?", "brandon")
    assert b.status == "answered"


def test_a_hypothetical_crew_asks_nothing_and_the_stone_under_asphalt_is_the_stone(assistant):
    a = assistant.ask("If the village crew does the shoveling for me, what do they bill?", "brandon")
    assert a.status == "answered" and "$25" in a.answer
    b = assistant.ask("Part of the new subdivision road in Delafield runs through a wet low area and the Town Board has "
                      "directed the extra stone layer there. What's the total depth of stone under the asphalt in that "
                      "stretch?", "delafield")
    assert b.status == "answered" and "**16 inches**" in b.answer and "18.5" not in b.answer


def test_a_follow_up_on_the_permits_validity_after_an_emergency_is_not_the_emergency_deadlines(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", MON.isoformat())
    history = after("Water main let go under Division St in Brandon late this Friday night (the "
                    "15th) and we'll dig it out right away without a permit. To get the permit "
                                              "fee waived, by when does the application have to be filed?",
                    "Last day: **January 20, 2027**.")
    a = assistant.ask("OK - say the Director approves it that same Tuesday. Through what date is the permit good?",
                      "brandon", history=history)
    assert a.status == "answered" and "30 days from the date of approval" in a.answer  # the validity rule, quoted
    assert "January 19, 2027" not in a.answer and "January 20, 2027" not in a.answer  # no emergency deadlines again
    b = assistant.ask("Is that the same deadline for actually applying for the permit, or is there a separate rule?",
                      "brandon", history=history)
    assert "**January 19, 2027**" in b.answer  # the emergency's own: apply by the next business day
