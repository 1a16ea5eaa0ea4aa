"""Readings of session 19, for any code: a number that counts things is no period ("four houses" never meets "four
hours"); the event a period counts from is the one the user's date is told with; a date of another event asks for
the rule's own; a second deadline asked after a condition; values offered as alternatives are asked about; a
material's weight is no vehicle's and a posted limit no measurement; a measurement is held only against a limit of
its own kind; a fine that rises when unpaid is worked out for the user's notice date; a rate of application beside
the quoted sentence; a month written after its day; the one date whose words name the rule's event."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from assistant.answering import late_fines, limits, periods, roles, slots
from assistant.answering.parties import split_parties
from assistant.answering.reading import read_query, read_slots
from assistant.answering.tiers import users_quantities

TUE = date(2027, 6, 15)


def after(first: str, reply: str = "Here is what the code says: ...") -> list:
    from assistant.types import ChatTurn

    return [ChatTurn(role="user", content=first), ChatTurn(role="assistant", content=reply)]


def _deadline_rule(answer) -> str | None:
    return next((c.arguments.get("rule") for c in answer.tool_calls if c.name == "deadline"), None)


# -- a number that counts things is no period ----------------------------------------------------------------------
def test_houses_counted_do_not_pick_a_rule_of_as_many_hours(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("We're replacing a water main in Brandon and have to shut the water off to four homes starting "
                      "Monday the 21st at 8 in the morning. What's the latest we can tell the owners?", "brandon")
    assert _deadline_rule(a) == "brandon_notice_loss_of_service"
    assert "four hours" not in a.answer.split("How it was worked out")[0]


def test_a_main_named_alone_that_lets_go_is_an_emergency():
    assert slots.is_emergency("If a main lets go and we have to dig it up tonight")
    assert slots.is_emergency("the pipe burst under the road")
    assert not slots.is_emergency("we are replacing the main next week")


# -- the period that ends: a new walk kept free of traffic ---------------------------------------------------------
def test_a_new_walk_is_kept_free_of_traffic_for_48_hours_and_the_answer_says_it_ends(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-11-22")
    a = assistant.ask("They're finishing our new concrete walk on Saturday, November 27 around 3 in the afternoon. "
                      "When can we walk on it?", "brandon")
    assert _deadline_rule(a) == "brandon_sidewalk_curing_traffic"
    assert "The period ends at **November 30, 2027 3:00 PM**" in a.answer  # Sunday left out
    assert "Due by" not in a.answer


# -- the event a period counts from --------------------------------------------------------------------------------
def test_of_two_periods_the_one_counted_from_the_dated_event_is_taken():
    sentences = ["The hearing shall be held within thirty (30) calendar days from the date of the hearing request.",
                 "An owner may obtain a hearing by making a written petition for a hearing within fifteen (15) calendar "
                 "days of receipt of the notice of removal."]
    turn = "We received the written notice of removal last Friday and want to fight it. What's the last day we can ask for a hearing?"
    got = periods.count_from(turn, read_slots(turn, ref=date(2027, 3, 3)), sentences)
    assert [c.day for c in got] == [date(2027, 3, 13)]


def test_a_date_of_another_event_asks_for_the_rules_own(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-11-22")
    a = assistant.ask("Our house number was assigned on November 2. If public works then serves a notice on me, what "
                      "is the last day before I'm in violation?", "brandon")
    assert a.status == "clarify"
    assert "notice was served" in a.answer and "November 12" not in a.answer


def test_a_second_deadline_asked_after_a_condition_is_answered_too(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-11-22")
    a = assistant.ask("The Town's notice about a culvert for my driveway is dated November 10, 2027. When is the deposit "
                      "due, and if I don't pay the bill, when does it go on my taxes?", "delafield")
    rules = [c.arguments.get("rule") for c in a.tool_calls if c.name == "deadline"]
    assert rules == ["delafield_culvert_deposit", "delafield_culvert_tax_roll"]
    assert "November 1, 2028" in a.answer


def test_a_follow_up_about_it_keeps_the_earlier_turns_permit(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("If the clerk gives it to me today, how long is it good for?", "brandon",
                      history=after("We want a roll-off dumpster parked in the street in front of our house during "
                                    "a remodel. Who gives permission for that?"))
    assert _deadline_rule(a) == "brandon_street_privilege_termination"
    assert "September 15, 2027" in a.answer


# -- alternatives, a material's weight, a posted limit -------------------------------------------------------------
def test_two_amounts_offered_as_alternatives_are_asked_about(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("The Town billed $1,900 for asphalting my driveway. I paid a deposit of $1,500 or maybe $2,000, "
                      "I can't remember. Do I owe more or get money back?", "delafield")
    assert a.status == "clarify"
    assert "$1,500" in a.answer and "$2,000" in a.answer


def test_a_materials_weight_is_no_vehicles(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("The stone for backfilling the trench under the town road came on a 30,000 lb delivery ticket. "
                      "How much of it has to be crushed stone?", "delafield")
    assert not any(c.name == "heavy_vehicle_check" for c in a.tool_calls)


def test_a_posted_limit_is_not_a_vehicles_weight_and_each_vehicle_is_checked(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("There's a 6 ton temporary limit posted on our road. My pickup is 5,400 lbs loaded and my "
                      "neighbor's dump truck is 14,000 lbs. Which one can use the road and how far over is the other?",
                      "delafield")
    weights = sorted(Decimal(str(c.arguments["gross_weight_tons"])) for c in a.tool_calls if c.name == "heavy_vehicle_check")
    assert weights == [Decimal("2.7"), Decimal("7")]
    assert "within the posted temporary limit" in a.answer and "**1 tons**" in a.answer


def test_a_width_is_not_held_against_a_thickness():
    turn = "Our road is 24 ft wide. How thick does the base have to be?"
    sentence = 'The contractor shall place a minimum of 10" of crushed aggregate on the road bed in 2 lifts.'
    assert limits.check_against(turn, read_slots(turn), [sentence]) == []
    said = "There's a 6 ton limit posted. Is that a problem?"
    assert limits.check_against(said, read_slots(said), ["vehicles of not more than 6 tons"]) == []


# -- a fine that rises when unpaid -----------------------------------------------------------------------------------
SECTION = ("c. Any person violating the provisions of this section shall be subject to a fine of one hundred dollars "
           "($100.00) for each offense. This fine shall increase by thirty-three dollars ($33.00) if it remains unpaid "
           "at least twenty-one (21) days after issuance of a notice of the violation.")
RISE = ("This fine shall increase by thirty-three dollars ($33.00) if it remains unpaid at least twenty-one (21) days "
        "after issuance of a notice of the violation.")


@pytest.mark.parametrize("ticket, owed", [("January 5", Decimal("133")), ("February 20", Decimal("100"))])
def test_a_fine_left_unpaid_is_worked_out_for_the_notice_date(ticket, owed):
    today = date(2027, 3, 3)
    turn = f"I got a ticket on {ticket} and haven't paid it. What do I owe as of today?"
    w = late_fines.owed(turn, read_slots(turn, ref=today), [(RISE, SECTION)], today)
    assert w is not None and w.result == owed
    assert RISE == w.sentence and "fine of one hundred dollars" in w.others[0]


def test_a_fine_owed_now_without_a_date_asks_for_the_notice_date():
    turn = "Got a ticket for this. How much do I have to pay now?"
    rule = late_fines.date_needed(turn, read_slots(turn), [(RISE, SECTION)])
    assert rule is not None and rule.days == 21 and "issuance of a notice" in rule.event
    asked = "How much is the fine for parking there?"
    assert late_fines.owed(asked, read_slots(asked), [(RISE, SECTION)], date(2027, 3, 3)) is None


# -- a rate of application, an area, dates ---------------------------------------------------------------------------
def test_a_walk_that_runs_so_many_feet_is_a_length_of_an_area():
    turn = "The new walk is 4 feet wide and runs 90 feet along the street. How many gallons of curing compound?"
    assert users_quantities(turn, read_slots(turn))["area"][0][0] == Decimal(360)


def test_a_month_written_after_its_day_is_no_second_date():
    found = [s for s in read_slots("it cracked on Friday the 25th of this month", ref=TUE) if s.kind == "date"]
    assert [(s.value, s.precision) for s in found] == [("2027-06-25", "day")]


def test_of_two_dates_the_one_whose_words_name_the_event_is_taken():
    q = read_query("The letter is dated a week ago today and I only opened it this morning. When is my deposit due?",
                   ref=TUE)
    chosen = roles.event_date(q, "date of the Town Board's written notice")
    assert not isinstance(chosen, roles.Ambiguous) and chosen.day == date(2027, 6, 8)


def test_each_partys_own_amount_said_with_whose_it_is():
    text = ("The village is redoing the walk along my lot and my neighbor's. They estimated mine at $3,200 and hers at "
            "$2,600. What is each of us assessed?")
    parties = split_parties(text, ("$3,200", "$2,600"))
    assert parties is not None and len(parties) == 2


def test_a_figure_written_in_words_with_its_numeral_and_unit_mark_is_stated():
    from assistant.answering.planner import figure_pattern

    sentence = ('No person shall maintain any grating which extends more than eighteen (18") inches into the street, '
                'or the spaces between the bars of which are more than one (1") inch in width.')
    assert figure_pattern("How wide can the gaps between the bars be?").search(sentence)


@pytest.mark.parametrize("words, day", [
    ("the Thursday before Halloween", date(2027, 10, 28)),
    ("last Christmas Eve", date(2026, 12, 24)),
    ("next Mother's Day", date(2028, 5, 14)),
    ("the day after Valentine's Day", date(2028, 2, 15)),  # the nearest one
])
def test_named_days_that_are_no_legal_holiday_date_things(words, day):
    found = [s for s in read_slots(f"It happened {words}.", ref=date(2027, 11, 22)) if s.kind == "date"]
    assert [s.day for s in found] == [day]


def test_an_unpaid_bill_charged_to_the_guarantee_also_says_when(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-11-22")
    a = assistant.ask("The Town regraded the ditch by my culvert and billed me $600 on October 20, 2027. My guarantee is "
                      "$1,500. If I don't pay it, when does it come out of the guarantee and what's left for me?",
                      "delafield")
    assert "$900.00" in a.answer and "November 19, 2027" in a.answer


def test_the_actual_date_to_pay_by_asks_for_the_notice_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("A Town letter says I owe a deposit for a culvert at my driveway. It arrived sometime last week. "
                      "What's the exact date I have to pay by?", "delafield")
    assert a.status == "clarify" and "names no single day" in a.answer


def test_a_holidays_days_off_are_no_date():
    found = [s for s in read_slots("Snow ends this Wednesday at 10 AM. With all the Christmas days off in there, when's my "
                                   "deadline?", ref=date(2027, 11, 22)) if s.kind == "date"]
    assert [s.span.text for s in found] == ["this Wednesday"]


def test_a_driveways_run_alone_gives_the_most_rise_the_limit_allows(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("Our new driveway will run 80 feet from the road up to the garage. How high above the road can the "
                      "garage end be?", "delafield")
    assert any(c.name == "driveway_check" and c.arguments.get("run_ft") for c in a.tool_calls)
    assert "**9.6 feet**" in a.answer
    two = assistant.ask("The driveway is 70 feet to the apron or 85 feet to the slab. How high can the garage sit above "
                        "the road?", "delafield")
    assert two.status == "clarify" and "70 feet" in two.answer and "85 feet" in two.answer


def test_whats_the_date_it_runs_out_without_a_date_asks_for_it(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("My street opening permit was approved a while back. What's the date it runs out?", "brandon")
    assert a.status == "clarify" and "approved" in a.answer


def test_a_portion_of_a_part_of_the_street_is_a_portion_of_the_street():
    from assistant.answering import portions

    turn = "Our street is 30 feet curb to curb. How much of it can our building materials take up?"
    sentence = ("Building materials which shall not obstruct more than 1/2 of the sidewalk or more than 1/3 of the "
                "traveled portion of the street.")
    got = portions.portion_of(turn, read_slots(turn), [sentence])
    assert [(p.value, p.words) for p in got] == [(Decimal("10.00"), "1/3 of the traveled portion of the street")]


def test_a_conversion_the_code_defines_by_a_factor_is_worked_out():
    from assistant.answering.factors import converted

    sentence = ("PARTS PER MILLION shall mean a weight-to-weight ratio; the parts per million value multiplied by the "
                "factor 8.34 shall be equivalent to pounds per million gallons of water.")
    w = converted("The test shows 120 ppm. What is that in pounds per million gallons?", [sentence])
    assert w is not None and w.result == Decimal("1000.80") and w.shown().startswith("1,000.8 pounds per million")
    assert converted("We have two samples, 120 ppm and 90 ppm. Which is higher?", [sentence]) is None


def test_a_fine_left_unpaid_for_days_told_is_worked_out_from_them():
    turn = "I got a ticket and forgot about it for 40 days after the notice. How much do I owe now?"
    w = late_fines.owed(turn, read_slots(turn), [(RISE, SECTION)], date(2027, 3, 3))
    assert w is not None and w.result == Decimal("133")
    near = "Got a ticket, it's been about 20 days since the notice. What do I owe now?"
    assert late_fines.owed(near, read_slots(near), [(RISE, SECTION)], date(2027, 3, 3)) is None
    assert late_fines.date_needed(near, read_slots(near), [(RISE, SECTION)]) is None


def test_capitals_with_periods_do_not_end_a_sentence():
    from assistant.retrieval.chunking import sentences

    assert sentences("All insurance carriers shall carry an A.M. Best rating of A-. Such insurance shall waive "
                     "subrogation.") == ["All insurance carriers shall carry an A.M. Best rating of A-.",
                                         "Such insurance shall waive subrogation."]


def test_a_label_and_a_table_row_without_figures_are_not_quoted():
    from assistant.answering.compose import quotable
    from assistant.types import Passage

    p = Passage(id="x", municipality="m", chapter="1", section="1-1", title="T", text="Fees : a. A $50.00 fee.", start=0,
                end=22)
    assert not quotable(p, "Fees :")
    assert not quotable(p, "Street opening, per week..................................")
    assert quotable(p, "A $50.00 nonrefundable application fee is required.")


def test_a_late_fine_says_the_day_it_rises_and_to_what():
    today = date(2027, 3, 3)
    turn = "Got a ticket 19 days ago and haven't paid it. On what date does it go up, and to how much?"
    w = late_fines.owed(turn, read_slots(turn, ref=today), [(RISE, SECTION)], today)
    assert w is not None and w.result == Decimal("100") and "to $133.00 on March 5, 2027" in w.steps[0]
    turn = "I got a ticket on January 5 and never paid it. What do I owe now, and since when?"
    w = late_fines.owed(turn, read_slots(turn, ref=today), [(RISE, SECTION)], today)
    assert "owed since January 26, 2027" in w.steps[-1]


def test_a_width_is_not_held_against_a_thickness_written_after_a_width():
    turn = "The public walk is 2 yards wide. Our pallets stick out 40 inches onto it. Over what's allowed?"
    sentence = ("Residential walks shall match width, but not less than four inches in thickness, except within "
                "driveway approaches where the minimum thickness shall be seven inches.")
    assert limits.check_against(turn, read_slots(turn), [sentence]) == []


def test_a_shortfall_in_words_gives_the_corrective_lift_and_two_are_asked_about(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", TUE.isoformat())
    a = assistant.ask("Cores on the new town road came up half an inch short after the final lift. How thick does the "
                      "corrective lift have to be?", "delafield")
    assert any(c.name == "road_construction_check" and c.arguments.get("final_deficiency_in") for c in a.tool_calls)
    assert "**1 inch**" in a.answer
    two = assistant.ask("The north stretch came up a quarter inch short and the south stretch 1.5 inches short after the "
                        "final lift. What corrective lift does each need?", "delafield")
    # (each stretch its own: a quarter inch short needs the 1-inch least lift, 1.5 inches short a 1.5-inch lift)
    assert two.status == "answered" and "**1 inch**" in two.answer and "**1.5 inches**" in two.answer
