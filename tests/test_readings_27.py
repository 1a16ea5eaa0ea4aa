"""Session 27: readings that decide a figure, on any question.

A sentence that only says what day today is ("Today is the 19th.") dates no event; a time said just before its day
("the snow quit around 10 PM on Saturday the 15th") leaves the day its own words; an "or" in brackets ("the snow event
(or drifting) ended") names one event, not two; a bill that "lands in my mailbox" on a day dates the bill, not the
notice before it; "the latest I can give the village and the neighbors notice" asks a day before the work; two crews
each with their own start ("Crew 1 starts ..., crew 2 starts ...") get one deadline each; a follow-up's "a week
later" is the day the conversation gave, moved, and the answer says from which day.
"""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering import parties, roles
from assistant.answering.reading import read_query, read_slots


def _dates(text: str, ref: date) -> list[str]:
    return [s.value for s in read_slots(text, ref=ref) if s.kind == "date"]


@pytest.mark.parametrize("text, want", [
    ("The letter is dated April 13, 2028. Today is the 19th. When is the deposit due?", ["2028-04-13"]),
    ("Today's date is 4/19/2028. The notice was dated April 13, 2028.", ["2028-04-13"]),
    ("It's April 19 today. The notice was dated April 13.", ["2028-04-13"]),
    ("today is Wednesday; the notice is dated April 13, 2028.", ["2028-04-13"]),
])
def test_a_sentence_saying_what_day_today_is_dates_no_event(text, want):
    assert _dates(text, date(2028, 4, 19)) == want


@pytest.mark.parametrize("text", [
    "The notice came today. When is it due?",  # today is the day of the event
    "Today is when the notice came. When is it due?",
])
def test_today_as_the_day_of_an_event_is_kept(text):
    assert "2028-04-19" in _dates(text, date(2028, 4, 19))


def test_a_time_said_before_its_day_leaves_the_day_its_own_words():
    q = read_query("Back in January the snow quit around 10 PM on Saturday the 15th. I came home Monday the 17th to a "
                   "notice on my door. When was it due?", ref=date(2028, 4, 19))
    saturday = next(s for s in q.slots if s.kind == "date" and "15th" in s.span.text)
    assert "snow quit" in roles.own_words_before(saturday, q)
    got = roles.event_date(q, "date and time the snow event (or drifting) ended")
    assert not isinstance(got, roles.Ambiguous) and got.value == "2028-01-15"


def test_an_or_outside_brackets_still_names_two_events():
    q = read_query("The town gave our house its address on March 3, 2027 and we move in April 20, 2027.",
                   ref=date(2027, 3, 1))
    assert isinstance(roles.event_date(q, "date of assignment or of initial occupancy"), roles.Ambiguous)


def test_the_snow_deadline_over_a_holiday_weekend(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-19")
    ans = assistant.ask("In January the snow quit around 10 PM on Saturday the 15th. I was out of town and got back "
                        "Monday the 17th (Martin Luther King Day) to a notice about my walk. When did I really have "
                        "to have it cleared by?", "brandon")
    assert ans.status == "answered" and "January 18, 2028 10:00 PM" in ans.answer


def test_a_bill_that_lands_in_the_mailbox_dates_the_bill(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-19")
    ans = assistant.ask("I left a rack of bikes on the sidewalk, got a notice to move it in 24 hours, didn't, and the "
                        "village hauled it off. If the bill for that lands in my mailbox on Friday, June 9, 2028, "
                        "what's the last day I can pay it?", "brandon")
    assert ans.status == "answered" and "June 20, 2028" in ans.answer and "10 calendar days" in ans.answer


def test_the_latest_to_give_notice_asks_a_day_before_the_work(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-19")
    ans = assistant.ask("We start digging a lateral in a Brandon street at 8:00 AM on Tuesday, May 30, 2028. What's "
                        "the latest I can give the village and the neighbors notice?", "brandon")
    # the start notice to the Director, 24 hours leaving out Sunday and Memorial Day; never a day 30 days after the
    # work starts, nor the repaving determination's 30 days before it
    assert ans.status == "answered" and "May 27, 2028 8:00 AM" in ans.answer
    assert "June 29, 2028" not in ans.answer and "April 30, 2028" not in ans.answer
    # a denied utility shutoff pulls no rule that notifies utilities
    denied = assistant.ask("We start digging a lateral in a Brandon street at 8:00 AM on Tuesday, May 30, 2028. No "
                           "utility shutoffs involved. What's the latest I can give the village and the neighbors "
                           "notice?", "brandon")
    assert "May 27, 2028 8:00 AM" in denied.answer and "April 30, 2028" not in denied.answer


def test_crews_named_by_number_are_parties():
    text = ("Two crews have permits. Crew 1 starts excavating Monday Nov 1 at 7:00 AM, crew 2 starts Friday Nov 12 at "
            "7:30 AM. What's the latest we can notify the Director for each dig?")
    got = parties.split_parties(text, ("Nov 1", "Nov 12"))
    assert got is not None and [p.label for p in got] == ["Crew 1", "crew 2"]


def test_each_crews_notice_is_counted_from_its_own_start(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-10-28")
    ans = assistant.ask("Two road cuts in the Town: Crew A starts Monday Nov 1 at 7 am on Maple Ln, crew B starts "
                        "Friday Nov 12 at 9am on Elm Rd. What's the latest each written notice can reach the Highway "
                        "Commission?", "delafield")
    assert ans.status == "answered"
    assert "October 29, 2027 7:00 AM" in ans.answer and "November 9, 2027 9:00 AM" in ans.answer


def test_a_week_later_in_a_follow_up_moves_the_day_given_before(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-10-28")
    first = "We're mailing culvert notices for existing driveways on Monday, November 1. What deposit deadline goes on them?"
    a1 = assistant.ask(first, "delafield")
    assert "November 12, 2027" in a1.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    a2 = assistant.ask("One letter got held up and will go out a week later. What date goes on that one?", "delafield",
                       history)
    assert a2.status == "answered" and "November 18, 2027" in a2.answer
    assert "from “November 1”, said before" in a2.answer


def test_a_week_later_with_no_day_given_before_is_no_date():
    assert _dates("It'll go out a week later.", date(2027, 10, 28)) == []


def test_one_party_by_name_and_the_asker_by_the_person_are_both_asked_about(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-10-28")
    ans = assistant.ask("My neighbor Dale and I both used the Town's asphalt crew for our aprons. Dale deposited "
                        "$3,000 and his final cost came to $2,640. I deposited $2,500 but mine came to $2,815. The Town "
                        "billed us both on October 19. What does Dale get back, what do I owe, and by when do I have "
                        "to pay?", "delafield")
    assert ans.status == "answered"
    assert "$360.00" in ans.answer and "$315.00" in ans.answer and "November 18, 2027" in ans.answer


def test_asked_about_names_and_persons():
    both = parties.asked_about("Jim paid $3,200. I paid $2,600. What does Jim get back, and what do I owe?",
                               [parties.Party("Jim paid", ""), parties.Party("I paid", "")])
    assert len(both) == 2
    one = parties.asked_about("Jim paid $3,200. I paid $2,600. What does Jim get back?",
                              [parties.Party("Jim paid", ""), parties.Party("I paid", "")])
    assert [p.label for p in one] == ["Jim paid"]


def test_an_emergency_fee_asked_is_no_deadline(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-19")
    ans = assistant.ask("A water service burst last month and we dug the street that night, a real emergency. Nobody "
                        "filed the permit for a week, so we missed the free window. What's the fee we owe now?",
                        "brandon")
    assert ans.status == "not_stated" and "Village Board" in ans.answer


def test_by_when_listed_last_is_an_ask_of_its_own():
    from assistant.answering.planner import asked_parts
    assert asked_parts("The numbers: how big do they have to be, where do they go, and by when?")[-1] == \
        "where do they go"


def test_the_actual_date_asked_without_a_date_is_asked_for(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-10-28")
    ans = assistant.ask("we just moved into our new house in the town. how long until the house numbers have to be up, "
                        "what's the actual date?", "delafield")
    assert ans.status == "clarify" and "date" in ans.answer


def test_a_misspelt_street_word_still_names_the_public_way(assistant):
    # "dog" is off-topic unless the question names the public way; "sidwalk" does, in the code's spelling
    ans = assistant.ask("how far out r my neigbors tree limbs alowed to hang over the sidwalk?? i keep hitting my head "
                        "walkin the dog", "brandon")
    assert ans.status == "answered" and "404-" in ans.answer


@pytest.mark.parametrize("question, kind", [
    ("can my kid skateboard on the big plaza by city hall? whats the fine if he gets caught?", "money"),
    ("How big do the house numbers have to be?", "size"),
    ("Is a 10 inch pipe big enough for the culvert?", "size"),
    ("What size culvert pipe do I need?", "size"),
])
def test_big_as_a_place_word_asks_no_size(question, kind):
    from assistant.answering.planner import figure_kind
    assert figure_kind(question) == kind


@pytest.mark.parametrize("asking", ["What can they come after me for, all in?", "What will it be all told?"])
def test_all_in_asks_the_sum_a_penalty_on_a_cost_gives(asking):
    from assistant.answering import rates
    rule = ("Each such person or entity by whose failure makes it necessary that the Director of Public Works causes "
            "work to be done, shall be liable to the city for the cost of such work, plus a penalty of 10% of such cost.")
    turn = f"The city had its crew clear my sidewalk while I was away. Their record says the work cost $412.50. {asking}"
    got = rates.work_out(turn, read_slots(turn, ref=date(2029, 1, 10)), [(rule, rule)])
    assert got and "$453.75" in got[0].shown()


_FINE = "Any person violating this section shall be subject to a fine of one hundred dollars ($100.00) for each offense."
_RISE = ("This fine shall increase by thirty-three dollars ($33.00) if it remains unpaid at least twenty-one (21) days "
         "after issuance of a notice of the violation.")


@pytest.mark.parametrize("paid, want", [("April 9", "$133.00"), ("March 20", "$100.00")])
def test_a_rising_fine_is_owed_as_of_the_day_it_is_paid(paid, want):
    from assistant.answering import late_fines
    turn = f"The ticket is dated March 5, 2029 and I didn't get around to paying it until {paid}. How much do I owe?"
    section = f"{_FINE} {_RISE}"
    got = late_fines.owed(turn, read_slots(turn, ref=date(2029, 1, 10)), [(_FINE, section), (_RISE, section)],
                          date(2029, 1, 10))
    assert got is not None and got.shown() == want and "the day it is paid" in got.steps[0]


def test_the_real_numbers_of_amounts_left_to_the_board_are_not_stated(assistant):
    ans = assistant.ask("Bidding a street opening on a town road. Our estimator put in $150 for the permit application "
                        "fee and a $10,000 performance bond from memory. What are the real numbers for those two?",
                        "delafield")
    assert ans.status == "not_stated" and "$150" not in ans.answer.split("\n\n", 1)[0]


SAMPLES = __import__("pathlib").Path(__file__).resolve().parents[2] / "shared" / "corpus-samples"


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/corpus-samples is not beside the repo")
def test_added_codes_penalty_section_and_a_fine_asked_beside_a_place(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-01-10")
    a = with_samples("chagrin-falls", "boston")
    # a section with no penalty of its own: what skipping the permit brings is the chapter's penalty section
    skip = a.ask("A couple of my sidewalk squares are cracked and I want to replace them myself. Do I need a permit, "
                 "and what happens if I skip it?", "chagrin-falls")
    assert skip.status == "answered" and "903.99" in skip.answer and "separate offense" in skip.answer
    # "the big plaza by city hall" is a place, not a size asked: the fine asked is stated
    fine = a.ask("can my kid skateboard on the big plaza by city hall? whats the fine if he gets caught?", "boston")
    assert fine.status == "answered" and "$100.00" in fine.answer


def test_two_sides_of_a_slab_with_neither_said_to_be_the_width_are_asked_about(assistant):
    ans = assistant.ask("I'm replacing a few sidewalk slabs myself. The slabs are 5 by 6. How much lower does the curb "
                        "side have to be than the house side?", "brandon")
    assert ans.status == "clarify" and "5 feet or 6 feet" in ans.answer and "1/2 inch per foot" in ans.answer
    said = assistant.ask("I'm replacing a few sidewalk slabs myself. The walk is 5 feet wide. How much lower does the "
                         "curb side have to be than the house side?", "brandon")
    assert said.status == "answered" and "**2.5 inches**" in said.answer


def test_next_weekday_said_the_day_before_names_both_readings_in_words(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-10-28")  # a Thursday
    ans = assistant.ask("Our subdivision gets final approval from the town next Friday. How long after that does the "
                        "building inspector have to assign the addresses - what date are we looking at?", "delafield")
    # (since session 28 each reading is named with its day, from the reading's own call the answer carries)
    assert ans.status == "clarify" and "tomorrow, October 29, 2027, or the Friday of the week after, November 5, 2027" \
        in ans.answer


def test_it_took_them_is_the_crews_time_each(assistant):
    ans = assistant.ask("The Village crew cleared my walk after I didn't get to it. Three of your guys, took them about "
                        "two hours. The rate with benefits is $30 an hour per man. What's the bill going to be?",
                        "brandon")
    assert ans.status == "answered" and "**$205.00**" in ans.answer  # 3 x 2 h x $30 + $25
    total = assistant.ask("The Village crew cleared my walk. Three of your guys, took them about two hours in total. "
                          "The rate with benefits is $30 an hour per man. What's the bill going to be?", "brandon")
    assert "**$205.00**" not in total.answer


def test_an_hour_with_no_morning_or_evening_is_asked_in_words(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-10-28")
    ans = assistant.ask("We're pouring the new public sidewalk at 6 this Saturday, temps should be normal. When can we "
                        "open it back up to foot traffic?", "brandon")
    assert ans.status == "clarify" and "“at 6” in the morning or the evening (a.m. or p.m.)" in ans.answer


def test_the_deadline_of_ones_own_event_with_no_date_asks_the_date(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-10-28")
    own = assistant.ask("Our new subdivision just got final approval from the Town. What's the deadline for the Building "
                        "Inspector to assign addresses to the new building sites?", "delafield")
    assert own.status == "clarify" and "date of final approval" in own.answer
    rule = assistant.ask("What's the deadline for clearing snow off the sidewalk?", "brandon")
    assert rule.status == "answered"


def test_hitting_the_curb_is_damage_to_report_and_correct(assistant):
    ans = assistant.ask("I jackknifed my trailer into the curb this morning and a chunk of the concrete broke off. "
                        "Do I have to report this to somebody, and do I have to fix it?", "brandon")
    assert ans.status == "answered" and "404-18" in ans.answer and "Police Department" in ans.answer


def test_a_figure_asked_beside_another_ask_is_stated_when_its_own_ask_finds_it(assistant):
    ans = assistant.ask("Building a house on a hillside lot in the Town. The owner wants the driveway short, so it's "
                        "steep. How steep can it be, and does the drive have to be in before we start framing?",
                        "delafield")
    assert ans.status == "answered" and "12%" in ans.answer
