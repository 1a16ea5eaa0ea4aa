"""Session 24: readings that decide a figure, on any question.

"under the blacktop" asks no limit check (only "under the limit" does); a party's own day said as "today" is that
party's day; a rule with no fixed date is not asked a date for; one amount for the repair bill's parts listed together is
their sum; several notices asked of one dated start get every start notice the municipality's data lists; topics a
streets chapter does not cover (golf carts, street lights, hours of work) are out of scope.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from assistant.answering import limits
from assistant.tools.charges import VillageRepairBillInput, village_repair_bill


def test_under_the_blacktop_asks_no_limit_check():
    assert not limits.ASKS_CHECK.search("What is the total depth of gravel under the blacktop on the new road?")
    assert not limits.ASKS_CHECK.search("What depth of stone sits under the pavement?")
    assert limits.ASKS_CHECK.search("We're 2 tons under the limit, right?")
    assert limits.ASKS_CHECK.search("Is a 7 ton truck over the posted weight?")


def test_a_distractor_length_in_a_road_story_gets_no_limit_check(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("Our new subdivision has about 2,400 ft of road and 30 lots. Through the marshy stretch, how "
                        "deep is the stone under the blacktop?", "delafield")
    assert "Against “" not in ans.answer and "2395" not in ans.answer


def test_a_partys_day_said_as_today_is_its_own_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("The Town's culvert letters went out to both of us: mine is dated October 3, my neighbor's is "
                        "dated today. What's the last day for each of us to deposit the cost?", "delafield")
    assert ans.status == "answered"
    assert "October 13, 2028" in ans.answer and "October 26, 2028" in ans.answer
    assert "(“today”)" in ans.answer


def test_a_rule_with_no_fixed_date_is_not_asked_a_date(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-03-22")
    ans = assistant.ask("Is there a cutoff date in the fall after which the Town stops letting contractors open "
                        "roads?", "delafield")
    assert ans.status == "answered"
    assert "frozen" in ans.answer


def test_one_amount_for_the_parts_listed_together_is_their_sum(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-03-22")
    ans = assistant.ask("The permittee never corrected his bad patch, so the Village crew did it. Labor, materials and "
                        "equipment ran $1,500. What do we bill?", "brandon")
    assert ans.status == "answered"
    assert "$1,800.00" in ans.answer and "(“$1,500”, for “Labor, materials and equipment” together)" in ans.answer
    # a part neither listed nor denied is still asked for, never taken as $0
    ans = assistant.ask("The permittee never corrected his bad patch, so the Village crew did it. Labor and materials "
                        "ran $1,500, and the equipment was billed apart. What do we bill?", "brandon")
    assert ans.status == "clarify"


def test_the_tool_adds_an_amount_given_for_the_parts_together():
    out = village_repair_bill(VillageRepairBillInput(municipality="brandon", combined_cost=Decimal("1000"),
                                                     equipment_cost=Decimal("200")))
    assert out.subtotal == Decimal("1200.00") and out.total == Decimal("1440.00")
    assert "given as one amount + $200.00 equipment" in out.explanation


def test_several_notices_asked_of_one_start_get_every_start_notice(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-03-22")
    ans = assistant.ask("Our crew starts excavating a Brandon street at 8:00 AM on Wednesday, May 3, 2028. Which "
                        "notices do we have to give ahead of the work, and by when?", "brandon")
    assert ans.status == "answered"
    assert "May 2, 2028 8:00 AM" in ans.answer  # 24 hours before, to the Director of Public Works
    assert "**May 2, 2028**" in ans.answer  # one business day before, to the Clerk and everyone affected
    # one notice named: that one alone
    ans = assistant.ask("Our crew starts excavating a Brandon street at 8:00 AM on Wednesday, May 3, 2028. By when "
                        "do we tell the Director of Public Works?", "brandon")
    assert "one business day" not in ans.answer


@pytest.mark.parametrize("question", [
    "Can my teenager drive a golf cart on the streets to the pool?",
    "Who do I ask to get a street light put up at the corner?",
    "What hours can a road crew run jackhammers on our street?",
])
def test_topics_a_streets_chapter_does_not_cover_are_out_of_scope(assistant, question):
    assert assistant.ask(question, "brandon").status == "out_of_scope"


def test_a_rise_over_its_run_in_words_and_a_last_ask_without_its_question_mark(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("Our driveway climbs 4'6\" over its forty feet of length. Does that pass the Town's slope "
                        "rule?", "delafield")
    assert "rise 4.5 feet" in ans.answer and "run 40 feet (“forty feet”)" in ans.answer
    assert "11.25%" in ans.answer
    # a worded run taken whole ("a hundred and ten feet", not "ten feet"), and the last ask typed without "?"
    ans = assistant.ask("the driveway is a hundred and ten feet long and climbs about fifteen feet to the garage. is "
                        "that ok? and if not whats the most rise i could have over that length", "delafield")
    assert "run 110 feet" in ans.answer
    assert "13.2 feet" in ans.answer


def test_a_week_that_holds_the_days_named_is_no_date_of_its_own():
    from assistant.answering import roles
    from assistant.answering.reading import read_query

    q = read_query("Next week we start: the dig is Tuesday the 24th.", ref=__import__("datetime").date(2028, 10, 16))
    days = roles._one_per_day(list(q.of("date")))
    assert [s.precision for s in days] == ["day"]


def test_a_value_taken_back_beside_its_correction_is_not_read(assistant, monkeypatch):
    from assistant.answering.reading import read_query

    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    q = read_query("Materials were actually $485, not $385.")
    assert [s.value for s in q.of("money")] == ["485"]
    q = read_query("Labor was not $900 but $1,200.")
    assert [s.value for s in q.of("money")] == ["1200"]
    first = ("The Village repaired our faulty patch and billed labor $1,000, materials $200 and equipment $300. What "
             "is the total with the administration charge?")
    ans = assistant.ask(first, "brandon")
    assert "$1,800.00" in ans.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": ans.answer}]
    ans = assistant.ask("They corrected the bill: equipment was $400 instead of $300. New total?", "brandon", history)
    assert ans.status == "answered" and "$1,920.00" in ans.answer


def test_the_rest_of_a_worked_passage_answers_an_ask_beside_the_figure(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("The contractor never fixed his faulty patch, so the Village did: labor $500, materials $100, "
                        "equipment $200. What's the total we bill him, and does it affect his future permits?",
                        "brandon")
    assert "$960.00" in ans.answer
    assert "one-year revocation" in ans.answer
    assert "snow removal" not in ans.answer


def test_stone_and_lift_asked_as_two_asks_get_each_figure_not_their_sum(assistant, monkeypatch):
    from assistant.answering.routes.checks import road_focus

    assert road_focus("how deep is the stone under the road, and what's the asphalt lift?", False) == "each"
    assert road_focus("total thickness of stone plus the first asphalt lift?", False) == "both"
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("New subdivision road for the Town, with a marshy stretch. How much stone goes under the "
                        "pavement in that stretch, and how thick is the first asphalt lift?", "delafield")
    assert "**16 inches**" in ans.answer and "**2.5 inches**" in ans.answer
    assert "18.5" not in ans.answer


def test_a_turn_about_the_next_thing_inherits_no_earlier_value(assistant, monkeypatch):
    from assistant.answering.reading import read_query

    q = read_query("Ok, next one is the driveway on Elm. How steep can it be?", "The driveway is 40 feet long.")
    assert not q.of("length")
    q = read_query("And how steep can it be?", "The driveway is 40 feet long.")
    assert [s.value for s in q.of("length")] == ["40"]
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    first = "New residential walk, 72 inches wide. What's the least fall toward the curb across it?"
    ans = assistant.ask(first, "brandon")
    assert "3 in" in ans.answer or "**3 inches**" in ans.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": ans.answer}]
    ans = assistant.ask("Ok next one is the walk in front of the shop downtown. What's the fall at its minimum width?",
                        "brandon", history)
    assert "6 ft of width" not in ans.answer and "3 in of fall" not in ans.answer


def test_too_late_asks_the_day_a_period_before_the_event_gives():
    from datetime import date

    from assistant.answering import periods
    from assistant.answering.reading import read_query

    turn = "Our parade is on Sunday, November 11. Are we already too late to apply?"
    assert periods.ASKS_A_DAY.search(turn)
    q = read_query(turn, ref=date(2029, 10, 10))
    counted = periods.count_from(turn, list(q.of("date")), [
        "The applicant has submitted an application for a parade permit at least one month prior to the date of the "
        "parade;"])
    assert [c.day for c in counted] == [date(2029, 10, 11)]


def test_a_code_word_of_the_question_names_no_case_of_an_amount():
    from assistant.answering import conditions

    s = ("The deposit shall be in the sum of $25.00 if no pavement is involved or $75.00 if the excavation is in a "
         "paved area.")
    turn = "How much of a deposit do they want before they issue my excavation permit?"
    from assistant.retrieval.lexical import stems
    assert conditions.condition_needed(turn, [s]) is None  # "excavation" read as the paved case's own word
    needed = conditions.condition_needed(turn, [s], stems("excavation permit street"))
    assert needed is not None and len(needed.conditions) == 2
    # the user's own word for a case still says which
    assert conditions.condition_needed("How much of a deposit for my cut in the paved area?", [s],
                                       stems("excavation permit street")) is None


def test_a_shops_fixtures_may_take_the_walk_less_its_clear_width(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("Our cafe's sidewalk is nine and a half feet wide. We'd put a bench and two planters against "
                        "the storefront. How far out can they come?", "brandon")
    assert ans.status == "answered"
    assert "**6.5 feet**" in ans.answer and "leaving 3 feet clear" in ans.answer
    assert any(c.section == "404-8" and (c.subsection or "").startswith("C") for c in ans.citations)
    # building materials keep their own rule (half the sidewalk)
    ans = assistant.ask("We're stacking lumber on the 8 ft sidewalk for a remodel. How much of the sidewalk can it "
                        "cover?", "brandon")
    assert "**4 feet**" in ans.answer and "Fixtures may take" not in ans.answer


def test_deadlines_in_the_plural_and_whats_unpunctuated_ask_a_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("we drove the truck through the roadside ditch for a well repair, job wrapped up last monday. "
                        "whats the date the ditch has to be fixed by", "delafield")
    assert "**November 8, 2028**" in ans.answer  # Monday October 9 + 30 days
    ans = assistant.ask("Two well jobs where we crossed the roadside ditch: a repair on Oak Rd we finished October 2, "
                        "and a new lateral my other crew finished October 4. What are the deadlines for each ditch?", "delafield")
    assert "November 1, 2028" in ans.answer and "November 3, 2028" in ans.answer


def test_a_follow_up_bond_question_keeps_the_conversations_permit(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-03-22")
    first = ("The clerk issued us a street privilege permit for a dumpster out front on March 1, 2028. How long is it "
             "good for?")
    ans = assistant.ask(first, "brandon")
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": ans.answer}]
    ans = assistant.ask("and is there a bond for that? how much?", "brandon", history)
    assert "§ 404-9" in ans.answer and "§ 404-6" not in ans.answer


def test_a_coarse_date_that_holds_today_is_no_second_date_to_count_from(monkeypatch):
    from datetime import date

    from assistant.answering import periods
    from assistant.answering.reading import read_query

    monkeypatch.setenv("ASSISTANT_TODAY", "2029-10-10")
    turn = "The final repair was done June 3, 2027. Now (October 2029) it is sinking. Until what date are we liable?"
    q = read_query(turn, ref=date(2029, 10, 10))
    sentence = ("The permittee shall be responsible for any settlement for a period of three years from the date of "
                "the final repair.")
    assert [c.day for c in periods.count_from(turn, list(q.of("date")), [sentence])] == [date(2030, 6, 3)]
    # a coarse date of another time is a second date: nothing is counted
    turn = "The final repair was done June 3, 2027, and it cracked in March 2028. Until what date are we liable?"
    q = read_query(turn, ref=date(2029, 10, 10))
    assert periods.count_from(turn, list(q.of("date")), [sentence]) == []


def test_two_asks_with_a_total_asked_too_get_each_figure_and_their_sum():
    from assistant.answering.routes.checks import road_focus

    assert road_focus("what's the total stone under the road, and what's the asphalt lift?", False) == "each_sum"


def test_n_years_ago_this_past_month_is_that_month_n_years_back():
    from datetime import date

    from assistant.answering.reading import read_query

    q = read_query("They repaved it two years ago this past June.", ref=date(2028, 10, 16))
    assert [(s.value, s.precision) for s in q.of("date")] == [("2026-06-01", "month")]


def test_the_first_and_last_dates_of_a_window_ask_the_event_they_count_from(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("The Board is amending chapter 8. What are the earliest and latest dates the hearing notice "
                        "can run in the paper?", "delafield")
    assert ans.status == "clarify" and "public hearing" in ans.answer
    ans = assistant.ask("The public hearing on amending chapter 8 is November 20, 2028. What are the first and last "
                        "dates the notice can run?", "delafield")
    assert ans.status == "answered" and "October 21, 2028" in ans.answer and "November 10, 2028" in ans.answer


def test_the_weight_over_a_posted_limit_is_said_in_pounds_too():
    from assistant.tools.specs import HeavyVehicleInput, heavy_vehicle_check

    r = heavy_vehicle_check(HeavyVehicleInput(municipality="delafield", gross_weight_tons=Decimal("6.35"),
                                              temporary_limit_posted=True))
    assert r.tons_over_limit == Decimal("0.35") and str(r.pounds_over_limit) == "700"
    r = heavy_vehicle_check(HeavyVehicleInput(municipality="delafield", gross_weight_tons=Decimal("5"),
                                              temporary_limit_posted=True))
    assert r.pounds_over_limit == 0


def test_what_can_happen_beside_a_worked_deadline_quotes_the_sections_penalty(assistant, monkeypatch):
    from assistant.answering.planner import _CONSEQUENCE_ASK

    assert not _CONSEQUENCE_ASK.search("is that fine")
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-03-22")
    ans = assistant.ask("Snow stopped at 8 PM on Tuesday, March 14, 2028. When did my neighbor have to have his walk "
                        "cleared, and what can happen to him if he didn't?", "brandon")
    assert "**March 15, 2028 8:00 PM**" in ans.answer
    assert "fine of $30 up to $1,000" in ans.answer


def test_a_trench_length_behind_or_ahead_of_the_pipe_is_held_against_its_own_limit(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("We have about 200 yards of open trench behind the pipe we've already laid. Over the limit? "
                        "By how much?", "brandon")
    assert ans.status == "answered" and "**100 feet** over the 500-foot limit" in ans.answer
    assert "(“200 yards”)" in ans.answer
    ans = assistant.ask("Our trench is 240 feet ahead of the pipe laying. Are we OK?", "brandon")
    assert "within the 250-foot limit" in ans.answer
    # a length said of neither is not held against either limit
    ans = assistant.ask("We dug 300 feet of trench for the pipe. Are we over the limit?", "brandon")
    assert "trench_check" not in ans.answer


def test_a_trench_depth_is_no_trench_length(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-10-16")
    ans = assistant.ask("After the pipe's in we've got a yard and a half of depth to backfill in the trench behind it. "
                        "How many lifts?", "brandon")
    assert "trench_check" not in ans.answer and "500-foot limit" not in ans.answer
