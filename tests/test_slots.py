"""Slot filling from plain words: a day written without a year."""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering.slots import (
    dated_clause,
    dates_in,
    nearest_year,
    without_dates,
    yearless_dates,
)

TODAY = date(2026, 11, 30)


@pytest.mark.parametrize("month, day, read", [
    (3, 3, date(2027, 3, 3)),      # 93 days ahead, 272 behind
    (11, 20, date(2026, 11, 20)),  # 10 days ago
    (12, 24, date(2026, 12, 24)),  # 24 days ahead
    (7, 2, date(2026, 7, 2)),      # 151 days ago, 214 ahead
    (5, 31, date(2027, 5, 31)),    # 182 days ahead, 183 behind
])
def test_a_day_without_a_year_is_the_nearest_one(month, day, read):
    assert nearest_year(month, day, TODAY) == read


def test_a_tie_goes_to_the_coming_day():
    # March 1, 2027 to March 1, 2028 spans 366 days: August 31, 2027 is 183 days from each
    assert nearest_year(3, 1, date(2027, 8, 31)) == date(2028, 3, 1)


def test_february_29_without_a_leap_year_near_is_not_read():
    with pytest.raises(ValueError):
        nearest_year(2, 29, TODAY)
    assert yearless_dates("dug on February 29", TODAY) == []


def test_yearless_dates_say_what_was_written_and_how_it_is_read():
    text = "If I get my building permit on March 3, when is the number due? Paved June 7, 2019."
    assert yearless_dates(text, TODAY) == [("March 3", date(2027, 3, 3))]
    assert sorted(d for _, d in dates_in(text, TODAY)) == [date(2019, 6, 7), date(2027, 3, 3)]


def test_without_dates_blanks_dates_and_times_but_keeps_periods():
    # a date's numbers say when, not what: "May 30" must not meet a rule's "within 30 days"
    text = "We start on Tuesday, May 30, 2028 at 8:00 AM; the notice came March 3. It is 60 days."
    out = without_dates(text)
    assert "30" not in out and "2028" not in out and "8:00" not in out and "3." not in out
    assert "60 days" in out and "Tuesday" in out


@pytest.mark.parametrize("text, clause", [
    ("We start a street excavation on Tuesday, May 30, 2028. What is the latest day to notify the Village?",
     "We start a street excavation on Tuesday, May 30, 2028."),
    ("We dug on Apr. 5, 2027. When is the permit due?", "We dug on Apr. 5, 2027."),
    ("When is it due? The notice came on June 1, 2027; we want to know.", "The notice came on June 1, 2027;"),
    ("How long do I have?", "How long do I have?"),  # no date: the whole text
])
def test_the_dated_clause_names_the_event(text, clause):
    assert dated_clause(text) == clause
