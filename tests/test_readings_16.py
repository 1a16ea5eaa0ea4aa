"""Readings of session 16: a section named by number inside a question, a size given as dimensions, the price of a
named thing, a bill as the notice of charges, a crew's time on the job, abbreviated and compound durations, a
24-hour time after "@", a paving's age after "age:", and the public way's works as street words."""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering.assistant import Assistant
from assistant.answering.reading import read_slots
from assistant.retrieval.citations import SECTION_IN_TEXT
from assistant.settings import Settings

THU = date(2026, 12, 17)


@pytest.fixture(scope="module")
def assistant(tmp_path_factory):
    return Assistant.load(settings=Settings(data_dir=tmp_path_factory.mktemp("data")))


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
