"""Session 26: readings that decide a figure, on any question.

A rise "over the last 30 feet" or "over a run of thirty six feet" is a driveway's run, and the slope is said with how
far it is from the limit; a follow-up that asks "same question" of a new value replaces the earlier turn's value of its
kind; "this summer" and "two years ago this June" count from this year's season or month; a bill's date is the one the
bill's words cue ("dated Friday, August 4"), not a season of the work; a bill counted from its receipt is counted from
the day it came ("I got it Wednesday"), and the day it was mailed is not taken for that day; a repair bill's roller,
truck or skid steer is equipment and "a dozen bags of cold patch at $18.50 a bag" is $222 of materials; "each of us"
with "for my neighbor's (...) $4,185" gets two figures; "what expiration date do I put on it" asks a date, and a clerk
logging a firm's permit is asking no figure of their own; "Monday the 6th" that is no recent Monday is no single day;
"one of the bills ... the other" does not say which amount is unpaid; of two periods whose events the question names,
the one whose act it asks ("hold the hearing") is counted; "what's the spec" asks the code's figures, not one of the
user's.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from assistant.answering import periods
from assistant.answering.reading import priced, read_query, read_slots


def test_a_rise_over_the_last_stretch_is_a_slope_said_against_the_limit(assistant):
    ans = assistant.ask("Our paved driveway will climb a steady 5 feet over the last 40 feet before the garage. Is "
                        "that allowed by the Town?", "delafield")
    assert ans.status == "answered" and "**12.5%**" in ans.answer and "0.5% more than 12%" in ans.answer
    worded = assistant.ask("The drive climbs three feet over a run of thirty feet. What's the grade and is it ok?",
                           "delafield")
    assert worded.status == "answered" and "**10%**" in worded.answer and "2% less than 12%" in worded.answer


def test_same_question_of_a_new_value_replaces_the_earlier_one(assistant):
    first = "The Town had our new road cored and the asphalt came back an inch short. What lift do we need?"
    a1 = assistant.ask(first, "delafield")
    assert "**1 inch**" in a1.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    a2 = assistant.ask("and on the other road in the plat it was an inch and a half short. same question",
                       "delafield", history)
    assert a2.status == "answered" and "**1.5 inches**" in a2.answer


@pytest.mark.parametrize("text, ref, want", [
    ("this summer", date(2028, 1, 26), "2028-06-01"),  # said in January: the coming summer
    ("this summer", date(2028, 10, 2), "2028-06-01"),  # said in October: the one just gone
    ("this spring", date(2028, 3, 1), "2028-03-01"),  # said on its first day: this one
    ("this winter", date(2028, 11, 20), "2028-12-01"),  # said in November: the one about to begin
    ("this winter", date(2028, 1, 20), "2027-12-01"),  # said in January: the one under way
    ("two years ago this June", date(2029, 3, 8), "2027-06-01"),  # June of this year, two years back
    ("two years ago last June", date(2029, 3, 8), "2026-06-01"),  # the latest June gone, two years back
])
def test_this_season_and_this_month_are_this_years(text, ref, want):
    got = [s for s in read_slots(text, ref=ref) if s.kind == "date"]
    assert [s.value for s in got] == [want]


def test_a_bills_date_is_the_one_its_words_cue_not_the_season_of_the_work(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("The Town's crew will redo the apron of our driveway in the right-of-way this summer. Say we put "
                        "down the $1,600 deposit, and then the final bill, dated Friday, August 4, 2028, comes in at "
                        "$1,975. How much more would we owe and by when?", "delafield")
    assert ans.status == "answered"
    assert "$375.00" in ans.answer and "September 5, 2028" in ans.answer  # (30 days: Sunday, then Labor Day)


def test_a_bill_counted_from_its_receipt(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    got = assistant.ask("I left a trailer on the sidewalk, got the 24-hour notice and missed it, so the village hauled "
                        "it off. The bill came in the mail and I got it Monday, March 6, 2028. What's the last day to "
                        "pay?", "brandon")
    assert got.status == "answered" and "March 16, 2028" in got.answer
    mailed = assistant.ask("The village took away the lumber I had piled on the sidewalk and mailed me a bill for it "
                           "on March 6. When's the payment due?", "brandon")
    assert mailed.status == "clarify" and "received" in mailed.answer and "March 16" not in mailed.answer


def test_a_repair_bills_machines_are_equipment_and_a_count_at_a_price_is_their_product(assistant):
    ans = assistant.ask("The contractor never fixed his settled patch so the Village crew did. Labor was $900, we used "
                        "ten bags of cold patch at $21 a bag, and the roller and truck came to $300. What's the total "
                        "bill with the administration charge?", "brandon")
    assert ans.status == "answered"
    assert "$210.00" in ans.answer and "**$1,692.00**" in ans.answer  # ($900 + $210 + $300) x 1.2
    text = "We used 14 sheets of plywood at $40 per sheet and a dozen bags of sand at $6.50 a bag."
    amounts = [s for s in priced(list(read_query(text).slots), text) if s.kind == "money"]
    assert [(s.value, s.unit) for s in amounts] == [("560", "USD"), ("78", "USD")]


def test_a_price_per_bag_with_no_count_is_no_total(assistant):
    ans = assistant.ask("The Village patched our cut for us. Labor was $900, the cold patch was $21 a bag and the "
                        "equipment $300. What's the total bill with the administration charge?", "brandon")
    assert ans.status == "clarify" and "$1,465" not in ans.answer  # ($900 + $21 + $300) x 1.2: never


def test_each_of_us_with_the_neighbors_amount_after_whose_it_is(assistant):
    ans = assistant.ask("The Village is rebuilding the walk on our block. The estimate for my stretch is $2,400 and for "
                        "my neighbor's (it wraps the corner) $3,100. What will each of us be assessed?", "brandon")
    assert ans.status == "answered" and "$1,200.00" in ans.answer and "$1,550.00" in ans.answer


def test_a_clerk_asking_what_date_to_put_on_a_firms_permit(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-03-08")
    ans = assistant.ask("Clerk here. Acme Plumbing's street opening permit was approved May 2, 2029. What expiration "
                        "date do I put on it?", "brandon")
    assert ans.status == "answered" and "June 1, 2029" in ans.answer


def test_a_weekday_and_day_of_month_that_no_recent_month_joins_is_no_single_day():
    # (session 42: "the 6th" is read as this month's, its weekday left before it, so that the weekday check asks which
    # day is meant; no period is counted from it)
    from assistant.answering.slot_safety import weekday_disagrees

    turn = "It was issued on Monday the 6th. When does it expire?"
    slots = [s for s in read_slots(turn, ref=date(2029, 3, 8)) if s.kind == "date"]
    assert len(slots) == 1 and weekday_disagrees(slots[0]) is not None
    assert periods.count_from(turn, slots, ["The permit shall expire 30 days after the date of issuance."]) == []
    # (this month's: "Tuesday the 6th" said on March 8, 2029 is March 6)
    slots = [s for s in read_slots("It was issued on Tuesday the 6th.", ref=date(2029, 3, 8)) if s.kind == "date"]
    assert [(s.value, s.precision) for s in slots] == [("2029-03-06", "day")]


def test_one_of_the_bills_and_the_other_does_not_say_which_is_unpaid(assistant):
    ans = assistant.ask("After our culvert went in the Town billed us $300 for seeding the ditch and later $520 for "
                        "erosion repair. We put up a $1,500 cash guarantee. We paid one of the bills but the other is "
                        "still unpaid after two months. How much of the guarantee comes back?", "delafield")
    assert ans.status == "clarify" and "$300" in ans.answer and "$520" in ans.answer
    assert "$1,200.00" not in ans.answer and "$980.00" not in ans.answer


def test_of_two_named_events_the_period_of_the_asked_act_is_counted():
    sentences = ["An owner may obtain a hearing by making a written petition for a hearing within fifteen (15) "
                 "calendar days of receipt of the notice of removal.",
                 "The hearing shall be held within thirty (30) calendar days from the date of the hearing request."]
    turn = "We'll hand in the hearing request on Monday, October 30. By when does the city have to hold the hearing?"
    slots = list(read_query(turn, ref=date(2028, 9, 27)).slots)
    got = periods.count_from(turn, slots, sentences)
    assert len(got) == 1 and got[0].day == date(2028, 11, 29)


def test_the_codes_spec_asked_is_quoted_not_asked_back(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("A contractor is restoring a cut in one of our concrete streets next Tuesday. What's the spec "
                        "I should hold them to for depth and curing?", "brandon")
    assert ans.status == "answered" and "seven inches" in ans.answer


def test_hourly_rates_listed_are_each_a_workers_rate(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("The village crew cleared the walk at my rental while I was away. They sent two guys for two "
                        "hours. Their sheet shows hourly rates with benefits of $40.00 and $45.00. What's the removal "
                        "charge?", "brandon")
    assert ans.status == "answered" and "**$195.00**" in ans.answer  # (2 x $40 + 2 x $45) + $25
    slots = read_query("Hourly rates with benefits of $40.00 and $45.00.").slots
    assert [s.unit for s in slots if s.kind == "money"] == ["USD/hour", "USD/hour"]


def test_a_follow_ups_day_counts_the_period_of_the_act_its_conversation_asked():
    sentences = ["Any person aggrieved by the decision or action of the Officer may appeal to the Board within 10 "
                 "days of such official action.",
                 "Written notice of the appeal shall be filed with the Officer."]
    turn = "The decision was dated Friday, September 29, 2028. What's the last day I can file?"
    slots = list(read_query(turn, ref=date(2028, 9, 27)).slots)
    # (since session 30 its own dated words tie the period by its event: "such official action" is the decision or
    # action the sentence names before it, and "The decision was dated ..." dates it)
    own = periods.count_from(turn, slots, sentences)
    assert len(own) == 1 and own[0].day == date(2028, 10, 9)
    other = "The permit was dated Friday, September 29, 2028. What's the last day I can file?"
    assert periods.count_from(other, list(read_query(other, ref=date(2028, 9, 27)).slots), sentences) == []
    got = periods.count_from(turn, slots, sentences, topic="The Officer turned down my request. Can I appeal that?")
    assert len(got) == 1 and got[0].day == date(2028, 10, 9)
