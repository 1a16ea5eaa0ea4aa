"""Session 38: readings that decide a figure or an ask, on any question.

"Do I have to redo all of it?" with "13 out of my 20 squares" is the share of bad blocks first, then the owner's part
("what's my share" asks money); a bare number right after a document's name that is then priced in dollars ("invoice
7781 for $640") is the document's number; a rise "78 inches higher" over a run "50 feet from the road to the garage" is
a slope; the part of a length asked ("how much of that can be concrete?") is worked from the sentence naming what is
asked of; "last Tuesday" said later in the same week names two days; "half past seven" with no morning or evening is
asked; "quoted a hundred sixty", "two hundred even" and "put up two grand cash" are amounts; "does anything else happen"
asks the fallout; "not finished by then" asks the renewal; "it looks fine to me" is no fine; a well or septic repair is
the ditch-crossing exception's.
"""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering.reading import user_slots
from assistant.retrieval.expansion import expand


def _tools(answer) -> list[str]:
    return [c.name for c in answer.tool_calls]


# -- the share of bad blocks, then the owner's part --------------------------------------------------------------------
def test_redo_all_of_it_is_the_share_then_the_assessment(assistant):
    first = "What makes a sidewalk square count as defective in the village?"
    before = assistant.ask(first, municipality="brandon")
    a = assistant.ask("They marked 12 out of my 18 squares. Do I have to redo all of it? The estimate is $3,000 for the "
                      "replacement, so what's my share?", municipality="brandon",
                      history=[{"role": "user", "content": first}, {"role": "assistant", "content": before.answer}])
    assert a.status == "answered", a.answer
    assert _tools(a) == ["sidewalk_defect_check", "sidewalk_assessment"], a.answer
    assert "**66.67%**" in a.answer and "entire sidewalk" in a.answer and "$1,500.00" in a.answer, a.answer


def test_a_year_and_a_price_before_the_counts_are_no_count(assistant):
    a = assistant.ask("We bought 212 Oak St in 2019 for $189,000. Of the 30 sidewalk squares out front the village marked "
                      "21 as defective and the estimate is $6,000. Do they replace all of it, and what's my share?",
                      municipality="brandon")
    assert a.status == "answered", a.answer
    assert "**70%**" in a.answer and "$3,000.00" in a.answer, a.answer


# -- a document's number is no amount ----------------------------------------------------------------------------------
def test_an_invoice_number_priced_in_dollars_is_no_amount():
    read = user_slots("The Town sent invoice 5512 for $410 dated March 3.")
    assert [(s.kind, s.span.text) for s in read if s.kind == "money"] == [("money", "$410")]


def test_the_guarantee_balance_leaves_the_invoice_number_out(assistant, today):
    today("2030-04-20")
    a = assistant.ask("We posted a $3,000 cash deposit for the ditch landscaping at our culvert in the Town of Delafield. "
                      "They redid the seeding and sent invoice 4419 for $520 dated March 1 that we never paid. How much of "
                      "the deposit comes back?", municipality="delafield")
    assert a.status == "answered" and "$2,480.00" in a.answer and "$4,419" not in a.answer, a.answer


# -- a rise told in inches "higher than the road" over a run "from the road to the garage" ----------------------------
def test_a_rise_higher_than_the_road_over_a_run_from_to(assistant):
    a = assistant.ask("The drive runs 40 feet from the edge of the road to the garage, and the garage slab sits 60 inches "
                      "higher than the road. Is that too steep for the Town of Delafield?", municipality="delafield")
    assert a.status == "answered" and ("**12.5%**" in a.answer or "12.5 %" in a.answer), a.answer


# -- the part of a length: the sentence naming what is asked of --------------------------------------------------------
def test_how_much_of_the_drive_can_be_concrete(assistant):
    a = assistant.ask("From the road blacktop up to our garage is 55 feet. How much of that driveway can be concrete?",
                      municipality="delafield")
    assert a.status == "answered" and "**52 feet**" in a.answer, a.answer
    assert a.citations[0].subsection == "(4)(a)", a.citations[0]


# -- "last Tuesday" said later that week: two days ---------------------------------------------------------------------
def test_last_weekday_later_in_the_week_keeps_both_days(today):
    today("2031-02-27")  # a Thursday
    (slot,) = [s for s in user_slots("The notice came last Monday.") if s.kind == "date"]
    assert slot.precision == "week" and slot.days == (date(2031, 2, 17), date(2031, 2, 24)), slot
    # said on a Monday, "last Friday" is the one three days back: one day
    today("2031-03-03")
    (slot,) = [s for s in user_slots("The notice came last Friday.") if s.kind == "date"]
    assert slot.precision == "day" and slot.day == date(2031, 2, 28), slot


def test_last_weekday_later_in_the_week_is_asked_for_a_catalogued_deadline(assistant, today):
    today("2029-05-17")  # a Thursday
    a = assistant.ask("The village decided against us on our sidewalk last Tuesday. What's the last day to appeal?",
                      municipality="brandon")
    # (asked, or each reading counted and said: both days are named either way, never one alone)
    assert a.status in ("clarify", "answered"), a.answer
    assert "May 15, 2029" in a.answer and "May 8, 2029" in a.answer, a.answer


def test_added_code_counts_both_readings_of_last_weekday_under_the_state_rule(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2030-11-21")  # a Thursday
    a = with_samples("williams")
    got = a.ask("The streets superintendent gave me a notice last Tuesday to repair my broken sidewalk. What is the last "
                "day before the city does it at my expense?", "williams")
    assert got.status == "answered", got.answer
    assert "November 12, 2030" in got.answer and "November 19, 2030" in got.answer, got.answer
    assert "Ariz. Rev. Stat." in got.answer, got.answer


# -- an hour in words with no morning or evening -----------------------------------------------------------------------
def test_half_past_seven_is_asked_morning_or_evening(assistant, today):
    today("2029-11-14")
    a = assistant.ask("We open the trench in a Town road at half past seven on Monday, December 3. When does the written "
                      "notice to the Town have to be in?", municipality="delafield")
    assert a.status == "clarify" and "half past seven" in a.answer and "morning" in a.answer, a.answer


# -- amounts in words ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, amounts", [
    ("The clerk quoted a hundred forty for the permit.", ["140"]),
    ("Labor nineteen hundred, materials four twenty-five, equipment three hundred even.", ["1900", "425", "300"]),
    ("Equipment came to two hundred flat.", ["200"]),
])
def test_worded_amounts_after_a_quote_or_before_even(text, amounts):
    assert [s.value for s in user_slots(text) if s.kind == "money"] == amounts


def test_put_up_cash_is_the_guarantee(assistant):
    a = assistant.ask("We put up three grand cash with the Town when the culvert went in. The Town redid the ditch seeding "
                      "and billed us four hundred twenty, which we never paid. What do we get back?",
                      municipality="delafield")
    assert a.status == "answered" and "$2,580.00" in a.answer, a.answer


# -- the other asks of a worked question -------------------------------------------------------------------------------
def test_does_anything_else_happen_quotes_the_revocation(assistant):
    a = assistant.ask("The village said our trench patch was faulty and fixed it when we didn't. Labor was $1,000, "
                      "materials $300 and equipment $200. What will they bill us, and does anything else happen to us?",
                      municipality="brandon")
    assert a.status == "answered" and "$1,800.00" in a.answer, a.answer
    assert "one-year revocation" in a.answer, a.answer


def test_not_finished_by_then_asks_the_renewal(assistant, today):
    today("2029-04-11")
    a = assistant.ask("Our street opening permit was approved today. How long is it valid, and what if we aren't "
                      "finished by then?", municipality="brandon")
    assert a.status == "answered" and "renewal" in a.answer, a.answer


# -- words that are no topic: "looks fine"; a well's repair ------------------------------------------------------------
def test_looks_fine_is_no_fine():
    assert "penalty" not in expand("The walk looks fine to me.", "brandon")
    assert "forfeit" not in expand("That's fine by me.", "brandon")
    assert "penalty" in expand("Is there a fine for that?", "brandon")


def test_a_push_back_on_a_repair_order_is_the_appeal(assistant):
    a = assistant.ask("The village sent a notice saying my sidewalk needs to be fixed, but it seems fine to me. Can I "
                      "push back on that?", municipality="brandon")
    assert a.status == "answered" and "Board of Public Works" in a.answer, a.answer


def test_a_well_repair_through_the_ditch_is_the_ditch_crossing_exception(assistant):
    a = assistant.ask("Our septic system failed and the pumper truck has to drive through the roadside ditch to reach "
                      "it. Is that allowed in the Town?", municipality="delafield")
    assert a.status == "answered" and "plumbing permit" in a.answer, a.answer


# -- a depth "plus the thickness of the base course" -------------------------------------------------------------------
def test_a_depth_plus_the_users_base_thickness(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2031-03-04")
    a = with_samples("chagrin-falls")
    walk = a.ask("Pouring a new walk in front of our house with 2 inches of base course under it. How deep do we dig?",
                 "chagrin-falls")
    assert walk.status == "answered" and "**6 inches**" in walk.answer, walk.answer
    first = "We're replacing a residential driveway apron in the village. How thick does the concrete have to be?"
    before = a.ask(first, "chagrin-falls")
    apron = a.ask("ok, and with 3 inches of base under it, how deep is the excavation?", "chagrin-falls",
                  history=[{"role": "user", "content": first}, {"role": "assistant", "content": before.answer}])
    assert apron.status == "answered" and "**9 inches**" in apron.answer, apron.answer


# -- a weekday said bare, by the tense of its clause; an hour asked for a period in hours ---------------------------
def test_a_bare_weekday_is_read_by_its_tense(today):
    today("2031-02-26")  # a Wednesday
    def dates(text):
        return [(s.value, s.span.text) for s in user_slots(text) if s.kind == "date"]
    assert dates("We start pouring on Friday.") == [("2031-02-28", "Friday")]
    assert dates("We're set to open the trench Saturday.") == [("2031-03-01", "Saturday")]
    assert dates("I got the notice on Monday.") == [("2031-02-24", "Monday")]
    assert dates("Is the office open Friday?") == []  # no tense tells which Friday
    assert dates("We start on Wednesday.") == []  # today's weekday: today, or a week off
    assert dates("The notice is dated Friday, July 2, 2027.") == [("2027-07-02", "July 2, 2027")]


def test_a_day_with_no_hour_is_asked_for_a_period_in_hours(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2031-03-04")  # a Tuesday
    a = with_samples("crawfordville")
    got = a.ask("We're set to start refilling our excavation on Thursday. What's the latest I can give the clerk notice?",
                "crawfordville")
    assert got.status == "clarify" and "ten hours" in got.answer and "Thursday" in got.answer, got.answer


# -- a limit's value written twice: the span its own words name ------------------------------------------------------
def test_a_bond_amount_equal_to_a_limit_is_not_that_limit(assistant):
    a = assistant.ask("Instead of the $10k indemnity bond, our sub will file an insurance certificate for a Town street "
                      "opening: bodily injury $10,000 per person / $30,000 per accident, property damage $10,000. Does "
                      "it meet the minimums?", municipality="delafield")
    assert a.status == "answered", a.answer
    assert "per accident limit $30,000.00" in a.answer, a.answer


def test_a_permit_fee_left_to_the_board_is_found_below_the_story(assistant):
    a = assistant.ask("What does the village charge for the permit to replace a couple of cracked squares of the public "
                      "sidewalk out front?", municipality="brandon")
    assert a.status == "not_stated" and "Village Board" in a.answer, a.answer


# -- a number of things left open; days passed told in weeks or months ----------------------------------------------
def test_a_bunch_of_things_charged_each_is_asked_and_a_month_unpaid_is_late(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2031-03-04")
    a = with_samples("boston")
    carts = a.ask("The city took several of our shopping carts from the parking lot next door and has had them in storage "
                  "for 2 days. What will it cost to get them back?", "boston")
    assert carts.status == "clarify" and "how many carts" in carts.answer, carts.answer
    counted = a.ask("The city took 4 of our shopping carts and has had them in storage for 2 days. What will it cost to "
                    "get them back?", "boston")
    assert counted.status == "answered" and "$140.00" in counted.answer, counted.answer  # 3 x $20 + $40 + 4 x 2 x $5
    late = a.ask("Our van got a ticket in the Pedestrian Safety Zone without a permit, and it has sat unpaid for over a "
                 "month. What do we owe now?", "boston")
    assert late.status == "answered" and "$133.00" in late.answer, late.answer


# -- "their rate" said before the workers are: whose rate is asked --------------------------------------------------
def test_their_rate_said_before_the_crew_is_asked_each_or_together(assistant):
    a = assistant.ask("The village plowed the snow off my walk. They said their rate was $50 an hour and three workers were there two "
                      "hours. What will I be billed?", municipality="brandon")
    assert a.status == "clarify" and "each one's, or for all of them together" in a.answer, a.answer
    b = assistant.ask("The village sent 3 workers who shoveled my walk for 2 hours; their rate is $50 an hour. What will I be "
                      "billed?", municipality="brandon")
    assert b.status == "answered" and "$325.00" in b.answer, b.answer  # 3 x 2 x $50 + $25


# -- a price left to an office by "will be determined by"; an inspection's price named by its own sentence ------------
def test_an_inspection_fee_determined_by_an_office_is_not_stated_and_who_sets_it(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2031-03-04")
    a = with_samples("somerville")
    got = a.ask("Our trucks need the city's side guard and mirror inspection before the contract starts. What does the city "
                "charge for that inspection?", "somerville")
    assert got.status == "not_stated" and "fleet division" in got.answer and "$500" not in got.answer, got.answer


def test_the_weekday_before_the_fourth_is_of_july(today):
    today("2029-07-11")
    def dates(text):
        return [(s.value, s.span.text) for s in user_slots(text) if s.kind == "date"]
    assert dates("They assigned our number the tuesday before the fourth.") == [("2029-07-03", "the tuesday before the fourth")]
    assert dates("It was the Tuesday before the fourth week.") == []


def test_two_lots_rise_over_run_each(assistant):
    a = assistant.ask("Two new homes: Lot 1's driveway climbs 5 feet over a 50 foot run, lot 2's climbs 8 feet over 50 "
                      "feet. Do both driveways meet the Town's slope limit?", municipality="delafield")
    assert a.status == "answered" and "**10%**" in a.answer and "**16%**" in a.answer, a.answer


def test_in_closing_its_clause_or_before_a_measure_is_inches():
    def lengths(text):
        return [(s.value, s.unit) for s in user_slots(text) if s.kind == "length"]
    assert lengths("If my base course is 3 in, how deep do I dig?") == [("3", "in")]
    assert lengths("A 5 in thick slab.") == [("5", "in")]
    assert lengths("We put 4 in the trench.") == []


# -- a short ask after a story: its own code words first; a price of one thing in worded hundreds ----------------------
def test_a_short_ask_after_a_story_is_quoted_first(assistant):
    a = assistant.ask("An inspector marked half my sidewalk squares and now the village wants them replaced. They look "
                      "perfectly fine to me. Can I fight this?", municipality="brandon")
    assert a.status == "answered" and "Board of Public Works" in a.citations[0].quote, a.answer


def test_worded_hundreds_priced_per_square_are_money(assistant):
    a = assistant.ask("The village estimate is four-twenty a square and they're replacing 10 squares of my walk. What's "
                      "my share?", municipality="brandon")
    assert a.status == "answered" and "$2,100.00" in a.answer, a.answer


def test_a_rough_price_per_square_is_asked(assistant):
    a = assistant.ask("The village is replacing 12 squares of my walk and says it runs a couple hundred a square. What "
                      "will I be assessed?", municipality="brandon")
    assert a.status == "clarify" and "a couple hundred" in a.answer, a.answer


# -- dev set 2 kinds: a permit of another kind; the asker's trade's estimate; worded hundreds beside a cost part ----------
def test_a_rule_of_another_kind_of_permit_is_not_the_permits_day(assistant, today):
    today("2028-10-04")
    a = assistant.ask("Our street opening permit was approved on Monday, September 11. It's a long job. Through what date "
                      "is the permit good?", municipality="brandon")
    assert a.status == "answered" and "October 11, 2028" in a.answer, a.answer


def test_a_contractors_estimate_is_the_askers(assistant):
    a = assistant.ask("The village marked 16 of the 20 slabs on my walk as bad. Contractor's estimate for the whole walk "
                      "is $5,000. Do I have to redo all of it, and what's my share?", municipality="brandon")
    assert a.status == "answered" and "$2,500.00" in a.answer, a.answer


def test_worded_hundreds_beside_their_cost_part_are_money():
    read = user_slots("Their sheet shows seven-twenty labor, two-ten materials and one-ninety for the equipment.")
    assert [s.value for s in read if s.kind == "money"] == ["720", "210", "190"]
    assert [s.kind for s in user_slots("The truck comes at seven-thirty for the equipment drop.")] == []


def test_a_part_of_the_day_then_a_date_then_the_hour(today):
    today("2028-10-04")
    read = user_slots("If the snow stops Friday night, January 12, around 10, when do I have to clear it?")
    assert [(s.kind, s.value) for s in read] == [("date", "2029-01-12"), ("time", "22:00")]


def test_a_weight_listed_as_a_bare_number_asks_its_unit(assistant):
    a = assistant.ask("We need to move our wheel loader a few blocks down a Town road. Its data plate lists operating "
                      "weight as 7,500. Do we need a permit?", municipality="delafield")
    assert a.status == "clarify" and "7,500" in a.answer, a.answer
