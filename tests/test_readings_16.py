"""Readings of session 16: a section named by number inside a question, a size given as dimensions, the price of a
named thing, a bill as the notice of charges, a crew's time on the job, abbreviated and compound durations, a
24-hour time after "@", a paving's age after "age:", and the public way's works as street words."""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering.reading import read_slots
from assistant.retrieval.citations import SECTION_IN_TEXT

THU = date(2026, 12, 17)


def _slots(text: str, kind: str, ref: date = THU):
    return [(s.value, s.unit, s.span.text) for s in read_slots(text, ref=ref) if s.kind == kind]


# -- a section named by number ----------------------------------------------------------------------------
@pytest.mark.parametrize("text, number", [
    ("What does 903.99 provide?", "903.99"), ("show me § 152.18", "152.18"), ("under sec. 30-48, is a bond due?", "30-48"),
    ("what's the fine in 16-12.8A.6", "16-12.8A.6"), ("text of 903.02(d)(6) please", "903.02"),
])
def test_a_section_number_inside_a_question_is_found(text, number):
    assert [m.group(1) for m in SECTION_IN_TEXT.finditer(text)] == [number]


@pytest.mark.parametrize("text", ["$42.50 an hour", "a 12.5% grade", "1.5 feet deep", "for 2.5 hours", "12.04 feet"])
def test_sums_lengths_and_dates_are_no_section_numbers(text):
    assert not list(SECTION_IN_TEXT.finditer(text))
    # a date is read whole ("12-20-2026", no section of any code), never as a section "12-20"
    assert [m.group(1) for m in SECTION_IN_TEXT.finditer("due 12-20-2026")] == ["12-20-2026"]


def test_a_question_asking_only_for_a_sections_text_gets_the_whole_section(assistant):
    a = assistant.ask("What does § 404-18 say?", "brandon")
    assert a.status == "answered"
    assert a.answer.startswith("**Village of Brandon Code § 404-18**")  # the whole section, not its first subsection
    assert {c.section for c in a.citations} == {"404-18"} and len(a.citations) >= 3
    assert "within 10 days" in a.answer


def test_a_section_named_in_a_question_is_searched_first(assistant):
    a = assistant.ask("How long do I have to correct damage under 404-18?", "brandon")
    assert a.status == "answered" and a.citations[0].section == "404-18"
    assert "10 days" in a.answer


# -- figures stated and not ---------------------------------------------------------------------------------
def test_a_size_given_as_dimensions_without_a_unit_is_stated(assistant):
    a = assistant.ask("UNIFORM ADDRESS SYSTEM: what is the minimum size of the numbers to be installed?", "delafield")
    assert a.status == "answered" and "3½ high" in a.answer


def test_the_price_of_a_named_thing_is_stated_only_by_a_sentence_about_it(assistant):
    # "assessed 50% of the cost of sidewalk reconstruction" prices something else than the permit
    a = assistant.ask("How much is the permit to replace a sidewalk square in Brandon?", "brandon")
    assert a.status == "not_stated" and "Village Board" in a.answer and "50%" not in a.answer


# -- dated events -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("question, day", [
    # a bill delivered is the "actual notice of the charges" a lien counts from
    ("The Village did the pavement repair on a street opening and the bill for it was delivered to the applicant "
     "and owner today. When does it become a lien if unpaid?", "March 16, 2027"),
    # "the village's bill" shares no event word with "the Village Board's notice" (a possessive's "s" is none)
    ("Got the village's bill in the mail today for hauling away the junk they said was blocking the alley. When is "
     "it due?", "December 26, 2026"),
])
def test_a_bill_received_dates_the_period_that_counts_from_it(assistant, question, day, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-16")
    a = assistant.ask(question, "brandon")
    assert a.status == "answered" and f"**{day}**" in a.answer


def test_a_24_hour_time_after_an_at_sign_times_the_event(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-17")
    a = assistant.ask("Town Rd opening, start 1/12/27 @ 0700. Latest we can get written notice to the Highway "
                      "Commission?", "delafield")
    assert a.status == "answered" and "January 9, 2027 7:00 AM" in a.answer


@pytest.mark.parametrize("text, value, span", [
    ("start 1/12/27 @ 0700", "07:00", "0700"),
    ("we begin at 0630", "06:30", "0630"),
])
def test_a_24_hour_time_without_its_unit(text, value, span):
    assert _slots(text, "time") == [(value, None, span)]


@pytest.mark.parametrize("text", ["the fee is $1,200 @ 1200 feet", "at 1500 pounds", "we met at 1200"])
def test_a_number_after_at_is_no_time_unless_it_reads_as_one(text):
    assert _slots(text, "time") == []


@pytest.mark.parametrize("text, value, span", [
    ("a street paved 3 years and 2 months ago", "2023-10-17", "3 years and 2 months ago"),
    ("paved 4 years, 3 months ago", "2022-09-17", "4 years, 3 months ago"),
    ("it was paved 2 yrs ago", "2024-12-17", "2 yrs ago"),
])
def test_compound_and_abbreviated_ages(text, value, span):
    assert [(v, t) for v, _, t in _slots(text, "date")] == [(value, span)]


def test_abbreviated_durations():
    assert _slots("final paving age: 18 mos", "duration") == [("18", "months", "18 mos")]
    assert _slots("about 3 wks", "duration") == [("3", "weeks", "3 wks")]


def test_a_pavings_age_after_the_word_age(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-17")
    a = assistant.ask("permit fee = $225.00 / final paving age: 18 mos -> surcharge??", "brandon")
    assert a.status == "answered" and "$900.00" in a.answer and "“18 mos”" in a.answer


# -- a crew's time on the job -----------------------------------------------------------------------------------
@pytest.mark.parametrize("question, figure", [
    ("The village sent 2 employees who spent 3 hours clearing my corner lot; their rate with benefits is $42.50 an "
     "hour. What will the village charge me for the removal?", "$280.00"),
    ("The village sent a crew of three guys to clear the ice off my walk and they were at it for an hour and a half. "
     "Each of them costs forty dollars an hour with benefits. What's my bill?", "$205.00"),
])
def test_a_crews_time_and_rate_are_each_workers(assistant, question, figure):
    a = assistant.ask(question, "brandon")
    assert a.status == "answered" and f"**{figure}**" in a.answer and "for each of" in a.answer


def test_a_crews_total_hours_are_asked_about(assistant):
    a = assistant.ask("Two employees put in 6 hours in total clearing my walk at $40 an hour. What's the charge?",
                      "brandon")
    assert a.status == "clarify" and not a.tool_calls


# -- what sets a topic ------------------------------------------------------------------------------------------
def test_a_dog_in_the_story_of_a_heaved_slab_sets_no_topic(assistant):
    a = assistant.ask("One slab in front of my neighbor's place has heaved up, I nearly tripped walking my dog. "
                      "Can the village make them fix it?", "brandon")
    assert a.status == "answered"


def test_an_age_and_a_date_of_paving_compete_and_are_worked_out_per_street(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-17")
    a = assistant.ask("We have two street openings on one job, each with a $150 permit fee. Opening one is on a street "
                      "whose final paving is 8 months old; opening two is on a street paved 3 years and 2 months ago. "
                      "What surcharge applies to each?", "brandon")
    assert a.status == "answered" and "**$750.00**" in a.answer and "**$300.00**" in a.answer
    # told in one clause, the two compete: asked, never one of them taken
    a = assistant.ask("The final paving is 8 months old, or was it paved 3 years and 2 months ago? Permit fee $150. "
                      "What surcharge do we owe?", "brandon")
    assert a.status == "clarify" and not a.tool_calls


@pytest.mark.parametrize("question, asked", [
    # the bill is the actual cost: the deposit it settles against is asked for
    ("The Town paved the part of my driveway in the right-of-way and the bill came to $2,300. How much do I still owe "
     "them?", "the deposit"),
    ("I put down a $2,000 deposit for the Town to asphalt my apron. How much will I get back?", "the actual cost"),
])
def test_an_asphalt_settlement_with_one_amount_asks_for_the_other(assistant, question, asked):
    a = assistant.ask(question, "delafield")
    assert a.status == "clarify" and asked in a.answer and not a.tool_calls


def test_when_ones_own_permit_runs_out_asks_the_day_it_counts_from(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-17")
    a = assistant.ask("When does our street opening permit run out?", "brandon")
    assert a.status == "clarify" and "approved" in a.answer and a.citations[0].section == "404-6"
    a = assistant.ask("Our street opening permit was approved on May 3, 2027. When does it expire?", "brandon")
    assert a.status == "answered" and "**June 2, 2027**" in a.answer
    a = assistant.ask("When does a street privilege permit expire?", "brandon")  # the rule asked, not a day
    assert a.status == "answered" and "three months" in a.answer


def test_backing_a_vehicle_into_something_is_damage(assistant, monkeypatch):
    # "backed my truck into": words between the verb and "into" (the plain-word list's damage entry)
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-17")
    a = assistant.ask("I backed my truck into the curb and cracked it last Saturday, and I called the police right away. "
                      "How long do I have to get it fixed, what's the date?", "brandon")
    assert a.status == "answered" and "**December 22, 2026**" in a.answer
    a = assistant.ask("I backed my truck into a light pole on the village green, my fault. How long do I have to fix "
                      "the damage?", "brandon")
    assert a.citations[0].section == "404-18" and "10 days" in a.answer


def test_a_rise_over_a_run_is_a_slope_held_against_the_codes(assistant):
    a = assistant.ask("My new driveway climbs 5'6\" over a run of forty feet. What grade is that, and is it within what "
                      "the Town allows?", "delafield")
    assert a.status == "answered" and "13.75%" in a.answer and "1.75% more than 12%" in a.answer
    assert "divided by the run" in a.answer


@pytest.mark.parametrize("text, pct", [
    ("the apron drops 2 inches in 10 feet", "1.67"),
    ("it rises about 3 feet over a distance of 50 feet", "6"),
    ("a walk 5 feet wide over 40 feet long", None),  # no rise said: no slope
])
def test_rise_over_run(text, pct):
    from assistant.answering.limits import rise_over_run

    got = rise_over_run(text, read_slots(text, ref=THU))
    assert [s.value for s in got] == ([pct] if pct else [])


def test_by_what_day_asks_a_deadline(assistant, monkeypatch):
    # the business day before Monday, January 4, 2027: not New Year's Day, not New Year's Eve (a Wisconsin holiday
    # in the `holidays` data), not the weekend
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-17")
    a = assistant.ask("Work on a street opening begins Monday, January 4, 2027. By what day do we have to notify the "
                      "Village Clerk and the affected neighbors?", "brandon")
    assert a.status == "answered" and "**December 30, 2026**" in a.answer


def test_an_existing_pavements_depth_in_words_reaches_the_patch_calculator(assistant):
    a = assistant.ask("Concrete street, existing slab is about six inches thick. We're restoring the opening with "
                      "concrete. How far below the original surface do we stop the backfill, counting both crushed "
                      "stone layers and the pavement?", "brandon")
    assert a.status == "answered" and "**15 inches**" in a.answer and "“six inches”" in a.answer


@pytest.mark.parametrize("question", ["How much notice do I need to give before excavating in a town road?",
                                      "How much advance notice does the Town need before I dig in the road?"])
def test_how_much_notice_asks_a_period_not_an_amount(assistant, question):
    # (a fee left to the Town Board is no answer to it)
    a = assistant.ask(question, "delafield")
    assert a.status == "answered" and "48 hrs." in a.answer and a.citations[0].subsection == "(3)(e)"


def test_how_far_ahead_of_pipe_laying_asks_a_distance(assistant):
    a = assistant.ask("How far ahead of pipe laying may a trench be excavated, and how much may be left unfilled?",
                      "brandon")
    assert a.status == "answered" and "250 feet" in a.answer and "500 feet" in a.answer


def test_the_kind_of_figure_asked_is_read_in_the_codes_spelling(assistant):
    # "how much notise": a period, never an amount the Town Board sets (the application fee's deferral is no answer)
    a = assistant.ask("how much notise do i need to give befor excavating", "delafield")
    assert a.status == "answered" and "Town Board" not in a.answer.split("\n")[0]


def test_respelled():
    from assistant.retrieval.expansion import respelled

    assert respelled("how much notise do i need", "delafield") == "how much notice do i need"
    assert respelled("what is the fee for a permit", "delafield") == "what is the fee for a permit"
