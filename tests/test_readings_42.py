"""Session 42: readings that decide a figure or an ask, on any question.

Several tickets each with its own date are each worked against a fine that rises when left unpaid (and a product of
the fine that would leave the rise out is never stated); "If we end up doing ... this Wednesday" is the coming one;
"Monday the 30th" of a Tuesday is asked about, as is a weekday that disagrees with a date joined to an hour; "How
long do we keep the kids off it?" states the period when the hour it counts from is not given; a run told before its rise
makes a slope, held against the slope limit however many other measurements the story gives.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from assistant.answering import late_fines, limits
from assistant.answering.reading import read_slots
from assistant.answering.slot_safety import weekday_disagrees, weekday_reply

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "corpus-samples"

_FINE = ("Any person violating the provisions of this section shall be subject to a fine of one hundred dollars and no "
         "cents ($100.00) for each offense.")
_RISE = ("This fine shall increase by thirty-three dollars ($33.00) if it remains unpaid at least twenty-one (21) days "
         "after issuance of a notice of the violation.")


# -- several notices, each its own date -------------------------------------------------------------------------------
def test_two_tickets_each_with_its_date_are_each_worked():
    turn = ("I got two tickets for parking in the bike lane. First one was Monday, August 20, and the second one was a "
            "week ago today. If I pay them both today, how much in total?")
    today = date(2029, 9, 18)
    w = late_fines.owed(turn, read_slots(turn, ref=today), [(_FINE, f"{_FINE} {_RISE}"), (_RISE, f"{_FINE} {_RISE}")], today)
    assert w is not None and w.result == Decimal("233.00"), w
    assert "notice 1" in w.steps[0] and "notice 2" in w.steps[1]


@pytest.mark.parametrize("turn", [
    # three tickets named, two dates: which dates are whose is not known
    "I got three tickets for parking in the bike lane, on August 1 and September 12. What do I owe today?",
    # one ticket and a day it was moved: no several notices
    "I got a ticket for parking in the bike lane on August 1 and moved the car on August 5. What do I owe today?"])
def test_dates_not_tied_to_their_notices_work_nothing(turn):
    today = date(2029, 9, 18)
    picked = [(_FINE, f"{_FINE} {_RISE}"), (_RISE, f"{_FINE} {_RISE}")]
    assert late_fines.owed(turn, read_slots(turn, ref=today), picked, today) is None
    assert late_fines.unresolved(turn, read_slots(turn, ref=today), picked, today) is not None


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/corpus-samples is not beside the repo")
def test_fines_of_dated_tickets_never_leave_the_rise_out(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-09-18")
    a = with_samples("boston")
    two = a.ask("Ugh, I got two tickets for stopping my car in the marked bike lane outside my apartment. First one was "
                "Monday, August 20, and I totally forgot about it. Second one was a week ago today. If I pay them both "
                "today, how much in total?", "boston")
    assert "$233.00" in two.answer and "$200.00" not in two.answer, two.answer
    moved = a.ask("I got three tickets for parking in the bike lane, on August 1 and September 12. What do I owe today?",
                  "boston")
    assert "$300.00" not in moved.answer and "$200.00" not in moved.answer, moved.answer


# -- days said two ways -----------------------------------------------------------------------------------------------
def test_a_weekday_supposed_with_if_is_the_coming_one():
    turn = "If we end up doing an emergency dig on a busted water main this Wednesday, the day before Thanksgiving, when?"
    found = {s.span.text: s.day for s in read_slots(turn, ref=date(2027, 11, 22)) if s.kind == "date"}
    assert found == {"this Wednesday": date(2027, 11, 24), "the day before Thanksgiving": date(2027, 11, 24)}


def test_a_weekday_and_a_day_of_the_month_that_disagree_are_asked_about():
    turn = "We start Monday the 30th at 8 in the morning. Latest I can get it in?"
    day = next(s for s in read_slots(turn, ref=date(2027, 11, 22)) if s.kind == "date")
    assert day.day == date(2027, 11, 30) and day.precision == "day"
    said, as_written, other = weekday_disagrees(day)
    assert said == "Monday" and as_written == "Tuesday, November 30, 2027" and other == "Monday, November 29, 2027"
    asked = ("To work this out I need the date counted from: “Monday” and the date do not agree — November 30 is a "
             "Tuesday. Which do you mean: Tuesday, November 30, 2027 or Monday, November 29, 2027?")
    fixed, chosen = weekday_reply(asked, "the monday", turn)
    assert chosen == "Monday, November 29, 2027" and fixed.startswith("We start Monday, November 29, 2027 at 8")


def test_a_weekday_that_disagrees_with_a_date_joined_to_an_hour_is_asked_about(assistant, today):
    today("2027-11-22")
    a = assistant.ask("Need to get the written notice to the Town of Delafield Highway Commission before we dig. We "
                      "start Tuesday, November 29 at 8 in the morning. Latest I can get it in?", "delafield")
    assert a.status == "clarify" and "Monday, November 29, 2027" in a.answer and "November 26" not in a.answer, a.answer


# -- how long, not until when -----------------------------------------------------------------------------------------
def test_how_long_a_period_in_hours_lasts_is_stated_without_its_hour(assistant, today):
    today("2030-03-12")
    a = assistant.ask("We had a new concrete walk poured out front yesterday afternoon. How long do we need to keep the "
                      "kids and their bikes off it?", "brandon")
    assert a.status == "answered" and "48 hours" in a.answer and "Tell me the hour" in a.answer, a.answer
    assert a.citations and a.citations[0].quote in a.answer
    until = assistant.ask("We had a new concrete walk poured out front yesterday afternoon. Until when do we need to "
                          "keep the kids off it?", "brandon")
    assert until.status == "clarify", until.answer


# -- a slope from a run and a rise ------------------------------------------------------------------------------------
@pytest.mark.parametrize("turn", [
    "Our driveway climbs 19.5 feet over a run of 150 feet. Does that slope meet the rule?",
    "Driveway will be 24 feet wide with a horizontal run of 150 feet and it climbs 19.5 feet from the road. Does that "
    "slope meet the rule?"])
def test_a_run_and_a_rise_in_either_order_make_a_slope_held_against_the_slope_limit(turn):
    sentence = ("Every building hereafter erected shall have safe vehicular access by means of a paved driveway of "
                "sufficient width and adequate horizontal alignment to accommodate emergency vehicles and a slope not to "
                "exceed 12% at any such point.")
    slots = read_slots(turn)
    assert [s.value for s in limits.rise_over_run(turn, slots)] == ["13"]
    checks = limits.check_against(turn, slots, [sentence], frozenset())
    assert len(checks) == 1 and checks[0].limit.value == Decimal("12") and checks[0].measured.value == "13"


def test_a_slope_among_other_measurements_is_checked_in_an_answer(assistant, today):
    today("2030-05-21")
    a = assistant.ask("We're building at W302 N2160 in the town, 3-car garage, lot's 2.3 acres. Driveway will be 24 feet "
                      "wide with a horizontal run of 150 feet and it climbs 19.5 feet from the road to the garage. "
                      "Contractor quoted $18,400. Does that slope meet the town's rule?", "delafield")
    assert "13%" in a.answer and "12%" in a.answer and "16%" not in a.answer, a.answer


# -- second batch: parties, a guarantee, a surcharge, a pipe, an amount said as two numbers -----------------------------
def test_who_owes_who_what_asks_each_party(assistant, today):
    today("2027-11-22")
    a = assistant.ask("Me and the guy next door both had the Town of Delafield's asphalt crew redo our driveway aprons "
                      "out in the right-of-way. I put down a $1,850 deposit and my final bill was $2,040. He deposited "
                      "$2,200 and his bill came to $1,975. Who owes who what?", "delafield")
    assert a.status == "answered" and "$190.00" in a.answer and "$225.00" in a.answer, a.answer
    assert "“I put down”" in a.answer, a.answer  # (a party's label keeps no trailing article)


def test_a_guarantee_put_up_when_we_built_is_the_sum_held(assistant, today):
    today("2030-03-12")
    a = assistant.ask("When we built we put up a $2,000 cash guarantee for the curb and gutter. After we moved in the "
                      "town said our builder cracked the curb, fixed it, and billed us $650. We never paid that bill and "
                      "it's been well over a month. What happens to our $2,000?", "delafield")
    assert "$1,350.00" in a.answer and "$2,650" not in a.answer, a.answer


def test_a_permit_fee_given_for_a_surcharge_asks_the_paving_age(assistant, today):
    today("2027-11-22")
    a = assistant.ask("What surcharge does the Village of Brandon tack on for cutting into Maple Street? Our permit fee "
                      "is $175 and we're digging in May.", "brandon")
    assert a.status == "clarify" and "paving" in a.answer and "$875" not in a.answer, a.answer
    table = assistant.ask("Is there a surcharge for cutting into Maple Street?", "brandon")
    assert table.status == "answered", table.answer


def test_not_less_than_that_of_a_pipe_is_a_minimum():
    found = limits.limits_in("Such culvert shall be constructed of corrugated metal pipe and shall have a cross section "
                             "of not less than that of a 15\" pipe.")
    assert [(x.bound, x.value, x.unit) for x in found] == [("min", Decimal("15"), "in")]


def test_a_size_with_no_unit_before_the_thing_the_code_sizes_is_asked(assistant, today):
    today("2027-11-22")
    a = assistant.ask("I picked up a 12 corrugated metal pipe for the culvert under my new driveway. Will that pass with "
                      "the town?", "delafield")
    assert a.status == "clarify" and "“12”" in a.answer and "inches or feet" in a.answer, a.answer
    sized = assistant.ask("I picked up a 12 inch corrugated metal pipe for the culvert under my new driveway. Will that "
                          "pass with the town?", "delafield")
    assert "3 inches short of 15 inches" in sized.answer, sized.answer


def test_an_amount_said_as_tens_and_units_then_tens_is_read_whole():
    from assistant.answering.reading import unread_amounts

    turn = "the estimate they gave us is twenty-nine fifty for the whole stretch. how much do we pay?"
    assert unread_amounts(turn, read_slots(turn)) == [("twenty-nine fifty", (Decimal("2950"), Decimal("29.5")))]


def test_a_share_of_an_amount_said_two_ways_asks_which(assistant, today):
    today("2027-11-22")
    a = assistant.ask("hey so the village marked the sidewalk in front of our house for reconstruction and the estimate "
                      "they gave us is twenty-nine fifty for the whole stretch. how much of that do we actually end up "
                      "paying?", "brandon")
    assert a.status == "clarify" and "$2,950.00 or $29.50" in a.answer and "gives no amount" not in a.answer, a.answer
    assert "$1,475" not in a.answer


# -- third batch: a bill is a demand; a fee from the quoted section; hours a use may last --------------------------------
_LASTING = ("This permit shall be issued only for purposes of a parade, and only if the use of the right-of-way is for a "
            "period not to exceed three hours.")


def test_a_bill_dated_is_the_demand_a_period_counts_from():
    from assistant.answering import periods

    turn = "The city sent me the bill for the sidewalk repair, dated September 4. When would the lien kick in?"
    sentences = ["If, at the expiration of ten days from the sending or service of the said notice, the owner has failed "
                 "to comply, the Council shall order the work done.",
                 "If the claim of expenses or costs are not paid within 30 days from demand the notice and claim shall "
                 "be recorded in the office of the County Recorder."]
    got = periods.count_from(turn, read_slots(turn, ref=date(2029, 9, 18)), sentences, state="AZ")
    assert len(got) == 1 and got[0].day == date(2029, 10, 4) and "30 days" in got[0].words


@pytest.mark.parametrize("turn, end", [
    ("We got the parade permit for the Saturday rodeo parade starting at 9 am. What's the latest the street can stay "
     "closed until?", "12:00 PM"),
    ("The parade starts at 10:30 pm. How late can the street stay closed until?", "1:30 AM")])
def test_a_use_limited_to_hours_ends_that_many_hours_after_its_start(turn, end):
    from assistant.answering import periods, phrasing

    got = periods.count_from(turn, read_slots(turn, ref=date(2029, 9, 18)), [_LASTING])
    assert len(got) == 1 and f"{got[0].day:%-I:%M %p}" == end
    said = phrasing.period_counted(got[0])
    assert f"**{end}**" in said and ("the next day" in said) == (end == "1:30 AM"), said


def test_a_use_limited_to_hours_asks_its_start_when_none_is_given():
    from assistant.answering import periods

    turn = "We got the parade permit for the Saturday morning rodeo parade. What's the latest the street can stay closed until?"
    need = periods.start_needed(turn, read_slots(turn), [_LASTING])
    assert need is not None and need.words == "for a period not to exceed three hours"
    assert periods.start_needed("How long can a parade permit last?", [], [_LASTING]) is None


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/corpus-samples is not beside the repo")
def test_added_codes_fee_by_the_day_a_parades_hours_and_a_bills_lien(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-09-18")
    a = with_samples("somerville", "williams")
    box = a.ask("The city took one of our newspaper boxes off the sidewalk on Friday, August 31, and we're going over to "
                "pick it up today. What are we going to have to pay to get it back?", "somerville")
    assert "**$100.00**" in box.answer and "$115" not in box.answer, box.answer
    first = "We got the parade permit for the Saturday morning rodeo parade. What's the latest the street can stay closed until?"
    ask = a.ask(first, "williams")
    assert ask.status == "clarify" and "What time does it start?" in ask.answer, ask.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": ask.answer}]
    reply = a.ask("10 am", "williams", history=history)
    assert "**1:00 PM**" in reply.answer, reply.answer


# -- blocks "got marked", a neighbor's own clause ---------------------------------------------------------------------
def test_blocks_that_got_marked_and_each_neighbors_share(assistant, today):
    today("2027-11-22")
    one = assistant.ask("Village inspector went down our block spray painting sidewalk squares. My walk is 20 squares and "
                        "13 got marked. Do I have to rip out the whole walk?", "brandon")
    assert "**65%**" in one.answer, one.answer
    two = assistant.ask("Village inspector went down our block in Brandon spray painting sidewalk squares. My walk is 20 "
                        "squares and 13 got marked, my neighbor Jim's is 15 squares and 8 got marked. Does either of us "
                        "have to rip out the whole walk?", "brandon")
    assert "**65%**" in two.answer and "**53.33%**" in two.answer and "86.7" not in two.answer, two.answer


def test_my_neighbors_clause_is_the_neighbors():
    from assistant.answering.parties import _person

    assert _person("my neighbor Jim's is 15 squares and 8 got marked") == "other"
    assert _person("My walk is 20 squares and 13 got marked") == "asker"


def test_a_weekday_that_disagrees_with_its_day_counts_nothing_in_a_lookup():
    from assistant.answering import daily_fees

    turn = "The city took our newsrack on Monday the 6th and we pick it up today. What do we pay to get it back?"
    slots = read_slots(turn, ref=date(2029, 3, 8))
    sentence = ("A removed newsrack may be retrieved upon payment of a removal fee of $25.00 plus a storage fee of $5.00 "
                "per day, to a maximum combined removal and storage fee of $100.00.")
    assert daily_fees.owed(turn, slots, [sentence], date(2029, 3, 8)) is None
    fine = "Any person violating this section shall be subject to a fine of $100.00 for each offense."
    rise = "This fine shall increase by $33.00 if it remains unpaid at least 21 days after issuance of a notice."
    ticket = "I got a ticket on Monday the 6th. What do I owe today?"
    assert late_fines.owed(ticket, read_slots(ticket, ref=date(2029, 3, 8)), [(rise, f"{fine} {rise}")],
                           date(2029, 3, 30)) is None
