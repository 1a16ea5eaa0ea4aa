"""Readings and routes of session 14: compound relative dates, a 24-hour clock, a day in parentheses, seasons that
hold both calendars, times with their own date, another party's figures, the guarantee's balance, block counts,
elliptical counts of owners, a crew's hours, an emergency told in the earlier turn."""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering.parties import anothers_figures
from assistant.answering.reading import read_slots
from assistant.tools.charges import GuaranteeBalanceInput, guarantee_balance

THU = date(2026, 12, 10)


def _dates(text: str, ref: date = THU):
    return [(s.value, s.precision, s.days, s.span.text) for s in read_slots(text, ref=ref) if s.kind == "date"]


@pytest.mark.parametrize("text, value", [
    ("The letter is dated a week ago yesterday.", "2026-12-02"),
    ("It will be ready ten days from tomorrow.", "2026-12-21"),
    ("a year ago yesterday", "2025-12-09"),
    ("starting Tuesday after next", "2026-12-22"),
    ("on the Wednesday after New Year's", "2027-01-06"),
    ("Dig start 0700 hrs Mon 12/14.", "2026-12-14"),
])
def test_compound_relative_dates_are_counted_from_their_own_day(text, value):
    (found,) = _dates(text)
    assert found[0] == value and found[1] == "day"


def test_a_weekday_n_weeks_ago_later_in_the_week_than_today_keeps_both_readings():
    # said on a Thursday: the Friday of the calendar week two weeks back (Nov 27), or two weeks before last Friday
    (found,) = _dates("approved two weeks ago Friday")
    assert found[1] == "week" and found[2] == (date(2026, 11, 20), date(2026, 11, 27))
    (found,) = _dates("approved two weeks ago Monday")  # earlier in the week: one reading
    assert found[:2] == ("2026-11-23", "day")


def test_a_day_in_parentheses_after_a_month_is_that_day_of_it():
    (found,) = _dates("The street got its final asphalt in August 2023 (August 10).")
    assert found[:2] == ("2023-08-10", "day")


def test_a_24_hour_time_needs_a_leading_zero_or_a_word_that_times_it():
    times = lambda t: [s.value for s in read_slots(t, ref=THU) if s.kind == "time"]  # noqa: E731
    assert times("Dig start 0700 hrs Mon 12/14.") == ["07:00"]
    assert times("we start at 1330 hours tomorrow") == ["13:30"]
    assert times("the crew logged 1500 hours of work") == []


def test_the_time_said_in_the_dates_own_sentence_goes_with_it(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-10")
    a = assistant.ask("It quit snowing last Saturday around 9 at night. I didn't get my walk cleared until Monday at "
                      "6 PM. Was I past the deadline? When exactly was it?", "brandon")
    assert a.status == "answered" and "December 5, 2026 9:00 PM" in a.answer


def test_a_weeks_ago_weekday_with_two_readings_is_asked_for_a_deadline(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-10")
    a = assistant.ask("Our street opening permit got approved two weeks ago Friday. What's the last day it's good for?",
                      "brandon")
    assert a.status == "clarify" and "the day the permit was approved" in a.answer


def test_a_surcharge_stands_only_if_the_youngest_and_oldest_pavement_agree(assistant, monkeypatch):
    # "last spring" (March 1 to June 20) and "June 2028": under two years for a late-spring paving, over for an early one
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-10")
    a = assistant.ask("Our road got its final paving last spring. We need to open it in June 2028 and the permit fee "
                      "is $200. What's the surcharge going to be?", "brandon")
    assert a.status == "clarify" and "$600.00" not in a.answer and "$800.00" not in a.answer


def test_the_words_open_the_pavement_date_the_opening(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-09")
    a = assistant.ask("Fiber drop job: we open the pavement on December 16, 2026. That street got its final asphalt in "
                      "August 2023 (August 10). Permit fee is $175. What's the surcharge?", "brandon")
    assert a.status == "answered" and "$350.00" in a.answer


def test_figures_of_someone_else_are_not_the_askers():
    t = ("Village cleared both my sidewalk and my neighbor Dale's. Dale's bill was one guy, 2 hours at $41 an hour. "
         "A different crew did mine. What's my bill going to be?")
    a, b = t.find("2 hours"), t.find("$41")
    assert anothers_figures(t, [(a, a + 7), (b, b + 3)]) == "Dale"
    # the worker's own benefits are no other party; the asker's own sentence holds the figures
    t2 = "Two guys: one worked 1.5 hours at $28 an hour (that's with his benefits). What am I going to get billed?"
    a = t2.find("1.5 hours")
    assert anothers_figures(t2, [(a, a + 9)]) is None


def test_another_partys_figures_are_asked_about(assistant):
    a = assistant.ask("Village cleared both my sidewalk and my neighbor Dale's after the last storm. Dale's bill was one "
                      "guy, 2 hours at $41 an hour, plus the admin fee. A different crew did mine. What's my bill going "
                      "to be?", "brandon")
    assert a.status == "clarify" and "$107.00" not in a.answer


def test_guarantee_balance_is_the_guarantee_less_the_unpaid_bill():
    out = guarantee_balance(GuaranteeBalanceInput(municipality="delafield", guarantee="1500", unpaid_bill="640"))
    assert out.ok and out.balance_released == 860 and out.not_covered_by_guarantee == 0
    over = guarantee_balance(GuaranteeBalanceInput(municipality="delafield", guarantee="500", unpaid_bill="640"))
    assert over.balance_released == 0 and over.not_covered_by_guarantee == 140 and over.assumptions
    assert "financial guarantee" in out.citations[0].quote
    elsewhere = guarantee_balance(GuaranteeBalanceInput(municipality="brandon", guarantee="1500", unpaid_bill="640"))
    assert not elsewhere.ok


@pytest.mark.parametrize("question, status, figure", [
    ("Built a house and posted a $2,500 curb-and-gutter guarantee. The Town billed the owner $730 for a damaged "
     "gutter; the bill went unpaid past 30 days. How much of the guarantee comes back?", "answered", "$1,770.00"),
    ("The Town redid the ditch landscaping and billed me $640. I didn't pay within 30 days so they're taking it out of "
     "my $1,500 guarantee. My neighbor had a $2,000 guarantee and got billed $1,150. How much of my guarantee do I get "
     "back?", "answered", "$860.00"),
    ("The Town redid the seeding in my ditch and billed me $720, which I didn't pay within the 30 days. How much of my "
     "guarantee comes back to me?", "clarify", None),
])
def test_guarantee_questions(assistant, question, status, figure):
    a = assistant.ask(question, "delafield")
    assert a.status == status, a.answer
    if figure:
        assert figure in a.answer
    else:
        assert "guarantee" in a.answer and "$" not in a.answer.split("\n")[0].replace("$720", "")


def test_block_counts_give_the_share_and_the_assessment(assistant):
    a = assistant.ask("The inspector counted forty blocks in my sidewalk and twenty-five of them have a lip of an inch "
                      "or more. Replacing the whole walk runs two thousand nine hundred fifty dollars. What percent are "
                      "bad, and what would I pay?", "brandon")
    assert a.status == "answered" and "62.5%" in a.answer and "$1,475.00" in a.answer


def test_defective_blocks_without_a_total_ask_for_it(assistant):
    a = assistant.ask("14 of my sidewalk blocks have a lip over an inch. Does the whole walk have to be replaced?",
                      "brandon")
    assert a.status == "clarify" and "in all" in a.answer


@pytest.mark.parametrize("counts, each", [
    ("There are 4 houses on our side and 3 across the street.", "$2,700.00"),
    ("There are 4 homes on the north side and 3 on the south side.", "$2,700.00"),
])
def test_the_other_sides_count_may_leave_its_unit_out(assistant, counts, each):
    a = assistant.ask(f"Our street never had a sidewalk on either side. The Village is putting one in on our side only, "
                      f"total cost $18,900. {counts} What does each owner pay?", "brandon")
    assert a.status == "answered" and each in a.answer


def test_a_crews_hours_are_each_workers_when_each_has_a_rate(assistant):
    a = assistant.ask("The village cleared my walk. Two guys worked 1.5 hours; their rates with benefits are $42 and $38 "
                      "an hour. What will Brandon charge me?", "brandon")
    assert a.status == "answered" and "$145.00" in a.answer
    b = assistant.ask("Two guys cleared my walk, 3 hours between them, at $40 and $36 an hour. What's my bill?", "brandon")
    assert b.status == "clarify"


def test_minutes_reach_the_snow_charge_and_ask_for_the_rate(assistant):
    a = assistant.ask("A Village crew chipped the ice off my walk, two guys, about 90 minutes. What's that going to cost "
                      "me?", "brandon")
    assert a.status == "clarify" and "hourly rate" in a.answer


def test_a_repair_sheet_with_its_working_reads_each_lines_result(assistant):
    a = assistant.ask("Village fixed our faulty patch. Their sheet reads: labor -- 14 hrs @ $52 = $728 / materials -- "
                      "$1,115 / equipment -- $390. What's the total they can bill us?", "brandon")
    assert a.status == "answered" and "$2,679.60" in a.answer


def test_an_emergency_told_in_the_earlier_turn_dates_the_filing_deadline(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-09")
    first = ("We're the utility crew: a water main split under a Brandon street last Saturday night (December 5) and we "
             "dug it up right away with no permit. Were we allowed to do that?")
    a1 = assistant.ask(first, "brandon")
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    a2 = assistant.ask("Our paperwork only went in to the Village Clerk today. Do we still get out of the permit fee? "
                       "What was the last day to file for that?", "brandon", history=history)
    assert "December 8, 2026" in a2.answer and "January 8, 2027" not in a2.answer


def test_a_driveways_run_then_its_rise_give_the_slope(assistant):
    a = assistant.ask("Building on a 2.3 acre lot (house plans 2,800 sq ft). The driveway will be 150 feet long and climbs "
                      "15 feet from the road up to the garage. What's the slope and is that ok with the town?", "delafield")
    assert a.status == "answered" and "10%" in a.answer


def test_the_final_layers_date_outranks_the_streets_first_construction(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-10")
    a = assistant.ask("Lakeview Dr was first built in 2019 but the final surface course went down September 14, 2024. "
                      "We'll open the street April 20, 2027. Permit fee is $90. What's the surcharge?", "brandon")
    assert a.status == "answered" and "$270.00" in a.answer


def test_an_approval_date_is_not_tied_with_the_work_it_approves(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-10")
    a = assistant.ask("Our trench across a Town road: dug June 3, 2026, filled and surfaced June 10, and the Town approved "
                      "the filling and surfacing July 6, 2026. Until what date are we on the hook for settling?", "delafield")
    assert a.status == "answered" and "July 6, 2027" in a.answer


def test_two_deadlines_asked_with_by_what_day_are_both_worked_out(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-10")
    a = assistant.ask("Dig start 0700 hrs Mon 12/14. When's the latest we can call DPW with the location, and by what day "
                      "do the Clerk and the affected neighbors need notice?", "brandon")
    assert "December 12, 2026 7:00 AM" in a.answer and "December 11, 2026" in a.answer


@pytest.mark.parametrize("question, day", [
    ("The Town Board wants the public hearing on an amendment on the twenty-first of January, 2027. What's the last date "
     "the notice can run?", "January 11, 2027"),
    ("I'm having a guy replace three slabs of the public sidewalk on the Wednesday after New Year's. What's the latest "
     "day I can get the permit?", "January 4, 2027"),
])
def test_last_date_and_holiday_relative_days_reach_the_deadline_rules(assistant, monkeypatch, question, day):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-10")
    muni = "delafield" if "Town Board" in question else "brandon"
    a = assistant.ask(question, muni)
    assert a.status == "answered" and day in a.answer, a.answer


@pytest.mark.parametrize("turn, sentence, unit", [
    ("How much will the city charge me for the permit to dig a trench?",
     "The fee shall be $2.00 for excavations which do not exceed 25 square feet; and $0.25 for each additional square "
     "foot.", "square foot"),
    ("What will the city charge us for the year?", "There shall be an annual fee of $25.00 per newsrack.", "newsrack"),
    ("What does an excavation permit cost?", "The fee shall be $2.00 for 25 square feet; and $0.25 for each "
     "additional square foot.", None),  # the fee in general: the rates quoted answer it
    ("They hauled one of our boxes away. What will it cost us?", "An annual fee of $25.00 per newsrack.", None),
    ("How much is the annual fee per newsrack?", "There shall be an annual fee of $25.00 per newsrack.", None),
    ("What will the city bill us for our 7 newsracks?", "There shall be an annual fee of $25.00 per newsrack.", None),
    ("What's the fine going to cost me?", "A fine of $100.00 for each offense.", None),  # a fine per offense: quoted
    ("How much will the permit cost me?", "The permit fee is $50.00.", None),
])
def test_an_amount_charged_by_a_quantity_the_question_does_not_give_asks_for_it(turn, sentence, unit):
    from assistant.answering.rates import needs_quantity

    assert needs_quantity(turn, read_slots(turn, ref=THU), sentence) == unit


def test_a_date_with_its_day_unreadable_names_only_the_month():
    (found,) = _dates("Our permit stamp reads 'APPROVED 11/__/26', the day got smeared.")
    assert found[:2] == ("2026-11-01", "month")


def test_the_latest_date_to_get_a_permit_asks_for_the_work_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-10")
    a = assistant.ask("What's the latest date I can get a permit to fix my sidewalk?", "brandon")
    assert a.status == "clarify" and "the sidewalk work is to start" in a.answer


@pytest.mark.parametrize("question, day", [
    ("The Village Board plans to start repaving Oak Street on June 7, 2027. What is the last day the Board can make "
     "that decision?", "May 8, 2027"),
    ("Repaving of our street is scheduled to begin May 3, 2027. By what date does the Village have to decide on it?",
     "April 3, 2027"),
])
def test_the_repaving_determination_is_counted_back_from_the_work(assistant, monkeypatch, question, day):
    # the catalogue held every dated rule of the two texts but this one (§ 404-7I: the determination not less than
    # 30 days before the work of improvement or repaving begins); without it the five-year moratorium answered
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-04")
    a = assistant.ask(question, "brandon")
    assert a.status == "answered" and day in a.answer and "2032" not in a.answer, a.answer


@pytest.mark.parametrize("question, muni, earliest", [
    ("The Village Board voted to repave our street on the Monday before Thanksgiving this year. What's the earliest "
     "the repaving work can actually start?", "brandon", "December 23, 2026"),
    ("Our insurer mailed the Town notice on Wednesday, January 6, 2027 that they're dropping the policy we filed in "
     "lieu of the bond. What's the earliest the cancellation can take effect?", "delafield", "January 16, 2027"),
    ("We notified the Director of Public Works at 8 AM on Saturday, January 9, 2027. What's the earliest we can start "
     "digging?", "brandon", "January 11, 2027 8:00 AM"),
])
def test_a_dated_notice_or_decision_gives_the_earliest_event(assistant, monkeypatch, question, muni, earliest):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-04")
    a = assistant.ask(question, muni)
    assert a.status == "answered" and f"**{earliest}**" in a.answer and "the earliest" in a.answer, a.answer


def test_an_earliest_day_is_never_answered_with_a_last_day(assistant, monkeypatch):
    # no notice dated: the catalogue's last days (a moratorium's end, a permit's latest day) do not answer it; the end of
    # a wait the dated event starts does (session 36: the walk is kept free of all traffic for 48 hours after the pour)
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-04")
    a = assistant.ask("We're placing the sidewalk concrete Monday, December 7, 2026 at 10:00 AM. When is the earliest "
                      "people can walk on it?", "brandon")
    rules = [c.arguments.get("rule") for c in a.tool_calls if c.name == "deadline"]
    assert rules == ["brandon_sidewalk_curing_traffic"] and "December 9, 2026 10:00 AM" in a.answer, a.answer
    a = assistant.ask("The Board wants the public hearing on January 21, 2027. What's the earliest and the latest date "
                      "the notice can go in the paper?", "delafield")
    assert "December 22, 2026" in a.answer and "January 11, 2027" in a.answer


def test_an_amount_pointed_to_in_another_subsection_is_said_to_be_left_to_the_board(assistant):
    # (6)(a) requires "the financial guarantee herein provided in subsection (3) above"; (3)(a) leaves its amount to
    # a resolution of the Town Board: the answer says who sets it and quotes both
    a = assistant.ask("What financial guarantee amount is required for curb and gutter when a building permit is "
                      "issued?", "delafield")
    assert a.status == "not_stated" and "Town Board" in a.answer and "resolution" in a.answer, a.answer
    assert {c.subsection for c in a.citations} >= {"(3)(a)", "(6)(a)"}


def test_what_x_amount_asks_for_a_figure():
    from assistant.answering.planner import QUANTITY_Q

    assert QUANTITY_Q.search("What financial guarantee amount is required?")
    assert QUANTITY_Q.search("what bond amount do we need")
    assert not QUANTITY_Q.search("What happens to the amount left over?")


def test_a_notice_dated_by_no_single_day_is_asked_about_as_the_notice(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-04")
    a = assistant.ask("We notified the Director of Public Works sometime last week. What's the earliest we can start "
                      "digging?", "brandon")
    assert a.status == "clarify" and "the day the notice or decision was given" in a.answer, a.answer
